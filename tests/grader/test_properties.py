"""Properties of the grader over answers generated from the grammar it reads (tests/grader/answers.py).

Each property is a promise of the README: every answer ends in a verdict or a refusal with a message
(never exit 3, never a hang); one answer gets one verdict, whichever route it takes (``check``,
``submit``, ``grade``, the page's :func:`grader.web.check`); the preview reads what the check reads;
the cheaper sources agree with SymPy whenever they decide; the tolerance is monotone and a correctly
rounded answer at the figures the part asks for is accepted; the words' language never changes a
score. ``HYPOTHESIS_PROFILE=long`` runs them on thousands of answers.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction

import pytest
import sympy
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st

from grader import bank, web
from grader.judging.check import check_part, grade_submission
from grader.judging.limits import DEFAULT_TIMEOUT
from grader.model import targets
from grader.model.targets import entries
from grader.reading import parse
from tests.grader.answers import (
    KIND,
    LOCALES,
    PARTS,
    SEEDS,
    UNDEFINED,
    anything,
    decimal_text,
    examples,
    plain_numbers,
    vectors,
)
from tests.grader.inprocess import grader
from tests.grader.judged import on_lesson, on_numeric_variant, on_table

# a check that has not ended by then hangs: the time limit of what needs SymPy, many times over (the
# machine may be loaded), plus the import of SymPy and a fork
HANG = 10 * DEFAULT_TIMEOUT + 30
# what argparse reads as an option, not an answer (README: an answer may begin with '-', not '--x')
OPTION_LIKE = re.compile(r"-h|--[A-Za-z]")
REAL_PARTS = tuple(key for key in PARTS if KIND[key] == "real")
NUMBER_PARTS = tuple(key for key in PARTS if KIND[key] in ("real", "vector"))


def cli(*args: str) -> tuple[int, str, str]:
    """``grader ARGS`` in this process: (exit code, stdout, stderr)."""
    ran = grader(*args)
    return ran.returncode, ran.stdout, ran.stderr


def verdict(result: dict) -> tuple:
    return (result["score"], result["note"], result["feedback"], tuple(result["notes"]), result["read_as"])


# --- answers near the references: the ones that get real verdicts ---------------------------------

def reference_decimals(exercise_id: str, part_id: str, seed: str | None = None) -> tuple[Decimal, ...]:
    """The part's reference entries (a set's first point), to 60 digits, from the exercise in SymPy."""
    reference = bank.variant(exercise_id, seed).part(part_id).reference
    if KIND[(exercise_id, part_id)] == "set":
        reference = tuple(sorted(reference, key=str)[0])
    return tuple(Decimal(str(sympy.N(value, 60))) for value in entries(reference))


PERTURBATIONS = (0, 0, Fraction(1, 10**4), Fraction(3, 1000), Fraction(49, 10**4), Fraction(51, 10**4),
                 Fraction(1, 100), Fraction(1, 2))


@st.composite
def near(draw, key: tuple[str, str], seed: str | None = None) -> str:
    """An answer to the part whose entries are its reference's, moved by a little or not at all, and
    rounded to a few figures; written with a point, or a decimal comma between `;`."""
    references = reference_decimals(*key, seed)
    texts = []
    for value in references:
        delta = draw(st.sampled_from(PERTURBATIONS)) * draw(st.sampled_from((1, -1)))
        moved = Fraction(value) * (1 + delta) if value else delta / 10
        texts.append(decimal_text(moved, draw(st.integers(1, 8))))
    comma = draw(st.booleans())
    if comma:
        texts = [t.replace(".", ",") for t in texts]
    if KIND[key] in ("real", "integer"):
        return texts[0]
    body = (" ; " if comma else ", ").join(texts)
    return "{(" + body + ")}" if KIND[key] == "set" else f"({body})"


@st.composite
def part_and_answer(draw, parts=PARTS, seeds=(None,)):
    key = draw(st.sampled_from(parts))
    seed = draw(st.sampled_from(seeds))
    answer = draw(st.one_of(near(key, seed), anything))
    return key, seed, answer


# --- every answer ends in a verdict or a refusal --------------------------------------------------

def known_point_bug(key: tuple[str, str], answer: str) -> bool:
    """A set's point with an entry that is no finite real number: exit 3 today, kept visible by the
    strict xfail test_a_point_that_is_not_real_gets_a_verdict. When the grader is fixed that test
    passes (and fails as strict): remove this filter with its mark."""
    return KIND[key] == "set" and any(undefined in answer for undefined in UNDEFINED)


@given(case=part_and_answer(), lang=st.sampled_from(LOCALES))
@example(case=(("embedding-distances", "parakeet-monkey"), None, "exp(exp(20))"), lang="en")
@example(case=(("attention-weights", "weights"), None, "(exp(-exp(100)), 1, 0)"), lang="fr")
@example(case=(("reachable-vertices", "vertices"), None, "{(10**999, 0, 0)}"), lang="ja")
@example(case=(("embedding-distances", "parakeet-monkey"), None, "2^{\\frac{0}{0}}"), lang="en")   # was exit 3
def test_check_ends_in_a_verdict_or_a_refusal(case, lang):
    (exercise_id, part_id), _, answer = case
    assume(not OPTION_LIKE.match(answer) and not known_point_bug((exercise_id, part_id), answer))
    start = time.monotonic()
    code, out, err = cli("check", exercise_id, part_id, answer, "--lang", lang, "--format", "json")
    assert time.monotonic() - start < HANG, answer
    assert code in (0, 1, 2), (answer, out, err)
    assert "Traceback" not in out + err
    result = json.loads(out)
    assert result["feedback"] and result["correct"] == (code == 0)
    assert (result["note"] == "") == result["correct"]
    if code == 2:                                    # a refusal says what is wrong
        assert result["column"] is not None or result["note"] == "too-large", result


def test_check_in_a_subprocess_too():
    """The real command, once: what the properties run in this process is what a student runs."""
    answers = ["exp(exp(20))", "√2/2√77", "(0,5 ; 0,5 ; 0)", "\u202e0.3", "0.3 # 1/0"]
    for answer in answers:
        ran = subprocess.run([sys.executable, "-m", "grader.cli", "check", "attention-weights", "scaled", answer,
                              "--format", "json"], capture_output=True, text=True, timeout=HANG)
        assert ran.returncode in (0, 1, 2) and "Traceback" not in ran.stderr, (answer, ran.stderr)
        assert json.loads(ran.stdout)["feedback"]


# --- one answer, one verdict, whichever route ------------------------------------------------------

def submitted(tmp_path, exercise_id, part_id, answer, lang, seed, *more: str) -> dict:
    """The part's result through ``grader submit`` of a JSON file holding the answer."""
    path = tmp_path / "ada.json"
    body = {"lang": lang, exercise_id: {part_id: answer}} | ({"seed": seed} if seed else {})
    path.write_text(json.dumps(body), encoding="utf-8")
    code, out, err = cli("submit", str(path), "--lang", lang, "--format", "json", *more)
    assert code in (0, 1, 2, 3) and "Traceback" not in err, err     # exit 3 is test_check_ends_...'s to find
    exercise = next(e for e in json.loads(out)["exercises"] if e["id"] == exercise_id)
    return next(p for p in exercise["parts"] if p["id"] == part_id)


