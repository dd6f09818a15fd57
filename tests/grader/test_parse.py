"""The answer parser: valid forms, columns, and a hostile corpus that must never run."""
import time
from decimal import Decimal

import pytest
import sympy
from sympy import E, Rational, sqrt

from grader.judging.check import check_part
from grader.reading import parse
from grader.reading.parse import MAX_LENGTH, AnswerSyntaxError, parse_answer


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
    ("acos(1/2)", "scalar", sympy.pi / 3),                  # an angle's exact form
    ("arccos(1/2) + arcsin(1) + arctan(1)", "scalar", sympy.pi * Rational(13, 12)),
    ("4*atan(1) - asin(0)", "scalar", sympy.pi),
    ("acos(8/(sqrt(14)*sqrt(21)))", "scalar", sympy.acos(8 / (sqrt(14) * sqrt(21)))),
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
    assert len(files) > 20 and package / "reading" / "parse.py" in files     # the scan sees the package, from any folder
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


def test_without_a_shape_a_comma_separates_but_beside_a_semicolon_it_is_decimal_in_every_language():
    assert parse_answer("0,5").kind == "vector"            # no part to tell: Python's reading
    assert parse_answer("(0,5 ; 1)").value == (Rational(1, 2), 1)


def test_decimal_comma_keeps_columns_of_later_errors():
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer("0,5 + foo", decimal_comma=True)
    assert (info.value.error.key, info.value.error.column) == ("unknown-name", 6)


@pytest.mark.parametrize("lang", ["fr", "id", "en", "ja", "zh", "ko"])
def test_a_decimal_comma_that_cannot_be_misread_is_read_in_every_language(lang):
    result = check_part("embedding-distances", "parakeet-monkey", "0,3", lang)
    assert result.correct and result.read_as == ("0,3" if lang in ("fr", "id") else "0.3")


@pytest.mark.parametrize("lang", ["fr", "id"])
def test_a_comma_between_digits_is_a_decimal_comma_where_it_is_the_decimal_mark(lang):
    """1,871 is 1.871 in fr and id, where a comma never groups thousands."""
    assert parse_answer("1,871", convention=lang, shape=()).value == Rational(1871, 1000)


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko"])
@pytest.mark.parametrize("text, comma, first, second", [
    ("1,871", 1, "1.871", "1871"), ("12,345", 2, "12.345", "12345"), ("1,871e-3", 1, "1.871", "1871"),
    ("(1,871, 2)", 2, "1.871", "1871")])
def test_a_comma_that_reads_two_ways_is_refused_with_both(lang, text, comma, first, second):
    """1,871 could be 1.871 or 1871 where a comma groups thousands: refused, both readings named (a
    comma's meaning never flips with the count of digits after it: 1,87 is a decimal comma)."""
    with pytest.raises(AnswerSyntaxError) as info:
        parse.read(text, convention=lang, shape=(2,) if text.startswith("(") else ())
    error = info.value.error
    assert (error.key, error.column) == ("comma-two-readings", comma)
    assert error.param_dict == {"text": text.strip("(").split(",")[0] + "," + text.split(",")[1][:3],
                                "first": Decimal(first), "second": second}


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko"])
@pytest.mark.parametrize("text, value", [
    ("1,87", Rational(187, 100)), ("1,8708", Rational(18708, 10000)), ("7,5e-6", Rational(75, 10**7)),
    ("0,871", Rational(871, 1000)), ("1,871,000", 1871000), ("1,871.5", Rational(18715, 10))])
def test_a_comma_that_reads_one_way_is_read_so(lang, text, value):
    assert parse_answer(text, convention=lang, shape=()).value == value


# --- notations students type (issue 12) ------------------------------------------

NBSP, THIN, NARROW, ZWSP = "\u00a0", "\u2009", "\u202f", "\u200b"


