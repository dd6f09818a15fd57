"""The results folder of ``grader grade``: the JSONL log, read back and appended, and the CSV.

Formats in grader/SCHEMA.md. A line is appended with one ``write`` call (so a
killed process leaves at most one torn last line, cut off by :func:`read_log`);
the CSV is replaced whole (temporary file, ``fsync``, ``os.replace``).

The CSV is opened in spreadsheets, and its ids and errors come from file names and
file contents: each text cell is neutralised as OWASP recommends against CSV
injection (https://owasp.org/www-community/attacks/CSV_Injection): a cell that
begins with ``= + - @``, a tab or a carriage return gets a leading ``'``; so does
such a character after a ``;``, a tab or a line break inside the cell, where a
spreadsheet that splits on those would start a new cell. The file follows RFC 4180
(CRLF line ends; a cell holding a comma, a quote, CR or LF is quoted).
"""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from grader.bank import EXERCISES
from grader.text import csv_cell

RESULTS, GRADES = "results.jsonl", "grades.csv"


def read_log(path: Path) -> dict[str, dict]:
    """The last record per student. A torn last line (no newline: the run was killed
    while writing it) is cut off the file; a whole line that is not a record (edited
    by hand, damaged) is left alone and not trusted: its student is graded again."""
    latest: dict[str, dict] = {}
    good = 0
    for line in whole_lines(path):
        good += len(line)
        try:
            record = compact(json.loads(line))
            latest[record["student"]] = record
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    if path.exists() and good != path.stat().st_size:
        with path.open("r+b") as fh:
            fh.truncate(good)
            os.fsync(fh.fileno())
    return latest


def whole_lines(path: Path, start: int = 0, end: int | None = None) -> Iterator[bytes]:
    """The log's whole lines (newline included), in order; read-only, so a report can
    read a class's results without touching them. A torn last line (no newline) is left
    out: only :func:`read_log`, which appends after it, cuts it off. No file: nothing.
    ``start`` (a line's first byte) and ``end``: only the lines that start before ``end``."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return
    with fh:
        fh.seek(start)
        for line in fh:
            if not line.endswith(b"\n") or (end is not None and start >= end):
                return
            start += len(line)
            yield line


class Log:
    """Append-only JSONL: one ``os.write`` per line; fsync on :meth:`sync`."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append_text(self, line: str) -> None:
        view = memoryview(line.encode())
        while view:
            view = view[os.write(self.fd, view):]

    def sync(self) -> None:
        os.fsync(self.fd)

    def close(self) -> None:
        self.sync()
        os.close(self.fd)


def compact(record: dict) -> dict:
    """What a run keeps of a result line: who, which file, the scores, the error."""
    if not isinstance(record.get("student"), str):
        raise KeyError("student")
    exercises = record.get("exercises") or ()
    per = {e["id"]: e["score"] for e in exercises}
    internal = sum(p.get("note") == "internal-error" for e in exercises for p in e.get("parts") or ())
    return {k: record.get(k) for k in ("student", "file", "sha256", "seed", "variants", "lang", "reading",
                                         "grader", "assignment", "error", "score", "max_score")} | {"per": per, "internal_errors": internal}


def csv_header(exercises: Sequence[str] | None = None) -> list[str]:
    """The columns of grades.csv: a student, each exercise of the assignment (default: every one), the total."""
    return ["student", *(EXERCISES if exercises is None else exercises), "total", "max_score", "error"]


def csv_text(records: Iterable[dict], exercises: Sequence[str] | None = None) -> str:
    exercises = tuple(EXERCISES if exercises is None else exercises)
    out = io.StringIO()
    writer = csv.writer(out)       # RFC 4180: CRLF line ends, and a cell holding CR or LF is quoted
    writer.writerow(csv_header(exercises))
    for rec in records:
        if rec.get("error") or rec.get("undecided"):     # unreadable, or not decided (no result line)
            writer.writerow([csv_cell(rec["student"]), *[""] * len(exercises), "", "",
                             csv_cell(rec.get("error") or rec["status"])])
            continue
        per = {k: f"{v:g}" for k, v in rec["per"].items()}
        writer.writerow([csv_cell(rec["student"]), *[per.get(i, "") for i in exercises],
                         f"{rec['score']:g}", rec["max_score"], ""])
    return out.getvalue()
