"""A variant keeps its answers apart: three significant figures tell every part's answer from each of its
targets (the other parts' answers, its named mistakes), else the seed's stream draws again (issue #31)."""
import pytest

from grader import bank
from grader.arithmetic import tolerance
from grader.arithmetic.intervals import Undecided
from grader.model import geometry as g
from grader.model import targets

IDS = list(bank.EXERCISES)


def crowded(exercise_id: str, seed: str) -> dict:
    """{part: targets three figures cannot tell from its answer}, on the plain numbers or, where they cannot
    decide, on the same variant in SymPy."""
    found = {}
    for part in bank.get(exercise_id).parts:
        try:
            near = targets.crowding(bank.numeric(exercise_id, seed), part.id)
        except Undecided:
            near = targets.crowding(bank.variant(exercise_id, seed), part.id)
        if near:
            found[part.id] = near
    return found


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_few_hundred_variants_of_every_exercise_keep_their_answers_apart(exercise_id):
    found = {seed: c for seed in (f"apart{i}" for i in range(400)) if (c := crowded(exercise_id, seed))}
    assert found == {}


@pytest.mark.slow
@pytest.mark.parametrize("exercise_id", IDS)
def test_thousands_of_variants_of_every_exercise_keep_their_answers_apart(exercise_id):
    found = {seed: c for seed in (str(i) for i in range(5000)) if (c := crowded(exercise_id, seed))}
    assert found == {}


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_variant_asks_for_three_figures_and_the_lesson_for_five_at_most(exercise_id):
    for seed in ("12345", "s0042", "alice"):
        ex = bank.variant(exercise_id, seed)
        assert {p.id: targets.figures(ex, p.id) for p in ex.parts} == \
            {p.id: tolerance.SIGNIFICANT_FIGURES for p in ex.parts}
    lesson = bank.get(exercise_id)
    for part in lesson.parts:
        asks = targets.figures(lesson, part.id)
        assert asks <= targets.MAX_FIGURES == 5
        kept = {f"mistake {key}" for key, _ in targets.mistakes(lesson, part.id)}
        equal = {name for name, _ in targets.named_targets(lesson, part.id) if name.startswith("mistake ")} - kept
        # the figures it asks for tell its answer from every target; a mistake the lesson's data makes
        # its very answer (0 = a dot product = a cosine) is no target there
        assert set(targets.crowding(lesson, part.id, asks)) <= equal


def test_seed_12345_of_the_embeddings_is_drawn_again_with_its_cosines_apart():
    """Its first draw made v(monkey) a multiple of v(parakeet): two cosines equal, a part asking for 15 figures."""
    ex = bank.variant("embedding-distances", 12345)
    u, v = ex.data["parakeet"], ex.data["monkey"]
    assert g.cosine(u, v) != 1                                         # not parallel any more
    cosines = [ex.part(f"cos-{a}-{b}").reference for a, b in (("parakeet", "fourier"), ("monkey", "fourier"))]
    assert abs(float(cosines[0] - cosines[1])) > 0.01
    assert {targets.figures(ex, p.id) for p in ex.parts} == {3}
    assert crowded("embedding-distances", "12345") == {}


def test_an_equal_target_does_not_make_a_part_ask_for_more_figures():
    """Two equal irrational answers: an equal target is no reason for more figures (it asked for 15)."""
    import sympy
    root = 2 * sympy.sqrt(205) / 205
    assert targets.needed_figures((root,), [(root,)]) == 3
    assert targets.needed_figures((root,), [(2 / sympy.sqrt(205),), (root * 1.001,)]) == 4
