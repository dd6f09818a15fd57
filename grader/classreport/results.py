"""The results of a ``grader grade`` run, read back for the report (read-only).

``OUT_DIR/results.jsonl`` is read line by line with :func:`grader.store.whole_lines`, the
reader resuming uses, but nothing is cut or rewritten: the instructor's results stay as
they are. The last valid line of a student is their result (SCHEMA.md). A whole line that
is not JSON, or not a result line of the shape SCHEMA.md gives, is *damaged*: it is listed
(line number and why) and otherwise ignored; a torn last line (a run killed while writing
it) is noted. Each result keeps only what the report uses, with the strings a class
repeats (notes, answers) shared, so a class of 10,000 stays small in memory.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..store import RESULTS, whole_lines

NOT_JSON, NOT_RECORD = "not-json", "not-record"   # why a line is damaged (report.reason.<why>)


class PartResult(NamedTuple):
    exercise: str
    part: str
    score: float
    max_score: float
    correct: bool
    note: str
    notes: tuple[str, ...]
    column: int | None
    answer: str | None


@dataclass(frozen=True)
class Result:
    """A student's last result line: graded (``error`` None) or unreadable."""
    student: str
    file: str
    seed: str | None
    lang: str
    error: str | None
    score: float | None = None
    max_score: float | None = None
    exercises: tuple[tuple[str, float, float], ...] = ()   # (id, score, max_score)
    parts: tuple[PartResult, ...] = ()


@dataclass
class Results:
    path: Path
    results: list[Result] = field(default_factory=list)      # by student id
    damaged: list[tuple[int, str]] = field(default_factory=list)   # (line, NOT_JSON | NOT_RECORD)
    lines: int = 0            # whole lines read
    torn: bool = False        # the file ends in a line without its newline


class DamagedLine(ValueError):
    """A whole JSON line that is not a result line."""


def read_results(out_dir: Path) -> Results:
    """Every student's last result in ``out_dir/results.jsonl``; never writes."""
    path = Path(out_dir) / RESULTS
    found = Results(path)
    latest: dict[str, Result] = {}
    shared: dict = {}
    size = 0
    for number, line in enumerate(whole_lines(path), 1):
        found.lines, size = number, size + len(line)
        try:
            value = json.loads(line)
        except ValueError:         # UnicodeDecodeError included
            found.damaged.append((number, NOT_JSON))
            continue
        try:
            result = _result(value, shared)
        except (DamagedLine, KeyError, TypeError, AttributeError):
            found.damaged.append((number, NOT_RECORD))
            continue
        latest[result.student] = result
    found.torn = path.exists() and path.stat().st_size > size
    found.results = [latest[s] for s in sorted(latest)]
    return found


def _check(condition: bool) -> None:
    if not condition:
        raise DamagedLine


def _number(value) -> float:
    _check(isinstance(value, (int, float)) and not isinstance(value, bool) and value == value)
    return float(value)


def _text(value, optional: bool = False) -> str | None:
    _check(isinstance(value, str) or (optional and value is None))
    return value


def _result(value: dict, shared: dict) -> Result:
    """A result line's record; :class:`DamagedLine` (or a KeyError...) when it is not one."""
    keep = lambda s: shared.setdefault(s, s)  # noqa: E731  (one copy of each repeated value)
    student = _text(value["student"])
    head = (student, _text(value.get("file") or "", True), _text(value.get("seed"), True),
            _text(value.get("lang") or "en"))
    if value.get("error") is not None:
        return Result(*head, error=_text(value["error"]))
    exercises, parts = [], []
    for ex in value["exercises"]:
        ex_id = keep(_text(ex["id"]))
        exercises.append((ex_id, _number(ex["score"]), _number(ex["max_score"])))
        for p in ex["parts"]:
            note = keep(_text(p["note"]))
            notes = p.get("notes")
            notes = keep(tuple(_text(n) for n in notes)) if notes else keep((note,) if note else ())
            column = p.get("column")
            _check(column is None or isinstance(column, int))
            _check(isinstance(p["correct"], bool))
            parts.append(PartResult(ex_id, keep(_text(p["id"])), _number(p["score"]),
                                    _number(p["max_score"]), p["correct"], note, notes, column,
                                    keep(_text(p.get("answer"), True))))
    return Result(*head, error=None, score=_number(value["score"]),
                  max_score=_number(value["max_score"]), exercises=tuple(exercises),
                  parts=tuple(parts))