SURROGATE = re.compile("[\ud800-\udfff]")      # a JSON file cannot hold half a character: refused whole


@settings(max_examples=examples(15))
@given(case=part_and_answer(seeds=(None, *SEEDS)), lang=st.sampled_from(LOCALES))
@example(case=(("embedding-distances", "monkey-fourier"), None, "1.87"), lang="en")
@example(case=(("reachable-vertices", "vertices"), "s0042", "{(1,0,0), (2/3,0,1/3)}"), lang="fr")
def test_check_submit_and_the_page_give_one_verdict(tmp_path_factory, case, lang):
    (exercise_id, part_id), seed, answer = case
    assume(not OPTION_LIKE.match(answer) and not SURROGATE.search(answer))
    seeded = ("--seed", seed) if seed else ()
    code, out, _ = cli("check", exercise_id, part_id, answer, "--lang", lang, "--format", "json", *seeded)
    checked = json.loads(out)
    page = json.loads(web.check(exercise_id, part_id, answer, lang, seed))
    assert page["code"] == code
    assert verdict(page["result"]) == verdict(checked)
    by_file = submitted(tmp_path_factory.mktemp("submit"), exercise_id, part_id, answer, lang, seed)
    assert verdict(by_file) == verdict(checked)


@settings(max_examples=examples(3))
@given(case=part_and_answer(parts=(("embedding-distances", "monkey-fourier"), ("attention-weights", "weights")),
                            seeds=(None, "s0042")))
