"""The course's exercise grader.

Stages, one module each: :mod:`grader.bank` (exercises, data, exact reference
answers, from :mod:`grader.model.geometry`; seeded variants from :mod:`grader.model.variants`,
drawn from :mod:`grader.model.seeds`), :mod:`grader.reading.parse` (safe answer parsing),
:mod:`grader.arithmetic.compare` (exact and tolerant comparison), :mod:`grader.judging.feedback`
(named mistakes), :mod:`grader.judging.check` (one part or a submission, under
:mod:`grader.judging.limits`; its results and their words in :mod:`grader.judging.outcome`),
:mod:`grader.judging.table` (a plain number, without SymPy), :mod:`grader.languages.messages`
(wording per locale, from the gettext catalogs in ``grader/locale``),
:mod:`grader.grading.submission` (reading files), :mod:`grader.grading.batch` (a class's folder,
resumable, on the long-lived workers of :mod:`grader.grading.pool`), :mod:`grader.cli.output`
(text/JSON/Gradescope) and :mod:`grader.cli.main` (the command; its argparse words
from :mod:`grader.cli.argtext`), with :mod:`grader.cli.autograder` (the Gradescope zip) and
:mod:`grader.cli.gradescope` (what the zip's run_autograder runs).
"""
