"""What `make mutate` found the fast tests missed: each test here kills mutants (a changed operator or
constant, a deleted guard) that survived every other fast test. Grouped by the module they guard."""
from __future__ import annotations

import pytest

from grader.classreport import text

# --- grader/classreport/text.py: how the report writes numbers and text it did not choose -----------

@pytest.mark.parametrize("written, shown", [
    ("alice", "alice"), ("a\x1bb", "a\\x1bb"), ("zero\u200bwidth", "zero\\u200bwidth"),
    ("line\u2028break", "line\\u2028break"), ("tab\there", "tab\\x09here"), ("José 山田", "José 山田"),
])
def test_visible_escapes_exactly_the_invisible_characters(written, shown):
    assert text.visible(written) == shown


def test_numbers_in_the_locales_format_and_a_dash_for_none():
    assert [text.number(None, "en"), text.fixed(None, "en"), text.percent(None, "fr")] == [text.NONE] * 3
    # the one number format (grader.languages.numerals): grouped from five digits, as the pages write numbers
    assert text.number(12345.5, "fr") == "12\u202f345,5" and text.number(1234.5, "fr") == "1234,5"
    assert text.number(3, "en", 0) == "3"
    assert text.number(0.126, "en") == "0.13" and text.number(0.126, "en", 1) == "0.1"
    assert text.fixed(0.4, "en") == "0.40" and text.fixed(-0.05, "fr") == "\u22120,05" and text.fixed(0.4, "en", 1) == "0.4"
    assert text.percent(0.125, "en") == "12.5%" and text.percent(0.125, "fr") == "12,5\u00a0%"
    assert text.percent(1 / 3, "en") == "33.3%"


# --- grader/classreport/__init__.py -------------------------------------------------------------------

def test_no_results_names_the_file_it_looked_for(tmp_path):
    from grader.languages.messages import message
    from tests.grader.inprocess import grader
    ran = grader("report", tmp_path / "nothing")
    assert ran.returncode == 2
    assert ran.stderr.strip() == message("report.no-results", "en", path=tmp_path / "nothing" / "results.jsonl",
                                         folder=tmp_path / "nothing")


# --- grader/reading/commas.py and parse.py: what a refusal says ----------------------------------------

@pytest.mark.parametrize("lang, note", [("en", "separator-ambiguous"), ("ja", "separator-ambiguous"),
                                        ("fr", "decimal-comma-in-vector"), ("id", "decimal-comma-in-vector")])
def test_commas_that_read_two_ways_are_refused_in_the_students_convention(lang, note):
    from grader.judging.check import check_part
    result = check_part("attention-weights", "weights", "(0,5,0,5,0)", lang)
    assert (result.note, result.column) == (note, 2)


@pytest.mark.parametrize("answer, quoted", [("e^-1/2+1", "e^-1/2"), ("1 + e^-1/2 + 3", "e^-1/2"),
                                            ("2 + 1/2√2*3", "1/2√2"), ("(1/2√2)", "1/2√2")])
def test_a_refusal_quotes_what_was_typed_and_nothing_around_it(answer, quoted):
    from grader.judging.check import check_part
    feedback = check_part("embedding-distances", "parakeet-monkey", answer).feedback
    assert feedback.startswith(f"“{quoted}” can be read two ways"), feedback


# --- grader/judging/check.py: what an unknown id or seed is told, on the page and the command line ---

def test_an_unknown_exercise_part_or_seed_is_told_in_the_readers_language():
    import json

    from grader import web
    from grader.bank import EXERCISES
    from grader.languages.messages import message
    from grader.model.seeds import MAX_SEED_LENGTH
    known = ", ".join(EXERCISES)
    for lang in ("en", "fr"):
        said = json.loads(web.check("nope", "x", "1", lang))
        assert (said["code"], said["error"]) == (2, message("error-unknown-exercise", lang, id="nope", known=known))
        said = json.loads(web.read("terrain-warmup", "nope", "1", lang))
        assert said["code"] == 2 and said["error"] == message(
            "error-unknown-part", lang, exercise="terrain-warmup", part="nope",
            known="lr-at-step, step-at-fraction, first-step-ratio")
        seed = "x" * (MAX_SEED_LENGTH + 1)
        said = json.loads(web.check("terrain-warmup", "lr-at-step", "1", lang, seed))
        assert said["code"] == 2 and said["error"] == message("error-seed", lang, seed=seed, limit=MAX_SEED_LENGTH)


