"""What the class got wrong: ``grader report OUT_DIR``, the instructors' report.

Reads the results a ``grader grade`` run left in ``OUT_DIR/results.jsonl`` (read-only) and
writes, beside them, ``report.html`` (one self-contained page with charts), ``report.json``
(every table, grader/SCHEMA.md) and one ``report-<table>.csv`` per table. The stages:
:mod:`.results` (read the log), :mod:`.tables` (the numbers, with :mod:`.named` and
:mod:`.answers`), then the writers :mod:`.page` (with :mod:`.charts`) and :mod:`.csvfiles`.
"""
from __future__ import annotations

import json
import os
from contextlib import nullcontext
from pathlib import Path

from grader.classreport import csvfiles
from grader.classreport.answers import normal_forms
from grader.classreport.page import page
from grader.classreport.results import SPLIT, assignment, read_range, read_results
from grader.classreport.tables import analyse
from grader.files import write_atomic
from grader.grading.store import RESULTS

HTML, JSON = "report.html", "report.json"
MAX_JOBS = 4            # worker processes for a large class (reading it, reading its answers)
TIMEOUT = 120.0         # seconds a worker's task may take (a tenth of a large class, on a busy machine)


class NoResults(Exception):
    """OUT_DIR holds no results.jsonl: nothing was graded there."""

    def __init__(self, path: Path):
        super().__init__(str(path))
        self.path = path


def write_report(out_dir: Path | str, lang: str, jobs: int = 1, exercises: tuple[str, ...] | None = None) -> dict:
    """Write the report of ``out_dir``'s results in ``lang``; return its tables (``report.json``).
    ``jobs``: processes for a large class (up to :data:`MAX_JOBS`); ``exercises``: those only (an
    assignment), their scores making each student's total.

    Raises :class:`NoResults` when there is no results file, OSError when a file cannot be
    written (each file is replaced whole, so an earlier report stays intact until then)."""
    out_dir = Path(out_dir)
    if not (out_dir / RESULTS).is_file():
        raise NoResults(out_dir / RESULTS)
    with _pool((out_dir / RESULTS).stat().st_size, jobs) as pool:
        found = read_results(out_dir, pool)
        report = analyse(found if exercises is None else assignment(found, exercises), lang, pool)
    files = csvfiles.file_names()
    write_atomic(out_dir / JSON, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    for name, text in csvfiles.tables(report).items():
        write_atomic(out_dir / files[name], text)
    write_atomic(out_dir / HTML, page(report, lang, files))
    return report


def work(task: str, *args):
    """What a pool worker does: read a piece of the results, or read answers."""
    return {"read": read_range, "normal_forms": normal_forms}[task](*args)


def _pool(size: int, jobs: int):
    """Worker processes for a large class (forked once the grader is loaded, under the
    grader's memory limit), as many as cores are idle; else nothing: a small class, or a
    busy machine (where workers cost more than they save), is read in this process."""
    try:
        idle = round((os.cpu_count() or 1) - os.getloadavg()[0])
    except OSError:         # no load average on this system
        idle = jobs
    jobs = min(MAX_JOBS, jobs, idle)
    if size <= SPLIT or jobs < 2:
        return nullcontext()
    from grader import bank  # noqa: F401
    from grader.grading.pool import Pool
    from grader.reading import build, parse  # noqa: F401
    try:
        return Pool(work, jobs, timeout=TIMEOUT, depth=1)   # few, large tasks: one each
    except (ValueError, OSError):       # no fork on this system: one process does it all
        return nullcontext()