@example(case=(("embedding-distances", "parakeet-monkey"), None, "exp(exp(20))"))
def test_a_one_file_grade_gives_the_checks_verdict(tmp_path_factory, case):
    (exercise_id, part_id), seed, answer = case
    assume(not OPTION_LIKE.match(answer) and not SURROGATE.search(answer))
    folder = tmp_path_factory.mktemp("class")
    (folder / "ada.json").write_text(json.dumps({exercise_id: {part_id: answer}, "lang": "en"}), encoding="utf-8")
    code, out, err = cli("grade", str(folder / ""), "--out", str(folder / "out"), "--jobs", "1",
                         *(("--variants",) if seed else ()))
    assert code in (0, 1, 2, 3) and "Traceback" not in err, err     # a run that ends, every file written
    line = json.loads((folder / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])
    graded = next(p for e in line["exercises"] if e["id"] == exercise_id for p in e["parts"] if p["id"] == part_id)
    # --variants grades a student on the variant their id seeds
    _, out, _ = cli("check", exercise_id, part_id, answer, "--format", "json", *(("--seed", "ada") if seed else ()))
    assert verdict(graded) == verdict(json.loads(out))


# --- the preview reads what the check reads --------------------------------------------------------

@given(case=part_and_answer(seeds=(None, "s0042")), lang=st.sampled_from(LOCALES))
@example(case=(("attention-weights", "weights"), None, "(0,5,0,5,0)"), lang="fr")
@example(case=(("embedding-distances", "parakeet-monkey"), None, "√2/2√77"), lang="en")
def test_the_preview_refuses_exactly_what_the_check_refuses(case, lang):
    (exercise_id, part_id), seed, answer = case
    preview = json.loads(web.read(exercise_id, part_id, answer, lang, seed))
    checked = json.loads(web.check(exercise_id, part_id, answer, lang, seed))
    assert preview["code"] in (0, 2) and checked["code"] in (0, 1, 2), (preview, checked)
    result = checked["result"]
    if preview["code"] == 2:
        assert checked["code"] == 2 and result["column"] is not None
        assert (result["note"], result["feedback"]) == (preview["note"], preview["feedback"])
        assert checked["text"] == preview["text"]
    else:
        assert result["column"] is None, result
        if result["read_as"] is not None:
            assert result["read_as"] == preview["read_as"]
            assert result["read_as_mathml"] == preview["read_as_mathml"]


# --- decimal commas: where the counts decide, 0,5 is read as 0.5 in every language ---------------------

# not three decimals: 1,871 is 1871 in en, ja, zh and ko (a thousands separator), as the README says
decimal_texts = st.builds(lambda i, f: f"{i}.{f}", st.integers(0, 9), st.from_regex(r"[0-9]{1,2}|[0-9]{4}", fullmatch=True))
entry_texts = st.one_of(st.integers(0, 9).map(str), decimal_texts, decimal_texts,     # not three decimals: 1,871
                        decimal_texts.map(lambda d: f"sqrt({d})"), st.just("exp(0)"))  # is 1871 in en (README)


@given(key=st.sampled_from(tuple(k for k in PARTS if KIND[k] in ("vector", "set"))), data=st.data(),
       lang=st.sampled_from(LOCALES), points=st.integers(1, 3))
@example(key=("reachable-vertices", "vertices"), data=None, lang="en", points=1)   # {(0,5, sqrt(0,25), 0,25)}
def test_decimal_commas_read_as_the_points_they_stand_for(key, data, lang, points):
    """An answer whose entries are written with decimal commas and separated by ', ' reads as the same
    numbers written with points, in every language: each bracket's count of entries decides."""
    length = 3
    if data is None:
        rows = [["0.5", "sqrt(0.25)", "0.25"]]
    else:
        rows = [data.draw(st.lists(entry_texts, min_size=length, max_size=length)) for _ in range(points if KIND[key] == "set" else 1)]
    assume(any("." in entry for row in rows for entry in row))
    shape = parse.shape_of(KIND[key], length)

    def written(mark: str) -> str:
        inner = ["(" + ", ".join(entry.replace(".", mark) for entry in row) + ")" for row in rows]
        return inner[0] if KIND[key] == "vector" else "{" + ", ".join(inner) + "}"
    with_points = parse.read(written("."), convention="en", shape=shape)
    assert parse.read(written(","), convention=lang, shape=shape).tree == with_points.tree, written(",")


