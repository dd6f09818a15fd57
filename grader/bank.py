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

Titles, prompts, forms and data labels are messages (keys
``exercise.<id>.title``, ``part.<id>.<part>.prompt``, ``form.<name>``,
``data.<id>.<name>``) in :mod:`grader.messages`, so ``grader show`` speaks
the student's language; a part's ``params`` fill its prompt from the data.

:func:`variant` gives an exercise drawn from a seed (:mod:`grader.variants`):
the same shapes, new data, references computed the same way.

Part kinds: 'scalar' (one number), 'vector' (a tuple, in the stated order),
'set' (points in any order), 'integer' (an exact whole number). A vector's
reference is an ``ImmutableMatrix`` column, a set's a ``FiniteSet`` of
``Tuple`` points, the others SymPy numbers.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Callable, Mapping

import sympy
from sympy import FiniteSet, ImmutableMatrix, Integer, Rational, Tuple

from . import geometry as g
from .messages import message

KINDS = frozenset({"scalar", "vector", "set", "integer"})


@dataclass(frozen=True)
class Part:
    id: str
    points: int
    kind: str
    form: str        # message key of how to type it, e.g. "form.key-order"
    example: str     # a valid answer of the right shape that is NOT correct
    reference: sympy.Basic
    exercise: str = ""
    params: tuple[tuple[str, str], ...] = ()   # fill the prompt from the data

    def prompt_in(self, lang: str) -> str:
        """What to compute, in ``lang``."""
        return message(f"part.{self.exercise}.{self.id}.prompt", lang, **dict(self.params))

    def form_in(self, lang: str) -> str:
        return message(self.form, lang)

    @property
    def prompt(self) -> str:
        return self.prompt_in("en")


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: int
    data: Mapping[str, object]
    parts: tuple[Part, ...]
    seed: str | None = None      # None: the lesson's own data

    def part(self, part_id: str) -> Part:
        for part in self.parts:
            if part.id == part_id:
                return part
        raise UnknownPart(self.id, part_id)

    @property
    def max_score(self) -> int:
        return sum(p.points for p in self.parts)

    def title_in(self, lang: str) -> str:
        return message(f"exercise.{self.id}.title", lang)

    @property
    def title(self) -> str:
        return self.title_in("en")

    def label_in(self, name: str, lang: str) -> str:
        """How the data item ``name`` is called in ``lang``, e.g. 'peak learning rate (peak_lr)'."""
        return message(f"data.{self.id}.{name}", lang)


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


def _params(**values: object) -> tuple[tuple[str, str], ...]:
    return tuple((k, str(v)) for k, v in values.items())