@pytest.mark.parametrize("text, kind, value", [
    ("√2", "scalar", sqrt(2)),
    ("1/√154", "scalar", 1 / sqrt(154)),
    ("√(14)/2", "scalar", sqrt(14) / 2),
    ("√ 14/2", "scalar", sqrt(14) / 2),
    ("2√2", "scalar", 2 * sqrt(2)),
    ("√e", "scalar", sympy.exp(Rational(1, 2))),
    ("½", "scalar", Rational(1, 2)),
    ("¼ + ¾", "scalar", sympy.Integer(1)),
    ("1½", "scalar", Rational(3, 2)),
    ("⅔", "scalar", Rational(2, 3)),
    ("10⁻⁶", "scalar", Rational(1, 10**6)),
    ("2×10²", "scalar", sympy.Integer(200)),
    ("e^½", "scalar", sympy.exp(Rational(1, 2))),
    ("x²".replace("x", "3"), "scalar", sympy.Integer(9)),
    ("1÷4", "scalar", Rational(1, 4)),
    ("1∕4", "scalar", Rational(1, 4)),
    ("1⁄4", "scalar", Rational(1, 4)),
    ("１２", "scalar", sympy.Integer(12)),
    ("（１，１，０）", "vector", (1, 1, 0)),
    ("（１／２，　１／２，　０）", "vector", (Rational(1, 2), Rational(1, 2), 0)),
    ("１２＊３", "scalar", sympy.Integer(36)),
    ("١٢", "scalar", sympy.Integer(12)),                         # Arabic-Indic digits
    ("۱۲", "scalar", sympy.Integer(12)),                         # Extended Arabic-Indic (Persian)
    ("١٢٫٥", "scalar", Rational(25, 2)),                         # the Arabic decimal separator
    (f"400{NBSP}000", "scalar", sympy.Integer(400000)),
    (f"400{THIN}000", "scalar", sympy.Integer(400000)),
    (f"1{NARROW}000{NARROW}000", "scalar", sympy.Integer(10**6)),
    (f"800{ZWSP}", "scalar", sympy.Integer(800)),
    (f"{ZWSP}800{ZWSP}", "scalar", sympy.Integer(800)),
    (r"\frac{1}{2}", "scalar", Rational(1, 2)),
    (r"\dfrac{\sqrt{14}}{2}", "scalar", sqrt(14) / 2),
    (r"\sqrt{14}", "scalar", sqrt(14)),
    ("e^{1/2}", "scalar", sympy.exp(Rational(1, 2))),
    (r"2 \times 10^{2}", "scalar", sympy.Integer(200)),
    (r"2\cdot 3", "scalar", sympy.Integer(6)),
    (r"\left(1, \frac{1}{2}\right)", "vector", (1, Rational(1, 2))),
    (r"\frac{e^{1/2}}{1+2e^{1/2}}".replace("2e", r"2\cdot e"), "scalar",
     sympy.exp(Rational(1, 2)) / (1 + 2 * sympy.exp(Rational(1, 2)))),
    (r"\pi", "scalar", sympy.pi),
    ("(1; 1; 0)", "vector", (1, 1, 0)),                          # ';' in any language
    ("(1 ; 1/2 ; 0)", "vector", (1, Rational(1, 2), 0)),
    ("{(1; 0; 0), (0; 1; 0)}", "set", ((1, 0, 0), (0, 1, 0))),
    ("2·pi", "scalar", 2 * sympy.pi),                           # a raised dot not between digits...
    ("2 · 3", "scalar", sympy.Integer(6)),                      # ...is a product
])
def test_notations_students_type(text, kind, value):
    parsed = parse_answer(text)
    assert (parsed.kind, _exact(parsed.value)) == (kind, value)


def _exact(value):
    """A typed decimal as the rational it stands for (whatever precision the parser reads it at)."""
    if isinstance(value, tuple):
        return tuple(map(_exact, value))
    return sympy.nsimplify(value, rational=True) if value.has(sympy.Float) else value


@pytest.mark.parametrize("text", [
    "√x",
    "√2 + x",
    "1/√154 + x",
    "√(x)/2",
    "½ + x",
    "10⁻⁶ + x",
    "2×10² + x",
    "e^½ + x",
    "1÷x",
    "１２ + x",
    "（１，１，ｘ）",
    "（１，　ｘ）",
    "١٢ + x",
    f"400{NBSP}000 + x",
    f"1{NARROW}000{NARROW}000 + x",
    f"{ZWSP}1 + x{ZWSP}",
    r"\frac{1}{x}",
    r"\frac{\sqrt{14}}{x}",
    r"\sqrt{x}",
    "e^{x/2}",
    r"2 \times x",
    r"\left(1, x\right)",
    "(1; x; 0)",
])
def test_the_caret_points_into_what_the_student_typed(text):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text)
    error = info.value.error
    expected = text.replace("ｘ", "x").index("x")
    assert error.column == expected, (error.key, error.column)


