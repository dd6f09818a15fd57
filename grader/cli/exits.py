"""The ``grader`` command's exit codes, one home for the commands and the Gradescope runner."""

OK, NOT_CORRECT, UNUSABLE, INTERNAL = 0, 1, 2, 3   # all correct; something not; unusable input; a bug
UNDECIDED = 4     # a check ran past the time limit: not decided (no verdict), try again
