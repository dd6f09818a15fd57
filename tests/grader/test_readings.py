"""How answers are read (issue #31, "Verdicts and readings"): a comma never flips its meaning with the
digits after it, scientific notation as students type it, an implicit product or a bracket left open
named where it is, digit groups with any space, and plain arithmetic bounded in every route."""
from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader import bank
from grader.judging.check import check_part
from grader.languages.messages import LOCALES, catalog, message
from grader.reading import parse
from grader.reading.commas import DECIMAL_COMMA_LOCALES
from grader.reading.parse import AnswerSyntaxError
from tests.grader.test_cli import DATA, run

THOUSANDS_LOCALES = tuple(lang for lang in LOCALES if lang not in DECIMAL_COMMA_LOCALES)
NEW_KEYS = ("comma-two-readings", "implicit-product", "bracket-not-closed", "bracket-not-opened")


def refusal(text: str, lang: str = "en", shape: tuple = ()):
    with pytest.raises(AnswerSyntaxError) as info:
        parse.read(text, convention=lang, shape=shape)
    return info.value.error


# --- 1. a comma's meaning never hangs on the count of digits after it -----------------------

@given(whole=st.integers(1, 999), fraction=st.text("0123456789", min_size=1, max_size=6),
       lang=st.sampled_from(LOCALES))
def test_one_comma_between_digits_is_a_decimal_comma_or_refused_never_a_thousands_separator(whole, fraction, lang):
    text = f"{whole},{fraction}"
    try:
        reading = parse.read(text, convention=lang, shape=())
    except AnswerSyntaxError as exc:
        # only where a comma also groups thousands, and only when three digits follow: both named
        assert lang in THOUSANDS_LOCALES and len(fraction) == 3
        assert exc.error.key == "comma-two-readings"
        assert exc.error.param_dict == {"text": text, "first": Decimal(f"{whole}.{fraction}"),
                                        "second": f"{whole}{fraction}"}
        return
    assert parse.plain(reading.tree) == Fraction(f"{whole}.{fraction}")
    assert "decimal-comma" in reading.conventions              # and its "Read as" says so


@pytest.mark.parametrize("lang", LOCALES)
def test_the_two_readings_are_said_with_the_readers_numbers(lang):
    result = check_part("terrain-warmup", "lr-at-step", "1,871", lang)
    if lang in DECIMAL_COMMA_LOCALES:
        assert result.column is None and result.read_as == "1,871"
        return
    assert (result.note, result.column) == ("comma-two-readings", 1)
    assert "1.871" in result.feedback and "1871" in result.feedback


# --- 2. scientific notation, and the powers a student types inline ---------------------------

@pytest.mark.parametrize("text, read_as, value", [
    ("3e-4*50/2000", "3*10^(-4)*50/2000", Fraction(3, 400000)),
    ("3×10^-4/40", "3*10^(-4)/40", Fraction(3, 400000)),
    ("10^-4*50", "10^(-4)*50", Fraction(1, 200)),
    ("10^-4", "10^(-4)", Fraction(1, 10000)),
    ("1.5e-4", "1.5*10^(-4)", Fraction(3, 20000)),
    ("2*10^-4/5", "2*10^(-4)/5", Fraction(1, 25000)),
    ("2^-2*4", "2^(-2)*4", Fraction(1)),
])
def test_a_power_of_ten_reads_as_scientific_notation_and_says_so(text, read_as, value):
    result = check_part("terrain-warmup", "lr-at-step", text, "en")
    assert result.column is None and result.read_as == read_as
    assert parse.plain(parse.read(text, shape=()).tree) == value


@pytest.mark.parametrize("text, read_as", [("(1/2)√14", "(1/2)*sqrt(14)"), ("(3/4)√2", "(3/4)*sqrt(2)"),
                                           ("((1/2))√14", "(1/2)*sqrt(14)")])
def test_a_bracket_that_closes_before_a_root_leaves_one_reading(text, read_as):
    """(1/2)√14: the bracket closes before the root, so it cannot be 1/(2√14) (1/2√14 still can)."""
    assert render_read(text) == read_as


def render_read(text: str) -> str:
    result = check_part("embedding-distances", "parakeet-fourier", text, "en")
    assert result.column is None, result.note
    return result.read_as


@pytest.mark.parametrize("text, key", [("e^-1/2", "ambiguous-reading"), ("2^-1/2", "ambiguous-reading"),
                                       ("2*e^-1/2", "ambiguous-reading"), ("2e+1", "ambiguous-exponent"),
                                       ("1/2√14", "ambiguous-reading"), ("1/2 √14", "ambiguous-reading")])
