"""What else an answer to a part may be, and how many figures the part asks for.

An exercise module declares its named mistakes (the wrong value each one gives); with the other
parts' answers of the same shape they are a part's *targets*: an answer within the tolerance of its
reference that is nearer one of them is most likely that one. When a target lies within the
tolerance, three significant figures cannot tell the two apart, so the part asks for more:
:func:`figures` is the fewest with which every correctly rounded answer is nearer the reference than
any target. All of it is computed from the exercise, memoized per exercise object (a lesson's, or a
variant's in SymPy or in plain numbers); plain numbers that cannot decide raise
:class:`~grader.arithmetic.intervals.Undecided` (the caller asks the variant in SymPy).
"""
from __future__ import annotations

from collections import OrderedDict
from decimal import Decimal
from functools import wraps

from grader.arithmetic import compare, tolerance
from grader.arithmetic.intervals import Undecided
from grader.model.exercise import Exercise, Finding, finding

MAX_FIGURES = 5             # a variant's targets lie apart at three (redrawn else); a lesson's at five at most
_MEMO: OrderedDict = OrderedDict()
MEMO_SIZE = 8192


def per_exercise(fn):
    """Memoize ``fn(exercise, *args)`` for each exercise object, the most recent :data:`MEMO_SIZE`."""
    @wraps(fn)
    def memoized(ex, *args):
        key = (fn.__qualname__, id(ex), args)
        hit = _MEMO.get(key)
        if hit is not None and hit[0] is ex:
            _MEMO.move_to_end(key)
            return hit[1]
        value = fn(ex, *args)
        _MEMO[key] = (ex, value)
        if len(_MEMO) > MEMO_SIZE:
            _MEMO.popitem(last=False)
        return value
    return memoized


def entries(value) -> tuple:
    """A number, a vector (a tuple, a Matrix column) or a point as the tuple of its entries."""
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return tuple(value)
    return (value,)


@per_exercise
def _mistake_table(ex: Exercise) -> dict:
    return dict(ex.definition.mistakes(ex) or {})


@per_exercise
def mistakes(ex: Exercise, part_id: str) -> tuple[tuple[str, tuple], ...]:
    """The (key, wrong entries) pairs of one part, minus any that equals the reference."""
    from grader.model.geometry import as_number  # SymPy: only an exercise's own values need it
    reference = entries(ex.part(part_id).reference)
    rows = [(key, tuple(as_number(v) for v in entries(value))) for key, value in _mistake_table(ex).get(part_id, [])]
    return tuple((key, value) for key, value in rows
                 if not (len(value) == len(reference)
                         and all(compare.compare_scalar(a, r, exact=True).equal for a, r in zip(value, reference))))


@per_exercise
def targets(ex: Exercise, part_id: str) -> tuple[tuple[Finding, tuple], ...]:
    """What else an answer to this part may be: each named mistake's entries, and each other part's
    reference of the same shape (a number, or a vector as long), with the note that names it."""
    part = ex.part(part_id)
    found = [(finding(key), value) for key, value in mistakes(ex, part_id)]
    for other in ex.parts:
        if other.id != part.id and _shape(other) == _shape(part):
            found.append((finding("other-part", part=f"key:part.{ex.id}.{other.id}.prompt", **dict(other.params)),
                          entries(other.reference)))
    return tuple(found)


@per_exercise
def spreads(ex: Exercise, part_id: str) -> tuple:
    """For each of :func:`targets`, a lower bound of its distance from the reference (None: not known)."""
    reference = entries(ex.part(part_id).reference)
    return tuple(_low(compare.gap_bounds(value, reference)) if len(value) == len(reference) else None
                 for _, value in targets(ex, part_id))


def _low(bounds):
    return None if bounds is None else bounds[0]


def _shape(part) -> object:
    return len(tuple(part.reference)) if part.kind == "vector" else part.kind in ("real", "integer") or part.kind


@per_exercise
def figures(ex: Exercise, part_id: str) -> int:
    """The significant figures a part asks for: three (the tolerance's), or more where a target lies
    so near the reference that an answer rounded to three could be nearer it."""
    part = ex.part(part_id)
    if part.whole or part.kind == "set":
        return tolerance.SIGNIFICANT_FIGURES
    reference = entries(part.reference)
    others = [value for _, value in targets(ex, part_id) if len(value) == len(reference)]
    return needed_figures(reference, others)


@per_exercise
def named_targets(ex: Exercise, part_id: str) -> tuple[tuple[str, tuple], ...]:
    """Every target of a part by what it is ('mistake squared-distance', 'part cos-monkey-fourier'), a named
    mistake that equals the reference included."""
    from grader.model.geometry import as_number
    part = ex.part(part_id)
    found = [(f"mistake {key}", tuple(as_number(v) for v in entries(value)))
             for key, value in _mistake_table(ex).get(part_id, [])]
    return tuple(found + [(f"part {other.id}", entries(other.reference)) for other in ex.parts
                          if other.id != part.id and _shape(other) == _shape(part)])


@per_exercise
def crowding(ex: Exercise, part_id: str, figures: int = tolerance.SIGNIFICANT_FIGURES) -> tuple[str, ...]:
    """The targets of a part that ``figures`` significant figures cannot tell from its reference: an
    equal one, or (a decimal part) one so near that an answer rounded to ``figures`` could be nearer it."""
    part = ex.part(part_id)
    if part.kind == "set":
        return ()
    reference = entries(part.reference)
    rounding = None if part.whole else _rounding(reference, figures)
    found = []
    for name, value in named_targets(ex, part_id):
        if len(value) != len(reference):
            continue
        bounds = compare.gap_bounds(value, reference)
        if bounds is None:
            raise Undecided("how far a target lies from the reference")
        if bounds[0] <= 0 or rounding is not None and rounding >= bounds[0] / 2:   # equal, or too near
            found.append(name)
    return tuple(found)


def needed_figures(reference: tuple, others: list[tuple]) -> int:
    """The fewest figures (at least the tolerance's) with which every correctly rounded answer is
    nearer ``reference`` than any of ``others``: rounding to n figures moves each entry by at most half a
    unit in its n-th figure, and an answer that near the reference is nearer it than any target at
    more than twice that distance (the triangle inequality). Exact, on 30-digit bounds."""
    spreads = [compare.gap_bounds(other, reference) for other in others]
    if None in spreads:
        raise Undecided("how far a target lies from the reference")
    nearest = min((low for low, _ in spreads if low > 0), default=None)     # an equal target (or one 30 digits cannot part): no help
    if nearest is None:
        return tolerance.SIGNIFICANT_FIGURES
    for n in range(tolerance.SIGNIFICANT_FIGURES, MAX_FIGURES + 1):
        if _rounding(reference, n) < nearest / 2:
            return n
    return MAX_FIGURES


def _rounding(reference: tuple, figures: int) -> Decimal:
    """How far rounding to ``figures`` significant figures may move an entry of ``reference``, at most."""
    exponents = [d.adjusted() for d in (compare.decimal_of(r) for r in reference) if d != 0]
    return max((Decimal(5).scaleb(e - figures) for e in exponents), default=Decimal(0))

