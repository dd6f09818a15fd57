"""The geometry the exercise bank derives its reference answers from, on two kinds of numbers.

Distances, cosine, softmax, the vertices of a simplex cut by floors and caps, constraint
violations, a linear warmup ramp. Each function works on the numbers it is given:

* **SymPy** values (the lessons' data, the site, exact forms): exact symbolic results;
* **plain numbers** (:mod:`grader.arithmetic.intervals`: ints, Fractions, proven intervals), which a
  variant's data is drawn as: the same formulas, fast, for grading (:mod:`grader.model.variants`).

So every formula has one home, whichever numbers it runs on. A vector is an ``ImmutableMatrix``
column among SymPy values and a :class:`Vector` among plain numbers; :func:`to_sympy` turns
drawn data into SymPy data. The site's figures may call these too.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache, wraps
from itertools import combinations
from types import MappingProxyType
from typing import Mapping, Sequence

import sympy

from grader.arithmetic import intervals as numeric


class Vector(tuple):
    """A column of plain numbers in drawn data (an ``ImmutableMatrix`` once turned into SymPy)."""


def symbolic(*values) -> bool:
    """Does any of the values (or their entries) hold a SymPy object?"""
    for value in values:
        if isinstance(value, (sympy.Basic, sympy.MatrixBase)):
            return True
        if isinstance(value, (tuple, list)) and symbolic(*value):
            return True
    return False


def to_sympy(value):
    """Drawn data (Fractions, ints, :class:`Vector`, tuples, mappings, text) as SymPy data."""
    if isinstance(value, (sympy.Basic, sympy.MatrixBase, str)):
        return value
    if isinstance(value, Vector):
        return sympy.ImmutableMatrix([to_sympy(x) for x in value])
    if isinstance(value, tuple):
        return tuple(to_sympy(x) for x in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: to_sympy(v) for k, v in value.items()})
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, int) and not isinstance(value, bool):
        return sympy.Integer(value)
    raise TypeError(f"not exact data: {value!r}")


def as_number(x):
    """A bank value as an exact number: SymPy values and plain numbers as they are, an int as a
    SymPy Integer; never for student text."""
    if isinstance(x, sympy.Basic) or numeric.is_number(x) and not isinstance(x, int):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return sympy.Integer(x)
    raise TypeError(f"not an exact number: {x!r}")


def to_float(x) -> float:
    """A bank value as a float, for invariants that compare sizes (never for verdicts)."""
    return float(x) if numeric.is_number(x) else float(sympy.N(x, 20))


def is_integer(x) -> bool:
    """Is the exact rational ``x`` a whole number?"""
    return x.denominator == 1


# --- the primitives, on either kind of number ----------------------------------

def sqrt(x):
    return sympy.sqrt(x) if isinstance(x, sympy.Basic) else numeric.sqrt(x)


def exp(x):
    return sympy.exp(x) if isinstance(x, sympy.Basic) else numeric.exp(x)


def ceiling(x):
    return sympy.ceiling(x) if isinstance(x, sympy.Basic) else Fraction(math.ceil(x))


def vector(values: Sequence):
    """A column: an ``ImmutableMatrix`` of SymPy values, else a :class:`Vector`."""
    return sympy.ImmutableMatrix(list(values)) if symbolic(*values) else Vector(values)


def point_set(points: Sequence[Sequence]):
    """A set of points: a SymPy ``FiniteSet`` of ``Tuple`` for SymPy values, else a tuple of tuples."""
    if symbolic(*points):
        return sympy.FiniteSet(*(sympy.Tuple(*p) for p in points))
    return tuple(tuple(p) for p in points)


def total(values: Sequence):
    """The sum of the values (0 for none)."""
    return sum(values, 0)


# --- geometry ---------------------------------------------------------------------

def _remembered(formula):
    """Memoize a formula on plain numbers: a variant's invariants, references and named mistakes
    ask for the same distances again and again (SymPy values keep SymPy's own cache)."""
    cached = lru_cache(maxsize=4096)(formula)

    @wraps(formula)
    def compute(*vectors):
        if symbolic(*vectors):
            return formula(*vectors)
        return cached(*(tuple(v) for v in vectors))
    return compute


@_remembered
def dot(a: Sequence, b: Sequence):
    return total([x * y for x, y in zip(a, b, strict=True)])


@_remembered
def euclidean(a: Sequence, b: Sequence):
    return sqrt(total([(x - y) ** 2 for x, y in zip(a, b, strict=True)]))


@_remembered
def cosine(a: Sequence, b: Sequence):
    return dot(a, b) / (sqrt(dot(a, a)) * sqrt(dot(b, b)))


@_remembered
def softmax(values: Sequence) -> tuple:
    """Exact softmax weights, as they come (simplifying them is slow, and only display needs it)."""
    exps = [exp(v) for v in values]
    whole = total(exps)
    return tuple(x / whole for x in exps)


def simplex_vertices(n: int) -> tuple[tuple[sympy.Integer, ...], ...]:
    """The n corners of the standard simplex in R^n."""
    return tuple(tuple(sympy.Integer(int(i == j)) for j in range(n)) for i in range(n))


def _planes(symbols: Sequence[str], floors: Mapping, caps: Mapping):
    """Every constraint plane: (name, index, value) meaning x_index = value."""
    for i, name in enumerate(symbols):
        yield ("nonnegative", i, 0)
        if name in floors:
            yield ("floor", i, floors[name])
        if name in caps:
            yield ("cap", i, caps[name])


def _is_one(value) -> bool:
    """Is the sum of a point's coordinates 1? Exact for rationals; SymPy simplifies the rest."""
    if numeric.is_number(value):
        return value == 1
    if value.is_Rational:
        return value == 1
    return sympy.simplify(value - 1) == 0


def violations(point: Sequence, symbols: Sequence[str], floors: Mapping, caps: Mapping) -> tuple:
    """Which constraints ``point`` breaks, as (kind, symbol, bound) triples.

    kind is 'sum' (coordinates do not add to 1), 'nonnegative', 'floor' or 'cap'.
    """
    found = []
    if not _is_one(total(point)):
        found.append(("sum", "", 1))
    for i, name in enumerate(symbols):
        x = point[i]
        if bool(x < 0):
            found.append(("nonnegative", name, 0))
        if name in floors and bool(x < floors[name]):
            found.append(("floor", name, floors[name]))
        if name in caps and bool(x > caps[name]):
            found.append(("cap", name, caps[name]))
    return tuple(found)


def region_vertices(symbols: Sequence[str], floors: Mapping, caps: Mapping) -> tuple[tuple, ...]:
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
        fixed[free] = 1 - total(list(fixed.values()))
        point = tuple(fixed[i] for i in range(n))
        if not violations(point, symbols, floors, caps):
            found.add(point)
    return tuple(sorted(found, key=lambda p: tuple(float(x) for x in p), reverse=True))


def linear_warmup_lr(step, peak, warmup_steps):
    """Learning rate at ``step`` of a linear ramp from 0 (step 0) to ``peak``."""
    if step >= warmup_steps:
        return peak
    return peak * step / warmup_steps


def simplex_dimension(n_sources):
    """A simplex over n sources has dimension n - 1 (the weights sum to 1); a count (an int)
    gives a SymPy Integer."""
    return (sympy.Integer(n_sources) if isinstance(n_sources, int) else n_sources) - 1
