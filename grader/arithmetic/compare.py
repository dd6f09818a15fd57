"""How two numbers compare, whatever kind they are: an int or a Fraction (exact), an
:class:`~grader.arithmetic.intervals.Approx` (a proven interval) or a SymPy expression.

Two questions, and the one tolerance (:mod:`grader.arithmetic.tolerance`):

* **within**: is ``|a - r| <= factor * RELATIVE * |r|`` (or ``<= factor * ABSOLUTE`` when ``r`` is 0)?
  Exact for two rationals; otherwise decided at rising precision until the answer is clearly on one
  side of the boundary.
* **equal**: are they the very same number? Exact for two rationals; otherwise a clear numeric
  difference says no at once, then SymPy tries to prove it, then the difference is evaluated with as
  many digits as the expression justifies (enough to see ``3/10*cos(10**(-999))`` is not 3/10). No
  proof and no difference found: ``undecided``, never equal.

and which of two numbers an answer is **nearer**, decided exactly too. Which question an entry of an
answer is asked (a whole number or an exact form must be equal; a number within the tolerance) is the
judge's rule (:mod:`grader.judging.rules`); here are only numbers.

An Approx that cannot answer for certain raises :class:`~grader.arithmetic.intervals.Undecided`: the
caller then asks again with the same values in SymPy. SymPy is imported only when a value needs it:
two fractions, or a fraction and an interval, are compared without it.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from grader.arithmetic import tolerance
from grader.arithmetic.intervals import Approx, Undecided

CLOSE_FACTOR = tolerance.CLOSE_FACTOR
DIGITS = 50                      # a first look: enough to tell almost every wrong answer at once
PRECISIONS = (30, 100, 400, 1600)   # digits tried in turn to place an answer against the boundary
MAX_PROOF_DIGITS = 6000          # the most digits a difference is evaluated with when SymPy cannot prove it
# a number whose decimal exponent is beyond this (exp(exp(20)), exp(-exp(100))) is too large to check
MAX_MAGNITUDE = 10**6
_RELATIVE = Decimal(tolerance.RELATIVE.numerator) / Decimal(tolerance.RELATIVE.denominator)
_ABSOLUTE = Decimal(tolerance.ABSOLUTE.numerator) / Decimal(tolerance.ABSOLUTE.denominator)


@dataclass(frozen=True)
class Verdict:
    equal: bool
    note: str = ""     # '', 'decimal-imprecise', 'undecided', 'not-a-real-number', 'too-large'


class TooLarge(ArithmeticError):
    """A finite number too large (or too near 0) to evaluate, say exp(exp(exp(exp(10))))."""


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
def _fraction(value) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def evaluated(expr, digits: int = DIGITS):
    """A real SymPy Float for ``expr`` to ``digits`` digits, or None when it is not a finite real number.

    Raises :class:`TooLarge` when the number overflows the evaluation or lies beyond
    :data:`MAX_MAGNITUDE` either way. Memoized, the overflow too: references, mistakes and a class's
    answers are evaluated again and again."""
    value = _evaluated(expr, digits)
    if value is TooLarge:
        raise TooLarge(str(expr)[:40])
    return value


@lru_cache(maxsize=16384)
def _evaluated(expr, digits: int):
    import sympy
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
    value = sympy.Float(value, digits)
    _, mantissa, exponent, bits = value._mpf_
    if mantissa and abs(exponent + bits) > MAX_MAGNITUDE * 3.33:     # binary digits: 10**6 decimal
        return TooLarge
    return value


# exponents a comparison may meet; within what `decimal` allows on a 32-bit build too (wasm32, where
# the in-page checker runs: MAX_EMAX is 425000000 there)
EXPONENT_RANGE = 10**8


@lru_cache(maxsize=4)
def _context(digits: int) -> Context:
    return Context(prec=digits + 10, Emax=EXPONENT_RANGE, Emin=-EXPONENT_RANGE)


@lru_cache(maxsize=16384)
def _sympy_decimal(expr, digits: int) -> Decimal | None:
    value = evaluated(expr, digits)
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


def as_sympy(value):
    """A value as a SymPy number: an Approx by the exact form it was made from (an interval alone has
    none: Undecided)."""
    import sympy
    if isinstance(value, sympy.Basic):
        return value
    if type(value) is Approx:
        if value.exact is None:
            raise Undecided(f"{value!r} has no exact form here")
        return value.exact()
    exact = rational(value)
    return sympy.Rational(exact.numerator, exact.denominator)


def bound(reference):
    """How far an accepted number may be from ``reference`` (a SymPy number)."""
    import sympy
    if _is_zero(reference):
        return sympy.Rational(tolerance.ABSOLUTE.numerator, tolerance.ABSOLUTE.denominator)
    return sympy.Rational(tolerance.RELATIVE.numerator, tolerance.RELATIVE.denominator) * abs(as_sympy(reference))


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
    different numbers never are). Raises TooLarge."""
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