# --- grader/judging/table.py: the cache is read where it may be, and only there -----------------------

def test_check_reads_the_users_own_table_and_submit_never_does(tmp_path, monkeypatch):
    """The table in a private cache is what `check` answers from (the README: it is kept so that a
    plain number needs no SymPy); `submit` builds its own, so an edit changes only `check`."""
    import copy
    import json
    import os

    from grader.judging import table
    from grader.judging.check import check_part
    from tests.grader.inprocess import grader
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("GRADER_CACHE_DIR", str(folder))
    monkeypatch.setattr(table, "_trusted_only", False)     # an earlier in-process submit or grade set it
    tampered = copy.deepcopy(table.build_table())
    part = tampered["embedding-distances"]["parakeet-monkey"]
    part["reference"][0], part["mistakes"] = {"decimal": "0.09", "exact": "9/100", "form": None}, []
    path = folder / f"references-{table.engine_version()}.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    os.chmod(path, 0o600)
    table.table.cache_clear()
    try:
        assert table.table() == tampered
        assert check_part("embedding-distances", "parakeet-monkey", "0.09").correct
        answers = tmp_path / "ada.toml"
        answers.write_text('[embedding-distances]\nparakeet-monkey = "0.09"\n', encoding="utf-8")
        submitted = json.loads(grader("submit", answers, "--format", "json").stdout)["exercises"][0]["parts"][0]
        assert (submitted["correct"], submitted["note"]) == (False, "squared-distance")
    finally:
        table.table.cache_clear()


# --- grader/judging/rules.py and grader/arithmetic/compare.py: an exact form near a rational answer ----

@pytest.mark.parametrize("answer, key", [
    ("sqrt(9)/10*(1+1/10^6)", "exact-form-not-equal"),   # within the tolerance of 3/10, and not equal
    ("3/10*cos(10^(-30))", "exact-form-not-equal"),
    ("sqrt(9)/10", None), ("sqrt(0.09)", None),         # equal; a number holding a decimal
    ("sqrt(2)", "incorrect"), ("exp(-1000)", "incorrect"),  # far: just not correct
])
def test_an_exact_form_within_the_tolerance_is_told_it_must_be_equal(answer, key):
    """On the table (its rational 3/10, in this process) and through the command's route alike."""
    from grader.judging.check import check_part
    from tests.grader.judged import on_lesson, on_table
    for outcome in (on_table("embedding-distances", "parakeet-monkey", answer),
                    on_lesson("embedding-distances", "parakeet-monkey", answer)):
        assert [f.key for f in outcome.findings] == ([key] if key else []), answer
    assert check_part("embedding-distances", "parakeet-monkey", answer).note == (key or "")


# --- grader/reading/parse.py: brackets the student wrote are theirs, with spaces or not -------------

@pytest.mark.parametrize("answer", ["e^(-1)/2", "e^( -1)/2", "e^( -1 )/2", "e^(\t-1)/2", "(e^-1)/2", "(e^( -1))/2"])
def test_an_exponent_in_its_own_brackets_reads_one_way(answer):
    from grader.judging.check import check_part
    result = check_part("embedding-distances", "parakeet-monkey", answer)
    assert (result.note, result.read_as) == ("incorrect", "(e^(-1))/2"), answer


# --- grader/reading/commas.py: a comma between digits, read the one way the shape allows ------------