@pytest.mark.parametrize("text, key, column, params", [
    ("0.3 # 1/0", "comment-in-answer", 4, {"kept": "0.3"}),
    ("3/10 #' OR 1=1--", "comment-in-answer", 5, {"kept": "3/10"}),
    ("#1", "comment-in-answer", 0, {"kept": ""}),
    ("３/10 ＃ x", "comment-in-answer", 5, {"kept": "３/10"}),
    ("0x0f", "number-base", 0, {"text": "0x0f", "base": 16, "value": 15}),
    ("0b1111", "number-base", 0, {"text": "0b1111", "base": 2, "value": 15}),
    ("0o17", "number-base", 0, {"text": "0o17", "base": 8, "value": 15}),
    ("1 + 0XF", "number-base", 4, {"text": "0XF", "base": 16, "value": 15}),
    ("0xZZ", "number-base", 0, {"text": "0xZZ", "base": 16, "value": "?"}),
    ("1_5", "digit-underscore", 1, {"text": "1_5", "value": Decimal("15")}),
    ("(1, 2_000.5)", "digit-underscore", 5, {"text": "2_000.5", "value": Decimal("2000.5")}),
    ("0·5", "middle-dot", 1, {"text": "0·5", "point": Decimal("0.5"), "product": "0*5"}),
    ("(0·25, 1)", "middle-dot", 2, {"text": "0·25", "point": Decimal("0.25"), "product": "0*25"}),
    ("30%", "percent-sign", 2, {"text": "30%", "fraction": "30/100"}),
    ("12.5 %", "percent-sign", 5, {"text": "12.5 %", "fraction": "12.5/100"}),
    ("(30%, 70%)", "percent-sign", 3, {"text": "30%", "fraction": "30/100"}),
    ("30％", "percent-sign", 2, {"text": "30％", "fraction": "30/100"}),
    ("800 steps", "unit-in-answer", 4, {"number": Decimal("800"), "unit": "steps"}),
    ("800steps", "unit-in-answer", 3, {"number": Decimal("800"), "unit": "steps"}),
    ("(1 m, 2 m)", "unit-in-answer", 3, {"number": Decimal("1"), "unit": "m"}),
    ("800 étapes", "unit-in-answer", 4, {"number": Decimal("800"), "unit": "étapes"}),
    ("800 ステップ", "unit-in-answer", 4, {"number": Decimal("800"), "unit": "ステップ"}),
    ("1.5e-4 m", "unit-in-answer", 7, {"number": "1.5e-4", "unit": "m"}),
    ("0,3 m", "unit-in-answer", 4, {"number": Decimal("0.3"), "unit": "m"}),        # 0,3 is read as 0.3 everywhere
    ("2,5 cm", "unit-in-answer", 4, {"number": Decimal("2.5"), "unit": "cm"}),
    ("(1, 0,5 ; 1)", "separator-mixed", 2, {}),
    ("{(1,0,0); (0,1,0)}", "separator-mixed", 3, {}),
    ("1\x1b[2K", "syntax-error", 1, {}),                             # a control character
    ("1 + \ud800", "syntax-error", 4, {}),                            # half a character
    ("1\x00", "syntax-error", 1, {}),
    # attribute access reaches Python's objects (e.real, (1).__class__): refused where it starts
    ("e.real", "not-allowed", 0, {"construct": "key:construct.attribute"}),
    ("2*e.real", "not-allowed", 2, {"construct": "key:construct.attribute"}),
    ("(1).real", "not-allowed", 0, {"construct": "key:construct.attribute"}),
    ("pi.evalf()", "not-allowed", 0, {"construct": "key:construct.attribute"}),
    ("sqrt(2).real + 1", "not-allowed", 0, {"construct": "key:construct.attribute"}),
    ("(e.real, 1)", "not-allowed", 1, {"construct": "key:construct.attribute"}),
])
def test_refusals_say_what_was_understood(text, key, column, params):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text)
    error = info.value.error
    assert (error.key, error.column) == (key, column)
    assert params.items() <= error.param_dict.items()


