"""``grader check-exercise``: an author's check of one exercise on its lesson's data and its variants."""
from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from grader import bank
from grader import exercises as package
from grader.model import checkup
from tests.conftest import ROOT
from tests.grader.inprocess import grader

SOURCE = ROOT / "grader" / "exercises" / "terrain_warmup.py"
RATIO = 'peak / _lr(data, data["ratio_step"])'      # the reference of part first-step-ratio


@pytest.mark.parametrize("exercise_id", list(bank.EXERCISES))
def test_every_exercise_of_the_bank_passes(exercise_id):
    done = grader("check-exercise", exercise_id, "--variants", "20")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [f"ok: {exercise_id}, its lesson's data and 20 variants: nothing breaks"]


@pytest.fixture
def planted(tmp_path, monkeypatch):
    """A copy of terrain_warmup.py as a new exercise module of the bank, its last reference written with a
    float zero (``+ 0.0``), found by the bank like any module of grader/exercises."""
    source = SOURCE.read_text(encoding="utf-8")
    assert RATIO in source and 'id="terrain-warmup"' in source
    source = source.replace(RATIO, RATIO + " + 0.0").replace('id="terrain-warmup"', 'id="planted-warmup"')
    (tmp_path / "planted_warmup.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    caches = (bank.definitions, bank.definition)
    for cache in caches:
        cache.cache_clear()
    yield "planted-warmup"
    sys.modules.pop(f"{package.__name__}.planted_warmup", None)
    monkeypatch.undo()
    for cache in caches:
        cache.cache_clear()


def test_a_float_in_a_reference_is_named_with_its_part(planted):
    assert planted in bank.EXERCISES
    done = grader("check-exercise", planted, "--variants", "3")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    lesson = [line for line in lines if line.startswith(f"{planted}, lesson, part first-step-ratio: ")]
    assert len(lesson) == 1 and "is not exact: it holds the float 200.0" in lesson[0]
    for seed in checkup.seeds(3):
        assert any(line.startswith(f"{planted}, seed '{seed}', part first-step-ratio: ") and "float" in line
                   for line in lines), seed
    assert not any("part lr-at-step" in line or line.startswith("ok") for line in lines)


def test_a_correct_example_is_named():
    warmup = bank.definition("terrain-warmup")
    answered = replace(warmup, parts=lambda data, lesson: tuple(
        replace(p, example=str(p.reference)) if p.id == "lr-at-step" else p for p in warmup.parts(data, lesson)))
    assert checkup.findings(answered, 0) == [
        "terrain-warmup, lesson, part lr-at-step: the example answer '3/400000' is the right answer"]


def test_a_named_mistake_equal_to_a_variant_s_answer_is_named_and_the_lesson_s_is_not():
    warmup = bank.definition("terrain-warmup")
    mistaken = replace(warmup, mistakes=lambda ex: {
        **warmup.mistakes(ex), "step-at-fraction": [("off-by-one-step", ex.part("step-at-fraction").reference)]})
    variant = replace(bank.variant("terrain-warmup", "check-0"), definition=mistaken)
    assert checkup.variant_findings(variant) == [
        "terrain-warmup, seed 'check-0', part step-at-fraction: the named mistake off-by-one-step equals the answer"]
    lines = checkup.findings(mistaken, 1)       # every draw is drawn again: the first one's reason is said
    assert lines[0].startswith("terrain-warmup, seed 'check-0': no valid variant of terrain-warmup")
    assert lines[1:] == ["terrain-warmup, seed 'check-0', part step-at-fraction: "
                         "the named mistake off-by-one-step equals the answer"]