COMMAS = [   # (answer, shape, read in en, read in fr): the README's rules on commas
    ("0,3", (), "0.3", "0.3"), ("2*0,5+1", (), "2*0.5 + 1", "2*0.5 + 1"), ("sqrt(0,25)", (), "sqrt(0.25)", "sqrt(0.25)"),
    ("(0,5)", (), "0.5", "0.5"), ("((0,5))", (), "0.5", "0.5"), ("sqrt(2,5)*3", (), "sqrt(2.5)*3", "sqrt(2.5)*3"),
    ("1,871", (), "!comma-two-readings", "1.871"), ("12,345,678", (), "12345678", "!decimal-comma-ambiguous"),
    ("1,5,2", (), "!decimal-comma-ambiguous", "!decimal-comma-ambiguous"),
    ("(2*(0,5), 1, 0)", (3,), ("2*0.5", "1", "0"), ("2*0.5", "1", "0")),
    ("((0,5), 1, 0)", (3,), ("0.5", "1", "0"), ("0.5", "1", "0")),
    ("(sqrt(0,25), 1,5, 0)", (3,), ("sqrt(0.25)", "1.5", "0"), ("sqrt(0.25)", "1.5", "0")),
    ("(exp(0,5)/2, 1, 0)", (3,), ("exp(0.5)/2", "1", "0"), ("exp(0.5)/2", "1", "0")),
    ("(1,871, 2, 3)", (3,), "!comma-two-readings", ("1.871", "2", "3")),
    ("(1,000, 2, 3)", (3,), "!comma-two-readings", ("1.000", "2", "3")),
    ("(1,871,000, 2, 3)", (3,), ("1871000", "2", "3"), "!decimal-comma-in-vector"),
    ("(1,1,0)", (3,), ("1", "1", "0"), ("1", "1", "0")), ("(1, 2, 0,5)", (3,), ("1", "2", "0.5"), ("1", "2", "0.5")),
    ("[0,5, 0,5, 0]", (3,), ("0.5", "0.5", "0"), ("0.5", "0.5", "0")),
    ("(0,5,0,5,0)", (3,), "!separator-ambiguous", "!decimal-comma-in-vector"),
    ("{(1,0,0), (0,5, 0,5, 0)}", (None, 3), (("1", "0", "0"), ("0.5", "0.5", "0")), (("1", "0", "0"), ("0.5", "0.5", "0"))),
    ("((1,0,0), (0,5, 0,5, 0))", (None, 3), (("1", "0", "0"), ("0.5", "0.5", "0")), (("1", "0", "0"), ("0.5", "0.5", "0"))),
    ("{(1,0,0),(0,5,0,5,0)}", (None, 3), "!separator-ambiguous", "!decimal-comma-in-vector"),
    ("0,3", None, ("0", "3"), ("0", "3")), ("(1,5)", (None,), ("1", "5"), "!decimal-comma-in-vector"),
]


def _read_text(answer: str, convention: str, shape):
    from grader.reading import parse
    try:
        reading = parse.read(answer, convention=convention, shape=shape)
    except parse.AnswerSyntaxError as exc:
        return "!" + exc.error.key
    if reading.kind == "scalar":
        return parse.text(reading.tree)
    if reading.kind == "vector":
        return tuple(parse.text(n) for n in reading.tree)
    return tuple(tuple(parse.text(n) for n in point) for point in reading.tree)


@pytest.mark.parametrize("answer, shape, en, fr", COMMAS)
def test_a_comma_between_digits_is_read_the_one_way_the_shape_allows(answer, shape, en, fr):
    assert (_read_text(answer, "en", shape), _read_text(answer, "fr", shape)) == (en, fr)


# --- grader/judging/rules.py: which findings a wrong answer gets, in this process and by the command ---

@pytest.mark.parametrize("exercise_id, part_id, answer, keys", [
    ("attention-weights", "scaled", "(0, 1/2, 1/2)", ["wrong-order", "components-wrong"]),   # two orders fit: said once
    ("attention-weights", "weights", "(0.38, 0.38, 0.23)", ["decimal-imprecise", "components-wrong"]),  # only rounding
    ("attention-weights", "weights", "(1/0, 1, 0)", ["weights-not-normalized", "components-wrong", "not-a-real-number"]),
    ("embedding-distances", "monkey-fourier", "1.8705", ["other-part"]),                    # enough figures
    ("embedding-distances", "monkey-fourier", "1.87", ["other-part", "figures-needed"]),
    ("embedding-distances", "parakeet-monkey", "sqrt(9)/10*(1+1/10^6)", ["exact-form-not-equal"]),
    ("reachable-vertices", "vertices", "{(1,0,0), (0,1,0), (1/2,1/2,0), (3/4,0,1/4)}",      # the exercise's own note
     ["removed-simplex-vertex", "missing-points"]),
    ("reachable-vertices", "vertices", "{(1,0,0), (1,0,0), (1/2,1/2,0), (3/4,0,1/4)}", ["duplicate-point", "missing-points"]),
])
def test_a_wrong_answer_gets_exactly_its_findings(exercise_id, part_id, answer, keys):
    from grader.judging.check import check_part
    from tests.grader.judged import on_lesson
    assert [f.key for f in on_lesson(exercise_id, part_id, answer).findings] == keys
    assert list(check_part(exercise_id, part_id, answer).notes) == keys


