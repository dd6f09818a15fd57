"""The answer parser: valid forms, columns, and a hostile corpus that must never run."""
import time

import pytest
import sympy
from sympy import E, Rational, sqrt

from grader.check import check_part
from grader.parse import MAX_LENGTH, AnswerSyntaxError, parse_answer


@pytest.mark.parametrize("text, kind, value", [
    ("3", "scalar", sympy.Integer(3)),
    ("-3/4", "scalar", Rational(-3, 4)),
    ("2^10", "scalar", sympy.Integer(1024)),
    ("2**10", "scalar", sympy.Integer(1024)),
    ("sqrt(14)/2", "scalar", sqrt(14) / 2),
    ("e^(1/2)", "scalar", sympy.exp(Rational(1, 2))),
    ("E", "scalar", E),
    ("ln(e) + log(1)", "scalar", sympy.Integer(1)),
    ("sin(pi/2) + cos(0)", "scalar", sympy.Integer(2)),
    ("π", "scalar", sympy.pi),
    ("\u22121", "scalar", sympy.Integer(-1)),
    ("(1, 2, 3)", "vector", (1, 2, 3)),
    ("[1/2, 1/2, 0]", "vector", (Rational(1, 2), Rational(1, 2), 0)),
    ("{(1, 0, 0), (1/2, 1/2, 0)}", "set", ((1, 0, 0), (Rational(1, 2), Rational(1, 2), 0))),
    ("[(1, 0, 0), (1, 0, 0)]", "set", ((1, 0, 0), (1, 0, 0))),
])
def test_valid_forms(text, kind, value):
    parsed = parse_answer(text)
    assert parsed.kind == kind
    assert parsed.value == value


@pytest.mark.parametrize("text, value", [
    ("0.447", Rational(447, 1000)),
    ("15.00000000000000000000000000000001", 15 + Rational(1, 10**32)),    # not rounded to 15
    ("1.5e-4", Rational(15, 100000)),
    ("2.5E+3", sympy.Integer(2500)),
])
def test_a_decimal_is_read_exactly_and_marked(text, value):
    parsed = parse_answer(text)
    assert parsed.value == value and parsed.decimal
    assert not parse_answer("3/10").decimal


@pytest.mark.parametrize("text, key, column", [
    ("(1, 2 3)", "syntax-error", 4),   # Python points at the item missing a comma
    ("2^3^", "syntax-error", 4),            # past the end, in the original text
    ("2^2^x", "unknown-name", 4),           # column survives ^ -> ** rewriting
    ("1 + 2^2 % 3", "operator-not-allowed", 8),
    ("factorial(factorial(20))", "unknown-function", 0),
    ("sqrt", "function-without-call", 0),
    ("sqrt(1, 2)", "wrong-arity", 0),
    ("", "empty-answer", 0),
    ("(e, e)/2", "vector-inside-expression", 0),
    ("{((1,2),)}", "too-nested", 2),
    ("9**9**9**9", "too-large", 6),        # the caret is under the exponent
    ("2^(10^6)", "too-large", 3),
    ("(10^100)^3000", "too-large", 9),
    ("1" * (MAX_LENGTH + 1), "too-long", MAX_LENGTH),
])
def test_errors_carry_key_and_column(text, key, column):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text)
    assert (info.value.error.key, info.value.error.column) == (key, column)


HOSTILE = [
    "__import__('os').system('touch {marker}')",
    "().__class__.__base__.__subclasses__()",
    "[c for c in ().__class__.__base__.__subclasses__()]",
    "(lambda: __import__('os').system('touch {marker}'))()",
    "open('{marker}', 'w')",
    "exec('open(\"{marker}\", \"w\")')",
    "eval('1')",
    "x.y",
    "a[0]",
    "{{1: 2}}",
    "[i for i in range(10)]",
    "{{i for i in range(3)}}",
    "(i for i in range(3))",
    "f'{{1}}'",
    "'text'",
    "b'bytes'",
    "1 if 1 else 0",
    "1 < 2",
    "1 and 2",
    "(y := 3)",
    "*a",
    "~1",
    "1 // 2",
    "1 @ 2",
    "1 << 2",
    "9**9**9**9",
    "2**2**2**2**2**2",
    "10**10**10",
    "exp(exp(exp(exp(exp(10)))))",
    "factorial(factorial(20))",
    "(" * 300 + "1" + ")" * 300,
    "(" * 150 + "1" + ")" * 150,
    "-" * 450 + "1",
    "sqrt(" * 90 + "2" + ")" * 90,
    "1" * 10_000,
    "1e999999999",
    "1j",
    "True",
    "None",
    "...",
    "1;2",
    "import os",
    "x = 1",
]


