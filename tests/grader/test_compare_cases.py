"""The comparators' own rules, case by case: the bound, the rising precision, exact proofs, points."""
import pytest
import sympy
from sympy import Rational, sqrt

from grader.arithmetic import compare


@pytest.mark.parametrize("reference, bound", [
    (Rational(3, 10), Rational(3, 2000)), (Rational(-3, 10), Rational(3, 2000)), (sympy.S.Zero, Rational(1, 2000)),
    (sympy.Integer(200), Rational(1)),
])
def test_the_bound_is_relative_or_absolute_at_zero(reference, bound):
    assert compare.bound(reference) == bound


def test_points_are_matched_in_any_order_and_each_index_is_told():
    O, I = sympy.Integer(0), sympy.Integer(1)
    answer = [(I, O), (O, I), (I, O), (sympy.Integer(5), sympy.Integer(5)), (O, O)]   # a repeat, then two more
    reference = [(O, O), (I, O), (O, I), (sympy.Integer(2), sympy.Integer(2))]
    assert compare.match_points(answer, reference) == compare.SetMatch(
        matched=(0, 1, 4), duplicates=(2,), unmatched=(3,), missing=1)


@pytest.mark.parametrize("expr, digits", [
    (sympy.pi, 60 + 3 * 1),                                   # no number written: the floor
    (sympy.Integer(5), 60 + 3 * 2),                           # '5' and its denominator '1'
    (Rational(-12345, 7), 60 + 3 * 6),
    (sympy.Pow(Rational(2, 3), 50, evaluate=False), 60 + 3 * 50 * 2),     # a power multiplies its base's digits
    (sympy.Pow(Rational(-12, 5), -7, evaluate=False), 60 + 3 * 7 * 3),
    (Rational(1, 10 ** 3000), compare.MAX_PROOF_DIGITS),     # capped
])
def test_the_digits_a_difference_is_evaluated_with(expr, digits):
    assert compare.justified_digits(expr) == digits


@pytest.mark.parametrize("answer, reference, verdict", [
    (Rational(1, 3), Rational(2, 6), compare.Verdict(True)),                       # two rationals: compared exactly
    (Rational(1, 3), Rational(1, 4), compare.Verdict(False)),
    (sympy.Integer(2), sympy.Mul(sqrt(2), sqrt(2), evaluate=False), compare.Verdict(True)),   # one rational only
    (sqrt(2), sqrt(3), compare.Verdict(False)),                                    # a clear numeric difference
    (sympy.sin(1) ** 2 + sympy.cos(1) ** 2, sympy.Integer(1), compare.Verdict(True)),   # proven by simplification
])
def test_exact_equality_is_proven_or_refused(answer, reference, verdict):
    assert compare.prove_equal(answer, reference) == verdict


@pytest.mark.parametrize("text, exact", [
    ("sqrt(2)/2", True), ("sqrt(9)/10*(1+1/10^6)", True), ("2^(1/2)", True), ("e", True), ("exp(0)", True),
    ("0.3", False), ("3/10", False), ("(1/2)^2", False), ("sqrt(0.0626)", False), ("2.718^(1/2)", False),
    ("1.5e-4", False), ("15", False)])
def test_what_was_written_decides_whether_an_entry_must_be_equal(text, exact):
    """An exact form (a root, e, a function, a fractional power, no decimal) must be equal; a decimal,
    a fraction or arithmetic on them, or anything holding a decimal, is a number: by what was typed,
    never by the value (sqrt(9)/10*(1+1/10^6) is rational, and still an exact form)."""
    from grader.reading.parse import is_exact_form, read
    assert is_exact_form(read(text).tree) is exact
