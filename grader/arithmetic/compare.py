"""Pure comparators: a student's SymPy value against a reference.

The rules (:mod:`grader.arithmetic.tolerance` holds the numbers; the README states them):

* A **whole-number** entry (a part or a vector entry of kind ``integer``) must equal the reference
  exactly, whatever form it comes in (``15``, ``30/2``, ``15.0``, ``sqrt(225)``).
* A **number** in any other entry, typed as a decimal, a fraction or arithmetic on them (its value is
  rational), is accepted within the tolerance: ``|a - r| <= RELATIVE * |r|``, or ``|a| <= ABSOLUTE``
  when the reference is 0. Decimals are read exactly, so the boundary is exact: the same value gets
  the same verdict whatever form it comes in. An exact form that holds a decimal (``2.718^(1/2)``)
  is a number too.
* An **exact form** (roots, exp, log, pi...) must equal the reference: SymPy proves it; when it
  cannot, the difference is evaluated at a precision the expression justifies (enough to see a
  perturbation like ``cos(10**(-999))``). A difference found: not equal. None found and no proof:
  ``undecided``, never correct.

Comparisons against an irrational reference are decided at rising precision until the answer is
clearly on one side of the boundary.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import sympy

from grader.arithmetic import tolerance
from grader.arithmetic.intervals import Approx, Undecided

RELATIVE_TOLERANCE = sympy.Rational(tolerance.RELATIVE.numerator, tolerance.RELATIVE.denominator)
ABSOLUTE_TOLERANCE = sympy.Rational(tolerance.ABSOLUTE.numerator, tolerance.ABSOLUTE.denominator)
CLOSE_FACTOR = tolerance.CLOSE_FACTOR
DIGITS = 50                      # a first look: enough to tell almost every wrong answer at once
PRECISIONS = (30, 100, 400, 1600)   # digits tried in turn to place an answer against the boundary
MAX_PROOF_DIGITS = 6000          # the most digits a difference is evaluated with when SymPy cannot prove it
_RELATIVE = Decimal(tolerance.RELATIVE.numerator) / Decimal(tolerance.RELATIVE.denominator)
_ABSOLUTE = Decimal(tolerance.ABSOLUTE.numerator) / Decimal(tolerance.ABSOLUTE.denominator)


@dataclass(frozen=True)
class Verdict:
    equal: bool
    note: str = ""     # '', 'decimal-imprecise', 'undecided', 'not-a-real-number', 'too-large'


class TooLarge(ArithmeticError):
    """A finite number too large to evaluate (say exp(exp(exp(exp(10)))))."""


# --- numbers: SymPy values, and plain ones (ints, Fractions, grader.arithmetic.intervals.Approx) ----------
#
# A value here is a SymPy expression (an answer, a lesson's reference), or a plain number (a
# variant's reference or named mistake, computed by grader.arithmetic.intervals). The rules below read each
# value as an exact fraction when it is rational, else as a decimal at the precision they need.
# An Approx that cannot give that precision, or that a proof would need, raises Undecided: the
# caller then judges against the variant's SymPy references, so the verdict is SymPy's.

def rational(value) -> Fraction | None:
    """The exact value of a rational number (an int, a Fraction, a SymPy Rational); else None."""
    kind = type(value)
    if kind is Fraction:
        return value
    if kind is int:
        return Fraction(value)
    if kind is Approx:
        return None
    if getattr(value, "is_Rational", False):
        return _fraction(value)
    return None


@lru_cache(maxsize=16384)
def _fraction(value: sympy.Rational) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def numeric(expr: sympy.Expr, digits: int = DIGITS) -> sympy.Float | None:
    """A real Float for ``expr``, or None when it is not a finite real number.

    Raises :class:`TooLarge` when the number overflows the evaluation. Memoized, the overflow
    too: references, mistakes and a class's answers are evaluated again and again."""
    value = _evaluated(expr, digits)
    if value is TooLarge:
        raise TooLarge(str(expr)[:40])
    return value


@lru_cache(maxsize=16384)
def _evaluated(expr: sympy.Expr, digits: int):
    try:
        value = sympy.N(expr, digits)
    except OverflowError:
        return TooLarge
    except (TypeError, ValueError, ArithmeticError):
        return None
    if not isinstance(value, sympy.Float) and not value.is_Integer and not value.is_Rational:
        return None
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    return sympy.Float(value, digits)


# exponents a comparison may meet (answers' are limited to 1000); within what `decimal` allows on a
# 32-bit build too (wasm32, where the in-page checker runs: MAX_EMAX is 425000000 there)
EXPONENT_RANGE = 10**8


@lru_cache(maxsize=4)
def _context(digits: int) -> Context:
    return Context(prec=digits + 10, Emax=EXPONENT_RANGE, Emin=-EXPONENT_RANGE)


