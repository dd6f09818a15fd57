"""The results of a ``grader grade`` run, read back for the report (read-only).

``OUT_DIR/results.jsonl`` is read line by line with :func:`grader.grading.store.whole_lines`, the
reader resuming uses, but nothing is cut or rewritten: the instructor's results stay as
they are. The last valid line of a student is their result (SCHEMA.md). A whole line that
is not JSON, or not a result line of the shape SCHEMA.md gives, is *damaged*: it is listed
(line number and why) and otherwise ignored; a torn last line (a run killed while writing
it) is noted. Each result keeps only what the report uses, with the strings a class
repeats (notes, answers) shared, so a class of 10,000 stays small in memory.
"""
from __future__ import annotations

import gc
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from grader.grading.store import RESULTS, whole_lines

NOT_JSON, NOT_RECORD = "not-json", "not-record"   # why a line is damaged (report.reason.<why>)
# JSON's escape of a UTF-16 surrogate: a pair reads as one character, a lone one as no text at all
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class PartResult(NamedTuple):
    where: tuple[str, str]      # (exercise id, part id)
    score: float
    max_score: float
    correct: bool
    note: str
    notes: tuple[str, ...]
    column: int | None
    answer: str | None

    def __reduce__(self):           # unpickled by tuple.__new__, in C: a worker sends thousands
        return tuple.__new__, (type(self), tuple(self))


class Result(NamedTuple):
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

    __reduce__ = PartResult.__reduce__


@dataclass
class Results:
    path: Path
    results: list[Result] = field(default_factory=list)      # by student id
    damaged: list[tuple[int, str]] = field(default_factory=list)   # (line, NOT_JSON | NOT_RECORD)
    lines: int = 0            # whole lines read
    torn: bool = False        # the file ends in a line without its newline


class DamagedLine(ValueError):
    """A whole JSON line that is not a result line."""


SPLIT = 4 << 20     # bytes: a results file larger than this is read by the pool's workers, in pieces


def read_results(out_dir: Path, pool=None) -> Results:
    """Every student's last result in ``out_dir/results.jsonl``; never writes.

    ``pool``: a :class:`grader.grading.pool.Pool` whose function is :func:`grader.classreport.work`;
    a large file is then read in as many pieces as it has workers, side by side."""
    path = Path(out_dir) / RESULTS
    size = path.stat().st_size if path.exists() else 0
    ranges = _ranges(path, size, pool.jobs if pool is not None and size > SPLIT else 1)
    pieces = None
    if len(ranges) > 1:
        done = dict(pool.run((i, ("read", path, a, b)) for i, (a, b) in enumerate(ranges)))
        if all(isinstance(done[i], tuple) for i in range(len(ranges))):   # else a limit was hit
            pieces = [done[i] for i in range(len(ranges))]
    if pieces is None:
        pieces = [read_range(path, 0, None)]
    found = Results(path)
    latest: dict[str, Result] = {}
    read = 0
    for results, damaged, lines, length in pieces:
        latest.update(results)
        found.damaged += [(found.lines + n, why) for n, why in damaged]
        found.lines, read = found.lines + lines, read + length
    found.torn = size > read
    found.results = [latest[s] for s in sorted(latest)]
    return found


