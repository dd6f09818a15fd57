"""Pure comparators: a student's SymPy value against a reference.

Tolerance rule (:mod:`grader.tolerance`, stated to students in feedback): an
answer containing a decimal is accepted when ``|a - r| <= RELATIVE * |r|``
(three significant figures), or ``|a| <= ABSOLUTE`` when the reference is 0. Exact answers (no
decimal) must be equal: a high-precision numeric test rejects clear
differences, SymPy's ``equals`` proves equality, and when ``equals`` cannot
decide a 100-digit evaluation decides, else the verdict is ``undecided``.
'integer' parts take no tolerance.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import sympy

from . import tolerance

RELATIVE_TOLERANCE = sympy.Rational(tolerance.RELATIVE.numerator, tolerance.RELATIVE.denominator)
ABSOLUTE_TOLERANCE = sympy.Rational(tolerance.ABSOLUTE.numerator, tolerance.ABSOLUTE.denominator)
CLOSE_FACTOR = tolerance.CLOSE_FACTOR
DIGITS = 50
PROOF_DIGITS = 100


@dataclass(frozen=True)
class Verdict:
    equal: bool
    note: str = ""     # '', 'decimal-imprecise', 'undecided', 'not-a-real-number', 'too-large'


class TooLarge(ArithmeticError):
    """A finite number too large to evaluate (say exp(exp(exp(exp(10)))))."""


@lru_cache(maxsize=16384)
def numeric(expr: sympy.Expr, digits: int = DIGITS) -> sympy.Float | None:
    """A real Float for ``expr``, or None when it is not a finite real number.

    Raises :class:`TooLarge` when the number overflows the evaluation. Memoized:
    references, mistakes and a class's answers are evaluated again and again."""
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
    return bool(expr.has(sympy.Float))


def compare_scalar(answer: sympy.Expr, reference: sympy.Expr, *, exact: bool = False) -> Verdict:
    """Is ``answer`` the number ``reference``? ``exact`` turns tolerance off."""
    if getattr(answer, "is_Rational", False) and getattr(reference, "is_Rational", False):
        # two fractions: equal or not, exactly, with nothing to evaluate
        return Verdict(answer == reference)
    try:
        a = numeric(answer)
    except TooLarge:
        return Verdict(False, "too-large")
    r = numeric(reference)
    if a is None:
        return Verdict(False, "not-a-real-number")
    if r is None:
        raise ValueError(f"reference {reference} is not a real number")
    diff, scale = abs(a - r), abs(r)
    if is_decimal(answer) and not exact:
        bound = RELATIVE_TOLERANCE * scale if scale != 0 else ABSOLUTE_TOLERANCE
        if diff <= bound:
            return Verdict(True)
        return Verdict(False, "decimal-imprecise" if diff <= CLOSE_FACTOR * bound else "")
    if diff > sympy.Float(10) ** (-25) * max(scale, 1):
        return Verdict(False)
    return _prove_equal(answer, reference)


def _prove_equal(answer: sympy.Expr, reference: sympy.Expr) -> Verdict:
    try:
        if sympy.simplify(answer - reference) == 0:
            return Verdict(True)
        decided = answer.equals(reference)
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):
        decided = None
    if decided is True:
        return Verdict(True)
    if decided is False:
        return Verdict(False)
    try:
        a, r = numeric(answer, PROOF_DIGITS), numeric(reference, PROOF_DIGITS)
    except TooLarge:
        return Verdict(False, "too-large")
    if a is not None and r is not None and abs(a - r) <= sympy.Float(10) ** (-90) * max(abs(r), 1):
        return Verdict(True)
    return Verdict(False, "undecided")


def compare_vector(answer: Sequence, reference: Sequence, *, exact: bool = False) -> tuple[Verdict, ...]:
    """Component-wise verdicts (same length required by the caller)."""
    return tuple(compare_scalar(a, r, exact=exact) for a, r in zip(answer, reference, strict=True))


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
