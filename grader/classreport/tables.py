"""The report's tables, computed from a class's results: pure (results in, a dict out).

The dict is ``report.json`` (grader/SCHEMA.md gives every field and how it is computed);
the page and the CSV files are written from it. Statistics:

* totals: mean, median and quartiles by linear interpolation (numpy's default, Excel's
  QUARTILE.INC), over the graded students;
* a part's outcome: *blank* (not answered, or only spaces), *correct* (full marks),
  *unparsable* (the parser refused it), *partial* (some points), else *wrong*;
* difficulty: the part's mean score divided by its points (1: everyone had full marks);
* discrimination: the item-rest correlation, Pearson's r between the part's score and the
  rest of the student's total (total minus that part); for an all-or-nothing part it is
  the point-biserial correlation. Below :data:`NEAR_ZERO` (or negative) it is flagged.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter

import numpy as np

from grader.classreport.answers import WrongAnswers
from grader.classreport.named import named_mistakes, note_text
from grader.classreport.results import Results

OUTCOMES = ("correct", "partial", "wrong", "unparsable", "blank")
NEAR_ZERO = 0.1    # a discrimination below this tells stronger and weaker students apart poorly
MAX_BINS = 20      # bars of a histogram, besides the full-marks bar


def outcome(part) -> str:
    """Which of :data:`OUTCOMES` one answer is."""
    if part.note == "missing" or part.answer is None or not part.answer.strip():
        return "blank"
    if part.correct:
        return "correct"
    if part.column is not None:
        return "unparsable"
    return "partial" if part.score > 0 else "wrong"


def histogram(values, top: float) -> dict:
    """Bars of width ``ceil(top / 20)`` from 0 (``[low, high)``), then one bar for full marks."""
    top = max(0, math.ceil(top))
    width = max(1, math.ceil(top / MAX_BINS))
    bars = math.ceil(top / width)
    index = np.where(np.asarray(values, dtype=float) >= top, bars,
                     np.clip(np.floor_divide(values, width), 0, max(0, bars - 1)))
    counts = np.bincount(index.astype(int), minlength=bars + 1).tolist()
    bins = [{"low": i * width, "high": min((i + 1) * width, top), "count": counts[i]}
            for i in range(bars)]
    return {"max_score": top, "width": width,
            "bins": bins + [{"low": top, "high": top, "count": counts[bars]}]}


def spread(values) -> dict:
    """Mean, median, quartiles, lowest and highest (None for no values)."""
    if not len(values):
        return dict.fromkeys(("mean", "median", "q1", "q3", "min", "max"))
    a = np.asarray(values, dtype=float)
    q1, median, q3 = np.percentile(a, [25, 50, 75]).tolist()
    return {"mean": float(a.mean()), "median": median, "q1": q1, "q3": q3,
            "min": float(a.min()), "max": float(a.max())}


def discrimination(scores, totals) -> float | None:
    """Pearson's r of the part's scores with the rest of the totals; None when either is constant."""
    x = np.asarray(scores, dtype=float)
    rest = np.asarray(totals, dtype=float) - x
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(rest) == 0:
        return None
    return float(np.corrcoef(x, rest)[0, 1])


def flag(r: float | None) -> str | None:
    if r is None:
        return "no-spread"
    if r < 0:
        return "negative"
    return "near-zero" if r < NEAR_ZERO else None


class _Part:
    """What the report gathers about one part: each student's score and total, and counts
    over its distinct results (a class repeats them: each is looked at once)."""

    def __init__(self):
        self.scores: list = []       # arrays of scores, one per layout of results
        self.totals: list = []       # the same students' totals
        self.max_score = 0.0
        self.outcomes = Counter()
        self.notes = Counter()


def analyse(found: Results, lang: str, pool=None) -> dict:
    """Every table of the report (``report.json``), words in ``lang``; ``pool`` (optional)
    reads the class's distinct wrong answers (:meth:`WrongAnswers.read`)."""
    from grader import bank
    graded = [r for r in found.results if r.error is None]
    exercise_scores: dict[str, list[float]] = {}
    exercise_max: dict[str, float] = {}
    layouts: dict[tuple, tuple[list, list]] = {}       # the parts a result has, in order
    distinct: dict[str, Counter] = {}                  # part results, by how their answers were read
    for result in graded:
        for ex_id, score, top in result.exercises:
            exercise_scores.setdefault(ex_id, []).append(score)
            exercise_max[ex_id] = max(exercise_max.get(ex_id, 0), top)
        rows, row_totals = layouts.setdefault(tuple([p.where for p in result.parts]), ([], []))
        rows.append([p.score for p in result.parts])
        row_totals.append(result.score)
        distinct.setdefault(result.lang, Counter()).update(result.parts)
    parts: dict[tuple[str, str], _Part] = {}
    for layout, (rows, row_totals) in layouts.items():     # a class has one layout: a matrix
        matrix = np.array(rows, dtype=float).reshape(len(rows), len(layout))
        for j, where in enumerate(layout):
            gathered = parts.setdefault(where, _Part())
            gathered.scores.append(matrix[:, j])
            gathered.totals.append(np.array(row_totals, dtype=float))
    for gathered in parts.values():
        gathered.scores, gathered.totals = np.concatenate(gathered.scores), np.concatenate(gathered.totals)
    wrong = WrongAnswers()
    entries = {where: _entries(bank, where) for where in parts}
    for convention, counts in distinct.items():
        for p, count in counts.items():
            gathered = parts[p.where]
            gathered.max_score = max(gathered.max_score, p.max_score)
            kind = outcome(p)
            gathered.outcomes[kind] += count
            for note in set(p.notes):
                gathered.notes[note] += count
            if kind in ("wrong", "partial"):
                wrong.add(p.where, p.answer, entries[p.where], convention, p.note, count)
    wrong.read(pool)
    totals = [r.score for r in graded]
    top = max((r.max_score for r in graded), default=0)
    exercises = []
    for ex_id, scores in exercise_scores.items():
        ex_parts = [_part_table(where, g, wrong, lang, bank) for where, g in parts.items()
                    if where[0] == ex_id]
        exercises.append({"id": ex_id, "title": _title(bank, ex_id, lang),
                          "max_score": _number(exercise_max[ex_id]), "students": len(scores),
                          **spread(scores), "histogram": histogram(scores, exercise_max[ex_id]),
                          "parts": ex_parts})
    unreadable = [r for r in found.results if r.error is not None]
    return {
        "lang": lang,
        "source": {"path": str(found.path), "lines": found.lines, "torn": found.torn,
                   "damaged": [{"line": n, "reason": why} for n, why in found.damaged]},
        "summary": {"students": len(found.results), "graded": len(graded),
                    "unreadable": len(unreadable), "max_score": _number(top), **spread(totals)},
        "histogram": histogram(totals, top),
        "exercises": exercises,
        "variants": _variants(graded, list(exercise_scores)),
        "unreadable": [{"student": r.student, "file": r.file, "error": r.error} for r in unreadable],
    }


