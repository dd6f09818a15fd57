"""Check answers: one part (:func:`check_part`) or a submission (:func:`grade_submission`).

:func:`judge` is the one place that decides how an answer is judged: a plain number against the
lesson's own data by :mod:`grader.judging.table` (no SymPy, no child process), anything else by
:func:`grader.judging.evaluate.evaluate` (SymPy) under the time and memory limits of
:func:`grader.judging.limits.run_limited`. The command line, the batch grader and the browser all call it.
Words come last, from :mod:`grader.languages.messages`, in the student's language.

Importing this module does not import SymPy: a plain-number check never needs it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from grader.judging import table as fast
from grader.judging.limits import LimitExceeded, run_limited
from grader.judging.outcome import Outcome, PartResult, finding, missing_part, render  # noqa: F401  (re-exported)
from grader.languages.messages import message
from grader.languages.numerals import DECIMAL_COMMA


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


def judge(exercise_id: str, part_id: str, text: str, *, seed: str | None = None,
          decimal_comma: bool = False, timeout: float | None = None, limited: bool = True) -> Outcome:
    """The outcome of one answer to the variant ``seed`` (None: the lesson's own data).

    On a lesson's data, a plain number (or a right vector or set of them) by :mod:`grader.judging.table`,
    from its table, without SymPy; an exact form equal to the reference against that table's
    references (:func:`grader.judging.evaluate.proved_on_table`: the lesson is not built); anything else
    by :mod:`grader.judging.evaluate` against the lesson in SymPy. On a variant, by
    :mod:`grader.judging.evaluate` against its references in plain numbers (:func:`grader.bank.numeric`,
    computed once per seed in well under a millisecond), or in SymPy (:func:`grader.bank.variant`)
    where those cannot decide: an exact form equal to an irrational reference needs a proof.

    ``decimal_comma``: the student writes 0,5 (fr, id). ``limited``: run the symbolic check in a
    child process under the time and memory limits (False inside a worker that has its own).
    Unknown ids raise :class:`grader.model.exercise.UnknownExercise` / ``UnknownPart`` (KeyErrors).
    """
    if seed is None:
        outcome = fast.outcome(exercise_id, part_id, text, decimal_comma=decimal_comma)
        if outcome is not None:
            return outcome
    from grader.judging import evaluate  # SymPy: imported once, before any fork
    if seed is None and fast.part_info(exercise_id, part_id) is not None:
        outcome = _limited(lambda: evaluate.proved_on_table(exercise_id, part_id, text,
                                                            decimal_comma=decimal_comma), timeout, limited)
        if outcome is not None:
            return outcome
    from grader.bank import numeric
    numeric(exercise_id, seed).part(part_id)      # built here, before the fork; unknown ids raise
    return _limited(lambda: _symbolic(exercise_id, part_id, text, seed, decimal_comma), timeout, limited)


def _limited(work, timeout: float | None, limited: bool) -> Outcome | None:
    """``work()``, in a child under the time and memory limits when ``limited``."""
    result = run_limited(work, timeout) if limited else work()
    if isinstance(result, LimitExceeded):
        return Outcome(0.0, (finding("too-large", reason=result.reason),))
    return result


def _symbolic(exercise_id: str, part_id: str, text: str, seed: str | None, decimal_comma: bool) -> Outcome:
    from grader.arithmetic.intervals import Undecided
    from grader.bank import numeric, variant
    from grader.judging.evaluate import judge_on
    if seed is not None:
        try:
            return judge_on(numeric(exercise_id, seed), part_id, text, decimal_comma=decimal_comma)
        except Undecided:
            pass
    return judge_on(variant(exercise_id, seed), part_id, text, decimal_comma=decimal_comma)


def part_info(exercise_id: str, part_id: str, seed: str | None = None):
    """The part's id and points, from the fast path's table when it has them (no SymPy)."""
    info = fast.part_info(exercise_id, part_id) if seed is None else None
    if info is not None:
        return info
    from grader.bank import numeric
    return numeric(exercise_id, seed).part(part_id)


def check_part(exercise_id: str, part_id: str, answer_text: str, lang: str = "en",
               *, timeout: float | None = None, seed: str | int | None = None) -> PartResult:
    """Check one answer to the variant ``seed`` (None: the lesson's data), in ``lang``.

    Unknown ids raise :class:`grader.model.exercise.UnknownExercise` / :class:`grader.model.exercise.UnknownPart`
    (KeyErrors); a bad seed :class:`grader.model.seeds.InvalidSeed` (a ValueError). In fr and id a decimal
    comma is read (:func:`grader.reading.notation.separators`).
    """
    if seed is not None:
        from grader.model.seeds import seed_text
        seed = seed_text(seed)
    outcome = judge(exercise_id, part_id, answer_text, seed=seed, decimal_comma=lang in DECIMAL_COMMA,
                    timeout=timeout)
    return render(part_info(exercise_id, part_id, seed), outcome, lang, answer_text)


def validate(mapping: Mapping[str, Mapping[str, str]]) -> None:
    """Raise UnknownExercise/UnknownPart for ids the bank does not have."""
    from grader.bank import get
    for exercise_id, answers in mapping.items():
        ex = get(exercise_id)
        for part_id in answers:
            ex.part(part_id)


def grade_submission(mapping: Mapping[str, Mapping[str, str]], lang: str = "en",
                     *, timeout: float | None = None,
                     seed: str | int | None = None) -> SubmissionResult:
    """Grade {exercise id: {part id: answer text}} against every exercise in the bank,
    each in its variant ``seed`` (None: the lessons' own data)."""
    from grader.bank import EXERCISES
    validate(mapping)
    if seed is not None:
        from grader.model.seeds import seed_text
        seed = seed_text(seed)       # InvalidSeed before any work
    results = []
    for ex in EXERCISES.values():
        answers = mapping.get(ex.id, {})
        parts = tuple(check_part(ex.id, p.id, answers[p.id], lang, timeout=timeout, seed=seed)
                      if p.id in answers else missing_part(p, lang) for p in ex.parts)
        results.append(ExerciseResult(ex.id, parts))
    return SubmissionResult(tuple(results), seed)


def input_error(exc: Exception, lang: str) -> str | None:
    """What is wrong with the input, in ``lang``, when ``exc`` is about the input: an unknown
    exercise or part, an unusable seed; else None (a bug)."""
    from grader.model.exercise import UnknownExercise, UnknownPart
    from grader.model.seeds import MAX_SEED_LENGTH, InvalidSeed
    if isinstance(exc, UnknownExercise):
        return message("error-unknown-exercise", lang, id=exc.exercise_id, known=", ".join(exc.known))
    if isinstance(exc, UnknownPart):
        return message("error-unknown-part", lang, exercise=exc.exercise_id, part=exc.part_id,
                       known=", ".join(exc.known))
    if isinstance(exc, InvalidSeed):
        return message("error-seed", lang, seed=exc.seed, limit=MAX_SEED_LENGTH)
    return None