def is_real(value) -> bool:
    """Has ``value`` a finite real value? (0/0, 1/0, sqrt(-1) and log(0) have none.)"""
    if rational(value) is not None:
        return True
    try:
        return _decimal(value, DIGITS) is not None
    except TooLarge:
        return True


def compare_scalar(answer, reference, *, exact: bool = False) -> Verdict:
    """Is ``answer`` the number ``reference``? ``exact``: it must be the very number (a whole-number
    entry, or an entry written as an exact form); else it must be within the tolerance (a number), and
    the note says when it is close (``decimal-imprecise``). A reference must be a real number."""
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
    if exact:
        return prove_equal(answer, reference)
    try:
        decided = within(answer, reference)
        if decided:
            return Verdict(True)
        close = within(answer, reference, CLOSE_FACTOR)
    except TooLarge:
        return Verdict(False, "too-large")
    return Verdict(False, "decimal-imprecise" if close else "undecided" if decided is None else "")


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
    return _proved(as_sympy(answer), as_sympy(reference))      # an Approx without its form: Undecided


@lru_cache(maxsize=4096)
def _proved(answer, reference) -> Verdict:
    """SymPy's proof, memoized: a class on variants gives the same exact form against the same
    reference (the variants that draw the same data) again and again."""
    import sympy
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


def justified_digits(expr) -> int:
    """Digits enough to see the smallest difference the expression's numbers can make: a number
    written with d digits (10**(-999) has 1000) can shift the value in its d-th digit, and a
    function can square that (1 - cos(x) ~ x^2/2)."""
    import sympy
    sizes = [1]
    for atom in expr.atoms(sympy.Rational):
        sizes.append(len(str(abs(atom.p))) + len(str(atom.q)))
    for power in expr.atoms(sympy.Pow):
        if power.exp.is_Integer:
            base = power.base
            if base.is_Rational:
                sizes.append(int(abs(power.exp)) * (len(str(abs(base.p))) + len(str(base.q))))
    return min(MAX_PROOF_DIGITS, 60 + 3 * max(sizes))


def _flags(exact, n: int) -> Sequence[bool]:
    return (exact,) * n if isinstance(exact, bool) else exact


def compare_vector(answer: Sequence, reference: Sequence, *, exact: bool | Sequence[bool] = False) -> tuple[Verdict, ...]:
    """Component-wise verdicts (same length required by the caller); ``exact`` for all or per component."""
    return tuple(compare_scalar(a, r, exact=e)
                 for a, r, e in zip(answer, reference, _flags(exact, len(answer)), strict=True))


def same_point(a: Sequence, b: Sequence, exact: bool | Sequence[bool] = False) -> bool:
    return len(a) == len(b) and all(v.equal for v in compare_vector(a, b, exact=exact))


@dataclass(frozen=True)
class SetMatch:
    matched: tuple[int, ...]      # indices of student points equal to a reference point
    duplicates: tuple[int, ...]   # indices repeating an earlier student point
    unmatched: tuple[int, ...]    # indices of student points matching no reference point
    missing: int                  # reference points nobody gave