def test_what_a_student_could_mean_two_ways_is_still_refused(text, key):
    assert refusal(text).key == key


def offered_examples() -> list[tuple[str, str, str, str]]:
    """(locale, exercise, part, text): each part's example (what ``grader show`` offers to check) and every
    number a part's form message gives as an example ("like 3/20000 or 1.5e-4"), in each locale."""
    found = []
    number = re.compile(r"(?<![\w{(])(?:sqrt\([^)]*\)[/0-9]*|[0-9](?:[0-9.,/]|e-)*[0-9])")
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            for lang in LOCALES:
                found.append((lang, ex.id, part.id, part.example))
                found += [(lang, ex.id, part.id, m.group()) for m in number.finditer(part.form_in(lang))]
    return found


def test_the_examples_are_found():
    texts = {text for *_, text in offered_examples()}
    assert {"1.5e-4", "1,5e-4", "sqrt(2)/3", "3/20000"} <= texts


@pytest.mark.parametrize("lang, exercise, part, text", offered_examples())
def test_every_example_the_pages_and_grader_show_offer_is_read(lang, exercise, part, text):
    kind = bank.get(exercise).part(part).kind
    if text == bank.get(exercise).part(part).example or kind in ("real", "integer"):
        assert check_part(exercise, part, text, lang).column is None
    else:                                   # a number in a vector's form: read as a number
        parse.read(text, convention=lang, shape=())


# --- 3. an implicit product, a bracket left open -----------------------------------------------

@pytest.mark.parametrize("text, key, column, params", [
    ("2e^(1/2)", "implicit-product", 1, {"product": "2*e^(1/2)"}),
    ("sqrt(1.25)sqrt(1.54)", "implicit-product", 10, {"product": "sqrt(1.25)*sqrt(1.54)"}),
    ("(1+2)3", "implicit-product", 5, {"product": "(1+2)*3"}),
    ("2 pi", "implicit-product", 2, {"product": "2* pi"}),
    ("2(3)", "implicit-product", 1, {"product": "2*(3)"}),          # Python reads these as calls
    ("(1/2)(3)", "implicit-product", 5, {"product": "(1/2)*(3)"}),
    ("(1/2) (3)", "implicit-product", 6, {"product": "(1/2)* (3)"}),
    ("-2(3)", "implicit-product", 2, {"product": "-2*(3)"}),
    ("e(2)", "implicit-product", 1, {"product": "e*(2)"}),
    ("２（３）", "implicit-product", 1, {"product": "２*（３）"}),    # full-width: columns in what was typed
    ("(1/2)sqrt(14)", "implicit-product", 5, {"product": "(1/2)*sqrt(14)"}),
    ("sqrt(3.49", "bracket-not-closed", 4, {"symbol": ")"}),
    ("sqrt(1.25)*sqrt(1.54", "bracket-not-closed", 15, {"symbol": ")"}),
    ("(2, [1, 3)", "syntax-error", 9, {}),                  # a bracket closed by another kind: the generic words
    ("sqrt(2))", "bracket-not-opened", 7, {}),
    ("√(2))", "bracket-not-opened", 4, {}),                  # columns in what was typed, through the rewriting
])
def test_a_construct_python_cannot_read_is_named_at_its_place(text, key, column, params):
    error = refusal(text)
    assert (error.key, error.column, error.param_dict) == (key, column, params)


def test_a_long_answer_quotes_the_product_around_its_place():
    text = "1+" * 30 + "2sqrt(2)"
    error = refusal(text)
    assert error.key == "implicit-product" and error.column == 61
    assert error.param_dict["product"].startswith("…") and "2*sqrt(2)" in error.param_dict["product"]


@pytest.mark.parametrize("key", NEW_KEYS)
def test_each_new_message_has_its_own_words_in_every_language(key):
    generic = {lang: message("syntax-error", lang) for lang in LOCALES}
    for lang in LOCALES:
        assert key in catalog(lang) or lang == "en"
        words = message(key, lang, text="1,871", first=Decimal("1.871"), second="1871", product="2*e", symbol=")")
        assert words != generic[lang] and "{" not in words


def test_the_command_draws_the_caret_under_the_bracket_left_open():
    proc = run("check", "terrain-warmup", "lr-at-step", "sqrt(3.49")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 2 and "[bracket-not-closed]" in proc.stdout
    assert lines[lines.index("  sqrt(3.49") + 1] == "      ^"