def _part_table(where: tuple[str, str], g: _Part, wrong: WrongAnswers, lang: str, bank) -> dict:
    ex_id, part_id = where
    n = len(g.scores)
    named = named_mistakes(ex_id, part_id)
    r = discrimination(g.scores, g.totals)
    rows = lambda keys: sorted(({"key": k, "count": g.notes[k], "share": g.notes[k] / n,  # noqa: E731
                                 "feedback": note_text(k, lang)} for k in keys),
                               key=lambda row: (-row["count"], row["key"]))
    try:
        prompt = bank.get(ex_id).part(part_id).prompt_in(lang)
    except KeyError:
        prompt = ""
    return {"id": part_id, "prompt": prompt, "max_score": _number(g.max_score), "students": n,
            "outcomes": {k: {"count": g.outcomes[k], "share": g.outcomes[k] / n} for k in OUTCOMES},
            "difficulty": float(g.scores.mean()) / g.max_score if g.max_score else None,
            "discrimination": r, "flag": flag(r),
            "mistakes": rows(named),
            "other_notes": rows(k for k in g.notes if k and k not in named),
            "wrong_answers": wrong.top(where, n)}


def _entries(bank, where: tuple[str, str]) -> bool:
    """Whether the part takes several entries (a vector, a set): a comma separates them."""
    try:
        return bank.get(where[0]).part(where[1]).kind in ("vector", "set")
    except KeyError:
        return True


def _variants(graded, exercise_ids: list[str]) -> dict | None:
    """Scores by variant (seed), hardest first; None when every student had the lessons' data.
    (Plain Python: with ``--variants`` a class has a seed per student, each a group of one.)"""
    if all(r.seed is None for r in graded):
        return None
    by_seed: dict = {}
    for r in graded:
        by_seed.setdefault(r.seed, []).append(r)
    rows = []
    for seed, group in by_seed.items():
        totals = sorted(r.score for r in group)
        sums, counts = Counter(), Counter()
        for r in group:
            for ex_id, score, _ in r.exercises:
                sums[ex_id] += score
                counts[ex_id] += 1
        rows.append({"seed": seed, "students": len(group), "mean": sum(totals) / len(totals),
                     "median": statistics.median(totals), "min": totals[0], "max": totals[-1],
                     "exercises": {e: sums[e] / counts[e] if counts[e] else None
                                   for e in exercise_ids}})
    rows.sort(key=lambda row: (row["mean"], row["seed"] or ""))
    return {"seeds": len(rows), "students_per_seed_max": max(row["students"] for row in rows),
            "seed_means": spread([row["mean"] for row in rows]), "by_seed": rows}


def _title(bank, ex_id: str, lang: str) -> str:
    try:
        return bank.get(ex_id).title_in(lang)
    except KeyError:
        return ex_id


def _number(x: float):
    """Whole numbers as integers (points are whole), others as they are."""
    return int(x) if float(x).is_integer() else x
