"""Test helpers: one answer judged by each source the judge asks, the cheapest first."""
from __future__ import annotations

from grader import bank
from grader.arithmetic.intervals import Undecided
from grader.judging import check, rules
from grader.judging.table import source as table_source
from grader.reading import parse


def read(exercise_id: str, part_id: str, text: str, seed=None, convention: str = "en") -> parse.Reading:
    info = check.part_info(exercise_id, part_id, seed)
    return parse.read(text, convention=convention, shape=parse.shape_of(info.kind, info.length))


def answer(reading: parse.Reading, plain_only: bool = False) -> rules.Answer | None:
    """The reading as the judge sees it: plain numbers as Fractions (None with ``plain_only`` when an
    entry needs SymPy), anything else in SymPy."""
    if plain_only and any(parse.plain(n) is None for n in reading.entries()):
        return None
    return check._answer(reading, parse.plain if plain_only else parse.value)


def by(source, part_id: str, judged: rules.Answer | None):
    """The source's outcome, or None where it steps aside (Undecided)."""
    if judged is None:
        return None
    try:
        return rules.judge(source, part_id, judged)
    except Undecided:
        return None


def on_table(exercise_id: str, part_id: str, text: str, convention: str = "en", plain_only: bool = False):
    return by(table_source(exercise_id), part_id, answer(read(exercise_id, part_id, text, None, convention), plain_only))


def on_lesson(exercise_id: str, part_id: str, text: str, convention: str = "en", seed=None):
    """The outcome in SymPy: the lesson's (or the variant's) exercise, every entry a SymPy value."""
    return rules.judge(rules.ExerciseSource(bank.variant(exercise_id, seed)), part_id,
                       answer(read(exercise_id, part_id, text, seed, convention)))


def on_numeric_variant(exercise_id: str, part_id: str, text: str, seed, convention: str = "en"):
    reading = read(exercise_id, part_id, text, seed, convention)
    return by(rules.ExerciseSource(bank.numeric(exercise_id, seed)), part_id, answer(reading, plain_only=True))
