"""The one tolerance: how close a decimal answer must be, and how the grader says so.

Every comparison (:mod:`grader.arithmetic.compare`, :mod:`grader.judging.table`) and every sentence that states the
rule (the feedback, ``grader show``, the site: :func:`grader.languages.messages.rule_params`) derive from these constants, so changing one
changes what is checked and what students are told together. Standard library only.
"""
from __future__ import annotations

from fractions import Fraction

RELATIVE = Fraction(5, 1000)    # a decimal within 0.5 % of the exact value is accepted
ABSOLUTE = Fraction(5, 10000)   # ... or within this of 0 when the exact value is 0
SIGNIFICANT_FIGURES = 3         # what 0.5 % means to a student: three significant figures
CLOSE_FACTOR = 20               # a decimal this many tolerances away is "imprecise", not wrong