@pytest.mark.parametrize("template", HOSTILE)
def test_hostile_answers_never_run_and_end_quickly(template, tmp_path):
    marker = tmp_path / "pwned"
    text = template.format(marker=marker)
    start = time.monotonic()
    result = check_part("attention-weights", "weights", text, timeout=3)
    assert time.monotonic() - start < 20     # 3 s asked; margin for a loaded 2-core machine
    assert not marker.exists()
    assert not result.correct and result.note
    assert result.feedback


def test_no_eval_on_student_text():
    """No module of the grader can execute text: eval, exec, sympify and parse_expr do."""
    import pathlib
    package = pathlib.Path(__file__).resolve().parents[2] / "grader"
    files = sorted(package.rglob("*.py"))
    assert len(files) > 20 and package / "parse.py" in files     # the scan sees the package, from any folder
    for path in files:
        source = path.read_text().replace("literal_eval(", "")
        for forbidden in ("eval(", "exec(", "sympify", "parse_expr", "sympy.S("):
            assert forbidden not in source, (path.name, forbidden)


# --- decimal comma (fr, id) -------------------------------------------------

@pytest.mark.parametrize("text, entries, kind, value", [
    ("0,3837", False, "scalar", Rational(3837, 10000)),
    ("-0,5", False, "scalar", Rational(-1, 2)),
    ("1,5e-4", False, "scalar", Rational(15, 100000)),
    ("sqrt(2,25)", False, "scalar", Rational(3, 2)),
    ("1,5 + 2,5", False, "scalar", sympy.Integer(4)),
    ("0.3837", False, "scalar", Rational(3837, 10000)),        # a point still works
    ("(0,5 ; 1)", True, "vector", (Rational(1, 2), 1)),
    ("(0,5;0,25;0,25)", True, "vector", (Rational(1, 2), Rational(1, 4), Rational(1, 4))),
    ("{(0,5 ; 0,5 ; 0), (1 ; 0 ; 0)}", True, "set", ((Rational(1, 2), Rational(1, 2), 0), (1, 0, 0))),
    ("(0.5, 1)", True, "vector", (Rational(1, 2), 1)),
    ("(1, 1, 0)", True, "vector", (1, 1, 0)),                  # a comma and a space separate
])
def test_decimal_comma_is_read(text, entries, kind, value):
    def exact(v):
        return tuple(map(exact, v)) if isinstance(v, tuple) else sympy.nsimplify(v)
    parsed = parse_answer(text, decimal_comma=True, entries=entries)
    assert (parsed.kind, exact(parsed.value)) == (kind, value)


@pytest.mark.parametrize("text, entries, key, column", [
    ("0,5, 1", False, "decimal-comma-ambiguous", 1),         # one number expected, two commas
    ("(0,5, 1)", False, "decimal-comma-ambiguous", 2),
    ("1,234,5", False, "decimal-comma-ambiguous", 5),        # a number with two decimal commas
    ("(0,5, 1)", True, "decimal-comma-in-vector", 2),        # 0,5 or 0 and 5?
    ("(1,1,0)", True, "decimal-comma-in-vector", 2),
    ("{(1,0,0)}", True, "decimal-comma-in-vector", 3),
    ("(0,5 ; 1, 2)", True, "decimal-comma-mixed", 8),        # ';' separates, so ',' must be decimal
])
def test_ambiguous_decimal_comma_is_refused_at_the_comma(text, entries, key, column):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text, decimal_comma=True, entries=entries)
    assert (info.value.error.key, info.value.error.column) == (key, column)
    assert text[column] == ","


def test_without_decimal_comma_a_comma_still_separates():
    assert parse_answer("0,5").kind == "vector"
    with pytest.raises(AnswerSyntaxError):
        parse_answer("(0,5 ; 1)")


def test_decimal_comma_keeps_columns_of_later_errors():
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer("0,5 + foo", decimal_comma=True)
    assert (info.value.error.key, info.value.error.column) == ("unknown-name", 6)


@pytest.mark.parametrize("lang, correct", [("fr", True), ("id", True), ("en", False), ("ja", False)])
def test_decimal_comma_only_where_the_language_writes_it(lang, correct):
    result = check_part("embedding-distances", "parakeet-monkey", "0,3", lang)
    assert result.correct is correct
