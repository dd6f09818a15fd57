import sys

from .audit import main

sys.exit(main())
