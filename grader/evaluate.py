"""Judge one answer symbolically: parse it, compare it with the reference, name the mistake.

:func:`evaluate` is a pure function (no I/O) from an answer's text to an :class:`Outcome` of keys
and numbers; :func:`grader.check.judge` runs it under the time and memory limits when the fast
path (:mod:`grader.fast`) cannot decide. It imports SymPy.

Partial credit: scalar and integer parts are all or nothing; a vector earns
``points * (right components / components)``; a set earns
``points * max(0, right - wrong - duplicates) / reference points``.
"""
from __future__ import annotations

import sympy

from . import compare, feedback as fb
from .bank import variant
from .exercise import Exercise, Part
from .outcome import Outcome
from .parse import AnswerSyntaxError, parse_answer


def _wrong(*found: fb.Finding | None, fraction: float = 0.0) -> Outcome:
    kept = tuple(f for f in found if f)
    return Outcome(fraction, kept or (fb.finding("incorrect"),))


def _scalar(ex: Exercise, part: Part, value: sympy.Expr, decimal: bool = False) -> Outcome:
    exact = part.whole
    verdict = compare.compare_scalar(value, part.reference, exact=exact, decimal=decimal)
    if verdict.equal:
        nearer = fb.nearer_target(ex.id, part.id, value, ex.seed)
        return _wrong(nearer) if nearer else Outcome(1.0)
    mistake = fb.match_mistake(ex.id, part.id, value, exact=exact, seed=ex.seed)
    if mistake:
        return _wrong(mistake)
    if verdict.note == "decimal-imprecise":
        return _wrong(fb.finding("decimal-imprecise-zero" if part.reference == 0 else "decimal-imprecise"))
    return _wrong(fb.finding(verdict.note) if verdict.note else None)


def _vector(ex: Exercise, part: Part, value: tuple, decimal: bool = False) -> Outcome:
    reference = tuple(part.reference)
    if len(value) != len(reference):
        return _wrong(fb.finding("wrong-count", expected=len(reference), got=len(value)))
    verdicts = compare.compare_vector(value, reference, exact=part.whole, decimals=[decimal] * len(value))
    right = sum(v.equal for v in verdicts)
    if right == len(reference):
        nearer = fb.nearer_target(ex.id, part.id, value, ex.seed)
        return _wrong(nearer) if nearer else Outcome(1.0)
    fraction = right / len(reference)
    wrong = ", ".join(str(i + 1) for i, v in enumerate(verdicts) if not v.equal)
    count = fb.finding("components-wrong", components=wrong, count=len(reference) - right)
    notes = {v.note for v in verdicts if not v.equal}
    if notes == {"decimal-imprecise"}:   # only rounding: say so, nothing else
        return _wrong(fb.finding("decimal-imprecise"), count,
                      fraction=fraction)
    mistake = fb.match_mistake(ex.id, part.id, value, exact=False, seed=ex.seed)
    found = [mistake] if mistake else fb.vector_findings(ex, part.id, value, reference)
    found.append(count)
    found += [fb.finding(n) for n in sorted(notes - {""})]
    return _wrong(*found, fraction=fraction)


def _set(ex: Exercise, part: Part, points: tuple) -> Outcome:
    reference = [tuple(p) for p in part.reference]
    match = compare.match_points(points, reference)
    net = len(match.matched) - len(match.duplicates) - len(match.unmatched)
    fraction = max(0, net) / len(reference)
    if fraction == 1:
        return Outcome(1.0)
    found = [fb.point_finding(ex, points[i]) for i in match.unmatched]
    found += [fb.finding("duplicate-point", point=fb.show(points[i])) for i in match.duplicates]
    if match.missing:
        found.append(fb.finding("missing-points", count=match.missing, total=len(reference)))
    return _wrong(*found, fraction=fraction)


def evaluate(exercise_id: str, part_id: str, text: str, *, seed: str | int | None = None,
             decimal_comma: bool = False) -> Outcome:
    """Parse and judge one answer against the variant ``seed``; pure (no I/O).

    Language-free but for ``decimal_comma``: the student writes 0,5 (fr, id).
    """
    ex = variant(exercise_id, seed)
    part = ex.part(part_id)
    kind = part.kind
    try:
        parsed = parse_answer(text, decimal_comma=decimal_comma, entries=kind in ("vector", "set"))
    except AnswerSyntaxError as exc:
        return Outcome(0.0, (fb.Finding(exc.error.key, exc.error.params),), exc.error.column)
    wrong_form = _wrong(fb.finding("wrong-form", expected=f"key:{part.form}",
                                   got=f"key:kind-{parsed.kind}"))
    if kind in ("real", "integer"):
        return _scalar(ex, part, parsed.value, parsed.decimal) if parsed.kind == "scalar" else wrong_form
    if kind == "vector":
        return _vector(ex, part, parsed.value, parsed.decimal) if parsed.kind == "vector" else wrong_form
    if parsed.kind == "scalar":
        return wrong_form
    points = (parsed.value,) if parsed.kind == "vector" else parsed.value
    return _set(ex, part, points)
