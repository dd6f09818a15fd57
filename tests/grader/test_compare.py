"""Comparators: exact equivalence, the decimal tolerance, and undecidable cases."""
import pytest
import sympy
from sympy import E, Rational, exp, sqrt

from grader.arithmetic import compare
from grader.reading.parse import parse_answer

W = exp(Rational(1, 2)) / (1 + 2 * exp(Rational(1, 2)))


def value(text):
    return parse_answer(text).value


@pytest.mark.parametrize("text, reference, equal, note", [
    ("exp(1/2)/(1+2*exp(1/2))", W, True, ""),
    ("sqrt(e)/(2*sqrt(e)+1)", W, True, ""),
    ("1/(2+exp(-1/2))", W, True, ""),
    ("e^0.5/(1+2*e^0.5)", W, True, ""),
    ("0.3837", W, True, ""),
    ("0.384", W, True, ""),           # 3 significant figures
    ("0.382", W, True, ""),           # 0.44 % off: inside 0.5 %
    ("0.38", W, False, "decimal-imprecise"),
    ("0.5", W, False, ""),
    ("1/3", W, False, ""),
    ("sqrt(14)/2", sqrt(14) / 2, True, ""),
    ("sqrt(3.5)", sqrt(14) / 2, True, ""),
    ("1.87", sqrt(14) / 2, True, ""),
    ("1.8", sqrt(14) / 2, False, "decimal-imprecise"),
    ("0", sympy.S.Zero, True, ""),
    ("0.0004", sympy.S.Zero, True, ""),   # absolute 0.0005 when the reference is 0
    ("0.001", sympy.S.Zero, False, "decimal-imprecise"),
    ("1/0", W, False, "not-a-real-number"),
    ("sqrt(-1)", W, False, "not-a-real-number"),
    ("log(0)", W, False, "not-a-real-number"),
    ("E", E, True, ""),
])
def test_compare_scalar(text, reference, equal, note):
    assert compare.compare_scalar(value(text), reference) == compare.Verdict(equal, note)


def test_integer_parts_take_no_tolerance():
    assert compare.compare_scalar(value("6.0"), sympy.Integer(6), exact=True).equal
    assert not compare.compare_scalar(value("6.01"), sympy.Integer(6), exact=True).equal
    assert compare.compare_scalar(value("6.01"), sympy.Integer(6)).equal


def test_undecided_equals_falls_back_to_numbers(monkeypatch):
    monkeypatch.setattr(sympy.Expr, "equals", lambda self, other, failing_expression=False: None)
    monkeypatch.setattr(sympy, "simplify", lambda expr, **kw: expr)
    # numerically identical to 100 digits: accepted
    assert compare.compare_scalar(value("1/(2+exp(-1/2))"), W).equal


def _no_proof(monkeypatch):
    """SymPy's proofs switched off: only the numeric comparison is left."""
    monkeypatch.setattr(sympy.Expr, "equals", lambda self, other, failing_expression=False: None)
    monkeypatch.setattr(sympy, "simplify", lambda expr, **kw: expr)
    monkeypatch.setattr(sympy, "together", lambda expr, **kw: sympy.Integer(1))


def test_a_difference_beyond_any_fixed_precision_is_still_seen(monkeypatch):
    _no_proof(monkeypatch)
    tiny = W + sympy.Integer(10) ** -40          # equal to 39 digits
    assert compare.compare_scalar(tiny, W, exact=True) == compare.Verdict(False)
    perturbed = sympy.Rational(3, 10) * sympy.cos(sympy.Integer(10) ** -999)    # equal to ~2000 digits
    assert compare.compare_scalar(perturbed, sympy.Rational(3, 10), exact=True) == compare.Verdict(False)


def test_undecided_when_no_proof_and_no_difference(monkeypatch):
    """An exact form never becomes correct by numbers alone: no proof, no difference: undecided."""
    _no_proof(monkeypatch)
    square = (1 + sympy.sqrt(2)) ** 2                 # equals 3 + 2 sqrt(2), which SymPy now cannot show
    assert compare.compare_scalar(square, 3 + 2 * sympy.sqrt(2), exact=True) == compare.Verdict(False, "undecided")


@pytest.mark.parametrize("answer, matched, duplicates, unmatched, missing", [
    ("{(1,0,0),(0,1,0)}", 1, 0, 1, 1),
    ("{(1,0,0),(1,0,0)}", 1, 1, 0, 1),
    ("{(0,1,0),(1,0,0)}", 1, 0, 1, 1),
    ("{(0,1,0),(1.0,0,0)}", 1, 0, 1, 1),
])
def test_match_points(answer, matched, duplicates, unmatched, missing):
    reference = [(1, 0, 0), (Rational(1, 2), Rational(1, 2), 0)]
    m = compare.match_points(value(answer), reference)
    assert (len(m.matched), len(m.duplicates), len(m.unmatched), m.missing) == \
        (matched, duplicates, unmatched, missing)


def test_the_decimal_contexts_fit_a_32_bit_build():
    """The in-page checker runs the grader on wasm32, where `decimal` allows exponents up to
    425000000 (decimal.MAX_EMAX there): a context beyond it fails every comparison in the browser."""
    from grader.arithmetic.compare import _context

    context = _context(60)
    assert -425_000_000 <= context.Emin and context.Emax <= 425_000_000


def test_within_an_irrational_answer_against_zero_takes_the_absolute_tolerance():
    assert compare.within(sqrt(2) / 10**4, 0) is True               # 0.00014 <= 0.0005
    assert compare.within(sqrt(2) / 10**3, sympy.Integer(0)) is False   # 0.0014 > 0.0005
    assert compare.within(-sqrt(2) / 10**4, 0) is True


def test_within_an_irrational_answer_at_the_relative_boundary():
    inside, outside = Rational(201, 200) - Rational(1, 10**30), Rational(201, 200) + Rational(1, 10**30)
    assert compare.within(sqrt(2) * inside, sqrt(2)) is True
    assert compare.within(sqrt(2) * outside, sqrt(2)) is False
    assert compare.within(sqrt(2) * (2 - inside), sqrt(2)) is True     # below the reference too
    assert compare.within(sqrt(2) * (2 - outside), sqrt(2)) is False
    assert compare.within(-sqrt(2), sqrt(2)) is False


def test_within_says_nothing_of_what_is_not_a_real_number():
    assert compare.within(sympy.I, 1) is None
    assert compare.within(1, sympy.I) is None


def test_an_interval_reference_decides_unless_it_holds_zero():
    from decimal import Decimal

    from grader.arithmetic.intervals import Approx, Undecided
    root2 = Approx(Decimal("1.41421356237309504880168872420969807856967187537694"),
                   Decimal("1.41421356237309504880168872420969807856967187537695"))
    assert compare.within(sqrt(2), root2) is True
    assert compare.within(sqrt(3), root2) is False
    with pytest.raises(Undecided):
        compare.within(sqrt(2) / 10**4, Approx(Decimal("-1e-50"), Decimal("1e-50")))
