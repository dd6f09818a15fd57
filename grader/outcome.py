"""What a check finds, and its words: the light end of checking (no SymPy).

:class:`Finding` (a stable key and parameters) and :class:`Outcome` (a fraction
of the points and the findings) are what the pure checking functions return;
:func:`render` turns an outcome into a :class:`PartResult` in a language. Kept
apart from :mod:`grader.check` so that answering from :mod:`grader.fast` (a plain
number) never imports SymPy. ``part`` is anything with ``id`` and ``points``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .messages import message, plain_math


@dataclass(frozen=True)
class Finding:
    key: str
    params: tuple[tuple[str, str], ...] = field(default=())


def finding(key: str, **params: object) -> Finding:
    return Finding(key, tuple((k, str(v)) for k, v in params.items()))


@dataclass(frozen=True)
class Outcome:
    fraction: float                       # of the part's points
    findings: tuple[Finding, ...] = ()  # empty when correct
    column: int | None = None             # where parsing failed


@dataclass(frozen=True)
class PartResult:
    id: str
    score: float
    max_score: int
    correct: bool
    note: str                 # first finding's key; '' when correct
    feedback: str
    notes: tuple[str, ...] = ()
    column: int | None = None
    answer: str | None = None

    def to_dict(self) -> dict:
        return {"id": self.id, "score": self.score, "max_score": self.max_score,
                "correct": self.correct, "note": self.note, "feedback": self.feedback,
                "notes": list(self.notes), "column": self.column, "answer": self.answer}


def render(part, outcome: Outcome, lang: str, answer: str | None) -> PartResult:
    keys = tuple(f.key for f in outcome.findings)
    if keys:   # a message may name a part by its prompt, whose $TeX$ reads as text here
        text = plain_math(" ".join(message(f.key, lang, **dict(f.params)) for f in outcome.findings))
    else:
        text = message("correct", lang)
    return PartResult(part.id, round(part.points * outcome.fraction, 3), part.points,
                      not keys, keys[0] if keys else "", text, keys, outcome.column, answer)


def missing_part(part, lang: str) -> PartResult:
    return PartResult(part.id, 0.0, part.points, False, "missing",
                      message("missing", lang), ("missing",), None, None)
