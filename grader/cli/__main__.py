"""``python -m grader.cli``: the ``grader`` command."""
from grader.cli.main import run

run()
