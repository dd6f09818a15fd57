"""A read answer's tree as a SymPy expression, built by hand node by node: no text is parsed here."""
from __future__ import annotations

from functools import lru_cache

import sympy

from grader.reading.errors import fail
from grader.reading.literals import ARITHMETIC, MAX_EXPONENT, MAX_POWER_BITS, literal_value

FUNCTIONS = {"sqrt": sympy.sqrt, "exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos,
             "acos": sympy.acos, "asin": sympy.asin, "atan": sympy.atan}
NAMES = {"pi": sympy.pi, "e": sympy.E}


@lru_cache(maxsize=8192)
def build(node: tuple) -> sympy.Expr:
    """The tree of :func:`grader.reading.parse.read` as a SymPy expression."""
    kind = node[0]
    if kind == "num":
        exact = literal_value(node)
        return sympy.Integer(exact.numerator) if exact.denominator == 1 else sympy.Rational(exact.numerator, exact.denominator)
    if kind == "name":
        return NAMES[node[1]]
    if kind == "call":
        return FUNCTIONS[node[1]](build(node[2]))
    if kind == "neg":
        return -build(node[1])
    a, b = build(node[1]), build(node[2])
    if kind in ARITHMETIC:
        return ARITHMETIC[kind](a, b)
    _check_power(a, b)
    return a ** b


def _check_power(base: sympy.Expr, exponent: sympy.Expr) -> None:
    """A power whose exponent only SymPy finds to be a number (``9**sqrt(10**10)``): too large to
    build exactly is refused, as the reader refuses one it can see."""
    if not exponent.is_Number or exponent is sympy.nan:      # 2^(0/0) is NaN: not a real number, said so
        return
    if base.is_Number and base in (sympy.S.Zero, sympy.S.One, sympy.S.NegativeOne):
        return
    if abs(exponent) > MAX_EXPONENT:
        raise fail("too-large", 0)
    if base.is_Rational:
        bits = max(int(base.p).bit_length(), int(base.q).bit_length())
        if bits * abs(exponent) > MAX_POWER_BITS:
            raise fail("too-large", 0)
