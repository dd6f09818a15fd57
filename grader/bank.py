"""The exercise bank: one :class:`Exercise` per lesson, data and exact answers.

Every reference answer is computed here from the exercise's ``data`` with
SymPy (see :mod:`grader.geometry`); none is typed. Data shapes, per id:

``embedding-distances`` (lesson 1)
    ``{"parakeet": Matrix, "monkey": Matrix, "fourier": Matrix}`` (3x1, exact
    rationals from the lesson's decimals).
``attention-weights`` (lesson 2)
    ``{"q": Matrix, "keys": (Matrix, Matrix, Matrix), "d_k": Integer}``.
``terrain-warmup`` (lesson 3)
    ``{"peak_lr": Rational(3, 10000), "warmup_steps": Integer(2000),
    "step": Integer(50), "fraction": Rational(2, 5), "ratio_step": Integer(10)}``;
    v2's learning rate at step s is ``peak_lr * s / warmup_steps`` up to
    ``warmup_steps`` (:func:`grader.geometry.linear_warmup_lr`); v1 used
    ``peak_lr`` from its first step.
``reachable-vertices`` (lesson 4)
    ``{"sources": ("hermes3-general", "gutenberg", "dictionary"),
    "symbols": ("H", "G", "D"), "floors": {"H": Rational(1, 2)},
    "caps": {"D": Rational(1, 4)}}``; the region is the part of the simplex
    H + G + D = 1, all >= 0, that satisfies every floor and cap.
``submanifold-dims`` (lesson 5)
    ``{"n_sources": Integer(16), "warmup_sources": (7 names),
    "warmup_until": Integer(20000), "polish_from": Integer(112000),
    "polish_excluded": ("repo-docs", "repo-docstrings")}``.

Part kinds: 'scalar' (one number), 'vector' (a tuple, in the stated order),
'set' (points in any order), 'integer' (an exact whole number). A vector's
reference is an ``ImmutableMatrix`` column, a set's a ``FiniteSet`` of
``Tuple`` points, the others SymPy numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import sympy
from sympy import FiniteSet, ImmutableMatrix, Integer, Rational, Tuple

from . import geometry as g

KINDS = frozenset({"scalar", "vector", "set", "integer"})


@dataclass(frozen=True)
class Part:
    id: str
    points: int
    kind: str
    form: str        # how to type it, e.g. "(a, b, c)"
    example: str     # a valid answer of the right shape that is NOT correct
    reference: sympy.Basic
    prompt: str      # what to compute, in English (the site states it per locale)


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: int
    title: str
    data: Mapping[str, object]
    parts: tuple[Part, ...]

    def part(self, part_id: str) -> Part:
        for part in self.parts:
            if part.id == part_id:
                return part
        raise UnknownPart(self.id, part_id)

    @property
    def max_score(self) -> int:
        return sum(p.points for p in self.parts)


class UnknownExercise(KeyError):
    def __init__(self, exercise_id: str):
        super().__init__(exercise_id)
        self.exercise_id = exercise_id

    def __str__(self) -> str:
        return f"unknown exercise {self.exercise_id!r}; known: {', '.join(EXERCISES)}"


class UnknownPart(KeyError):
    def __init__(self, exercise_id: str, part_id: str):
        super().__init__(part_id)
        self.exercise_id, self.part_id = exercise_id, part_id

    def __str__(self) -> str:
        known = ", ".join(p.id for p in get(self.exercise_id).parts)
        return f"unknown part {self.part_id!r} of {self.exercise_id}; known: {known}"


def _vec(*xs: str) -> ImmutableMatrix:
    return ImmutableMatrix([g.exact(x) for x in xs])


def _column(values) -> ImmutableMatrix:
    return ImmutableMatrix(list(values))


def _embedding() -> Exercise:
    data = MappingProxyType({"parakeet": _vec("1.0", "0.5", "0.0"),
                             "monkey": _vec("1.2", "0.3", "0.1"),
                             "fourier": _vec("0.0", "0.0", "1.5")})
    pairs = (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier"))
    parts = [Part(f"{a}-{b}", 1, "scalar", "a number, e.g. sqrt(2)/3 or 0.471", "1/2",
                  g.euclidean(data[a], data[b]), f"Euclidean distance |v({a}) - v({b})|")
             for a, b in pairs]
    parts += [Part(f"cos-{a}-{b}", 1, "scalar", "a number, e.g. sqrt(2)/3 or 0.471", "1/2",
                   g.cosine(data[a], data[b]), f"cosine similarity of v({a}) and v({b})")
              for a, b in pairs]
    return Exercise("embedding-distances", 1, "Computing distances", data, tuple(parts))


def _attention() -> Exercise:
    keys = (_vec("1", "0", "0", "0"), _vec("0", "0", "1", "0"), _vec("0", "1", "0", "1"))
    data = MappingProxyType({"q": _vec("1", "0", "1", "0"), "keys": keys, "d_k": Integer(4)})
    scores = [g.dot(data["q"], k) for k in keys]
    scaled = [s / sympy.sqrt(data["d_k"]) for s in scores]
    form = "(a, b, c) in key order"
    parts = (
        Part("scores", 3, "vector", form, "(0, 1, 2)", _column(scores), "scores q . k_i"),
        Part("scaled", 3, "vector", form, "(0, 1, 2)", _column(scaled),
             "scaled scores q . k_i / sqrt(d_k)"),
        Part("weights", 3, "vector", form, "(1/3, 1/3, 1/3)", _column(g.softmax(scaled)),
             "attention weights softmax(q . k_i / sqrt(d_k))"),
    )
    return Exercise("attention-weights", 2, "Reading a projection", data, parts)


def _terrain() -> Exercise:
    data = MappingProxyType({"peak_lr": Rational(3, 10000), "warmup_steps": Integer(2000),
                             "step": Integer(50), "fraction": Rational(2, 5),
                             "ratio_step": Integer(10)})
    peak, warm = data["peak_lr"], data["warmup_steps"]
    lr = g.linear_warmup_lr(data["step"], peak, warm)
    reach = sympy.ceiling(data["fraction"] * warm)
    ratio = peak / g.linear_warmup_lr(data["ratio_step"], peak, warm)
    parts = (
        Part("lr-at-step", 1, "scalar", "a number, e.g. 3/20000 or 1.5e-4", "1/1000", lr,
             f"v2's learning rate at step {data['step']}"),
        Part("step-at-fraction", 1, "integer", "a whole number of steps, e.g. 1200", "1200",
             reach, f"the first step at which v2's lr reaches {data['fraction'] * 100}% of peak"),
        Part("first-step-ratio", 1, "scalar", "a number, e.g. 50", "50", ratio,
             f"how many times larger v1's first-step lr was than v2's lr at step {data['ratio_step']}"),
    )
    return Exercise("terrain-warmup", 3, "Reading the terrain", data, parts)


def _reachable() -> Exercise:
    data = MappingProxyType({"sources": ("hermes3-general", "gutenberg", "dictionary"),
                             "symbols": ("H", "G", "D"),
                             "floors": MappingProxyType({"H": Rational(1, 2)}),
                             "caps": MappingProxyType({"D": Rational(1, 4)})})
    vertices = g.region_vertices(data["symbols"], data["floors"], data["caps"])
    reference = FiniteSet(*(Tuple(*v) for v in vertices))
    part = Part("vertices", len(vertices), "set", "{(H, G, D), (H, G, D), ...}",
                "{(1/3, 1/3, 1/3)}", reference,
                "every vertex of the reachable region, each as (H, G, D), in any order")
    return Exercise("reachable-vertices", 4, "Walking the reachable region", data, (part,))


def _submanifold() -> Exercise:
    data = MappingProxyType({
        "n_sources": Integer(16),
        "warmup_sources": ("hermes3-general", "hermes3-creative", "hermes3-roleplay",
                           "chat", "smoltalk", "oasst", "gutenberg"),
        "warmup_until": Integer(20000), "polish_from": Integer(112000),
        "polish_excluded": ("repo-docs", "repo-docstrings")})
    n, warm = data["n_sources"], len(data["warmup_sources"])
    form = "a whole number, e.g. 4"
    parts = (
        Part("full-dim", 1, "integer", form, "4", g.simplex_dimension(n),
             f"dimension of the full simplex over all {n} sources"),
        Part("warmup-dim", 1, "integer", form, "4", g.simplex_dimension(warm),
             f"dimension of the sub-simplex walked before step {data['warmup_until']}"),
        Part("warmup-pinned", 1, "integer", form, "4", Integer(n - warm),
             "how many of the coordinates are pinned to zero during the warmup"),
        Part("polish-dim", 1, "integer", form, "4",
             g.simplex_dimension(n - len(data["polish_excluded"])),
             f"dimension of the simplex from step {data['polish_from']}, with "
             f"{' and '.join(data['polish_excluded'])} excluded (cap 0)"),
    )
    return Exercise("submanifold-dims", 5, "Reading the submanifold", data, parts)


EXERCISES: Mapping[str, Exercise] = MappingProxyType({
    ex.id: ex for ex in (_embedding(), _attention(), _terrain(), _reachable(), _submanifold())})


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; :class:`UnknownExercise` (a KeyError) if none."""
    try:
        return EXERCISES[exercise_id]
    except KeyError:
        raise UnknownExercise(exercise_id) from None