def _ranges(path: Path, size: int, pieces: int) -> list[tuple[int, int | None]]:
    """``pieces`` byte ranges of the file, each starting at a line's start."""
    cuts = [0]
    if pieces > 1:
        with path.open("rb") as fh:
            for k in range(1, pieces):
                fh.seek(size * k // pieces)
                fh.readline()                       # to the start of the next line
                if cuts[-1] < fh.tell() < size:
                    cuts.append(fh.tell())
    return list(zip(cuts, cuts[1:] + [None]))


def read_range(path: Path, start: int, end: int | None):
    """The lines starting in ``[start, end)``: (last result per student, damaged lines
    numbered from 1 within the range, lines read, bytes read)."""
    latest: dict[str, Result] = {}
    damaged: list[tuple[int, str]] = []
    shared: dict = {}
    size = number = 0
    collecting = gc.isenabled()
    gc.disable()        # the containers json makes are freed by counting; a full scan costs a third
    try:
        for number, line in enumerate(whole_lines(path, start, end), 1):
            size += len(line)
            try:
                value = json.loads(line)
            except ValueError:         # UnicodeDecodeError included
                damaged.append((number, NOT_JSON))
                continue
            try:
                if SURROGATE_ESCAPE.search(line) and not _text_only(value):
                    raise DamagedLine
                result = _result(value, shared)
            except (DamagedLine, KeyError, TypeError, AttributeError):
                damaged.append((number, NOT_RECORD))
                continue
            latest[result.student] = result
    finally:
        if collecting:
            gc.enable()
    return latest, damaged, number, size


def _text_only(value) -> bool:
    """Whether every string of a decoded line is text (a lone surrogate, ``"\\ud800"``, is not: no
    page or CSV file can hold it)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check(condition: bool) -> None:
    if not condition:
        raise DamagedLine


def _number(value) -> bool:
    return type(value) in (int, float) and value == value      # not a bool, not NaN


def _result(value: dict, shared: dict) -> Result:
    """A result line's record; :class:`DamagedLine` (or a KeyError...) when it is not one.

    A class repeats its results: each distinct part result is checked and built once,
    then shared (``shared`` maps its fields to it)."""
    student, file, seed, lang = value["student"], value.get("file") or "", value.get("seed"), \
        value.get("reading") or value.get("lang") or "en"      # how its answers were read (0,5 or 0.5)
    _check(type(student) is str and type(file) is str and type(lang) is str
           and (seed is None or type(seed) is str))
    if value.get("error") is not None:
        _check(type(value["error"]) is str)
        return Result(student, file, seed, lang, value["error"])
    exercises, parts = [], []
    for ex in value["exercises"]:
        ex_id, score, top = ex["id"], ex["score"], ex["max_score"]
        _check(type(ex_id) is str and _number(score) and _number(top))
        exercises.append((shared.setdefault(ex_id, ex_id), score, top))
        for p in ex["parts"]:
            notes = p.get("notes")
            fields = (ex_id, p["id"], p["score"], p["max_score"], p["correct"], p["note"],
                      tuple(notes) if type(notes) is list else notes, p.get("column"), p.get("answer"))
            part = shared.get(fields)
            if part is None:
                part = shared[fields] = _part(fields, shared)
            parts.append(part)
    score, top = value["score"], value["max_score"]
    _check(_number(score) and _number(top))
    return Result(student, file, seed, lang, None, score, top, tuple(exercises), tuple(parts))


def _part(fields: tuple, shared: dict) -> PartResult:
    """A part result seen for the first time: checked field by field."""
    ex_id, part_id, score, top, correct, note, notes, column, answer = fields
    _check(type(part_id) is str and _number(score) and _number(top) and type(correct) is bool
           and type(note) is str and (column is None or type(column) is int)
           and (answer is None or type(answer) is str)
           and (notes is None or (type(notes) is tuple and all(type(n) is str for n in notes))))
    notes = notes or ((note,) if note else ())
    keep = lambda v: shared.setdefault(v, v)  # noqa: E731  (one copy of each repeated value)
    return PartResult(keep((ex_id, part_id)), score, top, correct, keep(note), keep(notes),
                      column, keep(answer))


def assignment(found: Results, exercises: tuple[str, ...]) -> Results:
    """The results as if only ``exercises`` had been graded (``grader report --exercises``): each
    graded student's parts, exercises, total and maximum of those exercises alone."""
    wanted = frozenset(exercises)
    kept = []
    for r in found.results:
        if r.error is None:
            chosen = tuple(e for e in r.exercises if e[0] in wanted)
            r = r._replace(exercises=chosen, parts=tuple(p for p in r.parts if p.where[0] in wanted),
                           score=round(sum(e[1] for e in chosen), 3), max_score=sum(e[2] for e in chosen))
        kept.append(r)
    return Results(found.path, kept, found.damaged, found.lines, found.torn)

