"""The one judge: every part kind judges each entry of an answer by the same rules.

* A **whole number** (an ``integer`` part, or an entry of one) must be the exact value, whatever form
  it comes in (``15``, ``30/2``, ``15.0``, ``sqrt(225)``).
* An entry written as a **number** (a decimal, a fraction, arithmetic on them, or anything holding a
  decimal) is judged within the tolerance.
* An entry written as an **exact form** (a root, ``e``, ``pi``, a function, a fractional power, and no
  decimal) must be equal. Which rule applies is decided by what the student wrote, never by the value
  (:func:`grader.reading.parse.is_exact_form`).
* An answer accepted within the tolerance that is **nearer another part's answer or a named mistake**
  than its own reference gets that note; the comparison is exact (:func:`grader.arithmetic.compare.nearer`).
  When the student gave fewer figures than the part asks for, the note says how many to give.
* A wrong answer that equals a **named mistake** (by the same entry rules) gets the mistake's note.

Partial credit: scalar parts are all or nothing; a vector earns ``points * right entries / entries``;
a set ``points * max(0, right - wrong - duplicates) / reference points``.

The judge asks a *source* for the part, its references and its targets: an exercise
(:class:`ExerciseSource`: a lesson's or a variant's, in SymPy or in plain numbers) or the reference table
(:class:`grader.judging.table.TableSource`). A source whose numbers cannot decide a question, or that
lacks the exercise's own rules (why a wrong vector is wrong), raises
:class:`~grader.arithmetic.intervals.Undecided`, and :func:`grader.judging.check.judge` asks the next
source: the same rules, a costlier number.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Protocol

from grader.arithmetic import compare
from grader.judging.outcome import Outcome
from grader.languages.numerals import Series
from grader.model import targets
from grader.model.exercise import Exercise, Finding, finding


@dataclass(frozen=True)
class Answer:
    """An answer as the judge sees it: ``kind`` 'scalar', 'vector' or 'set'; per entry (a tuple for a
    scalar or a vector, a tuple of tuples for a set) its value, whether it was written as an exact form,
    and its significant figures when it is one decimal (else None)."""
    kind: str
    values: tuple
    exact: tuple
    figures: tuple


class Source(Protocol):
    def part(self, part_id: str): ...                                  # id, points, kind, whole, form, reference
    def reference(self, part_id: str) -> tuple: ...                    # the entries (points, for a set)
    def mistakes(self, part_id: str) -> tuple[tuple[str, tuple], ...]: ...
    def targets(self, part_id: str) -> tuple[tuple[Finding, tuple], ...]: ...
    def spreads(self, part_id: str) -> tuple: ...                       # each target's distance, at least
    def figures(self, part_id: str) -> int: ...
    def rules(self, part_id: str, values: tuple, figures: tuple) -> list[Finding]: ...   # the exercise's own, on a vector
    def point_note(self, point: tuple) -> Finding: ...                  # why a point of a set is wrong


class ExerciseSource:
    """An exercise as the judge asks it: a lesson's, or a variant's in SymPy or in plain numbers."""

    def __init__(self, exercise: Exercise):
        self.exercise = exercise

    def part(self, part_id: str):
        return self.exercise.part(part_id)

    def reference(self, part_id: str) -> tuple:
        part = self.exercise.part(part_id)
        if part.kind == "set":
            return tuple(tuple(point) for point in part.reference)
        return targets.entries(part.reference)

    def mistakes(self, part_id: str):
        return targets.mistakes(self.exercise, part_id)

    def targets(self, part_id: str):
        return targets.targets(self.exercise, part_id)

    def spreads(self, part_id: str) -> tuple:
        return targets.spreads(self.exercise, part_id)

    def figures(self, part_id: str) -> int:
        return targets.figures(self.exercise, part_id)

    def rules(self, part_id: str, values: tuple, figures: tuple) -> list[Finding]:
        rules = self.exercise.definition.answer_rules.get(part_id, ())
        return [f for rule in rules if (f := rule(values, figures))]

    def point_note(self, point: tuple) -> Finding:
        if self.exercise.definition.point_note is not None:
            return self.exercise.definition.point_note(self.exercise, point)
        return finding("not-a-vertex", point=point)


def _wrong(*found: Finding | None, fraction: float = 0.0) -> Outcome:
    kept = tuple(f for f in found if f)
    return Outcome(fraction, kept or (finding("incorrect"),))


def _verdicts(values: tuple, exact: tuple, reference: tuple, whole: bool) -> tuple[compare.Verdict, ...]:
    """Each entry against the reference's: equal if a whole number or an exact form, else within the tolerance."""
    return tuple(compare.compare_scalar(v, r, exact=whole or e) for v, e, r in zip(values, exact, reference))