# --- grader/judging/check.py: seeds, the exercises asked for, and the totals ---------------------------

def _right_vertices(seed) -> str:
    from grader import bank
    points = bank.variant("reachable-vertices", seed).part("vertices").reference
    return "{" + ", ".join("(" + ", ".join(str(x) for x in point) + ")" for point in points) + "}"


def test_a_seed_is_read_as_its_text_in_nfc_by_check_and_grade():
    """42 and "42" are one seed, and so are José composed and decomposed (the README), on both entry
    points of the judge, not only on the command line."""
    import unicodedata

    from grader.judging.check import check_part, grade_submission
    for seed, same in (("José", unicodedata.normalize("NFD", "José")), ("42", 42)):
        answer = _right_vertices(seed)
        assert check_part("reachable-vertices", "vertices", answer, seed=same).correct, (seed, answer)
        graded = grade_submission({"reachable-vertices": {"vertices": answer}}, seed=same,
                                  exercises=("reachable-vertices",))
        assert graded.seed == seed and graded.score == graded.max_score == 4


def test_grade_submission_grades_the_exercises_asked_for_and_adds_them_up():
    from grader.judging.check import grade_submission
    graded = grade_submission({"terrain-warmup": {"lr-at-step": "3/400000"}}, exercises=("terrain-warmup",))
    assert [e.id for e in graded.exercises] == ["terrain-warmup"]
    assert (graded.score, graded.max_score, graded.internal_errors) == (1.0, 3, 0)
    assert graded.to_dict()["max_score"] == 3 and graded.to_dict()["exercises"][0]["max_score"] == 3
    everything = grade_submission({})
    from grader import bank
    assert everything.max_score == sum(ex.max_score for ex in bank.EXERCISES.values())
    assert [e.id for e in everything.exercises] == list(bank.EXERCISES)


def test_an_internal_error_in_a_submission_is_counted_and_said(monkeypatch, tmp_path):
    from grader.judging import rules
    from grader.judging.check import grade_submission
    from tests.grader.inprocess import grader

    def planted(*args, **kwargs):
        raise RuntimeError("planted by the test")
    monkeypatch.setattr(rules, "judge", planted)
    answers = {"terrain-warmup": {"lr-at-step": "3/400000", "step-at-fraction": "800"}}
    assert grade_submission(answers).internal_errors == 2
    path = tmp_path / "ada.toml"
    path.write_text('[terrain-warmup]\nlr-at-step = "3/400000"\nstep-at-fraction = "800"\n', encoding="utf-8")
    ran = grader("submit", path)
    assert ran.returncode == 3 and "2" in ran.stderr.splitlines()[-1]


def test_the_engine_version_names_the_cache_with_sixteen_hex_digits():
    import re

    from grader.judging.table import engine_version
    assert re.fullmatch(r"[0-9a-f]{16}", engine_version())


# --- grader/reading/parse.py: what the deletion pass found unchecked ----------------------------------

@pytest.mark.parametrize("answer, part, note, column", [
    ("sqrt(2", "parakeet-monkey", "bracket-not-closed", 4),   # the bracket never closed
    ("(1+", "parakeet-monkey", "bracket-not-closed", 0),
    ("(1+)", "parakeet-monkey", "syntax-error", 3),
    ("1+", "parakeet-monkey", "syntax-error", 2),             # the end: the caret just past the text
    ("()", "parakeet-monkey", "empty-answer", 0), ("[]", "parakeet-monkey", "empty-answer", 0),
    ("  \u200b ", "parakeet-monkey", "empty-answer", 0),
    ("{(1,0,0), {1}}", "vertices", "too-nested", 10),         # a set as a point
    ("{(1,0,0), 1}", "vertices", "wrong-point-size", None),   # a number as a point of one coordinate
])
def test_a_refusal_names_its_place(answer, part, note, column):
    from grader.judging.check import check_part
    exercise = "reachable-vertices" if part == "vertices" else "embedding-distances"
    result = check_part(exercise, part, answer)
    assert (result.note, result.column) == (note, column), answer