@pytest.mark.parametrize("text, convention, quoted, value", [
    ("0,000_1", "fr", "0,000_1", Decimal("0.0001")),     # one number across its decimal comma: not '000_1', 1
    ("2_000,5", "id", "2_000,5", Decimal("2000.5")),
    ("(0,5 ; 1_0)", "fr", "1_0", Decimal("10")),
    ("(1, 2_000.5)", "fr", "2_000.5", Decimal("2000.5")),
    ("0,000_1", "en", "000_1", Decimal("1")),             # English's comma between digits is no decimal mark
])
def test_an_underscore_refusal_quotes_the_whole_number_as_the_locale_writes_it(text, convention, quoted, value):
    with pytest.raises(AnswerSyntaxError) as info:
        parse.read(text, convention=convention)
    assert info.value.error.key == "digit-underscore"
    assert info.value.error.param_dict == {"text": quoted, "value": value}


@pytest.mark.parametrize("key", ["comment-in-answer", "number-base", "digit-underscore",
                                 "middle-dot", "percent-sign", "unit-in-answer", "separator-mixed"])
def test_each_refusal_has_words_in_every_language(key):
    from grader.languages.messages import LOCALES, catalog
    assert all(key in catalog(lang) for lang in LOCALES)


def test_pi_e_and_functions_after_a_number_are_not_units():
    for text in ("2 pi", "3 e", "2 sqrt(2)"):
        with pytest.raises(AnswerSyntaxError) as info:
            parse_answer(text)
        assert (info.value.error.key, info.value.error.column) == ("implicit-product", 2)


def test_modulo_is_still_an_operator_not_a_percent():
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer("30 % 7")
    assert info.value.error.key == "operator-not-allowed"


@pytest.mark.parametrize("text, entries, value", [
    (f"400{NBSP}000,5", False, Rational(800001, 2)),
    ("(0,5 ; 0,25 ; 0,25)", True, (Rational(1, 2), Rational(1, 4), Rational(1, 4))),
    ("（０，５ ； １）", True, (Rational(1, 2), 1)),
])
def test_notations_with_a_decimal_comma(text, entries, value):
    def exact(v):
        return tuple(map(exact, v)) if isinstance(v, tuple) else sympy.nsimplify(v)
    assert exact(parse_answer(text, decimal_comma=True, entries=entries).value) == value


def test_rewrite_maps_every_character_back_to_the_student_text():
    from grader.reading.parse import rewrite
    text = r"（１，√２） + \frac{1}{2} + 10⁻⁶ + ½"
    source, origin, conventions = rewrite(text)
    assert {"latex", "root", "superscript", "fraction"} <= conventions
    assert len(origin) == len(source) + 1 and origin[-1] == len(text)
    assert all(0 <= c < len(text) for c in origin[:-1])
    assert list(origin[:-1]) == sorted(origin[:-1])         # columns never go backwards
    assert "1" in source and "sqrt(" in source and "**(-6)" in source


@pytest.mark.parametrize("text, operator, column", [
    ("7 // 2", "//", 2), ("30 % 7", "%", 3), ("2 @ 3", "@", 2), ("6 & 3", "&", 2),
    ("6 | 3", "|", 2), ("6 << 1", "<<", 2), ("6 >> 1", ">>", 2), ("~2", "~", 0),
    ("1 % 2 + 3 % 4", "%", 2),          # the first one, not the last
    ("(1 % 2) % 3", "%", 8),             # the outer one: after its left operand
])
def test_a_refused_operator_is_named_where_it_stands(text, operator, column):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text)
    error = info.value.error
    assert (error.key, error.column, dict(error.params)["operator"]) == ("operator-not-allowed", column, operator)


@pytest.mark.parametrize("shape", [
    lambda n: "+".join(["1"] * n),                                   # a sum, left-nested
    lambda n: "^".join(["1"] * n),                                   # powers, nested in the exponent
    lambda n: "(" * (n - 1) + "1" + "^1)" * (n - 1),                 # powers, nested in the base
])
def test_the_nesting_limit_is_exact_in_every_operand(shape):
    from grader.reading.parse import MAX_DEPTH
    parse_answer(shape(MAX_DEPTH + 1))                                # MAX_DEPTH operations deep
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(shape(MAX_DEPTH + 2))
    assert info.value.error.key == "too-deep"

