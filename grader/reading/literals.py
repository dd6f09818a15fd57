"""What a number typed in an answer stands for, and how large a power may be built exactly."""
from __future__ import annotations

import operator
from fractions import Fraction
from functools import lru_cache

MAX_EXPONENT = 1000       # largest |numeric exponent| accepted
MAX_POWER_BITS = 200_000  # bits in an exact power before it is "too large"
# the four operations a tree's nodes name, for fractions and SymPy values alike (powers are checked first)
ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


@lru_cache(maxsize=4096)
def literal_value(node: tuple) -> Fraction:
    """The number a literal stands for, exactly: ``0.3015`` is 603/2000, ``1.5e-4`` 3/20000."""
    digits, exponent = node[1], node[2]
    value = Fraction(digits) if digits not in (".", "") else Fraction(0)
    return value * Fraction(10) ** int(exponent) if exponent else value
