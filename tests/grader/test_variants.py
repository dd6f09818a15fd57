"""Variants: deterministic data from a seed, checked against the exercise's character."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy

from grader import bank
from grader.cli.output import data_text
from grader.exercises.embedding_distances import PAIRS
from grader.judging.check import check_part, grade_submission
from grader.model import seeds, variants
from grader.reading.show import show
from tests.grader.test_bank import brute_force_vertices

IDS = list(bank.EXERCISES)
SEEDS = [f"s{i:04d}" for i in range(200)]


def f(x):
    return float(sympy.N(x, 30))


def fingerprint(ex) -> str:
    return "; ".join(f"{k}: {data_text(v)}" for k, v in ex.data.items())


def test_no_seed_is_the_lesson():
    for exercise_id in IDS:
        assert bank.variant(exercise_id, None) is bank.get(exercise_id)
        assert bank.get(exercise_id).seed is None


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_lessons_own_data_has_the_character_variants_keep(exercise_id):
    assert variants.problems(bank.get(exercise_id)) == []


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", IDS)
def test_every_variant_keeps_the_exercise_character(exercise_id):
    found = {seed: variants.problems(bank.variant(exercise_id, seed)) for seed in SEEDS}
    assert {seed: p for seed, p in found.items() if p} == {}
    distinct = {fingerprint(bank.variant(exercise_id, seed)) for seed in SEEDS}
    assert len(distinct) >= 20, "variants must actually vary"


# Pinned: a change here changes every student's variant. Same on every machine. The lessons' exercises, each
# named for its documented data; an exercise added later is held to the same draw in another interpreter below.
PINNED = {
    "embedding-distances": "parakeet: (3/2, 7/10, 3/10); monkey: (13/10, 3/5, 1/10); fourier: (1/10, 3/10, 13/10)",
    "attention-weights": "q: (1, 0, 0, 0); keys: ((1, 1, 0, 1), (1, 0, 0, 0), (0, 1, 0, 1)); d_k: 4",
    "terrain-warmup": "peak_lr: 3/10000; warmup_steps: 3000; step: 70; fraction: 3/5; ratio_step: 20",
    "reachable-vertices": "sources: hermes3-general, gutenberg, dictionary; symbols: H, G, D; floors: H = 3/5; caps: D = 1/3",
    "submanifold-dims": "n_sources: 17; warmup_sources: hermes3-general, hermes3-creative, hermes3-roleplay, chat, smoltalk, oasst, gutenberg; warmup_until: 30000; polish_from: 104000; polish_excluded: repo-docstrings",
}


@pytest.mark.parametrize("exercise_id", PINNED)
def test_a_fixed_seed_gives_pinned_data(exercise_id):
    assert fingerprint(bank.variant(exercise_id, "s0042")) == PINNED[exercise_id]


ANOTHER_INTERPRETER = """
from grader import bank
from tests.grader.test_variants import fingerprint
for exercise_id in bank.EXERCISES:
    print(exercise_id, fingerprint(bank.variant(exercise_id, "s0042")), sep="\t")