def match_points(answer: Sequence[Sequence], reference: Sequence[Sequence],
                 exact: Sequence[Sequence[bool]] | None = None) -> SetMatch:
    """Match student points to reference points, in any order; ``exact``: per point and coordinate,
    whether it must be equal (else within the tolerance)."""
    exact = exact or [False] * len(answer)
    free = list(range(len(reference)))
    matched, duplicates, unmatched = [], [], []
    for i, point in enumerate(answer):
        if any(same_point(point, answer[j], exact[i]) for j in range(i)):
            duplicates.append(i)
            continue
        hit = next((k for k in free if same_point(point, reference[k], exact[i])), None)
        if hit is None:
            unmatched.append(i)
        else:
            free.remove(hit)
            matched.append(i)
    return SetMatch(tuple(matched), tuple(duplicates), tuple(unmatched), len(free))


# --- which of two numbers an answer is nearer ---------------------------------------------

def _gap_exact(answer: Sequence[Fraction], value: Sequence[Fraction]) -> Fraction:
    return max(abs(a - v) for a, v in zip(answer, value, strict=True))


def nearer(answer: Sequence, target: Sequence, reference: Sequence) -> bool:
    """Is ``answer`` strictly nearer ``target`` than ``reference``, by the largest gap of any entry?
    Exact for rationals; otherwise decided at rising precision. Equal gaps (a tie) are not nearer.
    Raises Undecided where an interval cannot tell."""
    exact = [rational(v) for v in (*answer, *target, *reference)]
    if None not in exact:
        n = len(answer)
        a, t, r = exact[:n], exact[n:2 * n], exact[2 * n:]
        return _gap_exact(a, t) < _gap_exact(a, r)
    intervals = any(type(v) is Approx for v in (*answer, *target, *reference))
    for digits in PRECISIONS:
        try:
            a = [_decimal(v, digits) for v in answer]
            t = [_decimal(v, digits) for v in target]
            r = [_decimal(v, digits) for v in reference]
        except TooLarge:
            return False
        if None in a or None in t or None in r:
            return False
        with localcontext(_context(digits)):
            to_target = max(abs(x - y) for x, y in zip(a, t))
            to_reference = max(abs(x - y) for x, y in zip(a, r))
            error = _ERROR[digits] * (sum(abs(x) for x in (*a, *t, *r)) + 1)
            if to_target < to_reference - error:
                return True
            if to_target > to_reference + error:
                return False
    if intervals:
        raise Undecided("as near another target as its own reference")
    return False


def gap_bounds(x: tuple, y: tuple) -> tuple[Fraction | Decimal, Fraction | Decimal] | None:
    """A lower and an upper bound of the largest gap ``max |x_i - y_i|``: exact (a Fraction, twice) for
    rationals, else from 30-digit decimals with their error; None when a value cannot say (too large,
    not real, an interval too wide)."""
    exact = [rational(v) for v in (*x, *y)]
    if None not in exact:
        gap = max(abs(p - q) for p, q in zip(exact[:len(x)], exact[len(x):]))
        return gap, gap
    try:
        a, b = [_decimal(v, 30) for v in x], [_decimal(v, 30) for v in y]
    except (TooLarge, Undecided):
        return None
    if None in a or None in b:
        return None
    with localcontext(_context(30)):
        gap = max(abs(p - q) for p, q in zip(a, b))
        error = _ERROR[30] * (sum(abs(v) for v in (*a, *b)) + 1)
        return gap - error, gap + error


def decimal_of(value, digits: int = 30) -> Decimal:
    """``value`` to ``digits`` significant digits (raises TooLarge, Undecided; ValueError if not real)."""
    found = _decimal(value, digits)
    if found is None:
        raise ValueError(f"{value} is not a real number")
    return found


def cannot_be_nearer(answer: tuple, reference: tuple, spread: Decimal | None) -> bool:
    """A quick, exact sufficient test: a target at least twice as far from the reference as the answer
    is (``spread``: a lower bound of its distance, :func:`gap_bounds`) can never be nearer the answer
    (the triangle inequality), so :func:`nearer` need not look."""
    own = gap_bounds(answer, reference) if spread is not None else None
    return own is not None and spread > 2 * own[1]