# --- the cheaper sources agree with SymPy ----------------------------------------------------------

@st.composite
def plain_answer(draw, seed=None):
    key = draw(st.sampled_from(PARTS))
    kind = KIND[key]
    if draw(st.booleans()):
        return key, draw(near(key, seed))
    number = st.one_of(plain_numbers, plain_numbers.map(lambda n: f"{n}/7"), plain_numbers.map(lambda n: f"-{n}"))
    if kind in ("real", "integer"):
        return key, draw(number)
    point = vectors(number).filter(lambda v: ";" not in v and "，" not in v)
    return key, draw(point if kind == "vector" else st.lists(point, max_size=4).map(lambda ps: "{" + ", ".join(ps) + "}"))


def _unless_unreadable(judged, *args, **kwargs):
    try:
        return judged(*args, **kwargs)
    except ValueError:              # the answer cannot be read (an AnswerSyntaxError): nothing to judge
        return None


@given(case=plain_answer(), convention=st.sampled_from(("en", "fr")))
@example(case=(("embedding-distances", "monkey-fourier"), "1.87"), convention="en")
@example(case=(("attention-weights", "scaled"), "(0.5, 0.5, 0.0001)"), convention="en")
def test_the_table_agrees_with_sympy_whenever_it_decides(case, convention):
    (exercise_id, part_id), text = case
    quick = _unless_unreadable(on_table, exercise_id, part_id, text, convention, plain_only=True)
    event("the table decided" if quick is not None else "the table stepped aside or could not read")
    if quick is not None:
        assert quick == on_lesson(exercise_id, part_id, text, convention), text


@given(case=plain_answer(seed="s0042"), convention=st.sampled_from(("en", "fr")))
def test_a_variants_plain_numbers_agree_with_sympy_whenever_they_decide(case, convention):
    (exercise_id, part_id), text = case
    quick = _unless_unreadable(on_numeric_variant, exercise_id, part_id, text, "s0042", convention)
    event("plain numbers decided" if quick is not None else "plain numbers stepped aside or could not read")
    if quick is not None:
        assert quick == on_lesson(exercise_id, part_id, text, convention, seed="s0042"), text


# --- the tolerance: monotone, and a correctly rounded answer is accepted ----------------------------

@given(key=st.sampled_from(REAL_PARTS), seed=st.sampled_from((None, "s0042")), data=st.data())
def test_an_accepted_answer_stays_accepted_nearer_the_reference(key, seed, data):
    exercise_id, part_id = key
    answer = data.draw(near(key, seed).filter(lambda t: "," not in t))
    first = json.loads(web.check(exercise_id, part_id, answer, "en", seed))["result"]
    assume(first["correct"])
    reference = Fraction(reference_decimals(exercise_id, part_id, seed)[0])
    step = data.draw(st.fractions(0, 1, max_denominator=16))
    moved = Fraction(Decimal(answer)) + step * (reference - Fraction(Decimal(answer)))
    figures = len(answer.replace("-", "").replace(".", "").lstrip("0")) + data.draw(st.integers(1, 6))
    text = decimal_text(moved, figures)
    assert json.loads(web.check(exercise_id, part_id, text, "en", seed))["result"]["correct"], (answer, text)


@pytest.mark.parametrize("seed", [None, *SEEDS])
@pytest.mark.parametrize("key", [key for key in NUMBER_PARTS if not bank.get(key[0]).part(key[1]).whole])
def test_a_correctly_rounded_reference_is_accepted(key, seed):
    """At the figures the part asks for (grader.model.targets.figures) and at two more."""
    exercise_id, part_id = key
    asks = targets.figures(bank.variant(exercise_id, seed), part_id)
    references = reference_decimals(exercise_id, part_id, seed)
    for figures in (asks, asks + 2):
        texts = [decimal_text(value, figures) for value in references]
        answer = texts[0] if len(texts) == 1 else "(" + ", ".join(texts) + ")"
        result = json.loads(web.check(exercise_id, part_id, answer, "en", seed))["result"]
        assert result["correct"], (key, seed, answer, result["feedback"])


# --- the words' language never changes a score ------------------------------------------------------