"""


def test_a_seed_gives_every_exercise_the_same_data_in_another_interpreter():
    """What the pins hold for the lessons' exercises, for every exercise of the registry: another process with
    another hash seed (another order of sets and dicts of strings) draws the same variant."""
    env = {**os.environ, "PYTHONHASHSEED": "4242" if os.environ.get("PYTHONHASHSEED") != "4242" else "7"}
    ran = subprocess.run([sys.executable, "-c", ANOTHER_INTERPRETER], capture_output=True, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert ran.returncode == 0, ran.stderr[-2000:]
    there = dict(line.split("\t") for line in ran.stdout.splitlines())
    assert there == {exercise_id: fingerprint(bank.variant(exercise_id, "s0042")) for exercise_id in IDS}


def test_same_seed_same_variant_and_seed_forms():
    fresh = variants.in_sympy(bank.definition("terrain-warmup"), variants.drawn(bank.definition("terrain-warmup"), "s1"), "s1")   # a new draw, not the cached one
    assert fresh is not bank.variant("terrain-warmup", "s1")
    assert fingerprint(fresh) == fingerprint(bank.variant("terrain-warmup", "s1"))
    assert bank.variant("terrain-warmup", 42) is bank.variant("terrain-warmup", "42")
    assert bank.variant("terrain-warmup", 42).seed == "42"
    assert fingerprint(bank.variant("terrain-warmup", "s1")) != fingerprint(bank.variant("terrain-warmup", "s2"))


def test_draw_is_a_pure_function_of_exercise_and_seed():
    a, b = seeds.Draw("x", "s1"), seeds.Draw("x", "s1")
    assert [a.integer(0, 9) for _ in range(50)] == [b.integer(0, 9) for _ in range(50)]
    c = seeds.Draw("y", "s1")
    assert [seeds.Draw("x", "s1").integer(0, 10**9) for _ in range(1)] != [c.integer(0, 10**9)]
    d = seeds.Draw("x", "s3")
    picks = [d.integer(2, 4) for _ in range(3000)]
    assert set(picks) == {2, 3, 4} and all(800 < picks.count(v) < 1200 for v in (2, 3, 4))
    assert seeds.Draw("x", "s4").sample("abcdefg", 4) == tuple(sorted(seeds.Draw("x", "s4").sample("abcdefg", 4)))


@pytest.mark.parametrize("seed", ["", " s1", "s1\n", "x" * 101, True, 1.5, None.__class__])
def test_unusable_seeds_are_refused(seed):
    with pytest.raises(seeds.InvalidSeed):
        bank.variant("terrain-warmup", seed)


def test_unknown_exercise_with_a_seed():
    with pytest.raises(bank.UnknownExercise):
        bank.variant("nope", "s1")


# --- references of variants against independent NumPy ----------------------

def _np(v):
    return np.array([f(x) for x in v])


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_variant_references_against_numpy(seed):
    emb = bank.variant("embedding-distances", seed)
    for a, b in PAIRS:
        u, v = _np(emb.data[a]), _np(emb.data[b])
        assert np.isclose(f(emb.part(f"{a}-{b}").reference), np.linalg.norm(u - v))
        cos = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
        assert np.isclose(f(emb.part(f"cos-{a}-{b}").reference), cos, atol=1e-12)

    att = bank.variant("attention-weights", seed)
    scores = np.array([_np(k) @ _np(att.data["q"]) for k in att.data["keys"]])
    scaled = scores / np.sqrt(f(att.data["d_k"]))
    weights = np.exp(scaled) / np.exp(scaled).sum()
    for name, expected in (("scores", scores), ("scaled", scaled), ("weights", weights)):
        assert np.allclose([f(x) for x in att.part(name).reference], expected)
    assert sorted(scores)[1] == sorted(scores)[2] > sorted(scores)[0]     # the tie, at the top

    ter = bank.variant("terrain-warmup", seed)
    d = ter.data
    peak, warm = f(d["peak_lr"]), int(d["warmup_steps"])
    lr = np.linspace(0, peak, warm + 1)
    assert np.isclose(f(ter.part("lr-at-step").reference), lr[int(d["step"])])
    first = int(np.argmax(lr >= f(d["fraction"]) * peak - 1e-15))
    assert int(ter.part("step-at-fraction").reference) == first
    assert np.isclose(f(ter.part("first-step-ratio").reference), peak / lr[int(d["ratio_step"])])

    reach = bank.variant("reachable-vertices", seed)
    (floor,), (cap,) = reach.data["floors"].values(), reach.data["caps"].values()
    got = {tuple(round(f(c), 9) for c in p) for p in reach.part("vertices").reference}
    assert got == brute_force_vertices(f(floor), f(cap)) and len(got) == 4

    sub = bank.variant("submanifold-dims", seed)
    n, k = int(sub.data["n_sources"]), len(sub.data["warmup_sources"])
    m = len(sub.data["polish_excluded"])
    assert [int(p.reference) for p in sub.parts] == [n - 1, k - 1, n - k, n - m - 1]


# --- checking against a variant ---------------------------------------------

def test_an_answer_is_checked_against_its_variant():
    lesson = bank.get("terrain-warmup").part("step-at-fraction").reference
    seed = next(s for s in SEEDS
                if bank.variant("terrain-warmup", s).part("step-at-fraction").reference != lesson)
    mine = str(bank.variant("terrain-warmup", seed).part("step-at-fraction").reference)
    assert check_part("terrain-warmup", "step-at-fraction", mine, seed=seed).correct
    assert not check_part("terrain-warmup", "step-at-fraction", mine).correct
    assert not check_part("terrain-warmup", "step-at-fraction", str(lesson), seed=seed).correct


def test_feedback_names_the_mistake_in_the_variant():
    ex = bank.variant("embedding-distances", "s7")
    squared = show(ex.part("parakeet-monkey").reference ** 2)
    result = check_part("embedding-distances", "parakeet-monkey", squared, seed="s7")
    assert result.note == "squared-distance"


def answer(part) -> str:
    if part.kind == "set":
        return "{" + ", ".join(show(tuple(point)) for point in part.reference) + "}"
    return show(part.reference)


def test_a_whole_submission_against_a_variant():
    answers = {ex_id: {p.id: answer(p) for p in bank.variant(ex_id, "s9").parts} for ex_id in IDS}
    result = grade_submission(answers, seed="s9")
    assert result.all_correct and result.seed == "s9" and result.to_dict()["seed"] == "s9"
    assert not grade_submission(answers).all_correct
