"""The tolerance at exactly its boundary, in every form a number comes in.

The README's rule: a number is accepted when it is within 0.5 % of the reference, or within 0.0005
when the reference is 0. Decimals are read exactly, so 0.3015 against 0.3 sits exactly on the
boundary and is accepted whatever its form (the fast path reads a plain number, SymPy the rest);
a hair further out (0.30150001) is not. The slow differential test checks thousands of such answers
against mpmath; this table keeps the boundary itself in the fast suite.
"""
import pytest

from grader.arithmetic import compare
from grader.judging.check import judge
from grader.reading.parse import parse_answer
from tests.grader.judged import on_lesson, on_table

EXACT_03 = ("embedding-distances", "parakeet-monkey")       # the reference is 3/10
ZERO = ("embedding-distances", "cos-parakeet-fourier")       # the reference is 0
VECTOR = ("attention-weights", "scaled")                     # the reference is (1/2, 1/2, 0)

ON_THE_BOUNDARY = [
    (*EXACT_03, "0.3015"), (*EXACT_03, "0.2985"), (*EXACT_03, "(0.3015)"), (*EXACT_03, "0.3015*1"),
    (*EXACT_03, "+0.3015"), (*EXACT_03, "603/2000"), (*EXACT_03, "3.015e-1"), (*EXACT_03, "0.30150000"),
    (*EXACT_03, "0.3015 + 0"), (*EXACT_03, "1*0.2985"), (*EXACT_03, "0.6030/2"),
    (*ZERO, "0.0005"), (*ZERO, "-0.0005"), (*ZERO, "1/2000"), (*ZERO, "-1/2000"), (*ZERO, "(0.0005)"),
    (*ZERO, "0.0005*1"), (*ZERO, "5.0e-4"), (*ZERO, "5.0E-4"),
    (*VECTOR, "(0.5025, 0.4975, 0.0005)"), (*VECTOR, "[0.5025, 0.5, -0.0005]"),
    (*VECTOR, "(0.5025*1, 1/2, 1/2000)"), (*VECTOR, "(201/400, 199/400, -1/2000)"),
]

JUST_OUTSIDE = [
    (*EXACT_03, "0.30150001", "decimal-imprecise"), (*EXACT_03, "0.29849999", "decimal-imprecise"),
    (*EXACT_03, "(0.30150001)", "decimal-imprecise"), (*EXACT_03, "0.30150001*1", "decimal-imprecise"),
    (*EXACT_03, "6030001/20000000", "decimal-imprecise"),
    (*ZERO, "0.00050001", "decimal-imprecise-zero"), (*ZERO, "-0.00050001", "decimal-imprecise-zero"),
    (*ZERO, "1/1999", "decimal-imprecise-zero"), (*ZERO, "(0.00050001)", "decimal-imprecise-zero"),
]

VECTOR_JUST_OUTSIDE = ["(0.50250001, 0.5, 0)", "(0.5, 0.49749999, 0)", "(0.5, 0.5, 0.00050001)",
                       "(0.5, 0.5, -0.00050001)", "[0.50250001*1, 1/2, 0]"]


@pytest.mark.parametrize("exercise, part, text", ON_THE_BOUNDARY)
def test_exactly_on_the_boundary_is_accepted(exercise, part, text):
    assert judge(exercise, part, text, limited=False).fraction == 1.0


@pytest.mark.parametrize("exercise, part, text, note", JUST_OUTSIDE)
def test_just_outside_is_imprecise(exercise, part, text, note):
    outcome = judge(exercise, part, text, limited=False)
    assert outcome.fraction == 0.0
    assert [f.key for f in outcome.findings] == [note]


@pytest.mark.parametrize("text", VECTOR_JUST_OUTSIDE)
def test_a_vector_entry_just_outside_costs_that_entry(text):
    outcome = judge(*VECTOR, text, limited=False)
    assert outcome.fraction == pytest.approx(2 / 3)
    assert "decimal-imprecise" in [f.key for f in outcome.findings]


@pytest.mark.parametrize("text, accepted", [("0.3015", True), ("0.2985", True), ("0.30150001", False),
                                            ("0.29849999", False)])
def test_the_lesson_in_sympy_draws_the_same_boundary_as_the_table(text, accepted):
    """A plain number is judged on the table in `judge`; the lesson in SymPy must agree on the boundary."""
    assert (on_lesson(*EXACT_03, text).fraction == 1.0) is accepted
    assert (on_table(*EXACT_03, text, plain_only=True).fraction == 1.0) is accepted


@pytest.mark.parametrize("lang_comma, text, accepted", [(True, "0,3015", True), (True, "0,30150001", False),
                                                         (True, "(0,3015)", True)])
def test_a_decimal_comma_reads_the_same_boundary(lang_comma, text, accepted):
    assert (judge(*EXACT_03, text, convention="fr" if lang_comma else "en", limited=False).fraction == 1.0) is accepted


@pytest.mark.parametrize("entry, reference, equal", [
    ("0.3015", "3/10", True), ("0.30150001", "3/10", False), ("0.0005", "0", True), ("1/2000", "0", True),
    ("0.00050001", "0", False), ("-0.0005", "0", True), ("-0.3015", "-3/10", True),
    ("-0.30150001", "-3/10", False),
])
def test_a_vector_entry_on_the_boundary(entry, reference, equal):
    """The comparator itself, one entry among others: the same boundary as a lone number."""
    answer = parse_answer(f"(1, {entry})").value
    verdicts = compare.compare_vector(answer, (1, parse_answer(reference).value))
    assert verdicts[0].equal and verdicts[1].equal is equal
