"""The one tolerance: how close a decimal answer must be, and how the grader says so.

Every comparison (:mod:`grader.compare`, :mod:`grader.fast`) and every sentence that states the
rule (the feedback, ``grader show``, the site) derive from these constants, so changing one
changes what is checked and what students are told together. Standard library only.
"""
from __future__ import annotations

from fractions import Fraction

RELATIVE = Fraction(5, 1000)    # a decimal within 0.5 % of the exact value is accepted
ABSOLUTE = Fraction(5, 10000)   # ... or within this of 0 when the exact value is 0
SIGNIFICANT_FIGURES = 3         # what 0.5 % means to a student: three significant figures
CLOSE_FACTOR = 20               # a decimal this many tolerances away is "imprecise", not wrong


def message_params(lang: str) -> dict[str, str]:
    """The rule's numbers as the messages show them: ``{tolerance}``, ``{absolute}``, ``{digits}``."""
    from .numbers import format_number, format_percent
    return {"tolerance": format_percent(RELATIVE, lang), "absolute": format_number(ABSOLUTE, lang),
            "digits": str(SIGNIFICANT_FIGURES)}
