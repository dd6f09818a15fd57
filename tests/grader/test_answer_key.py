"""``grader show --answers``: the instructor's answer key, in every language, of the lesson and of a variant.
Its answers are the judge's: each one, checked by ``grader check`` (or ``check_part``) in the key's
language, gets full marks."""
import json

import pytest

from grader import bank
from grader.judging.check import check_part
from grader.languages.messages import LOCALES, message
from grader.model.answerkey import key_dict, rounded
from tests.grader.test_cli import here, run

SEEDS = (None, "12345", "s1", "alice@example.org")


def _answers(key: dict):
    for part in key["answers"]:
        yield part["id"], part["exact"]
        if part["decimal"] is not None:
            yield part["id"], part["decimal"]


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_answer_in_the_key_gets_full_marks_in_its_language(lang, seed):
    for ex_id in bank.EXERCISES:
        key = key_dict(bank.variant(ex_id, seed), lang)
        assert [p["id"] for p in key["answers"]] == [p.id for p in bank.EXERCISES[ex_id].parts]
        for part_id, answer in _answers(key):
            result = check_part(ex_id, part_id, answer, lang, seed=seed)
            assert result.correct and result.score == result.max_score, (ex_id, part_id, answer, result.note)


@pytest.mark.parametrize("lang", LOCALES)
def test_the_key_is_in_the_chosen_language(lang):
    proc = here("show", "--answers", "embedding-distances", "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    assert message("answer-key.heading", lang) in proc.stdout
    assert message("exercise.embedding-distances.title", lang) in proc.stdout
    assert message("part-figures", lang, digits=4) in proc.stdout          # parakeet-fourier asks for 4
    assert rounded(bank.get("embedding-distances").part("parakeet-fourier").reference, 4, lang) in proc.stdout


def test_the_decimal_keeps_the_parts_figures_and_the_locales_mark():
    part = bank.get("embedding-distances").part("parakeet-fourier")        # sqrt(14)/2 = 1.8708...
    assert (rounded(part.reference, 4, "en"), rounded(part.reference, 4, "fr")) == ("1.871", "1,871")
    assert rounded(bank.get("terrain-warmup").part("lr-at-step").reference, 3, "en") == "0.00000750"


def test_without_an_id_every_exercise_and_json_lists_them():
    proc = here("show", "--answers", "--format", "json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and [d["id"] for d in data] == list(bank.EXERCISES)
    text = here("show", "--answers").stdout
    assert all(f"{ex_id}:" in text for ex_id in bank.EXERCISES)
    one = json.loads(here("show", "--answers", "terrain-warmup", "--format", "json").stdout)
    assert one["id"] == "terrain-warmup" and one["seed"] is None
    assert {p["id"]: p["exact"] for p in one["answers"]}["step-at-fraction"] == "800"


def test_a_seeded_key_is_the_variants_and_an_unknown_id_is_refused():
    lesson = json.loads(here("show", "--answers", "reachable-vertices", "--format", "json").stdout)
    variant = json.loads(here("show", "--answers", "reachable-vertices", "--seed", "s1", "--format", "json").stdout)
    assert variant["seed"] == "s1" and variant["answers"] != lesson["answers"]
    proc = here("show", "--answers", "nope")
    assert proc.returncode == 2 and "nope" in proc.stderr


@pytest.mark.slow
def test_the_real_command_a_seeded_key_is_what_check_accepts():
    """The real CLI, in French: every answer of the key to a variant, given to ``grader check --seed``."""
    seed, lang = "12345", "fr"
    proc = run("show", "--answers", "--seed", seed, "--lang", lang, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    keys = json.loads(proc.stdout)
    text = run("show", "--answers", "--seed", seed, "--lang", lang).stdout
    assert message("answer-key.heading", lang) in text and message("label-variant", lang, seed=seed) in text
    for key in keys:
        for part_id, answer in _answers(key):
            checked = run("check", key["id"], part_id, answer, "--seed", seed, "--lang", lang, "--format", "json")
            result = json.loads(checked.stdout)
            assert checked.returncode == 0 and result["correct"], (key["id"], part_id, answer, result)
