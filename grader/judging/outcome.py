"""What a check finds, and its words: the light end of checking (no SymPy).

:class:`Finding` (a stable key and parameters) and :class:`Outcome` (a fraction
of the points and the findings) are what the pure checking functions return;
:func:`render` turns an outcome into a :class:`PartResult` in a language. Kept
apart from :mod:`grader.judging.check` so that answering from :mod:`grader.judging.table` (a plain
number) never imports SymPy. ``part`` is anything with ``id`` and ``points``.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from grader.languages.messages import message, plain_math
from grader.model.exercise import Finding, finding  # noqa: F401  (what a check finds: the exercises' word too)
from grader.reading import show
from grader.text import escape, printable


@dataclass(frozen=True)
class Outcome:
    fraction: float                       # of the part's points
    findings: tuple[Finding, ...] = ()  # empty when correct
    column: int | None = None             # where parsing failed
    reading: tuple | None = None          # (kind, tree) when the reading needed a convention: "Read as"


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
    read_as: str | None = None    # how the answer was read, when that needed a convention (in the language)
    reading: tuple | None = None  # the same as (kind, tree), for the page's MathML

    def to_dict(self) -> dict:
        return {"id": self.id, "score": self.score, "max_score": self.max_score,
                "correct": self.correct, "note": self.note, "feedback": self.feedback,
                "notes": list(self.notes), "column": self.column, "answer": self.answer,
                "read_as": self.read_as}


def render(part, outcome: Outcome, lang: str, answer: str | None) -> PartResult:
    keys = tuple(f.key for f in outcome.findings)
    if keys:   # a message may name a part by its prompt, whose $TeX$ reads as text here
        text = plain_math(" ".join(message(f.key, lang, **dict(f.params)) for f in outcome.findings))
    else:
        text = message("correct", lang)
    read_as = None if outcome.reading is None else show.read_as(*outcome.reading, lang)
    return PartResult(part.id, round(part.points * outcome.fraction, 3), part.points,
                      not keys, keys[0] if keys else "", text, keys, outcome.column, answer,
                      read_as, outcome.reading)


def missing_part(part, lang: str) -> PartResult:
    return PartResult(part.id, 0.0, part.points, False, "missing",
                      message("missing", lang), ("missing",), None, None)


CARET_WINDOW = 60  # characters of a long answer shown around the caret


def caret(answer: str, column: int, indent: str = "  ") -> str:
    """The answer (a window of it, when long) and a caret under ``column`` (past the end: after
    it). Escaped characters take the width of their escape; wide ones, an ideographic space."""
    typed = answer.replace("\n", " ").replace("\t", " ").replace("\r", " ")   # as the parser reads them
    start = max(0, min(column - CARET_WINDOW // 2, len(typed) - CARET_WINDOW))
    before = "\u2026" if start > 0 else ""
    after = "\u2026" if start + CARET_WINDOW < len(typed) else ""
    window = typed[start:start + CARET_WINDOW]
    pad = " " * len(before) + "".join(_pad(ch) for ch in window[:column - start])
    return f"{indent}{before}{printable(window)}{after}\n{indent}{pad}^"


def _pad(ch: str) -> str:
    """Blank of the width ``ch`` takes on a terminal, once escaped."""
    shown = escape(ch)
    if shown != ch:
        return " " * len(shown)
    if unicodedata.combining(ch):
        return ""
    return "\u3000" if unicodedata.east_asian_width(ch) in ("W", "F") else " "


def refusal_text(result: PartResult, lang: str) -> str:
    """An answer that cannot be read, as the command line prints it: the answer, a caret under where
    reading stopped, and why (the page shows the same text)."""
    return "\n".join([message("error-answer", lang), caret(result.answer or "", result.column or 0),
                      f"[{result.note}] {printable(result.feedback)}"])
