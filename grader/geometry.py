"""Exact geometry the exercise bank derives its reference answers from.

Pure SymPy functions of data: distances, cosine, softmax, the vertices of a
simplex cut by floors and caps, constraint violations, a linear warmup ramp.
The site's figures may call these too.
"""
from __future__ import annotations

from itertools import combinations
from typing import Mapping, Sequence

import sympy
from sympy import sqrt


def as_number(x) -> sympy.Expr:
    """A bank value (int or SymPy number) as SymPy; never for student text."""
    if isinstance(x, sympy.Basic):
        return x
    if isinstance(x, int):
        return sympy.Integer(x)
    raise TypeError(f"not an exact number: {x!r}")


def to_float(x) -> float:
    """A bank value as a float, for invariants that compare sizes (never for verdicts)."""
    return float(sympy.N(x, 20))


def dot(a: Sequence, b: Sequence) -> sympy.Expr:
    return sum((x * y for x, y in zip(a, b, strict=True)), sympy.S.Zero)


def euclidean(a: Sequence, b: Sequence) -> sympy.Expr:
    return sqrt(sum(((x - y) ** 2 for x, y in zip(a, b, strict=True)), sympy.S.Zero))


def cosine(a: Sequence, b: Sequence) -> sympy.Expr:
    return dot(a, b) / (sqrt(dot(a, a)) * sqrt(dot(b, b)))


def softmax(values: Sequence) -> tuple[sympy.Expr, ...]:
    """Exact softmax weights, as they come (simplifying them is slow, and only display needs it)."""
    exps = [sympy.exp(v) for v in values]
    total = sum(exps, sympy.S.Zero)
    return tuple(x / total for x in exps)


def simplex_vertices(n: int) -> tuple[tuple[sympy.Integer, ...], ...]:
    """The n corners of the standard simplex in R^n."""
    return tuple(tuple(sympy.Integer(int(i == j)) for j in range(n)) for i in range(n))


def _planes(symbols: Sequence[str], floors: Mapping, caps: Mapping):
    """Every constraint plane: (name, index, value) meaning x_index = value."""
    for i, name in enumerate(symbols):
        yield ("nonnegative", i, sympy.S.Zero)
        if name in floors:
            yield ("floor", i, as_number(floors[name]))
        if name in caps:
            yield ("cap", i, as_number(caps[name]))


def violations(point: Sequence, symbols: Sequence[str], floors: Mapping, caps: Mapping,
               ) -> tuple[tuple[str, str, sympy.Expr], ...]:
    """Which constraints ``point`` breaks, as (kind, symbol, bound) triples.

    kind is 'sum' (coordinates do not add to 1), 'nonnegative', 'floor' or 'cap'.
    """
    found = []
    total = sum(point, sympy.S.Zero)
    if (total != 1) if total.is_Rational else (sympy.simplify(total - 1) != 0):
        found.append(("sum", "", sympy.S.One))
    for i, name in enumerate(symbols):
        x = point[i]
        if bool(x < 0):
            found.append(("nonnegative", name, sympy.S.Zero))
        if name in floors and bool(x < floors[name]):
            found.append(("floor", name, as_number(floors[name])))
        if name in caps and bool(x > caps[name]):
            found.append(("cap", name, as_number(caps[name])))
    return tuple(found)


def region_vertices(symbols: Sequence[str], floors: Mapping, caps: Mapping,
                    ) -> tuple[tuple[sympy.Expr, ...], ...]:
    """Vertices of {x : sum x = 1, x >= 0, x >= floors, x <= caps}, sorted.

    Every constraint plane fixes one coordinate (x_i = value), so a vertex is n - 1 planes on
    different coordinates together with the sum plane: the last coordinate is 1 minus the others.
    The feasible ones are the vertices.
    """
    n = len(symbols)
    planes = list(_planes(symbols, floors, caps))
    found: set[tuple] = set()
    for chosen in combinations(planes, n - 1):
        fixed = {index: value for _kind, index, value in chosen}
        if len(fixed) < n - 1:
            continue                     # two planes on one coordinate: no single point
        free = next(i for i in range(n) if i not in fixed)
        fixed[free] = 1 - sum(fixed.values(), sympy.S.Zero)
        point = tuple(fixed[i] for i in range(n))
        if not violations(point, symbols, floors, caps):
            found.add(point)
    return tuple(sorted(found, key=lambda p: tuple(float(x) for x in p), reverse=True))


def linear_warmup_lr(step, peak, warmup_steps) -> sympy.Expr:
    """Learning rate at ``step`` of a linear ramp from 0 (step 0) to ``peak``."""
    step = sympy.Integer(step)
    if step >= warmup_steps:
        return as_number(peak)
    return as_number(peak) * step / warmup_steps


def simplex_dimension(n_sources: int) -> sympy.Integer:
    """A simplex over n sources has dimension n - 1 (the weights sum to 1)."""
    return sympy.Integer(n_sources) - 1
