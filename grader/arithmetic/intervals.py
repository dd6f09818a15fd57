"""Numbers without SymPy: exact fractions, and other real numbers inside a proven interval.

A variant's references and named mistakes are computed by the exercise modules' formulas
(:mod:`grader.model.geometry`) from the data its seed draws. With SymPy that takes tens of
milliseconds per exercise and seed; with these numbers, a fraction of one. A rational value
stays exact (:class:`fractions.Fraction`); a square root or an exponential that is not rational
is an :class:`Approx`: two decimals ``lo <= x <= hi``, about :data:`PRECISION` digits apart,
that every operation keeps proven (its bounds are rounded outward).

A question the interval cannot answer for certain (is this 0? which of two is larger?)
raises :class:`Undecided`, and the caller asks SymPy (exact arithmetic) instead: these numbers
never decide anything other than what SymPy would. Standard library only.
"""
from __future__ import annotations

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from functools import lru_cache

PRECISION = 80      # digits carried: what the fast path's 60-digit references need, and more
_DOWN = Context(prec=PRECISION, rounding=ROUND_FLOOR, Emax=10**6, Emin=-10**6)
_UP = Context(prec=PRECISION, rounding=ROUND_CEILING, Emax=10**6, Emin=-10**6)
_NEAR = Context(prec=PRECISION, Emax=10**6, Emin=-10**6)   # sqrt and exp round correctly in it


class Undecided(ArithmeticError):
    """The interval cannot decide this: ask SymPy."""


def _bounds(x) -> tuple[Decimal, Decimal] | None:
    """The interval of an Approx, an int or a Fraction; None for anything else."""
    if isinstance(x, Approx):
        return x.lo, x.hi
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        d = Decimal(x)
        return _DOWN.plus(d), _UP.plus(d)
    if isinstance(x, Fraction):
        p, q = Decimal(x.numerator), Decimal(x.denominator)
        return _DOWN.divide(p, q), _UP.divide(p, q)
    return None


class Approx:
    """A real number known to lie in ``[lo, hi]`` (decimals). Arithmetic with ints, Fractions
    and other Approx values gives proven intervals; comparisons decide or raise Undecided."""

    __slots__ = ("lo", "hi", "_mid", "_digits", "exact")

    def __init__(self, lo: Decimal, hi: Decimal, exact=None):
        self.lo, self.hi = lo, hi
        self._mid = self._digits = None
        self.exact = exact      # a function giving the same number in SymPy, when one is known

    # --- arithmetic ---------------------------------------------------------------------
    def __add__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        return Approx(_DOWN.add(self.lo, b[0]), _UP.add(self.hi, b[1]))

    __radd__ = __add__

    def __neg__(self):
        return Approx(-self.hi, -self.lo)

    def __pos__(self):
        return self

    def __sub__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        return Approx(_DOWN.subtract(self.lo, b[1]), _UP.subtract(self.hi, b[0]))

    def __rsub__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        return Approx(_DOWN.subtract(b[0], self.hi), _UP.subtract(b[1], self.lo))

    def __mul__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        if b == _ZERO:
            return Fraction(0)          # exactly 0, as SymPy has it
        return _product((self.lo, self.hi), b)

    __rmul__ = __mul__

    def __truediv__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        return _product((self.lo, self.hi), _inverse(b))

    def __rtruediv__(self, other):
        b = _bounds(other)
        if b is None:
            return NotImplemented
        inverse = _inverse((self.lo, self.hi))
        return Fraction(0) if b == _ZERO else _product(b, inverse)

    def __pow__(self, n):
        if not isinstance(n, int) or isinstance(n, bool):
            return NotImplemented
        if n < 0:
            return 1 / self ** -n
        result = Fraction(1)
        for _ in range(n):
            result = self * result
        return result

    def __abs__(self):
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Approx(Decimal(0), max(-self.lo, self.hi))

    # --- comparisons: decided, or Undecided ----------------------------------------------
    def _compare(self, other) -> int | None:
        """-1 or 1 when the intervals are apart; 0 for the very same interval (the same
        computation on the same numbers, as SymPy's identical expressions); None for a value that
        is not a number here."""
        b = _bounds(other)
        if b is None:
            return None
        if self.hi < b[0]:
            return -1
        if self.lo > b[1]:
            return 1
        if isinstance(other, Approx) and (self.lo, self.hi) == b:
            return 0
        raise Undecided(f"{self!r} against {other!r}")

    def __eq__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c == 0

    def __ne__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c != 0

    def __lt__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other):
        c = self._compare(other)
        return NotImplemented if c is None else c >= 0

    def __hash__(self):
        return hash((self.lo, self.hi))

    def __bool__(self):
        return self != 0

    # --- reading it -------------------------------------------------------------------------
    def mid(self) -> Decimal:
        if self._mid is None:
            self._mid = _NEAR.divide(_NEAR.add(self.lo, self.hi), 2)
        return self._mid

    def __float__(self):
        return float(self.mid())

    def decimal(self, digits: int) -> Decimal:
        """Its value to ``digits`` significant digits and better; Undecided when the interval is
        wider than that (near 0 it always is: only exact arithmetic tells 0 from tiny)."""
        if self._digits is None:          # the digits the interval vouches for, with 5 to spare
            width, size = _UP.subtract(self.hi, self.lo), abs(self.mid())
            self._digits = -1 if size == 0 else (size.adjusted() - width.adjusted() - 6 if width else PRECISION)
        if digits > self._digits:
            raise Undecided(f"{self!r} to {digits} digits")
        return self.mid()

    def __repr__(self):
        return f"Approx({_NEAR.plus(self.mid()).normalize(Context(prec=20))})"


