import sys

from grader.languages.audit import main

sys.exit(main())
