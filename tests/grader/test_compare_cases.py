"""The comparators' own rules, case by case: the bound, the rising precision, exact proofs, points."""
import pytest
import sympy
from sympy import Rational, sqrt

from grader import compare


@pytest.mark.parametrize("reference, bound", [
    (Rational(3, 10), Rational(3, 2000)), (Rational(-3, 10), Rational(3, 2000)), (sympy.S.Zero, Rational(1, 2000)),
    (sympy.Integer(200), Rational(1)),
])
def test_the_bound_is_relative_or_absolute_at_zero(reference, bound):
    assert compare.bound(reference) == bound
