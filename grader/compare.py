"""Pure comparators: a student's SymPy value against a reference.

The rules (:mod:`grader.tolerance` holds the numbers; the README states them):

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
from functools import lru_cache
from typing import Sequence

import sympy

from . import tolerance

RELATIVE_TOLERANCE = sympy.Rational(tolerance.RELATIVE.numerator, tolerance.RELATIVE.denominator)
ABSOLUTE_TOLERANCE = sympy.Rational(tolerance.ABSOLUTE.numerator, tolerance.ABSOLUTE.denominator)
CLOSE_FACTOR = tolerance.CLOSE_FACTOR
DIGITS = 50                      # a first look: enough to tell almost every wrong answer at once
PRECISIONS = (30, 100, 400, 1600)   # digits tried in turn to place an answer against the boundary
MAX_PROOF_DIGITS = 6000          # the most digits a difference is evaluated with when SymPy cannot prove it


@dataclass(frozen=True)
class Verdict:
    equal: bool
    note: str = ""     # '', 'decimal-imprecise', 'undecided', 'not-a-real-number', 'too-large'


class TooLarge(ArithmeticError):
    """A finite number too large to evaluate (say exp(exp(exp(exp(10)))))."""


@lru_cache(maxsize=16384)
def numeric(expr: sympy.Expr, digits: int = DIGITS) -> sympy.Float | None:
    """A real Float for ``expr``, or None when it is not a finite real number.

    Raises :class:`TooLarge` when the number overflows the evaluation. Memoized: references,
    mistakes and a class's answers are evaluated again and again."""
    try:
        value = sympy.N(expr, digits)
    except OverflowError:
        raise TooLarge(str(expr)[:40]) from None
    except (TypeError, ValueError, ArithmeticError):
        return None
    if not isinstance(value, sympy.Float) and not value.is_Integer and not value.is_Rational:
        return None
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    return sympy.Float(value, digits)


def is_decimal(expr: sympy.Expr) -> bool:
    """Does the expression hold a decimal read as a float (an answer built by hand in a test)?"""
    return bool(expr.has(sympy.Float))


def is_number(expr: sympy.Expr, decimal: bool = False) -> bool:
    """A number judged within the tolerance: a rational value, or any value typed with a decimal."""
    return bool(decimal or getattr(expr, "is_Rational", False) or is_decimal(expr))


def _expr(value) -> sympy.Expr:
    """Python integers (a test's points, a bank's counts) as SymPy numbers."""
    return sympy.Integer(value) if isinstance(value, int) else value


def bound(reference: sympy.Expr) -> sympy.Expr:
    """How far an accepted number may be from ``reference``."""
    return ABSOLUTE_TOLERANCE if reference == 0 else RELATIVE_TOLERANCE * abs(reference)


def within(answer: sympy.Expr, reference: sympy.Expr, factor=1) -> bool | None:
    """Is ``|answer - reference| <= factor * bound(reference)``? Exact for two rationals; otherwise
    decided at rising precision (None: still on the boundary at the highest precision, which two
    different numbers never are)."""
    if answer.is_Rational and reference.is_Rational:
        return abs(answer - reference) <= factor * bound(reference)
    for digits in PRECISIONS:
        a, r = numeric(answer, digits), numeric(reference, digits)
        if a is None or r is None:
            return None
        limit = factor * (ABSOLUTE_TOLERANCE if reference == 0 else RELATIVE_TOLERANCE * abs(r))
        margin = limit - abs(a - r)
        error = sympy.Float(10, digits) ** (10 - digits) * (abs(a) + abs(r) + 1)
        if margin > error:
            return True
        if margin < -error:
            return False
    return None


def distance(answer: sympy.Expr, value: sympy.Expr) -> float:
    """How far apart two numbers are, to rank which of two targets an answer is nearer to."""
    a, v = numeric(answer, 30), numeric(value, 30)
    return math.inf if a is None or v is None else float(abs(a - v))


def compare_scalar(answer: sympy.Expr, reference: sympy.Expr, *, exact: bool = False,
                   decimal: bool = False) -> Verdict:
    """Is ``answer`` the number ``reference``? ``exact``: a whole-number entry (no tolerance);
    ``decimal``: the student typed a decimal in it."""
    answer, reference = _expr(answer), _expr(reference)
    if getattr(answer, "is_Rational", False) and getattr(reference, "is_Rational", False) and exact:
        return Verdict(answer == reference)
    try:
        a = numeric(answer)
    except TooLarge:
        return Verdict(False, "too-large")
    if a is None:
        return Verdict(False, "not-a-real-number")
    if numeric(reference) is None:
        raise ValueError(f"reference {reference} is not a real number")
    if is_number(answer, decimal) and not exact:
        decided = within(answer, reference)
        if decided:
            return Verdict(True)
        close = within(answer, reference, CLOSE_FACTOR)
        return Verdict(False, "decimal-imprecise" if close else "undecided" if decided is None else "")
    return prove_equal(answer, reference)


def prove_equal(answer: sympy.Expr, reference: sympy.Expr) -> Verdict:
    """Exact equality: a clear numeric difference says no at once; then SymPy tries to prove it; then
    the difference is evaluated with as many digits as the expression justifies."""
    if answer.is_Rational and reference.is_Rational:
        return Verdict(answer == reference)
    try:
        a, r = numeric(answer), numeric(reference)
    except TooLarge:
        return Verdict(False, "too-large")
    if a is not None and r is not None and abs(a - r) > sympy.Float(10) ** (-40) * max(abs(r), 1):
        return Verdict(False)
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
