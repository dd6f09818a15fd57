"""What the class got wrong: ``grader report OUT_DIR``, the instructors' report.

Reads the results a ``grader grade`` run left in ``OUT_DIR/results.jsonl`` (read-only) and
writes, beside them, ``report.html`` (one self-contained page with charts), ``report.json``
(every table, grader/SCHEMA.md) and one ``report-<table>.csv`` per table. The stages:
:mod:`.results` (read the log), :mod:`.tables` (the numbers, with :mod:`.named` and
:mod:`.answers`), then the writers :mod:`.page` (with :mod:`.charts`) and :mod:`.csvfiles`.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..files import write_atomic
from ..store import RESULTS
from . import csvfiles
from .page import page
from .results import read_results
from .tables import analyse

HTML, JSON = "report.html", "report.json"


class NoResults(Exception):
    """OUT_DIR holds no results.jsonl: nothing was graded there."""

    def __init__(self, path: Path):
        super().__init__(str(path))
        self.path = path


def write_report(out_dir: Path | str, lang: str) -> dict:
    """Write the report of ``out_dir``'s results in ``lang``; return its tables (``report.json``).

    Raises :class:`NoResults` when there is no results file, OSError when a file cannot be
    written (each file is replaced whole, so an earlier report stays intact until then)."""
    out_dir = Path(out_dir)
    if not (out_dir / RESULTS).is_file():
        raise NoResults(out_dir / RESULTS)
    report = analyse(read_results(out_dir), lang)
    files = csvfiles.file_names()
    write_atomic(out_dir / JSON, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    for name, text in csvfiles.tables(report).items():
        write_atomic(out_dir / files[name], text)
    write_atomic(out_dir / HTML, page(report, lang, files))
    return report
