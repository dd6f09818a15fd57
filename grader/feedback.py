"""Feedback rules: which named mistake a wrong answer shows.

Each rule yields a :class:`Finding` (a stable key plus parameters); the words
live in the catalogs of :mod:`grader.messages`. Three kinds of rules:

* mistake tables: wrong answers a misconception produces, computed from the
  exercise's data (e.g. softmax without the sqrt(d_k) scaling);
* property rules on the answer itself (weights that do not sum to 1, a
  vector in the wrong order);
* set rules for the reachable region (duplicate, missing, outside the region
  and which constraint it breaks, a simplex corner the floor or cap removes).
"""
from __future__ import annotations

from functools import cache
from itertools import permutations
from types import MappingProxyType
from typing import Callable, Sequence

import sympy

from . import compare, geometry as g
from .bank import Exercise, variant
from .outcome import Finding, finding  # noqa: F401  (re-exported: the rules build findings)


def show(value) -> str:
    """How a value is written back to a student: '(1/2, 1/4, 1/4)', 'sqrt(14)/2'."""
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return "(" + ", ".join(show(v) for v in value) + ")"
    return str(value).replace("**", "^")


# --- mistake tables -------------------------------------------------------

def _embedding(ex: Exercise) -> dict[str, list[tuple[str, object]]]:
    table = {}
    for a, b in (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier")):
        u, v = ex.data[a], ex.data[b]
        dist, cos = g.euclidean(u, v), g.cosine(u, v)
        table[f"{a}-{b}"] = [("squared-distance", dist ** 2), ("cosine-for-distance", cos),
                             ("cosine-distance-for-distance", 1 - cos)]
        table[f"cos-{a}-{b}"] = [("distance-for-cosine", dist), ("dot-for-cosine", g.dot(u, v)),
                                 ("cosine-distance-for-cosine", 1 - cos)]
    return table


def _attention(ex: Exercise) -> dict[str, list[tuple[str, object]]]:
    d = ex.data
    scores = tuple(g.dot(d["q"], k) for k in d["keys"])
    scaled = tuple(s / sympy.sqrt(d["d_k"]) for s in scores)
    by_dk = tuple(s / d["d_k"] for s in scores)
    return {
        "scores": [("scaled-as-scores", scaled)],
        "scaled": [("scores-as-scaled", scores), ("divided-by-dk", by_dk)],
        "weights": [("unscaled-softmax", g.softmax(scores, simplified=False)), ("scores-as-weights", scores),
                    ("scaled-as-weights", scaled), ("softmax-divided-by-dk", g.softmax(by_dk, simplified=False)),
                    ("exp-not-normalized", tuple(sympy.exp(s) for s in scaled))],
    }


def _terrain(ex: Exercise) -> dict[str, list[tuple[str, object]]]:
    d = ex.data
    peak, warm, step, k = d["peak_lr"], d["warmup_steps"], d["step"], d["ratio_step"]
    lr = lambda s: g.linear_warmup_lr(s, peak, warm)  # noqa: E731
    reach = sympy.ceiling(d["fraction"] * warm)
    return {
        "lr-at-step": [("off-by-one-step", lr(step + 1)), ("off-by-one-step", lr(step - 1)),
                       ("peak-not-ramped", peak), ("ramp-fraction-not-lr", step / warm)],
        "step-at-fraction": [("off-by-one-step", reach + 1), ("off-by-one-step", reach - 1),
                             ("percent-vs-fraction", d["fraction"] * 100 * warm),
                             ("lr-instead-of-step", d["fraction"] * peak)],
        "first-step-ratio": [("ratio-inverted", lr(k) / peak),
                             ("off-by-one-step", peak / lr(k + 1)),
                             ("off-by-one-step", peak / lr(k - 1))],
    }


def _submanifold(ex: Exercise) -> dict[str, list[tuple[str, object]]]:
    d = ex.data
    n, warm, out = d["n_sources"], len(d["warmup_sources"]), len(d["polish_excluded"])
    return {
        "full-dim": [("dim-off-by-one", n), ("dim-off-by-one", n - 2)],
        "warmup-dim": [("dim-off-by-one", warm), ("pinned-for-dim", n - warm)],
        "warmup-pinned": [("active-for-pinned", warm), ("dims-subtracted", n - (warm - 1))],
        "polish-dim": [("dim-off-by-one", n - out), ("exclusion-ignored", n - 1),
                       ("exclusion-ignored", n)],
    }


MISTAKE_TABLES: "MappingProxyType[str, Callable]" = MappingProxyType({
    "embedding-distances": _embedding, "attention-weights": _attention,
    "terrain-warmup": _terrain, "submanifold-dims": _submanifold,
})


@cache
def mistakes(exercise_id: str, part_id: str, seed: str | None = None,
             ) -> tuple[tuple[str, object], ...]:
    """The (key, wrong value) pairs for one part of a variant, minus any equal to the reference."""
    ex = variant(exercise_id, seed)
    builder = MISTAKE_TABLES.get(exercise_id)
    rows = builder(ex).get(part_id, []) if builder else []
    ref = ex.part(part_id).reference
    rows = [(key, tuple(map(g.as_number, v)) if isinstance(v, (tuple, list)) else g.as_number(v))
            for key, v in rows]
    return tuple((key, value) for key, value in rows if not _same(value, ref, exact=False))


def _same(answer, value, *, exact: bool) -> bool:
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        value = tuple(value)
        return (isinstance(answer, tuple) and len(answer) == len(value)
                and all(v.equal for v in compare.compare_vector(answer, value, exact=exact)))
    if isinstance(answer, tuple):
        return False
    return compare.compare_scalar(answer, g.as_number(value), exact=exact).equal


def match_mistake(exercise_id: str, part_id: str, answer, *, exact: bool,
                  seed: str | None = None) -> Finding | None:
    for key, value in mistakes(exercise_id, part_id, seed):
        if _same(answer, value, exact=exact):
            return finding(key, value=show(value))
    return None


# --- property rules on vectors -------------------------------------------

def _sums_to_one(answer: Sequence) -> Finding | None:
    total = sum(answer, sympy.S.Zero)
    if compare.compare_scalar(total, sympy.S.One).equal:
        return None
    try:
        value = compare.numeric(total, 4)
    except compare.TooLarge:
        value = None
    return finding("weights-not-normalized", total=show(value if value is not None else total))


VECTOR_RULES: "MappingProxyType[tuple[str, str], tuple[Callable, ...]]" = MappingProxyType({
    ("attention-weights", "weights"): (_sums_to_one,),
})


def vector_findings(exercise_id: str, part_id: str, answer: Sequence, reference: Sequence,
                    ) -> list[Finding]:
    found = [f for rule in VECTOR_RULES.get((exercise_id, part_id), ()) if (f := rule(answer))]
    for perm in _permutations_matching(answer, reference):
        if perm != tuple(range(len(reference))):
            found.insert(0, finding("wrong-order"))
            break
    return found


def _permutations_matching(answer: Sequence, reference: Sequence):
    if len(answer) > 6:
        return
    for perm in permutations(range(len(reference))):
        if all(compare.compare_scalar(answer[i], reference[j]).equal for i, j in enumerate(perm)):
            yield perm


# --- set rules for a region on the simplex -------------------------------

def describe_constraint(kind: str, symbol: str, bound) -> Finding:
    return finding(f"constraint-{kind}", symbol=symbol, bound=show(bound))


def point_findings(ex: Exercise, point: tuple) -> Finding:
    """Why a student point that matched no vertex is wrong."""
    d = ex.data
    symbols = d["symbols"]
    if len(point) != len(symbols):
        return finding("wrong-point-size", point=show(point), expected=len(symbols),
                       form="(" + ", ".join(symbols) + ")")
    broken = g.violations(point, symbols, d["floors"], d["caps"])
    if not broken:
        return finding("not-a-vertex", point=show(point))
    kind, symbol, bound = broken[0]      # 'sum' first: off the simplex altogether
    corners = g.simplex_vertices(len(symbols))
    key = "removed-simplex-vertex" if any(compare.same_point(point, c) for c in corners) \
        else "point-outside-region"
    return finding(key, point=show(point), constraint=f"key:constraint-{kind}",
                   symbol=symbol, bound=show(bound))