# --- 4. digit groups with any space ----------------------------------------------------------

SPACES = (" ", "\u2009", "\u202f", "\u00a0")


@pytest.mark.parametrize("space", SPACES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_digit_groups_read_alike_with_every_space_and_say_so(space, lang):
    result = check_part("terrain-warmup", "lr-at-step", f"3/400{space}000", lang)
    assert result.column is None and result.read_as == "3/400000"


@given(groups=st.lists(st.integers(0, 999), min_size=1, max_size=4), head=st.integers(1, 999),
       spaces=st.lists(st.sampled_from(SPACES), min_size=4, max_size=4))
def test_a_number_grouped_with_any_spaces_reads_as_with_plain_ones(head, groups, spaces):
    digits = [str(head)] + [f"{g:03d}" for g in groups]
    typed = digits[0] + "".join(s + d for s, d in zip(spaces, digits[1:]))
    plain = parse.read(" ".join(digits), shape=())
    assert parse.read(typed, shape=()) == plain and "grouping" in plain.conventions
    assert parse.plain(plain.tree) == int("".join(digits))


@pytest.mark.parametrize("text", ["3/4000 000", "3/4000\u00a0000", "3/4000\u2009000"])
def test_digits_that_are_no_groups_of_three_are_refused_alike(text):
    assert (refusal(text).key, refusal(text).column) == ("syntax-error", 7)


# --- 5. plain arithmetic is bounded, on every route ------------------------------------------------

PRIMES = (9999999967, 9999999943, 9999999929, 9999999881, 9999999877, 9999999851, 9999999833, 9999999817,
          9999999787, 9999999781, 9999999769, 9999999749, 9999999739, 9999999707, 9999999691, 9999999677)
HOSTILE = {
    "distinct denominators": "+".join(f"1/{p}^999" for p in PRIMES),
    "one denominator": "+".join(f"({k}/3^1000)^126" for k in range(1, 24)),
    "a long product": "*".join(["9999999999^999"] * 30),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_answer_is_refused_as_too_large_by_the_command(name):
    answer = HOSTILE[name]
    assert len(answer) <= parse.MAX_LENGTH
    proc = run("check", "terrain-warmup", "lr-at-step", answer, "--format", "json")
    result = json.loads(proc.stdout)
    assert proc.returncode == 2 and result["note"] == "too-large" and result["column"] > 0
    assert "digits" in result["feedback"]                      # the words say why


def test_a_hostile_answer_in_a_submission_is_too_large_and_the_others_are_graded(tmp_path):
    good = (DATA / "correct.toml").read_text(encoding="utf-8")
    hostile = HOSTILE["distinct denominators"]
    text = re.sub(r'(?m)^lr-at-step = ".*"$', f'lr-at-step = "{hostile}"', good)
    assert hostile in text
    path = tmp_path / "answers.toml"
    path.write_text(text, encoding="utf-8")
    proc = run("submit", path, "--format", "json")
    parts = {p["id"]: p for ex in json.loads(proc.stdout)["exercises"] for p in ex["parts"]}
    assert parts["lr-at-step"]["note"] == "too-large"
    assert all(p["correct"] for pid, p in parts.items() if pid != "lr-at-step")


def test_a_hostile_answer_is_too_large_on_gradescope(tmp_path):
    from grader.cli.gradescope import Config
    from tests.grader.test_autograder import ADA, grade_in_process, lay_out
    answers = f'[terrain-warmup]\nlr-at-step = "{HOSTILE["one denominator"]}"\n'
    root = lay_out(tmp_path, Config(exercises=["terrain-warmup"]), {"answers.toml": answers}, [ADA])
    proc, results = grade_in_process(root)
    assert proc.returncode == 1 and results["score"] == 0         # 1: graded, not everything right
    test = next(t for t in results["tests"] if "lr-at-step" in t["name"])
    assert test["score"] == 0 and "too-large" in test["output"]


def test_the_largest_power_still_read_is_one_value_not_many():
    wide = 2 ** 199                                   # wide^1000: exactly MAX_POWER_BITS bits, read
    assert parse.plain(parse.read(f"{wide}^1000", shape=()).tree) == Fraction(wide) ** 1000
    error = refusal(f"{wide}^1000+{wide}^1000+{wide}^1000")     # three such values: past the budget
    assert error.key == "too-large" and error.column == len(f"{wide}^1000+{wide}^1000+")