_ZERO = (Decimal(0), Decimal(0))


def _product(a: tuple[Decimal, Decimal], b: tuple[Decimal, Decimal]) -> Approx:
    ends = [(x, y) for x in a for y in b]
    return Approx(min(_DOWN.multiply(x, y) for x, y in ends), max(_UP.multiply(x, y) for x, y in ends))


def _inverse(b: tuple[Decimal, Decimal]) -> tuple[Decimal, Decimal]:
    lo, hi = b
    if lo <= 0 <= hi:
        if lo == hi:
            raise ZeroDivisionError("division by zero")
        raise Undecided("division by an interval that holds 0")
    return _DOWN.divide(1, hi), _UP.divide(1, lo)


@lru_cache(maxsize=4096)
def sqrt(x):
    """The square root: a Fraction when it is rational, else an Approx."""
    if isinstance(x, Approx):
        if x.hi < 0:
            raise ValueError("square root of a negative number")
        if x.lo < 0:
            raise Undecided("square root of an interval that holds 0")
        return Approx(_NEAR.sqrt(x.lo).next_minus(_DOWN), _NEAR.sqrt(x.hi).next_plus(_UP))
    q = Fraction(x)
    if q < 0:
        raise ValueError("square root of a negative number")
    p, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    if p * p == q.numerator and d * d == q.denominator:
        return Fraction(p, d)
    lo, hi = _bounds(q)
    return Approx(_NEAR.sqrt(lo).next_minus(_DOWN), _NEAR.sqrt(hi).next_plus(_UP))


@lru_cache(maxsize=4096)
def exp(x):
    """e**x: 1 for x = 0 (the only rational x with a rational exponential), else an Approx."""
    if not isinstance(x, Approx) and x == 0:
        return Fraction(1)
    lo, hi = _bounds(x if isinstance(x, Approx) else Fraction(x))
    return Approx(_NEAR.exp(lo).next_minus(_DOWN), _NEAR.exp(hi).next_plus(_UP))


def is_number(x) -> bool:
    """Is ``x`` one of these numbers (an int, a Fraction, an Approx), not a SymPy value?"""
    return isinstance(x, (int, Fraction, Approx)) and not isinstance(x, bool)
