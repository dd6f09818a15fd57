import sys

from grader.bank import catalog_needs  # the command, at the top: it checks the exercises' keys too
from grader.languages.audit import main

sys.exit(main(needed=catalog_needs()))