PAIRS = (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier"))


def _embedding(data: Mapping, seed: str | None = None) -> Exercise:
    ex = "embedding-distances"
    parts = [Part(f"{a}-{b}", 1, "scalar", "form.number", "1/2",
                  g.euclidean(data[a], data[b]), ex, _params(a=a, b=b)) for a, b in PAIRS]
    parts += [Part(f"cos-{a}-{b}", 1, "scalar", "form.number", "1/2",
                   g.cosine(data[a], data[b]), ex, _params(a=a, b=b)) for a, b in PAIRS]
    return Exercise(ex, 1, data, tuple(parts), seed)


def _attention(data: Mapping, seed: str | None = None) -> Exercise:
    ex = "attention-weights"
    scores = [g.dot(data["q"], k) for k in data["keys"]]
    scaled = [s / sympy.sqrt(data["d_k"]) for s in scores]
    form = "form.key-order"
    parts = (
        Part("scores", 3, "vector", form, "(0, 1, 2)", _column(scores), ex),
        Part("scaled", 3, "vector", form, "(0, 1, 2)", _column(scaled), ex),
        # simplified for the lesson's worked solution; a variant's weights are only ever compared
        Part("weights", 3, "vector", form, "(1/3, 1/3, 1/3)",
             _column(g.softmax(scaled, simplified=seed is None)), ex),
    )
    return Exercise(ex, 2, data, parts, seed)


def _terrain(data: Mapping, seed: str | None = None) -> Exercise:
    ex = "terrain-warmup"
    peak, warm = data["peak_lr"], data["warmup_steps"]
    lr = g.linear_warmup_lr(data["step"], peak, warm)
    reach = sympy.ceiling(data["fraction"] * warm)
    ratio = peak / g.linear_warmup_lr(data["ratio_step"], peak, warm)
    parts = (
        Part("lr-at-step", 1, "scalar", "form.lr", "1/1000", lr, ex, _params(step=data["step"])),
        Part("step-at-fraction", 1, "integer", "form.steps", "1200", reach, ex,
             _params(percent=data["fraction"] * 100)),
        Part("first-step-ratio", 1, "scalar", "form.ratio", "50", ratio, ex,
             _params(ratio_step=data["ratio_step"])),
    )
    return Exercise(ex, 3, data, parts, seed)


def _reachable(data: Mapping, seed: str | None = None) -> Exercise:
    vertices = g.region_vertices(data["symbols"], data["floors"], data["caps"])
    reference = FiniteSet(*(Tuple(*v) for v in vertices))
    part = Part("vertices", len(vertices), "set", "form.points", "{(1/3, 1/3, 1/3)}",
                reference, "reachable-vertices", _params(point="(" + ", ".join(data["symbols"]) + ")"))
    return Exercise("reachable-vertices", 4, data, (part,), seed)


def _submanifold(data: Mapping, seed: str | None = None) -> Exercise:
    ex = "submanifold-dims"
    n, warm = data["n_sources"], len(data["warmup_sources"])
    form = "form.whole"
    parts = (
        Part("full-dim", 1, "integer", form, "4", g.simplex_dimension(n), ex, _params(n=n)),
        Part("warmup-dim", 1, "integer", form, "4", g.simplex_dimension(warm), ex,
             _params(until=data["warmup_until"])),
        Part("warmup-pinned", 1, "integer", form, "4", Integer(n - warm), ex, _params(n=n)),
        Part("polish-dim", 1, "integer", form, "4",
             g.simplex_dimension(n - len(data["polish_excluded"])), ex,
             _params(polish_from=data["polish_from"],
                     excluded=", ".join(data["polish_excluded"]))),
    )
    return Exercise(ex, 5, data, parts, seed)


# The lessons' own data, as the chapters state it.
LESSON_DATA: Mapping[str, Mapping[str, object]] = MappingProxyType({
    "embedding-distances": MappingProxyType({
        "parakeet": _vec("1.0", "0.5", "0.0"), "monkey": _vec("1.2", "0.3", "0.1"),
        "fourier": _vec("0.0", "0.0", "1.5")}),
    "attention-weights": MappingProxyType({
        "q": _vec("1", "0", "1", "0"),
        "keys": (_vec("1", "0", "0", "0"), _vec("0", "0", "1", "0"), _vec("0", "1", "0", "1")),
        "d_k": Integer(4)}),
    "terrain-warmup": MappingProxyType({
        "peak_lr": Rational(3, 10000), "warmup_steps": Integer(2000), "step": Integer(50),
        "fraction": Rational(2, 5), "ratio_step": Integer(10)}),
    "reachable-vertices": MappingProxyType({
        "sources": ("hermes3-general", "gutenberg", "dictionary"), "symbols": ("H", "G", "D"),
        "floors": MappingProxyType({"H": Rational(1, 2)}),
        "caps": MappingProxyType({"D": Rational(1, 4)})}),
    "submanifold-dims": MappingProxyType({
        "n_sources": Integer(16),
        "warmup_sources": ("hermes3-general", "hermes3-creative", "hermes3-roleplay",
                           "chat", "smoltalk", "oasst", "gutenberg"),
        "warmup_until": Integer(20000), "polish_from": Integer(112000),
        "polish_excluded": ("repo-docs", "repo-docstrings")}),
})

BUILDERS: Mapping[str, Callable[..., Exercise]] = MappingProxyType({
    "embedding-distances": _embedding, "attention-weights": _attention,
    "terrain-warmup": _terrain, "reachable-vertices": _reachable,
    "submanifold-dims": _submanifold,
})

EXERCISES: Mapping[str, Exercise] = MappingProxyType({
    key: build(LESSON_DATA[key]) for key, build in BUILDERS.items()})


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; :class:`UnknownExercise` (a KeyError) if none."""
    try:
        return EXERCISES[exercise_id]
    except KeyError:
        raise UnknownExercise(exercise_id) from None


def variant(exercise_id: str, seed: str | int | None) -> Exercise:
    """The exercise drawn from ``seed``; ``None``: the lesson's own (:func:`get`).

    ``seed`` is any non-empty text (a student id such as ``s0042``) or an
    integer; ``42`` and ``"42"`` are the same seed. The same seed gives the
    same data on every machine (:mod:`grader.seeds` draws with SHA-256, not
    ``hash()`` or a library's generator). Raises :class:`UnknownExercise` for an
    unknown id and :class:`grader.seeds.InvalidSeed` (a ValueError) for an
    unusable seed. Cached: the same call returns the same object.
    """
    exercise = get(exercise_id)
    if seed is None:
        return exercise
    from .seeds import seed_text
    return _variant(exercise_id, seed_text(seed))


@lru_cache(maxsize=4096)
def _variant(exercise_id: str, seed: str) -> Exercise:
    from .variants import draw_valid
    return draw_valid(exercise_id, seed, BUILDERS[exercise_id])
