"""Grading submissions: reading a submission file, the entries of a class folder, the batch run on
long-lived workers, and the results it keeps (results.jsonl, grades.csv)."""
