"""`python -m hooks.translations [LOCALE ...] [--stamp [FILE ...]]`: the translators' report (report.py)."""

import sys

from hooks.translations.report import main

sys.exit(main())
