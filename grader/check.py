"""Check answers: one part (:func:`check_part`) or a submission (:func:`grade_submission`).

The work on student text (parse, compare, find the mistake) runs in
:func:`evaluate`, a pure function returning an :class:`Outcome` of keys and
numbers; it is run under :func:`grader.limits.run_limited`. Words come last,
from :mod:`grader.messages`, in the student's language.

Partial credit: scalar and integer parts are all or nothing; a vector earns
``points * (right components / components)``; a set earns
``points * max(0, right - wrong - duplicates) / reference points``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy

from . import compare, fast, feedback as fb
from .bank import EXERCISES, Exercise, Part, get, variant
from .limits import LimitExceeded, run_limited
from .messages import DECIMAL_COMMA
from .outcome import Outcome, PartResult, missing_part, render  # noqa: F401  (re-exported)
from .parse import AnswerSyntaxError, parse_answer


@dataclass(frozen=True)
class ExerciseResult:
    id: str
    parts: tuple[PartResult, ...]

    @property
    def score(self) -> float:
        return round(sum(p.score for p in self.parts), 3)

    @property
    def max_score(self) -> int:
        return sum(p.max_score for p in self.parts)

    def to_dict(self) -> dict:
        return {"id": self.id, "score": self.score, "max_score": self.max_score,
                "parts": [p.to_dict() for p in self.parts]}


@dataclass(frozen=True)
class SubmissionResult:
    exercises: tuple[ExerciseResult, ...] = field(default=())
    seed: str | None = None       # the variant graded; None: the lessons' own data

    @property
    def score(self) -> float:
        return round(sum(e.score for e in self.exercises), 3)

    @property
    def max_score(self) -> int:
        return sum(e.max_score for e in self.exercises)

    @property
    def all_correct(self) -> bool:
        return all(p.correct for e in self.exercises for p in e.parts)

    def to_dict(self) -> dict:
        return {"score": self.score, "max_score": self.max_score, "seed": self.seed,
                "exercises": [e.to_dict() for e in self.exercises]}


def _wrong(*found: fb.Finding | None, fraction: float = 0.0) -> Outcome:
    kept = tuple(f for f in found if f)
    return Outcome(fraction, kept or (fb.finding("incorrect"),))


def _scalar(ex: Exercise, part: Part, value: sympy.Expr) -> Outcome:
    exact = part.kind == "integer"
    verdict = compare.compare_scalar(value, part.reference, exact=exact)
    if verdict.equal:
        return Outcome(1.0)
    mistake = fb.match_mistake(ex.id, part.id, value, exact=exact, seed=ex.seed)
    if mistake:
        return _wrong(mistake)
    if verdict.note == "decimal-imprecise":
        return _wrong(fb.finding("decimal-imprecise", tolerance="0.5%", digits=3))
    return _wrong(fb.finding(verdict.note) if verdict.note else None)


def _vector(ex: Exercise, part: Part, value: tuple) -> Outcome:
    reference = tuple(part.reference)
    if len(value) != len(reference):
        return _wrong(fb.finding("wrong-count", expected=len(reference), got=len(value)))
    verdicts = compare.compare_vector(value, reference)
    right = sum(v.equal for v in verdicts)
    if right == len(reference):
        return Outcome(1.0)
    fraction = right / len(reference)
    wrong = ", ".join(str(i + 1) for i, v in enumerate(verdicts) if not v.equal)
    count = fb.finding("components-wrong", components=wrong, count=len(reference) - right)
    notes = {v.note for v in verdicts if not v.equal}
    if notes == {"decimal-imprecise"}:   # only rounding: say so, nothing else
        return _wrong(fb.finding("decimal-imprecise", tolerance="0.5%", digits=3), count,
                      fraction=fraction)
    mistake = fb.match_mistake(ex.id, part.id, value, exact=False, seed=ex.seed)
    found = [mistake] if mistake else fb.vector_findings(ex.id, part.id, value, reference)
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
    found = [fb.point_findings(ex, points[i]) for i in match.unmatched]
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
    if kind in ("scalar", "integer"):
        return _scalar(ex, part, parsed.value) if parsed.kind == "scalar" else wrong_form
    if kind == "vector":
        return _vector(ex, part, parsed.value) if parsed.kind == "vector" else wrong_form
    if parsed.kind == "scalar":
        return wrong_form
    points = (parsed.value,) if parsed.kind == "vector" else parsed.value
    return _set(ex, part, points)


def check_part(exercise_id: str, part_id: str, answer_text: str, lang: str = "en",
               *, timeout: float | None = None, seed: str | int | None = None) -> PartResult:
    """Check one answer to the variant ``seed`` (None: the lesson's data).

    Unknown ids raise :class:`grader.bank.UnknownExercise` / :class:`grader.bank.UnknownPart`
    (KeyErrors); a bad seed :class:`grader.seeds.InvalidSeed` (a ValueError).
    In fr and id a decimal comma is read (:func:`grader.parse.decimal_commas`). A plain number
    against the lesson's own data is judged without SymPy or a child process (:mod:`grader.fast`).
    """
    part = variant(exercise_id, seed).part(part_id)   # built here, before the fork
    comma = lang in DECIMAL_COMMA
    outcome = fast.outcome(exercise_id, part_id, answer_text) if seed is None else None
    if outcome is None:
        outcome = run_limited(lambda: evaluate(exercise_id, part_id, answer_text, seed=seed,
                                               decimal_comma=comma), timeout)
    if isinstance(outcome, LimitExceeded):
        outcome = Outcome(0.0, (fb.finding("too-large", reason=outcome.reason),))
    return render(part, outcome, lang, answer_text)


def validate(mapping: Mapping[str, Mapping[str, str]]) -> None:
    """Raise UnknownExercise/UnknownPart for ids the bank does not have."""
    for exercise_id, answers in mapping.items():
        ex = get(exercise_id)
        for part_id in answers:
            ex.part(part_id)


def grade_submission(mapping: Mapping[str, Mapping[str, str]], lang: str = "en",
                     *, timeout: float | None = None,
                     seed: str | int | None = None) -> SubmissionResult:
    """Grade {exercise id: {part id: answer text}} against every exercise in the bank,
    each in its variant ``seed`` (None: the lessons' own data)."""
    validate(mapping)
    if seed is not None:
        from .seeds import seed_text
        seed = seed_text(seed)       # InvalidSeed before any work
    results = []
    for ex in EXERCISES.values():
        answers = mapping.get(ex.id, {})
        parts = tuple(check_part(ex.id, p.id, answers[p.id], lang, timeout=timeout, seed=seed)
                      if p.id in answers else missing_part(p, lang) for p in ex.parts)
        results.append(ExerciseResult(ex.id, parts))
    return SubmissionResult(tuple(results), seed)
