"""The bank: shapes the site relies on, and every reference against independent NumPy."""
import itertools
from pathlib import Path

import numpy as np
import pytest
import sympy
from mkdocs.utils.yaml import yaml_load

from grader import bank
from grader.judging.check import check_part
from grader.reading.parse import parse_answer


def f(x):
    return float(sympy.N(x, 30))


ROOT = Path(__file__).resolve().parents[2]


def chapters_exercises() -> dict[str, str]:
    """{exercise id: the English chapter (its name without .md) whose `/// exercise | id` block holds it}, in the
    navigation's order."""
    from hooks.chapters.blockspec import scan_blocks

    def pages(items):   # a page's file name, or a section {title: [its items]}
        for item in items:
            yield from (page for section in item.values() for page in pages(section)) if isinstance(item, dict) else [item]

    found = {}
    for page in pages(yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]):
        uses, _ = scan_blocks((ROOT / "docs" / "en" / page).read_text(encoding="utf-8"), page)
        found.update((use.argument, page.removesuffix(".md")) for use in uses if use.name == "exercise")
    return found


def test_lesson_order_and_ids():
    """One exercise per module of grader/exercises, in lesson order: the order of the chapters that hold them."""
    modules = {path.stem for path in (ROOT / "grader" / "exercises").glob("*.py") if not path.name.startswith("_")}
    assert {d.parts.__module__.rsplit(".", 1)[1] for d in bank.definitions()} == modules
    lessons = [e.lesson for e in bank.EXERCISES.values()]
    assert lessons == sorted(lessons) and len(set(bank.EXERCISES)) == len(modules)
    assert list(bank.EXERCISES) == list(chapters_exercises())


def test_unknown_id_is_a_clear_key_error():
    with pytest.raises(KeyError, match="unknown exercise 'nope'"):
        bank.get("nope")


@pytest.mark.parametrize("ex, part", [(e, p) for e in bank.EXERCISES.values() for p in e.parts],
                         ids=lambda x: getattr(x, "id", ""))
def test_parts_are_well_formed(ex, part):
    assert part.kind in bank.KINDS and part.points > 0
    parse_answer(part.example)                         # the placeholder parses
    assert not check_part(ex.id, part.id, part.example).correct   # and is not the answer


EMB = {"parakeet": np.array([1.0, 0.5, 0.0]), "monkey": np.array([1.2, 0.3, 0.1]),
       "fourier": np.array([0.0, 0.0, 1.5])}


@pytest.mark.parametrize("a, b", [("parakeet", "monkey"), ("parakeet", "fourier"),
                                  ("monkey", "fourier")])
def test_embedding_references(a, b):
    ex = bank.get("embedding-distances")
    u, v = EMB[a], EMB[b]
    assert np.isclose(f(ex.part(f"{a}-{b}").reference), np.linalg.norm(u - v))
    cos = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
    assert np.isclose(f(ex.part(f"cos-{a}-{b}").reference), cos, atol=1e-12)
    assert isinstance(ex.data[a], sympy.MatrixBase) and ex.data[a].shape == (3, 1)


def test_attention_references():
    ex = bank.get("attention-weights")
    q = np.array([1, 0, 1, 0.0])
    keys = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 1.0]])
    scores = keys @ q
    scaled = scores / np.sqrt(4)
    weights = np.exp(scaled) / np.exp(scaled).sum()
    for name, expected in (("scores", scores), ("scaled", scaled), ("weights", weights)):
        got = [f(x) for x in ex.part(name).reference]
        assert np.allclose(got, expected), name
    assert ex.data["d_k"] == 4 and len(ex.data["keys"]) == 3


def test_terrain_references():
    ex = bank.get("terrain-warmup")
    peak, warm, step = 3e-4, 2000, 50
    lr = np.linspace(0, peak, warm + 1)            # lr at steps 0..2000
    assert np.isclose(f(ex.part("lr-at-step").reference), lr[step])
    assert int(ex.part("step-at-fraction").reference) == int(np.argmax(lr >= 0.4 * peak - 1e-15))
    assert np.isclose(f(ex.part("first-step-ratio").reference), peak / lr[10])


def brute_force_vertices(floor_h: float, cap_d: float) -> set:
    """Vertices = feasible points where 2 independent constraints are tight (numpy)."""
    planes = [(i, 0.0) for i in range(3)] + [(0, floor_h), (2, cap_d)]
    found = set()
    for (i, a), (j, b) in itertools.combinations(planes, 2):
        m = np.array([[1.0, 1, 1], np.eye(3)[i], np.eye(3)[j]])
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        x = np.linalg.solve(m, [1, a, b])
        if (x >= -1e-12).all() and x[0] >= floor_h - 1e-12 and x[2] <= cap_d + 1e-12:
            found.add(tuple(np.round(x, 9)))
    return found


def test_reachable_vertices_by_brute_force():
    ex = bank.get("reachable-vertices")
    got = {tuple(round(f(c), 9) for c in p) for p in ex.part("vertices").reference}
    assert got == brute_force_vertices(0.5, 0.25) and len(got) == 4
    assert ex.data["floors"] == {"H": sympy.Rational(1, 2)}
    assert ex.data["caps"] == {"D": sympy.Rational(1, 4)}


def test_submanifold_references():
    ex = bank.get("submanifold-dims")
    d = ex.data
    assert [int(p.reference) for p in ex.parts] == [15, 6, 9, 13]
    # dimension of a simplex = rank of its vertex differences (numpy)
    rank = np.linalg.matrix_rank(np.eye(len(d["warmup_sources"]))[1:] - np.eye(7)[0])
    assert rank == int(ex.part("warmup-dim").reference)


@pytest.mark.parametrize("seed", [None, "s1", "s2"])
def test_every_title_prompt_form_and_label_is_in_the_catalog(seed):
    """`grader show` words come from the catalogs; each prompt's {placeholders} are its params."""
    from grader.languages.messages import catalog, placeholders
    english = catalog("en")
    for exercise_id in bank.EXERCISES:
        ex = bank.variant(exercise_id, seed)
        assert f"exercise.{ex.id}.title" in english
        assert {f"data.{ex.id}.{name}" for name in ex.data} <= set(english)
        for part in ex.parts:
            assert part.form in english and part.exercise == ex.id
            prompt = english[f"part.{ex.id}.{part.id}.prompt"]
            assert placeholders(prompt) == set(dict(part.params)), part.id
