"""The report's tables as CSV files, one per table. Pure: the report's dict in, texts out.

Columns are the stable names of ``report.json`` (grader/SCHEMA.md), numbers are written as
Python writes them (a point for decimals, in every language: these files are data for
other programs; the page is for reading). Text from the results (ids, answers, notes) is
made visible and neutralised against formula injection (:func:`grader.text.csv_cell`).
"""
from __future__ import annotations

import csv
import io

from grader.classreport.tables import OUTCOMES
from grader.classreport.text import visible
from grader.text import csv_cell

TABLES = ("summary", "exercises", "histograms", "parts", "mistakes", "notes", "wrong-answers",
          "variants", "unreadable", "damaged")
STATS = ("mean", "median", "q1", "q3", "min", "max")


def file_names() -> dict[str, str]:
    """Table name -> file name in OUT_DIR."""
    return {name: f"report-{name}.csv" for name in TABLES}


def _cell(value) -> object:
    if value is None:
        return ""
    if isinstance(value, str):
        return csv_cell(visible(value))
    return value


def _csv(header: list[str], rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue()


def tables(report: dict) -> dict[str, str]:
    """Every CSV file's text, by table name (see :data:`TABLES`)."""
    s, exercises = report["summary"], report["exercises"]
    parts = [(ex["id"], p) for ex in exercises for p in ex["parts"]]
    outcome_columns = [c for k in OUTCOMES for c in (k, f"{k}_share")]
    variants = report["variants"] or {"by_seed": []}
    ids = [ex["id"] for ex in exercises]
    return {
        "summary": _csv(["students", "graded", "unreadable", "max_score", *STATS],
                        [[s[k] for k in ("students", "graded", "unreadable", "max_score", *STATS)]]),
        "exercises": _csv(["exercise", "title", "max_score", "students", *STATS],
                          [[ex["id"], ex["title"], ex["max_score"], ex["students"], *(ex[k] for k in STATS)]
                           for ex in exercises]),
        "histograms": _csv(["scope", "low", "high", "count"],
                           [[scope, b["low"], b["high"], b["count"]]
                            for scope, hist in [("total", report["histogram"]),
                                                *((ex["id"], ex["histogram"]) for ex in exercises)]
                            for b in hist["bins"]]),
        "parts": _csv(["exercise", "part", "max_score", "students", *outcome_columns,
                       "difficulty", "discrimination", "flag"],
                      [[e, p["id"], p["max_score"], p["students"],
                        *(p["outcomes"][k][f] for k in OUTCOMES for f in ("count", "share")),
                        p["difficulty"], p["discrimination"], p["flag"]] for e, p in parts]),
        "mistakes": _notes(parts, "mistakes"),
        "notes": _notes(parts, "other_notes"),
        "wrong-answers": _csv(["exercise", "part", "rank", "answer", "value", "forms", "count",
                               "share", "note"],
                              [[e, p["id"], rank, a["answer"], a["value"], a["forms"], a["count"],
                                a["share"], a["note"]]
                               for e, p in parts for rank, a in enumerate(p["wrong_answers"], 1)]),
        "variants": _csv(["seed", "students", "mean", "median", "min", "max", *ids],
                         [[v["seed"], v["students"], v["mean"], v["median"], v["min"], v["max"],
                           *(v["exercises"].get(i) for i in ids)] for v in variants["by_seed"]]),
        "unreadable": _csv(["student", "file", "error"],
                           [[u["student"], u["file"], u["error"]] for u in report["unreadable"]]),
        "damaged": _csv(["line", "reason"],
                        [[d["line"], d["reason"]] for d in report["source"]["damaged"]]),
    }


def _notes(parts, field: str) -> str:
    return _csv(["exercise", "part", "key", "count", "share", "feedback"],
                [[e, p["id"], m["key"], m["count"], m["share"], m["feedback"]]
                 for e, p in parts for m in p[field]])
