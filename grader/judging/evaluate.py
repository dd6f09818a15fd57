"""Judge one answer symbolically: parse it, compare it with the reference, name the mistake.

:func:`evaluate` is a pure function (no I/O) from an answer's text to an :class:`Outcome` of keys
and numbers; :func:`grader.judging.check.judge` runs it under the time and memory limits when the fast
path (:mod:`grader.judging.table`) cannot decide. It imports SymPy.

Partial credit: scalar and integer parts are all or nothing; a vector earns
``points * (right components / components)``; a set earns
``points * max(0, right - wrong - duplicates) / reference points``.

A variant is judged first against its references in plain numbers (fast); where those cannot
decide, :func:`judge_on` raises :class:`grader.arithmetic.intervals.Undecided` and :func:`grader.judging.check.judge`
asks again against its SymPy references.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

from grader.arithmetic import compare
from grader.bank import variant
from grader.judging import feedback as fb
from grader.judging.outcome import Outcome
from grader.model.exercise import Exercise, Part
from grader.reading.parse import AnswerSyntaxError, Parsed, parse_answer


def _wrong(*found: fb.Finding | None, fraction: float = 0.0) -> Outcome:
    kept = tuple(f for f in found if f)
    return Outcome(fraction, kept or (fb.finding("incorrect"),))


def _scalar(ex: Exercise, part: Part, value, decimal: bool = False) -> Outcome:
    exact = part.whole
    verdict = compare.compare_scalar(value, part.reference, exact=exact, decimal=decimal)
    if verdict.equal:
        nearer = fb.nearer_target(ex, part.id, value)
        return _wrong(nearer) if nearer else Outcome(1.0)
    mistake = fb.match_mistake(ex, part.id, value, exact=exact)
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
        nearer = fb.nearer_target(ex, part.id, value)
        return _wrong(nearer) if nearer else Outcome(1.0)
    fraction = right / len(reference)
    wrong = ", ".join(str(i + 1) for i, v in enumerate(verdicts) if not v.equal)
    count = fb.finding("components-wrong", components=wrong, count=len(reference) - right)
    notes = {v.note for v in verdicts if not v.equal}
    if notes == {"decimal-imprecise"}:   # only rounding: say so, nothing else
        return _wrong(fb.finding("decimal-imprecise"), count,
                      fraction=fraction)
    mistake = fb.match_mistake(ex, part.id, value, exact=False)
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


@lru_cache(maxsize=8192)
def _parse(text: str, decimal_comma: bool, entries: bool) -> Parsed | AnswerSyntaxError:
    """Parse once per text: a class gives the same answers again and again."""
    try:
        return parse_answer(text, decimal_comma=decimal_comma, entries=entries)
    except AnswerSyntaxError as exc:
        return exc.with_traceback(None)


def evaluate(exercise_id: str, part_id: str, text: str, *, seed: str | int | None = None,
             decimal_comma: bool = False) -> Outcome:
    """Parse and judge one answer against the variant ``seed`` (its SymPy references); pure (no I/O).

    Language-free but for ``decimal_comma``: the student writes 0,5 (fr, id).
    """
    return judge_on(variant(exercise_id, seed), part_id, text, decimal_comma=decimal_comma)


def _unreadable(error: AnswerSyntaxError) -> Outcome:
    return Outcome(0.0, (fb.Finding(error.error.key, error.error.params),), error.error.column)


@lru_cache(maxsize=1024)
def _table_reference(exact: str | None, form: str | None):
    """A reference as :mod:`grader.judging.table`'s table holds it, in SymPy: its fraction, or its exact
    form read by the answer parser (the table keeps only forms that read back to the same value)."""
    if exact is not None:
        return sympy.Rational(exact)            # 'p/q', read exactly
    return None if form is None else parse_answer(form).value


def proved_on_table(exercise_id: str, part_id: str, text: str, *, decimal_comma: bool = False) -> Outcome | None:
    """An answer to a part on its lesson's data, judged against the references in the fast path's
    table, without building the lesson in SymPy (for ``sqrt(9/100)``, without a single SymPy sum).

    Full marks when it is proved equal to the reference: it is then at distance 0 from it, so no
    named mistake or other part can be nearer, and :func:`judge_on` would say the same. An answer
    that cannot be read gets its syntax error. Anything else is None: the lesson decides (its named
    mistakes and rules need it)."""
    from grader.judging import table as fast
    entry = fast.table().get(exercise_id, {}).get(part_id)
    if entry is None or entry["kind"] not in ("real", "integer", "vector"):
        return None
    references = tuple(_table_reference(v["exact"], v.get("form")) for v in entry["reference"])
    vector = entry["kind"] == "vector"
    parsed = _parse(text, decimal_comma, vector)
    if isinstance(parsed, AnswerSyntaxError):
        return _unreadable(parsed)
    if None in references or parsed.kind != ("vector" if vector else "scalar"):
        return None
    values = parsed.value if vector else (parsed.value,)
    if len(values) == len(references) and all(compare.prove_equal(a, r).equal
                                              for a, r in zip(values, references)):
        return Outcome(1.0)
    return None


def judge_on(ex: Exercise, part_id: str, text: str, *, decimal_comma: bool = False) -> Outcome:
    """Parse and judge one answer against the exercise ``ex``: a lesson's or a variant's, with
    SymPy references or plain numbers (:func:`grader.bank.numeric`). With plain numbers it
    raises :class:`grader.arithmetic.intervals.Undecided` where only exact arithmetic can judge."""
    part = ex.part(part_id)
    kind = part.kind
    parsed = _parse(text, decimal_comma, kind in ("vector", "set"))
    if isinstance(parsed, AnswerSyntaxError):
        return _unreadable(parsed)
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