@settings(max_examples=examples(15))
@given(case=part_and_answer(), file_lang=st.sampled_from(LOCALES))
@example(case=(("attention-weights", "scores"), None, "(1,1,0)"), file_lang="fr")
@example(case=(("embedding-distances", "monkey-fourier"), None, "1,868"), file_lang="fr")
def test_a_files_lang_reads_the_same_in_every_language_of_the_words(case, file_lang):
    (exercise_id, part_id), _, answer = case
    answers = {exercise_id: {part_id: answer}}
    graded = {lang: grade_submission(answers, lang, convention=file_lang, exercises=(exercise_id,)) for lang in LOCALES}
    results = {lang: [(p.score, p.note, p.notes) for e in result.exercises for p in e.parts]
               for lang, result in graded.items()}
    assert len({json.dumps(r) for r in results.values()}) == 1, results


# --- what the properties found ----------------------------------------------------------------------

@pytest.mark.parametrize("answer", ["2^(0/0)", "2^{\\frac{0}{0}}", "(0/0)^(0/0)", "0^(0/0)", "(1/0)^(0/0)"])
def test_a_power_with_an_undefined_exponent_is_not_a_real_number(answer):
    """Found by test_check_ends_in_a_verdict_or_a_refusal: NaN as an exponent was compared with the
    largest exponent allowed, which SymPy refuses (TypeError): exit 3."""
    assert check_part("embedding-distances", "parakeet-monkey", answer).note == "not-a-real-number"


@pytest.mark.parametrize("answer", ["{(0/0, 1, 0)}", "{(1/0, 1, 0)}", "{(sqrt(-1), 1, 0)}", "{(log(0), 1, 0)}"])
def test_a_point_that_is_not_real_gets_a_verdict(answer):
    ran = grader("check", "reachable-vertices", "vertices", answer, "--format", "json")
    assert ran.returncode in (1, 2), ran.stderr
    assert "not-a-real-number" in json.loads(ran.stdout)["notes"], ran.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files in Linux's /proc")
def test_the_internal_error_log_does_not_pile_up_in_a_long_lived_process(monkeypatch):
    """Found by the long run of the properties: every call of the command added a handler of the
    internal-error log and never closed it, so each internal error opened the log once per earlier
    call; after a thousand, run_limited's select() got a descriptor it cannot take (ValueError)."""
    from grader.judging import rules
    from grader.judging.table import cache_dir

    def planted(*args, **kwargs):
        raise RuntimeError("planted by the test")
    monkeypatch.setattr(rules, "judge", planted)
    log = cache_dir() / "errors.log"
    logged = log.read_text(encoding="utf-8").count("RuntimeError: planted by the test") if log.exists() else 0
    for _ in range(3):
        grader("check", "embedding-distances", "parakeet-monkey", "0.3")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        assert grader("check", "embedding-distances", "parakeet-monkey", "0.3").returncode == 3
    assert len(os.listdir("/proc/self/fd")) <= before
    assert log.read_text(encoding="utf-8").count("RuntimeError: planted by the test") == logged + 8   # once per error


AMBIGUOUS = {"e^-1/2": "ambiguous-reading", "1/2√2": "ambiguous-reading", "2e+1": "ambiguous-exponent"}
CONTEXTS = ("X", "1+X", "X+1", "2-X", "(X)", "sqrt(X)", "X*2", "X^2", "2*1+X", "(1, X, 0)")
BEHIND = ("2*X", "-X", "2/X", "2^X", "2*3*X")   # the power deeper in the tree than the quotient it stands before


def _in_context(context: str, core: str) -> str:
    return context.replace("X", core)


@pytest.mark.parametrize("answer, note", [
    *[(_in_context(c, core), note) for core, note in AMBIGUOUS.items() for c in CONTEXTS],
    *[(_in_context(c, core), note) for core, note in AMBIGUOUS.items() for c in BEHIND],
])
def test_what_reads_two_ways_is_refused_wherever_it_stands(answer, note):
    key = ("attention-weights", "weights") if answer.startswith("(1,") else ("embedding-distances", "parakeet-monkey")
    assert check_part(*key, answer).note == note, answer


@pytest.mark.parametrize("answer", ["2^(10^15*sqrt(1))", "e^(1000000000000000*sqrt(1))", "(1/2)^(sqrt(4)*10^20)"])
def test_a_power_too_large_to_build_is_refused_as_too_large(answer):
    ran = grader("check", "embedding-distances", "parakeet-monkey", answer, "--format", "json")
    assert ran.returncode == 2 and json.loads(ran.stdout)["note"] == "too-large", ran.stderr