@lru_cache(maxsize=16384)
def _sympy_decimal(expr: sympy.Expr, digits: int) -> Decimal | None:
    value = numeric(expr, digits)
    return None if value is None else Decimal(str(value))


def _decimal(value, digits: int) -> Decimal | None:
    """``value`` to ``digits`` significant digits (or better) as a Decimal; None when it is not a
    finite real number. Raises TooLarge, and Undecided for an Approx that cannot say."""
    if type(value) is Approx:
        return value.decimal(digits)
    exact = rational(value)
    if exact is not None:
        return _fraction_decimal(exact, digits)
    return _sympy_decimal(value, digits)


@lru_cache(maxsize=16384)
def _fraction_decimal(value: Fraction, digits: int) -> Decimal:
    return _context(digits).divide(Decimal(value.numerator), Decimal(value.denominator))


def _is_zero(value) -> bool:
    if type(value) is Approx:
        if value.lo > 0 or value.hi < 0:
            return False
        raise Undecided(f"is {value!r} 0?")
    exact = rational(value)
    return exact == 0 if exact is not None else value == 0


@lru_cache(maxsize=16384)
def _has_float(expr: sympy.Expr) -> bool:
    return bool(expr.has(sympy.Float))


def is_decimal(expr) -> bool:
    """Does the expression hold a decimal read as a float (an answer built by hand in a test)?"""
    return isinstance(expr, sympy.Basic) and _has_float(expr)


def is_number(expr, decimal: bool = False) -> bool:
    """A number judged within the tolerance: a rational value, or any value typed with a decimal."""
    return bool(decimal or rational(expr) is not None or is_decimal(expr))


def _sympy(value) -> sympy.Expr:
    """Python integers and Fractions (a test's points, a bank's counts) as SymPy numbers."""
    if isinstance(value, sympy.Basic):
        return value
    exact = rational(value)
    if exact is None:
        raise Undecided(f"{value!r} has no exact form here")
    return sympy.Rational(exact.numerator, exact.denominator)


def bound(reference) -> sympy.Expr:
    """How far an accepted number may be from ``reference``."""
    return ABSOLUTE_TOLERANCE if _is_zero(reference) else RELATIVE_TOLERANCE * abs(_sympy(reference))


def _within_exact(answer: Fraction, reference: Fraction, factor) -> bool:
    """|answer - reference| <= factor * bound(reference), in integers (it runs very often)."""
    a, b, p, q = answer.numerator, answer.denominator, reference.numerator, reference.denominator
    gap = abs(a * q - p * b)                    # |answer - reference| = gap / (b q)
    if p == 0:
        return gap * _ABS_Q <= factor * _ABS_P * b * q
    return gap * _REL_Q <= factor * _REL_P * abs(p) * b


_REL_P, _REL_Q = tolerance.RELATIVE.numerator, tolerance.RELATIVE.denominator
_ABS_P, _ABS_Q = tolerance.ABSOLUTE.numerator, tolerance.ABSOLUTE.denominator
_ERROR = {digits: Decimal(10) ** (10 - digits) for digits in PRECISIONS}


def within(answer, reference, factor=1) -> bool | None:
    """Is ``|answer - reference| <= factor * bound(reference)``? Exact for two rationals; otherwise
    decided at rising precision (None: still on the boundary at the highest precision, which two
    different numbers never are)."""
    a_exact, r_exact = rational(answer), rational(reference)
    if a_exact is not None and r_exact is not None:
        return _within_exact(a_exact, r_exact, factor)
    zero = _is_zero(reference)
    for digits in PRECISIONS:
        a, r = _decimal(answer, digits), _decimal(reference, digits)
        if a is None or r is None:
            return None
        with localcontext(_context(digits)):
            limit = factor * (_ABSOLUTE if zero else _RELATIVE * abs(r))
            margin = limit - abs(a - r)
            error = _ERROR[digits] * (abs(a) + abs(r) + 1)
            if margin > error:
                return True
            if margin < -error:
                return False
    return None


def distance(answer, value) -> float:
    """How far apart two numbers are, to rank which of two targets an answer is nearer to."""
    a, v = _decimal(answer, 30), _decimal(value, 30)
    if a is None or v is None:
        return math.inf
    with localcontext(_context(30)):
        return float(abs(a - v))