def judge(source: Source, part_id: str, answer: Answer) -> Outcome:
    """The outcome of ``answer`` to the part ``part_id`` of ``source``. Raises Undecided where the
    source cannot decide (the caller asks a costlier one)."""
    part = source.part(part_id)
    kind = part.kind
    shaped = {"real": "scalar", "integer": "scalar"}.get(kind, kind)
    if answer.kind != shaped and not (kind == "set" and answer.kind == "vector"):
        return _wrong(finding("wrong-form", expected=f"key:{part.form}", got=f"key:kind-{answer.kind}"))
    if kind == "set":
        return _set(source, part, answer)
    reference = source.reference(part_id)
    if len(answer.values) != len(reference):
        return _wrong(finding("wrong-count", expected=len(reference), got=len(answer.values)))
    verdicts = _verdicts(answer.values, answer.exact, reference, part.whole)
    right = sum(v.equal for v in verdicts)
    if right == len(reference):
        return _accepted(source, part, answer, reference)
    mistake = _mistake(source, part, answer)
    if kind != "vector":
        note = verdicts[0].note
        if mistake:
            return _wrong(mistake)
        if note == "decimal-imprecise":
            zero = compare.rational(reference[0]) == 0
            return _wrong(finding("decimal-imprecise-zero" if zero else "decimal-imprecise",
                                  digits=source.figures(part_id)))
        if note:
            return _wrong(finding(note))
        if answer.exact[0] and not part.whole and _within(answer.values[0], reference[0]):
            return _wrong(finding("exact-form-not-equal"))
        return _wrong()
    fraction = right / len(reference)
    wrong = Series(i + 1 for i, v in enumerate(verdicts) if not v.equal)
    count = finding("components-wrong", components=wrong, count=len(reference) - right)
    notes = {v.note for v in verdicts if not v.equal}
    if notes == {"decimal-imprecise"}:            # only rounding: say so, nothing else
        return _wrong(finding("decimal-imprecise", digits=source.figures(part_id)), count, fraction=fraction)
    found = [mistake] if mistake else _vector_findings(source, part, answer, reference)
    found.append(count)
    found += [finding(n) for n in sorted(notes - {""})]
    return _wrong(*found, fraction=fraction)


def _within(value, reference) -> bool:
    try:
        return compare.within(value, reference) is True
    except compare.TooLarge:
        return False


def _accepted(source: Source, part, answer: Answer, reference: tuple) -> Outcome:
    """Full marks, unless the answer is nearer another part's answer or a named mistake."""
    if all(compare.rational(v) is not None and compare.rational(v) == compare.rational(r)
           for v, r in zip(answer.values, reference)):
        return Outcome(1.0)                        # the very reference: nothing can be nearer
    found = [(note, value) for (note, value), spread in zip(source.targets(part.id), source.spreads(part.id))
             if len(value) == len(reference) and not compare.cannot_be_nearer(answer.values, reference, spread)
             and compare.nearer(answer.values, value, reference)]
    if not found:
        return Outcome(1.0)
    note, value = found[0]
    for other_note, other in found[1:]:          # the nearest of them names the answer
        if compare.nearer(answer.values, other, value):
            note, value = other_note, other
    needed = source.figures(part.id)
    typed = [f for f in answer.figures if f is not None]
    if typed and min(typed) < needed:
        return _wrong(note, finding("figures-needed", digits=needed))
    return _wrong(note)


def _mistake(source: Source, part, answer: Answer) -> Finding | None:
    for key, value in source.mistakes(part.id):
        if len(value) == len(answer.values) and all(
                v.equal for v in _verdicts(answer.values, answer.exact, value, part.whole)):
            return finding(key)
    return None


def _vector_findings(source: Source, part, answer: Answer, reference: tuple) -> list[Finding]:
    """The exercise's own rules on the answer (weights that do not sum to 1...), and a right answer
    in the wrong order."""
    found = source.rules(part.id, answer.values, answer.figures)
    if len(reference) <= 6:
        for perm in permutations(range(len(reference))):
            if perm != tuple(range(len(reference))) and all(
                    compare.compare_scalar(answer.values[i], reference[j], exact=part.whole or answer.exact[i]).equal
                    for i, j in enumerate(perm)):
                found.insert(0, finding("wrong-order"))
                break
    return found


def _set(source: Source, part, answer: Answer) -> Outcome:
    points = answer.values if answer.kind == "set" else (answer.values,)
    exact = answer.exact if answer.kind == "set" else (answer.exact,)
    exact = tuple(tuple(part.whole or e for e in flags) for flags in exact)
    reference = source.reference(part.id)
    match = compare.match_points(points, reference, exact)
    net = len(match.matched) - len(match.duplicates) - len(match.unmatched)
    fraction = max(0, net) / len(reference)
    if fraction == 1:
        return Outcome(1.0)
    found = [source.point_note(points[i]) if all(map(compare.is_real, points[i])) else finding("not-a-real-number")
             for i in match.unmatched]
    found += [finding("duplicate-point", point=points[i]) for i in match.duplicates]
    if match.missing:
        found.append(finding("missing-points", count=match.missing, total=len(reference)))
    return _wrong(*found, fraction=fraction)
