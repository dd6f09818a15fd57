"""Variants: an exercise's data drawn from a seed, keeping the exercise's character.

:func:`grader.bank.variant` is the entry point. Choices come from
:class:`grader.seeds.Draw`, a SHA-256 stream of the exercise id and the seed.

Each exercise has a drawing function (data in the same shapes as the lesson's,
see :mod:`grader.bank`) and a list of invariants, :func:`problems`, that the
lesson's own data satisfies too. A draw that breaks one is drawn again, from
the same stream, so the result is still a function of the seed.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping, Sequence

import sympy
from sympy import ImmutableMatrix, Integer, Rational

from . import geometry as g
from .seeds import Draw

MAX_DRAWS = 200


def tenths(d: Draw, low: int, high: int) -> Rational:
    """A one-decimal number low/10 .. high/10, exact."""
    return Rational(d.integer(low, high), 10)


def _vec(values) -> ImmutableMatrix:
    return ImmutableMatrix([Integer(v) if isinstance(v, int) else v for v in values])


def _f(x) -> float:
    return float(sympy.N(x, 20))


def _apart(values: Sequence, gap: float) -> bool:
    xs = sorted(_f(v) for v in values)
    return all(b - a >= gap for a, b in zip(xs, xs[1:]))


# --- lesson 1: three word vectors, two related, one far ---------------------

def draw_embedding(d: Draw) -> Mapping:
    parakeet = [tenths(d, 5, 15), tenths(d, 2, 10), tenths(d, 0, 3)]
    monkey = [max(Rational(0), x + Rational(d.integer(-3, 3), 10)) for x in parakeet]
    fourier = [tenths(d, 0, 3), tenths(d, 0, 3), tenths(d, 10, 20)]
    return MappingProxyType({"parakeet": _vec(parakeet), "monkey": _vec(monkey),
                             "fourier": _vec(fourier)})


def embedding_problems(data: Mapping) -> list[str]:
    pairs = (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier"))
    out = []
    vectors = [data[name] for name in ("parakeet", "monkey", "fourier")]
    if any(not all(0 <= x <= 2 and (x * 10).is_integer for x in v) for v in vectors):
        out.append("components are one-decimal numbers in [0, 2]")
    if any(all(x == 0 for x in v) for v in vectors):
        out.append("no zero vector")
    dist = {p: g.euclidean(data[p[0]], data[p[1]]) for p in pairs}
    cos = {p: g.cosine(data[p[0]], data[p[1]]) for p in pairs}
    near, far = pairs[0], pairs[1:]
    if not all(2 * _f(dist[near]) <= _f(dist[p]) for p in far) or _f(dist[near]) < 0.1:
        out.append("the related pair (parakeet, monkey) is clearly the closest, at least 0.1 apart")
    if not (_f(cos[near]) >= 0.8 and all(_f(cos[p]) <= 0.5 for p in far)):
        out.append("the related pair points the same way (cosine >= 0.8), fourier does not (<= 0.5)")
    for p in pairs:   # the named mistakes must not be the answer
        if abs(_f(dist[p]) - 1) < 0.01 or abs(_f(cos[p]) - 0.5) < 0.01:
            out.append(f"distance != its square and cosine != 1 - cosine for {p}")
    return out


# --- lesson 2: a query, three keys, a tie --------------------------------

def draw_attention(d: Draw) -> Mapping:
    bits = lambda: _vec([d.integer(0, 1) for _ in range(4)])  # noqa: E731
    return MappingProxyType({"q": bits(), "keys": (bits(), bits(), bits()), "d_k": Integer(4)})


def attention_problems(data: Mapping) -> list[str]:
    out = []
    q, keys = data["q"], data["keys"]
    if data["d_k"] != len(q) or any(len(k) != len(q) for k in keys):
        out.append("d_k is the dimension of q and of every key")
    if any(x not in (0, 1) for v in (q, *keys) for x in v):
        out.append("entries are 0 or 1")
    if all(x == 0 for x in q) or any(all(x == 0 for x in k) for k in keys):
        out.append("no zero query or key")
    if len(set(tuple(k) for k in keys)) < 3:
        out.append("three different keys")
    scores = sorted(int(g.dot(q, k)) for k in keys)
    if not scores[0] < scores[1] == scores[2]:
        out.append("two keys tie for the highest score, the third scores lower")
    return out


# --- lesson 3: a linear warmup --------------------------------------------

def draw_terrain(d: Draw) -> Mapping:
    return MappingProxyType({
        "peak_lr": Rational(d.integer(1, 6), 10000),
        "warmup_steps": Integer(d.choice((1000, 1500, 2000, 2500, 3000, 4000))),
        "step": Integer(10 * d.integer(2, 20)),
        "fraction": d.choice((Rational(1, 5), Rational(1, 4), Rational(2, 5), Rational(1, 2),
                              Rational(3, 5), Rational(3, 4))),
        "ratio_step": Integer(d.choice((5, 10, 20, 25, 40, 50)))})


def terrain_problems(data: Mapping) -> list[str]:
    out = []
    warm, step, k = data["warmup_steps"], data["step"], data["ratio_step"]
    if not (0 < k < step < warm // 4):
        out.append("0 < ratio_step < step < warmup_steps / 4: both steps are early in the ramp")
    if not (data["fraction"] * warm).is_integer or not 0 < data["fraction"] < 1:
        out.append("the fraction of peak is reached at a whole step")
    if warm % k:
        out.append("the first-step ratio warmup_steps / ratio_step is a whole number")
    if warm / k == 50 or data["fraction"] * warm == 1200:
        out.append("no answer equals its part's example")
    if not 0 < data["peak_lr"] <= Rational(1, 1000):
        out.append("peak learning rate in (0, 1e-3]")
    return out


# --- lesson 4: a floor and a cap that both bind ---------------------------

FLOORS = (Rational(1, 5), Rational(1, 4), Rational(1, 3), Rational(2, 5), Rational(1, 2),
          Rational(3, 5))
CAPS = (Rational(1, 10), Rational(1, 5), Rational(1, 4), Rational(1, 3), Rational(2, 5))


def draw_reachable(d: Draw) -> Mapping:
    return MappingProxyType({
        "sources": ("hermes3-general", "gutenberg", "dictionary"), "symbols": ("H", "G", "D"),
        "floors": MappingProxyType({"H": d.choice(FLOORS)}),
        "caps": MappingProxyType({"D": d.choice(CAPS)})})


def reachable_problems(data: Mapping) -> list[str]:
    out = []
    symbols, floors, caps = data["symbols"], data["floors"], data["caps"]
    if len(floors) != 1 or len(caps) != 1:
        out.append("one floor and one cap")
        return out
    vertices = g.region_vertices(symbols, floors, caps)
    if len(vertices) != 4:
        out.append("the region is a quadrilateral (4 vertices)")
    (fs, f), = floors.items()
    (cs, c), = caps.items()
    if not any(v[symbols.index(fs)] == f for v in vertices):
        out.append("the floor is tight at a vertex")
    if not any(v[symbols.index(cs)] == c for v in vertices):
        out.append("the cap is tight at a vertex")
    if g.region_vertices(symbols, {}, caps) == vertices:
        out.append("the floor binds: without it the region is larger")
    if g.region_vertices(symbols, floors, {}) == vertices:
        out.append("the cap binds: without it the region is larger")
    if any(x.q > 20 for v in vertices for x in v):
        out.append("readable vertices: denominators up to 20")
    return out


# --- lesson 5: dimensions of the sub-simplices ----------------------------

WARMUP_POOL = ("hermes3-general", "hermes3-creative", "hermes3-roleplay", "chat", "smoltalk",
               "oasst", "gutenberg")
EXCLUDED_POOL = ("repo-docs", "repo-docstrings", "dictionary")


def draw_submanifold(d: Draw) -> Mapping:
    return MappingProxyType({
        "n_sources": Integer(d.integer(12, 20)),
        "warmup_sources": d.sample(WARMUP_POOL, d.integer(3, 7)),
        "warmup_until": Integer(5000 * d.integer(2, 6)),
        "polish_from": Integer(8000 * d.integer(12, 15)),
        "polish_excluded": d.sample(EXCLUDED_POOL, d.integer(1, 3))})


def submanifold_problems(data: Mapping) -> list[str]:
    out = []
    n, warm = int(data["n_sources"]), len(data["warmup_sources"])
    out_count = len(data["polish_excluded"])
    if set(data["warmup_sources"]) & set(data["polish_excluded"]):
        out.append("excluded sources are not warmup sources")
    if not (3 <= warm <= n - 3 and 1 <= out_count <= 3 and n <= 20):
        out.append("3 <= warmup sources <= n - 3, 1 to 3 excluded, n <= 20")
    answers = [n - 1, warm - 1, n - warm, n - out_count - 1]
    if len(set(answers)) != 4:
        out.append("the four answers differ")
    if 4 in answers or n - warm in (warm, warm - 1):
        out.append("no answer equals the example 4 or another part's count")
    if not data["warmup_until"] < data["polish_from"]:
        out.append("the warmup ends before the polish starts")
    return out


DRAWS: Mapping[str, Callable[[Draw], Mapping]] = MappingProxyType({
    "embedding-distances": draw_embedding, "attention-weights": draw_attention,
    "terrain-warmup": draw_terrain, "reachable-vertices": draw_reachable,
    "submanifold-dims": draw_submanifold,
})
PROBLEMS: Mapping[str, Callable[[Mapping], list[str]]] = MappingProxyType({
    "embedding-distances": embedding_problems, "attention-weights": attention_problems,
    "terrain-warmup": terrain_problems, "reachable-vertices": reachable_problems,
    "submanifold-dims": submanifold_problems,
})


def problems(exercise) -> list[str]:
    """The invariants ``exercise`` breaks: its character, and no example is correct."""
    found = list(PROBLEMS[exercise.id](exercise.data))
    found += [f"the example of {p.id} is not its answer" for p in exercise.parts
              if _example_is_correct(p)]
    return found


def _example_is_correct(part) -> bool:
    from .compare import compare_scalar, compare_vector
    from .parse import parse_answer
    parsed = parse_answer(part.example).value
    if part.kind == "set":
        return False      # a single point never covers a region's vertices
    if part.kind == "vector":
        reference = tuple(part.reference)
        return len(parsed) == len(reference) and all(
            v.equal for v in compare_vector(parsed, reference))
    return compare_scalar(parsed, part.reference, exact=part.kind == "integer").equal


def draw_valid(exercise_id: str, seed: str, build: Callable):
    """Draw until the data keeps the exercise's character; build the exercise from it."""
    d = Draw(exercise_id, seed)
    for _ in range(MAX_DRAWS):
        data = DRAWS[exercise_id](d)
        if PROBLEMS[exercise_id](data):
            continue
        exercise = build(data, seed)
        if not problems(exercise):
            return exercise
    raise RuntimeError(f"no valid variant of {exercise_id} for seed {seed!r} "
                       f"in {MAX_DRAWS} draws")   # a bug in a drawing function
