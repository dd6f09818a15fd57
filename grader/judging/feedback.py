"""Feedback: which named mistake a wrong answer shows, and why else it is wrong.

Each rule yields a :class:`Finding` (a stable key plus parameters); the words live in the
catalogs of :mod:`grader.languages.messages`. The exercise modules declare what is particular to them (their
named mistakes, computed from the data: e.g. softmax without the sqrt(d_k) scaling; rules on an
answer, such as weights that do not sum to 1; why a point of a set is wrong); here are the rules
every exercise shares: matching a named mistake, a vector in the wrong order.
"""
from __future__ import annotations

from collections import OrderedDict
from functools import wraps
from itertools import permutations
from typing import Sequence

from grader.arithmetic import compare
from grader.arithmetic.intervals import Approx, Undecided
from grader.bank import Exercise
from grader.judging.outcome import Finding, finding  # noqa: F401  (re-exported: the rules build findings)
from grader.model import geometry as g
from grader.reading.show import show  # noqa: F401  (re-exported)

_MEMO: OrderedDict = OrderedDict()
MEMO_SIZE = 8192


def per_exercise(fn):
    """Memoize ``fn(exercise, *args)`` for each exercise object (a lesson's, or a variant's in
    SymPy or in plain numbers), the most recent :data:`MEMO_SIZE` results."""
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


# --- named mistakes: each exercise module computes them from its data ---------

@per_exercise
def _mistake_table(ex: Exercise) -> dict:
    return dict(ex.definition.mistakes(ex) or {})


@per_exercise
def mistakes(ex: Exercise, part_id: str) -> tuple[tuple[str, object], ...]:
    """The (key, wrong value) pairs for one part, minus any that equals the reference."""
    rows = _mistake_table(ex).get(part_id, [])
    ref = ex.part(part_id).reference
    rows = [(key, tuple(map(g.as_number, v)) if isinstance(v, (tuple, list)) else g.as_number(v))
            for key, v in rows]
    return tuple((key, value) for key, value in rows if not _same(value, ref, exact=True))


def _same(answer, value, *, exact: bool) -> bool:
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        value = tuple(value)
        return (isinstance(answer, tuple) and len(answer) == len(value)
                and all(compare.compare_scalar(a, v, exact=exact).equal for a, v in zip(answer, value)))
    if isinstance(answer, tuple):
        return False
    return compare.compare_scalar(answer, g.as_number(value), exact=exact).equal


def match_mistake(ex: Exercise, part_id: str, answer, *, exact: bool) -> Finding | None:
    for key, value in mistakes(ex, part_id):
        if _same(answer, value, exact=exact):
            return finding(key)
    return None


# --- an answer within the tolerance that is nearer another target -----------

@per_exercise
def targets(ex: Exercise, part_id: str) -> tuple[tuple[Finding, object], ...]:
    """What else an answer to this part may be: each named mistake's value, and each other part's
    reference of the same shape (a number, or a vector as long), with the note that names it."""
    part = ex.part(part_id)
    found = [(finding(key), value) for key, value in mistakes(ex, part_id)]
    for other in ex.parts:
        if other.id != part.id and _shape(other) == _shape(part):
            value = tuple(other.reference) if other.kind == "vector" else other.reference
            found.append((finding("other-part", part=f"key:part.{ex.id}.{other.id}.prompt",
                                  **dict(other.params)), value))
    return tuple(found)


def _shape(part) -> object:
    return len(tuple(part.reference)) if part.kind == "vector" else part.kind in ("real", "integer") or part.kind


def _gap(answer, value) -> float:
    if isinstance(answer, tuple):
        return max(compare.distance(a, v) for a, v in zip(answer, value, strict=True))
    return compare.distance(answer, value)


def _approximate(value) -> bool:
    return any(isinstance(v, Approx) for v in (value if isinstance(value, tuple) else (value,)))


def nearer_target(ex: Exercise, part_id: str, answer) -> Finding | None:
    """An answer accepted within the tolerance is still refused when it is nearer another part's
    answer or a named mistake's value than its own reference: it is most likely that one."""
    reference = ex.part(part_id).reference
    reference = tuple(reference) if isinstance(answer, tuple) else reference
    own = _gap(answer, reference)
    if own == 0:
        return None
    for note, value in targets(ex, part_id):
        if (isinstance(value, tuple) == isinstance(answer, tuple)
                and (not isinstance(answer, tuple) or len(value) == len(answer))):
            gap = _gap(answer, value)
            if abs(gap - own) <= 1e-9 * own and (_approximate(value) or _approximate(reference)):
                raise Undecided("as near another target as its own reference")   # SymPy's floats decide
            if gap < own:
                return note
    return None


# --- rules on vectors ---------------------------------------------------

def vector_findings(ex: Exercise, part_id: str, answer: Sequence, reference: Sequence) -> list[Finding]:
    """The exercise's own rules on the answer (weights that do not sum to 1...), and a right answer
    in the wrong order."""
    rules = ex.definition.answer_rules.get(part_id, ())
    found = [f for rule in rules if (f := rule(answer))]
    for perm in _permutations_matching(answer, reference):
        if perm != tuple(range(len(reference))):
            found.insert(0, finding("wrong-order"))
            break
    return found


def _permutations_matching(answer: Sequence, reference: Sequence):
    if len(answer) > 6:
        return
    equal = {}

    def same(i, j):
        if (i, j) not in equal:
            equal[i, j] = compare.compare_scalar(answer[i], reference[j]).equal
        return equal[i, j]
    for perm in permutations(range(len(reference))):
        if all(same(i, j) for i, j in enumerate(perm)):
            yield perm


# --- sets ---------------------------------------------------------------------

def point_finding(ex: Exercise, point: tuple) -> Finding:
    """Why a student point that matched no reference point is wrong: the exercise says, if it can."""
    if ex.definition.point_note is not None:
        return ex.definition.point_note(ex, point)
    return finding("not-a-vertex", point=show(point))
