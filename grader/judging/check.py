"""Check answers: one part (:func:`check_part`) or a submission (:func:`grade_submission`).

:func:`judge` is the one entry point of judging, for the command line, the batch grader and the page.
It reads the answer (:func:`grader.reading.parse.read`, in the student's convention), then asks the one
judge (:func:`grader.judging.rules.judge`) of one source after another, each with costlier numbers, until
one decides:

* on a lesson's data, the reference table (:class:`grader.judging.table.TableSource`: fractions and
  proven intervals), then the lesson in SymPy;
* on a variant, its references in plain numbers (:func:`grader.bank.numeric`), then in SymPy.

An answer of plain numbers against the table needs no SymPy and no child process; anything that needs
SymPy runs in a child under the time and memory limits of :func:`grader.judging.limits.run_limited`.
A check past the time limit is the ``timeout`` note (not decided: never a wrong answer); one out of
memory, ``too-large``. A check that fails inside the grader becomes the part's ``internal-error`` note (the traceback goes to
the ``grader`` logger): no answer stops a run. Words come last, from
:mod:`grader.languages.messages`, in the reader's language.

Importing this module does not import SymPy: a plain-number check never needs it.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Mapping

from grader.arithmetic.intervals import Undecided
from grader.judging import rules
from grader.judging import table as reference_table
from grader.judging.limits import LimitExceeded, run_limited
from grader.judging.outcome import Outcome, PartResult, finding, missing_part, render  # noqa: F401  (re-exported)
from grader.languages.messages import message
from grader.reading import parse

log = logging.getLogger("grader")


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

    @property
    def internal_errors(self) -> int:
        return sum(p.note == "internal-error" for e in self.exercises for p in e.parts)

    @property
    def undecided(self) -> int:
        """Parts whose check ran past the time limit: not decided (try again)."""
        return sum(p.note == "timeout" for e in self.exercises for p in e.parts)

    def to_dict(self) -> dict:
        return {"score": self.score, "max_score": self.max_score, "seed": self.seed,
                "exercises": [e.to_dict() for e in self.exercises]}


def part_info(exercise_id: str, part_id: str, seed: str | None = None) -> reference_table.PartInfo:
    """The part's id, points, kind, form and length, from the reference table on a lesson's data (no
    SymPy), else from the variant. Unknown ids raise UnknownExercise / UnknownPart (KeyErrors)."""
    info = reference_table.part_info(exercise_id, part_id) if seed is None else None
    if info is not None:
        return info
    from grader import bank
    part = bank.numeric(exercise_id, seed).part(part_id)
    reference = tuple(part.reference) if part.kind in ("vector", "set") else None
    length = None if reference is None else len(reference) if part.kind == "vector" else len(tuple(reference[0]))
    return reference_table.PartInfo(part.id, part.points, part.kind, part.form, length)


def judge(exercise_id: str, part_id: str, text: str, *, seed: str | None = None, convention: str = "en",
          timeout: float | None = None, limited: bool = True) -> Outcome:
    """The outcome of one answer to the variant ``seed`` (None: the lesson's own data), read in the
    student's ``convention`` (a locale). ``limited``: run what needs SymPy in a child under the time and
    memory limits (False inside a worker that has its own). Unknown ids raise UnknownExercise /
    UnknownPart (KeyErrors); anything that fails inside is the ``internal-error`` note."""
    info = part_info(exercise_id, part_id, seed)
    try:
        reading = parse.read(text, convention=convention, shape=parse.shape_of(info.kind, info.length))
    except parse.AnswerSyntaxError as exc:
        return Outcome(0.0, (finding(exc.error.key, **exc.error.param_dict),), exc.error.column)
    try:
        outcome = _judge(exercise_id, part_id, reading, seed, timeout, limited)
    except Exception as exc:  # noqa: BLE001  (a bug: the part says so, the run goes on)
        log.error("internal error judging %r for %s/%s (seed %r)", text, exercise_id, part_id, seed, exc_info=exc)
        outcome = Outcome(0.0, (finding("internal-error", error=type(exc).__name__),))
    return replace(outcome, reading=(reading.kind, reading.tree)) if reading.conventions else outcome


def _answer(reading: parse.Reading, build) -> rules.Answer:
    if reading.kind == "set":
        tree = reading.tree
        return rules.Answer("set", tuple(tuple(build(n) for n in p) for p in tree),
                            tuple(tuple(parse.is_exact_form(n) for n in p) for p in tree),
                            tuple(tuple(parse.figures(n) for n in p) for p in tree))
    nodes = reading.entries()
    return rules.Answer(reading.kind, tuple(build(n) for n in nodes), tuple(parse.is_exact_form(n) for n in nodes),
                        tuple(parse.figures(n) for n in nodes))


def _sources(exercise_id: str, seed: str | None, symbolic: bool):
    """The sources to ask, cheapest first: the table or the variant's plain numbers; with
    ``symbolic``, then the lesson or the variant in SymPy."""
    if seed is None:
        yield reference_table.source(exercise_id)
    else:
        from grader import bank
        yield rules.ExerciseSource(bank.numeric(exercise_id, seed))
    if symbolic:
        from grader import bank
        yield rules.ExerciseSource(bank.variant(exercise_id, seed))


def _decide(exercise_id: str, part_id: str, answer: rules.Answer, seed: str | None, symbolic: bool) -> Outcome | None:
    for source in _sources(exercise_id, seed, symbolic):
        try:
            return rules.judge(source, part_id, answer)
        except Undecided:
            continue
    return None


def _judge(exercise_id, part_id, reading, seed, timeout, limited) -> Outcome:
    if all(parse.plain(n) is not None for n in reading.entries()):
        outcome = _decide(exercise_id, part_id, _answer(reading, parse.plain), seed, symbolic=False)
        if outcome is not None:
            return outcome
    from grader import bank  # SymPy: imported once, before any fork
    if seed is not None:
        bank.numeric(exercise_id, seed)      # drawn here, before the fork: kept for the next answer

    def symbolic() -> Outcome:
        try:
            answer = _answer(reading, parse.value)
        except parse.AnswerSyntaxError as exc:    # a power only SymPy sees is too large (2^(10^15*sqrt(1)))
            return Outcome(0.0, (finding(exc.error.key, **exc.error.param_dict),))
        outcome = _decide(exercise_id, part_id, answer, seed, symbolic=True)
        if outcome is None:
            raise Undecided("no source could decide")     # never: SymPy decides or says 'undecided'
        return outcome
    result = run_limited(symbolic, timeout) if limited else symbolic()
    return limit_outcome(result) if isinstance(result, LimitExceeded) else result


def limit_outcome(limit: LimitExceeded) -> Outcome:
    """A check that blew a limit: past the time limit, ``timeout`` (not decided: a busy machine may
    get there, so it is never a verdict to keep); out of memory, ``too-large`` (the answer is)."""
    if limit.reason == "timeout":
        return Outcome(0.0, (finding("timeout"),))
    return Outcome(0.0, (finding("too-large", reason=limit.reason),))


def check_part(exercise_id: str, part_id: str, answer_text: str, lang: str = "en",
               *, timeout: float | None = None, seed: str | int | None = None,
               convention: str | None = None) -> PartResult:
    """Check one answer to the variant ``seed`` (None: the lesson's data), in ``lang``, read in
    ``convention`` (default: ``lang``: the student's own language).

    Unknown ids raise :class:`grader.model.exercise.UnknownExercise` / ``UnknownPart`` (KeyErrors); a bad
    seed :class:`grader.model.seeds.InvalidSeed` (a ValueError)."""
    if seed is not None:
        from grader.model.seeds import seed_text
        seed = seed_text(seed)
    outcome = judge(exercise_id, part_id, answer_text, seed=seed, convention=convention or lang, timeout=timeout)
    return render(part_info(exercise_id, part_id, seed), outcome, lang, answer_text)


def validate(mapping: Mapping[str, Mapping[str, str]]) -> None:
    """Raise UnknownExercise/UnknownPart for ids the bank does not have."""
    from grader.bank import get
    for exercise_id, answers in mapping.items():
        ex = get(exercise_id)
        for part_id in answers:
            ex.part(part_id)


def grade_submission(mapping: Mapping[str, Mapping[str, str]], lang: str = "en",
                     *, timeout: float | None = None, seed: str | int | None = None,
                     convention: str | None = None, exercises: tuple[str, ...] | None = None) -> SubmissionResult:
    """Grade {exercise id: {part id: answer text}} against the exercises of the bank (``exercises``:
    those ids only, in the bank's order), each in its variant ``seed`` (None: the lessons' own data),
    read in ``convention`` (default: ``lang``)."""
    from grader.bank import EXERCISES
    validate(mapping)
    if seed is not None:
        from grader.model.seeds import seed_text
        seed = seed_text(seed)       # InvalidSeed before any work
    results = []
    for ex in EXERCISES.values():
        if exercises is not None and ex.id not in exercises:
            continue
        answers = mapping.get(ex.id, {})
        parts = tuple(check_part(ex.id, p.id, answers[p.id], lang, timeout=timeout, seed=seed, convention=convention)
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