def compare_scalar(answer, reference, *, exact: bool = False, decimal: bool = False) -> Verdict:
    """Is ``answer`` the number ``reference``? ``exact``: a whole-number entry (no tolerance);
    ``decimal``: the student typed a decimal in it."""
    a_exact, r_exact = rational(answer), rational(reference)
    if a_exact is not None and r_exact is not None:      # two rationals: exact, at once
        if exact:
            return Verdict(a_exact == r_exact)
        if _within_exact(a_exact, r_exact, 1):
            return Verdict(True)
        return Verdict(False, "decimal-imprecise" if _within_exact(a_exact, r_exact, CLOSE_FACTOR) else "")
    try:
        a = _decimal(answer, DIGITS)
    except TooLarge:
        return Verdict(False, "too-large")
    if a is None:
        return Verdict(False, "not-a-real-number")
    if _decimal(reference, DIGITS) is None:
        raise ValueError(f"reference {reference} is not a real number")
    if is_number(answer, decimal) and not exact:
        decided = within(answer, reference)
        if decided:
            return Verdict(True)
        close = within(answer, reference, CLOSE_FACTOR)
        return Verdict(False, "decimal-imprecise" if close else "undecided" if decided is None else "")
    return prove_equal(answer, reference)


def prove_equal(answer, reference) -> Verdict:
    """Exact equality: a clear numeric difference says no at once; then SymPy tries to prove it; then
    the difference is evaluated with as many digits as the expression justifies."""
    a_exact, r_exact = rational(answer), rational(reference)
    if a_exact is not None and r_exact is not None:
        return Verdict(a_exact == r_exact)
    try:
        a, r = _decimal(answer, DIGITS), _decimal(reference, DIGITS)
    except TooLarge:
        return Verdict(False, "too-large")
    if a is not None and r is not None:
        with localcontext(_context(DIGITS)):
            if abs(a - r) > Decimal("1e-40") * max(abs(r), 1):
                return Verdict(False)
    return _proved(_sympy(answer), _sympy(reference))      # an Approx: Undecided


@lru_cache(maxsize=4096)
def _proved(answer: sympy.Expr, reference: sympy.Expr) -> Verdict:
    """SymPy's proof, memoized: a class on variants gives the same exact form against the same
    reference (the variants that draw the same data) again and again."""
    difference = answer - reference
    try:
        numerator = sympy.together(difference).as_numer_denom()[0]
        if sympy.expand(sympy.powsimp(sympy.expand(numerator))) == 0 or sympy.simplify(difference) == 0:
            return Verdict(True)
        decided = answer.equals(reference)
    except (TypeError, ValueError, ArithmeticError, NotImplementedError, RecursionError):
        decided = None
    if decided is True:
        return Verdict(True)
    if decided is False:
        return Verdict(False)
    try:
        found = difference.evalf(15, maxn=justified_digits(difference), strict=True)
    except sympy.core.evalf.PrecisionExhausted:
        return Verdict(False, "undecided")
    except (TypeError, ValueError, ArithmeticError):
        return Verdict(False, "undecided")
    return Verdict(False) if found != 0 else Verdict(False, "undecided")


def justified_digits(expr: sympy.Expr) -> int:
    """Digits enough to see the smallest difference the expression's numbers can make: a number
    written with d digits (10**(-999) has 1000) can shift the value in its d-th digit, and a
    function can square that (1 - cos(x) ~ x^2/2)."""
    sizes = [1]
    for atom in expr.atoms(sympy.Rational):
        sizes.append(len(str(abs(atom.p))) + len(str(atom.q)))
    for power in expr.atoms(sympy.Pow):
        if power.exp.is_Integer:
            base = power.base
            if base.is_Rational:
                sizes.append(int(abs(power.exp)) * (len(str(abs(base.p))) + len(str(base.q))))
    return min(MAX_PROOF_DIGITS, 60 + 3 * max(sizes))


def compare_vector(answer: Sequence, reference: Sequence, *, exact: bool = False,
                   decimals: Sequence[bool] | None = None) -> tuple[Verdict, ...]:
    """Component-wise verdicts (same length required by the caller)."""
    decimals = decimals or [False] * len(reference)
    return tuple(compare_scalar(a, r, exact=exact, decimal=d)
                 for a, r, d in zip(answer, reference, decimals, strict=True))


def same_point(a: Sequence, b: Sequence) -> bool:
    return len(a) == len(b) and all(v.equal for v in compare_vector(a, b))


@dataclass(frozen=True)
class SetMatch:
    matched: tuple[int, ...]      # indices of student points equal to a reference point
    duplicates: tuple[int, ...]   # indices repeating an earlier student point
    unmatched: tuple[int, ...]    # indices of student points matching no reference point
    missing: int                  # reference points nobody gave


def match_points(answer: Sequence[Sequence], reference: Sequence[Sequence]) -> SetMatch:
    """Match student points to reference points, in any order."""
    free = list(range(len(reference)))
    matched, duplicates, unmatched = [], [], []
    for i, point in enumerate(answer):
        if any(same_point(point, answer[j]) for j in range(i)):
            duplicates.append(i)
            continue
        hit = next((k for k in free if same_point(point, reference[k])), None)
        if hit is None:
            unmatched.append(i)
        else:
            free.remove(hit)
            matched.append(i)
    return SetMatch(tuple(matched), tuple(duplicates), tuple(unmatched), len(free))
