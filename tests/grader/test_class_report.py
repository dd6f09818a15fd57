"""`grader report OUT_DIR` and `grader grade ... --report`: the instructors' class report.

A class is generated from the bank (right answers in several forms, named mistakes, random
wrong numbers, unparsable and blank answers), graded by the real command (in this process:
tests/grader/inprocess.py), and every table of
the report (report.json and the CSV files) is checked against numbers this test computes on
its own from results.jsonl, with the standard library (statistics) where the report uses
numpy. Hand-written results lines (SCHEMA.md's format) cover what a class rarely produces:
hostile student ids, damaged and torn files, variants, the French number format.
"""
from __future__ import annotations

import csv
import json
import math
import re
import shutil
import statistics
import subprocess
from collections import Counter
from pathlib import Path

import pytest
import sympy

from bench.grade_class import MIX as GENERATED
from bench.grade_class import generate
from grader import bank
from grader.classreport.answers import normal_form
from grader.classreport.named import named_mistakes
from grader.model import targets
from grader.reading.parse import parse_answer
from grader.text import csv_cell
from tests.grader.inprocess import grader

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_IDS = ["<img src=x onerror=alert(1)>", '=HYPERLINK("http://x","y")', "\x1b[2J",
               "+1-2", "@SUM(A1)", "\tTAB", "-cmd"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def run(*args, cwd: Path = ROOT, **extra) -> subprocess.CompletedProcess:
    """``grader ARGS`` in this process (tests/grader/inprocess.py): the report is what is tested."""
    proc = grader(*args, cwd=cwd, **extra)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    assert "internal error" not in proc.stderr, proc.stderr
    return proc


# --- a generated class ---------------------------------------------------------

# bench/grade_class.py's answers (right in several forms, decimals, named mistakes in exact and
# decimal forms, random numbers, unparsable text, parts left out), without its hostile ones:
# they take the grader's full time limit each, and the hand-written lines below cover them.
MIX = [(category, weight) for category, weight in GENERATED if category != "hostile"]


def write_class(folder: Path, students: int, seed: int = 3) -> None:
    generate(folder, students, seed, MIX)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A class of 40 graded by `grader grade --report` (and an unreadable file)."""
    base = tmp_path_factory.mktemp("class")
    folder, out = base / "submissions", base / "out"
    folder.mkdir()
    write_class(folder, 40)
    (folder / "broken.toml").write_text("[embedding-distances\n", encoding="utf-8")
    proc = run("grade", folder, "--out", out, "--jobs", 2, "--report", "--format", "json")
    assert proc.returncode == 1, proc.stderr      # graded, the unreadable file listed
    summary = json.loads(proc.stdout)
    assert summary["report"] == str(out / "report.html")
    return out


def last_records(out: Path) -> list[dict]:
    latest = {}
    for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        latest[record["student"]] = record
    return [latest[s] for s in sorted(latest)]


def read_json(out: Path) -> dict:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def read_csv(out: Path, table: str) -> list[dict]:
    with (out / f"report-{table}.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def num(text: str):
    return None if text == "" else float(text)


# --- what the report must say, computed here on our own --------------------------

def category(part: dict) -> str:
    if part["answer"] is None or not part["answer"].strip():
        return "blank"
    if part["correct"]:
        return "correct"
    if part["column"] is not None:
        return "unparsable"
    return "partial" if part["score"] > 0 else "wrong"


def quartiles(values):
    return tuple(statistics.quantiles(values, n=4, method="inclusive"))   # as Excel's QUARTILE.INC


def bins(values, top: int) -> list[tuple[int, int, int]]:
    """(low, high, count): bars of width ceil(top / 20) from 0, then full marks alone."""
    width = max(1, math.ceil(top / 20))
    edges = list(range(0, top, width))
    out = [(lo, min(lo + width, top), sum(1 for v in values if lo <= v < min(lo + width, top)))
           for lo in edges]
    return out + [(top, top, sum(1 for v in values if v >= top))]


def exact_key(text: str, kind: str):
    """The value of an answer as SymPy objects (rationals for decimals), for grouping."""
    parsed = parse_answer(text, entries=kind in ("vector", "set"))
    exact = lambda v: sympy.nsimplify(v, rational=True)  # noqa: E731
    if parsed.kind == "scalar":
        return exact(parsed.value)
    if parsed.kind == "vector":
        return tuple(exact(v) for v in parsed.value)
    return tuple(sorted((tuple(exact(v) for v in p) for p in parsed.value), key=str))


def expected_parts(records: list[dict]) -> dict:
    graded = [r for r in records if r["error"] is None]
    table = {}
    for r in graded:
        for ex in r["exercises"]:
            for p in ex["parts"]:
                row = table.setdefault((ex["id"], p["id"]), {"scores": [], "rest": [], "cats": Counter(),
                                                              "notes": Counter(), "wrong": []})
                row["scores"].append(p["score"])
                row["rest"].append(r["score"] - p["score"])
                row["cats"][category(p)] += 1
                row["notes"].update(set(p["notes"]))
                row["max"] = p["max_score"]
                if category(p) in ("wrong", "partial"):
                    row["wrong"].append((p["answer"], p["note"]))
    return table


def test_summary_and_histograms_match_an_independent_count(graded):
    records = last_records(graded)
    report = read_json(graded)
    totals = [r["score"] for r in records if r["error"] is None]
    s = report["summary"]
    assert (s["students"], s["graded"], s["unreadable"]) == (41, 40, 1)
    q1, median, q3 = quartiles(totals)
    assert s["mean"] == pytest.approx(statistics.fmean(totals))
    assert (s["median"], s["q1"], s["q3"]) == pytest.approx((median, q1, q3))
    assert (s["min"], s["max"]) == (min(totals), max(totals))
    assert [(b["low"], b["high"], b["count"]) for b in report["histogram"]["bins"]] == bins(totals, sum(ex.max_score for ex in bank.EXERCISES.values()))
    for ex in report["exercises"]:
        scores = [e["score"] for r in records if r["error"] is None
                  for e in r["exercises"] if e["id"] == ex["id"]]
        assert ex["mean"] == pytest.approx(statistics.fmean(scores))
        got = [(b["low"], b["high"], b["count"]) for b in ex["histogram"]["bins"]]
        assert got == bins(scores, bank.get(ex["id"]).max_score)
    row = read_csv(graded, "summary")[0]
    assert num(row["mean"]) == pytest.approx(statistics.fmean(totals))
    assert (num(row["q1"]), num(row["q3"])) == pytest.approx((q1, q3))
    histogram_rows = [(r["scope"], int(r["low"]), int(r["high"]), int(r["count"]))
                      for r in read_csv(graded, "histograms")]
    assert [h[1:] for h in histogram_rows if h[0] == "total"] == bins(totals, sum(ex.max_score for ex in bank.EXERCISES.values()))
    assert report["unreadable"][0]["student"] == "broken"
    assert read_csv(graded, "unreadable")[0]["student"] == "broken"


def test_each_part_matches_an_independent_count(graded):
    expected = expected_parts(last_records(graded))
    report = read_json(graded)
    csv_parts = {(r["exercise"], r["part"]): r for r in read_csv(graded, "parts")}
    csv_mistakes = Counter()
    for r in read_csv(graded, "mistakes"):
        csv_mistakes[(r["exercise"], r["part"], r["key"])] = int(r["count"])
    seen = 0
    for ex in report["exercises"]:
        for part in ex["parts"]:
            want = expected[(ex["id"], part["id"])]
            n = len(want["scores"])
            row = csv_parts[(ex["id"], part["id"])]
            for k in ("correct", "partial", "wrong", "unparsable", "blank"):
                assert part["outcomes"][k]["count"] == want["cats"][k] == int(row[k]), (part["id"], k)
                assert part["outcomes"][k]["share"] == pytest.approx(want["cats"][k] / n)
            difficulty = statistics.fmean(want["scores"]) / want["max"]
            assert part["difficulty"] == pytest.approx(difficulty) == num(row["difficulty"])
            if len(set(want["scores"])) > 1 and len(set(want["rest"])) > 1:
                r = statistics.correlation(want["scores"], want["rest"])
                assert part["discrimination"] == pytest.approx(r)
                assert num(row["discrimination"]) == pytest.approx(r)
                assert part["flag"] == ("negative" if r < 0 else "near-zero" if r < 0.1 else None)
            else:
                assert part["discrimination"] is None and part["flag"] == "no-spread"
            named = {m["key"] for m in part["mistakes"]}
            others = {m["key"] for m in part["other_notes"]}
            assert not named & others
            assert {k for k in want["notes"] if k} <= named | others
            for m in part["mistakes"] + part["other_notes"]:
                assert m["count"] == want["notes"][m["key"]]
                assert m["share"] == pytest.approx(want["notes"][m["key"]] / n)
                assert m["feedback"]
            for m in part["mistakes"]:
                assert csv_mistakes[(ex["id"], part["id"], m["key"])] == m["count"]
            counts = [m["count"] for m in part["mistakes"]]
            assert counts == sorted(counts, reverse=True), "named mistakes sorted by frequency"
            assert {"incorrect", "decimal-imprecise", "components-wrong", "missing"}.isdisjoint(named)
            seen += bool(named and sum(counts))
    assert seen >= 10, "the generated class makes named mistakes in most parts"


def test_common_wrong_answers_are_grouped_by_exact_value(graded):
    expected = expected_parts(last_records(graded))
    report = read_json(graded)
    csv_rows = read_csv(graded, "wrong-answers")
    merged = 0
    for ex in report["exercises"]:
        for part in ex["parts"]:
            kind = bank.get(ex["id"]).part(part["id"]).kind
            groups: dict = {}
            for text, note in expected[(ex["id"], part["id"])]["wrong"]:
                group = groups.setdefault(exact_key(text, kind), Counter())
                group[text] += 1
            top = sorted((sum(g.values()) for g in groups.values()), reverse=True)[:10]
            listed = part["wrong_answers"]
            assert [a["count"] for a in listed] == top
            for a in listed:
                group = groups[exact_key(a["answer"], kind)]
                assert a["count"] == sum(group.values()) and a["forms"] == len(group)
                assert a["share"] == pytest.approx(a["count"] / part["students"])
                merged += a["forms"] > 1
            rows = [r for r in csv_rows if (r["exercise"], r["part"]) == (ex["id"], part["id"])]
            assert [(r["answer"], int(r["count"])) for r in rows] == [(a["answer"], a["count"]) for a in listed]
    assert merged, "some answer was typed in two forms with one value, (1/2, 0) and [0.5, 0]"


def test_grade_report_and_report_write_the_same_tables(graded, tmp_path):
    copy = tmp_path / "out"
    shutil.copytree(graded, copy)
    for name in copy.glob("report*"):
        name.unlink()
    proc = run("report", copy)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"report: {copy / 'report.html'}"
    again, first = read_json(copy), read_json(graded)
    assert again["exercises"] == first["exercises"] and again["summary"] == first["summary"]
    html = (copy / "report.html").read_text(encoding="utf-8")
    parts = [p for ex in again["exercises"] for p in ex["parts"]]
    made = sum(1 for p in parts if any(m["count"] for m in p["mistakes"]))
    assert made >= 10
    assert html.count("<svg") == 1 + 5 + len(parts) + made   # totals, exercises; outcomes, mistakes
    assert "<script" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


# --- answers normalised ------------------------------------------------------------

@pytest.mark.parametrize("a, b, entries, comma", [
    ("(0.5, 0.5, 0)", "[1/2, 1/2, 0]", True, False),
    ("0.25", "1/4", False, False),
    ("2.50e-1", "1/4", False, False),
    ("{(1, 0, 0), (0.5, 0.5, 0)}", "[(1/2, 1/2, 0), (1, 0, 0)]", True, False),
    ("0,5", "1/2", False, True),
    ("(0,5 ; 0,5 ; 0)", "(1/2, 1/2, 0)", True, True),
    ("0.5*sqrt(2)", "sqrt(2)/2", False, False),
])
def test_one_value_typed_two_ways_is_one_answer(a, b, entries, comma):
    convention = "fr" if comma else "en"
    assert normal_form(a, entries=entries, convention=convention) == \
        normal_form(b, entries=entries, convention=convention)


def test_different_values_and_unreadable_answers_stay_apart():
    assert normal_form("(0.5, 0, 0.5)", entries=True, convention="en") != \
        normal_form("(0.5, 0.5, 0)", entries=True, convention="en")
    assert normal_form("2x", entries=False, convention="en") is None
    assert normal_form("__import__('os')", entries=False, convention="en") is None
    assert normal_form("1e999999999", entries=False, convention="en") is None    # too large to read


def test_named_mistakes_come_from_the_grader_s_mistake_tables():
    for ex in bank.EXERCISES.values():
        for p in ex.parts:
            keys = named_mistakes(ex.id, p.id)
            assert {k for k, _ in targets.mistakes(ex, p.id)} <= set(keys)
            assert {"incorrect", "missing", "decimal-imprecise", "components-wrong"}.isdisjoint(keys)
    assert "squared-distance" in named_mistakes("embedding-distances", "parakeet-monkey")
    assert "point-outside-region" in named_mistakes("reachable-vertices", "vertices")
    assert named_mistakes("no-such-exercise", "x") == ()


@pytest.mark.parametrize("text", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx",
                                  '=HYPERLINK("http://x","y")'])
def test_csv_cell_neutralises_formulas_the_owasp_way(text):
    assert csv_cell(text) == "'" + text


def test_csv_cell_leaves_other_cells_alone():
    assert [csv_cell(v) for v in ("alice", "1/2", "", " =x", -0.5, 3, None)] == \
        ["alice", "1/2", "", " =x", -0.5, 3, None]


# --- hand-written results lines (SCHEMA.md's format) ---------------------------------

def part_line(ex_id: str, part_id: str, answer: str | None, score: float, note: str,
              column: int | None = None) -> dict:
    points = bank.get(ex_id).part(part_id).points
    return {"id": part_id, "score": score, "max_score": points, "correct": score == points,
            "note": note, "feedback": "...", "notes": [note] if note else [], "column": column,
            "answer": answer}


def result_line(student: str, parts: dict[tuple[str, str], dict], seed=None, lang="en",
                error=None) -> str:
    if error:
        record = {"student": student, "file": f"{student}.toml", "sha256": "0", "seed": seed,
                  "variants": False, "lang": lang, "grader": "x", "error": error,
                  "score": None, "max_score": None, "exercises": []}
        return json.dumps(record) + "\n"
    exercises = []
    for ex in bank.EXERCISES.values():
        got = [parts.get((ex.id, p.id)) or part_line(ex.id, p.id, None, 0, "missing")
               for p in ex.parts]
        exercises.append({"id": ex.id, "score": sum(g["score"] for g in got),
                          "max_score": ex.max_score, "parts": got})
    record = {"student": student, "file": f"{student}.toml", "sha256": "0", "seed": seed,
              "variants": seed is not None, "lang": lang, "grader": "x", "error": None,
              "score": sum(e["score"] for e in exercises),
              "max_score": sum(e["max_score"] for e in exercises), "exercises": exercises}
    return json.dumps(record, ensure_ascii=False) + "\n"


def hostile_results(folder: Path) -> Path:
    """Hostile ids as unreadable students and as variant seeds, hostile answers."""
    folder.mkdir(parents=True, exist_ok=True)
    key = ("embedding-distances", "parakeet-monkey")
    lines = []
    for i, student in enumerate(HOSTILE_IDS):
        lines.append(result_line(student, {key: part_line(*key, "0.09", 0, "squared-distance")},
                                 seed=student))
        lines.append(result_line(f"{student}-u{i}", {}, error=f"{student}: not valid TOML"))
    answers = ['=HYPERLINK("http://x","y")', "<img src=x onerror=alert(1)>", "\x1b[2J", "@x"]
    for i, answer in enumerate(answers):
        lines.append(result_line(f"a{i}", {key: part_line(*key, answer, 0, answer)}, seed=f"a{i}"))
    (folder / "results.jsonl").write_text("".join(lines), encoding="utf-8")
    return folder


def test_hostile_ids_and_answers_are_inert_in_the_page_and_every_csv(tmp_path):
    out = hostile_results(tmp_path / "out")
    proc = run("report", out)
    assert proc.returncode == 0, proc.stderr
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<img" not in html and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "\x1b" not in html and "\\x1b[2J" in html
    assert "\t" not in re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    texts = 0
    for path in out.glob("report-*.csv"):
        raw = path.read_text(encoding="utf-8")
        assert "\x1b" not in raw, path.name
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                for cell in row:
                    if cell.startswith(FORMULA):
                        float(cell)          # only numbers the report computed may start so
                    texts += cell.startswith("'")
    seeds = {row["seed"] for row in read_csv(out, "variants")}
    assert "'=HYPERLINK(\"http://x\",\"y\")" in seeds and "\\x1b[2J" in seeds
    assert any(row["student"].startswith("'+1-2") for row in read_csv(out, "unreadable"))
    assert texts >= 10


def test_a_french_report_writes_numbers_the_french_way(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    key = ("embedding-distances", "parakeet-monkey")
    lines = [result_line("a", {key: part_line(*key, "3/10", 1, "")}),
             result_line("b", {key: part_line(*key, "0,09", 0, "squared-distance")}, lang="fr"),
             result_line("c", {key: part_line(*key, "0.09", 0, "squared-distance")})]
    (out / "results.jsonl").write_text("".join(lines), encoding="utf-8")
    proc = run("report", out, "--lang", "fr")
    assert proc.returncode == 0 and proc.stdout.startswith("rapport\u00a0: "), proc.stderr
    html = (out / "report.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in html and "Rapport de la classe" in html
    assert "<dd>0,33</dd>" in html                      # the mean total, 1/3
    assert "33,3\u00a0%" in html and "66,7\u00a0%" in html   # shares of the part
    mistake = read_json(out)["exercises"][0]["parts"][0]["wrong_answers"][0]
    assert (mistake["value"], mistake["count"], mistake["forms"]) == ("9/100", 2, 2)
    assert "Moyenne" in html and "Mean" not in html
    row = read_csv(out, "summary")[0]
    assert row["mean"].startswith("0.333")      # the CSV files are data: a decimal point


def test_environment_language_is_the_report_s_language(tmp_path):
    out = hostile_results(tmp_path / "out")
    assert run("report", out, LANG="ja_JP.UTF-8").returncode == 0
    assert '<html lang="ja">' in (out / "report.html").read_text(encoding="utf-8")
    assert run("report", out, GRADER_LANG="ko", LANG="fr_FR.UTF-8").returncode == 0
    assert "학급 보고서" in (out / "report.html").read_text(encoding="utf-8")


def test_a_damaged_and_torn_results_file_is_reported_and_left_as_it_is(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    key = ("embedding-distances", "parakeet-monkey")
    good = result_line("a", {key: part_line(*key, "3/10", 1, "")})
    data = (good.encode() + b"this is not json\n" + b'["a", "list"]\n' + b'{"student": 5}\n'
            + b'{"student": "b", "error": null, "score": "high"}\n' + b"\xff\xfe not UTF-8\n"
            + result_line("c", {key: part_line(*key, "0.09", 0, "squared-distance")}).encode()
            + good[:40].encode())
    (out / "results.jsonl").write_bytes(data)
    proc = run("report", out)
    assert proc.returncode == 0, proc.stderr
    assert "6 damaged or incomplete lines" in proc.stderr
    assert (out / "results.jsonl").read_bytes() == data, "the report never changes the results"
    source = read_json(out)["source"]
    assert source["torn"] is True and source["lines"] == 7
    assert [(d["line"], d["reason"]) for d in source["damaged"]] == [
        (2, "not-json"), (3, "not-record"), (4, "not-record"), (5, "not-record"), (6, "not-json")]
    assert read_json(out)["summary"]["graded"] == 2
    assert [r["line"] for r in read_csv(out, "damaged")] == ["2", "3", "4", "5", "6"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "5 damaged lines are left out" in html and "is incomplete" in html


def test_no_results_is_a_clear_error_and_an_empty_file_an_empty_report(tmp_path):
    proc = run("report", tmp_path / "nothing")
    assert proc.returncode == 2 and "no results to report" in proc.stderr
    assert "grader grade SUBMISSIONS_DIR --out" in proc.stderr
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "results.jsonl").write_text("")
    proc = run("report", tmp_path / "empty")
    assert proc.returncode == 0, proc.stderr
    assert "No student has been graded." in (tmp_path / "empty" / "report.html").read_text("utf-8")
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "results.jsonl").write_text("")
    (blocked / "report.html").mkdir()           # cannot be replaced by a file
    proc = run("report", blocked)
    assert proc.returncode == 2 and "report.html" in proc.stderr


def test_variants_report_the_spread_of_scores_by_seed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    key = ("embedding-distances", "parakeet-monkey")
    right, wrong = part_line(*key, "3/10", 1, ""), part_line(*key, "0.09", 0, "squared-distance")
    lines = [result_line("a1", {key: right}, seed="A"), result_line("a2", {key: right}, seed="A"),
             result_line("b1", {key: wrong}, seed="B"), result_line("b2", {key: right}, seed="B"),
             result_line("c1", {key: wrong}, seed="C")]
    (out / "results.jsonl").write_text("".join(lines), encoding="utf-8")
    assert run("report", out).returncode == 0
    variants = read_json(out)["variants"]
    assert variants["seeds"] == 3
    rows = [(r["seed"], r["students"], r["mean"], r["min"], r["max"]) for r in variants["by_seed"]]
    assert rows == [("C", 1, 0, 0, 0), ("B", 2, 0.5, 0, 1), ("A", 2, 1, 1, 1)]   # hardest first
    assert [r["seed"] for r in read_csv(out, "variants")] == ["C", "B", "A"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="variants"' in html and "Mean total by variant" in html


def test_grade_with_variants_and_report(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(ROOT / "examples" / f"{name}.toml", folder / f"{name}.toml")
    proc = run("grade", folder, "--out", tmp_path / "out", "--variants", "--report", "--jobs", 2)
    assert proc.returncode in (0, 1), proc.stderr
    assert f"report: {tmp_path / 'out' / 'report.html'}" in proc.stdout
    records = last_records(tmp_path / "out")
    variants = read_json(tmp_path / "out")["variants"]
    assert {r["seed"]: r["mean"] for r in variants["by_seed"]} == \
        pytest.approx({r["student"]: r["score"] for r in records})


def test_a_pool_of_workers_reads_a_class_as_one_process_does(graded, tmp_path, monkeypatch):
    """A large class is read in pieces and its answers in chunks by forked workers: same tables."""
    from grader import classreport
    from grader.classreport import answers, results, tables
    from grader.grading.pool import Pool
    out = tmp_path / "out"
    out.mkdir()
    raw = (graded / "results.jsonl").read_bytes().splitlines(keepends=True)
    data = b"".join(raw[:7]) + b"not json\n" + b"".join(raw[7:30]) + b'{"student": 1}\n' \
        + b"".join(raw[30:]) + raw[0][:30]
    (out / "results.jsonl").write_bytes(data)
    alone = tables.analyse(results.read_results(out), "en")
    monkeypatch.setattr(results, "SPLIT", 0)
    monkeypatch.setattr(answers, "CHUNK", 7)
    with Pool(classreport.work, 3, depth=1) as pool:
        assert len(results._ranges(out / "results.jsonl", len(data), 3)) == 3
        together = tables.analyse(results.read_results(out, pool), "en", pool)
    assert together == alone
    monkeypatch.setattr(classreport, "SPLIT", 0)
    monkeypatch.setattr(classreport.os, "getloadavg", lambda: (0.0, 0.0, 0.0))   # idle cores
    monkeypatch.setattr(classreport.os, "cpu_count", lambda: 2)
    made = []

    class Counted(Pool):
        def __init__(self, fn, jobs, **options):
            made.append(jobs)
            super().__init__(fn, jobs, **options)

    monkeypatch.setattr("grader.grading.pool.Pool", Counted)
    assert classreport.write_report(out, "en", jobs=8) == alone          # the command's way
    assert made == [2], "as many workers as idle cores"
    assert [d["line"] for d in alone["source"]["damaged"]] == [8, 32]
    assert alone["source"]["torn"] and alone["source"]["lines"] == len(raw) + 2


def test_the_instructors_page_s_example_is_what_grader_report_prints(tmp_path):
    from tests.grader.test_readme import a_class, matches
    section = (ROOT / "docs/en/instructors.md").read_text(encoding="utf-8").split("## The class report", 1)[1]
    block = re.search(r"```console\n(.*?)```", section.split("\n## ", 1)[0], re.S).group(1)
    command, *expected = block.rstrip("\n").split("\n")
    words = command.removeprefix("$ ").split("#")[0].split()
    assert words[:2] == ["grader", "report"]
    a_class(tmp_path / "submissions")
    assert run("grade", "submissions", "--out", words[2], cwd=tmp_path).returncode == 1   # carol unreadable, the others graded
    proc = run(*words[1:], cwd=tmp_path)
    assert matches(proc.stdout.rstrip("\n").split("\n"), expected), proc.stdout
    assert (tmp_path / words[2] / "report.html").exists()


# --- the words of the named mistakes -------------------------------------------

def named_keys_with_values() -> set[str]:
    """Every named mistake of the bank whose feedback, in some locale, needs values."""
    from grader.languages.messages import LOCALES, catalog, placeholders
    return {k for ex in bank.EXERCISES.values() for p in ex.parts for k in named_mistakes(ex.id, p.id)
            if any(placeholders(catalog(lang).get(k) or catalog("en")[k]) for lang in LOCALES)}


def test_every_named_mistake_needing_values_has_the_report_s_own_words_in_every_locale():
    from grader.classreport.named import report_key
    from grader.languages.messages import LOCALES, catalog
    keys = named_keys_with_values()
    assert {"point-outside-region", "weights-not-normalized", "other-part"} <= keys
    for lang in LOCALES:
        missing = sorted(k for k in keys if report_key(k) not in catalog(lang))
        assert not missing, (lang, missing)


@pytest.mark.parametrize("lang", ["en", "fr", "id", "ja", "ko", "zh"])
def test_the_report_names_every_mistake_without_an_ellipsis(tmp_path, lang):
    out = tmp_path / "out"
    out.mkdir()
    parts = {}
    for ex in bank.EXERCISES.values():
        for p in ex.parts:
            line = part_line(ex.id, p.id, "1", 0, "")
            line["notes"] = list(named_mistakes(ex.id, p.id))
            parts[(ex.id, p.id)] = line
    (out / "results.jsonl").write_text(result_line("a", parts) + result_line("b", {}), encoding="utf-8")
    proc = run("report", out, "--lang", lang)
    assert proc.returncode == 0, proc.stderr
    html = (out / "report.html").read_text(encoding="utf-8")
    cells = dict(re.findall(r"<tr><td[^>]*><code>([^<]+)</code></td><td[^>]*>([^<]*)</td>", html))
    expected = {k for ex in bank.EXERCISES.values() for p in ex.parts for k in named_mistakes(ex.id, p.id)}
    assert expected <= set(cells), sorted(expected - set(cells))
    assert not [k for k in expected if "\u2026" in cells[k] or not cells[k]], cells
    rows = read_csv(out, "mistakes")
    assert {row["key"] for row in rows} == expected
    assert not [row for row in rows if "\u2026" in row["feedback"] or not row["feedback"]]
    json_rows = [m for e in read_json(out)["exercises"] for p in e["parts"] for m in p["mistakes"]]
    assert not [m for m in json_rows if "\u2026" in m["feedback"]]


@pytest.mark.parametrize("lang, minus", [("fr", "\u22121,00"), ("en", "-1.00")])
def test_a_negative_correlation_has_the_locale_s_minus_sign(tmp_path, lang, minus):
    """French typography sets a true minus sign (U+2212); the CSV files are data: a hyphen-minus."""
    out = tmp_path / "out"
    out.mkdir()
    key, other = ("embedding-distances", "parakeet-monkey"), ("attention-weights", "weights")
    right = part_line(*other, "(1/3, 1/3, 1/3)", bank.get(other[0]).part(other[1]).points, "")
    lines = [result_line("a", {key: part_line(*key, "3/10", 1, "")}),
             result_line("b", {other: right}), result_line("c", {other: right})]
    (out / "results.jsonl").write_text("".join(lines), encoding="utf-8")
    assert run("report", out, "--lang", lang).returncode == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert f": {minus}</span>" in html.replace("\u00a0:", ":"), re.findall(r".{40}1[.,]00.{10}", html)
    assert "-1,00" not in html and ("\u2212" in html) == (lang == "fr")
    row = next(r for r in read_csv(out, "parts") if (r["exercise"], r["part"]) == key)
    assert float(row["discrimination"]) == -1.0


def test_a_lone_surrogate_in_a_results_line_is_a_damaged_line_and_the_rest_is_reported(tmp_path):
    """JSON may escape half of a UTF-16 pair ("\\ud800"): that is no text, and no page or CSV file can
    hold it; a whole pair ("\\ud83d\\ude00", one emoji) is text like any other."""
    out = tmp_path / "out"
    out.mkdir()
    key = ("embedding-distances", "parakeet-monkey")
    good = result_line("a", {key: part_line(*key, "3/10", 1, "")})
    lone_id = good.replace('"student": "a"', '"student": "\\ud800"')
    lone_answer = result_line("c", {key: part_line(*key, "0.09", 0, "squared-distance")}).replace(
        '"answer": "0.09"', '"answer": "0.09\\uDFFF"')
    pair = good.replace('"student": "a"', '"student": "\\ud83d\\ude00"')
    assert lone_id != good and pair != good and "\\uDFFF" in lone_answer
    (out / "results.jsonl").write_text(good + lone_id + lone_answer + pair, encoding="utf-8")
    proc = run("report", out)
    assert proc.returncode == 0, proc.stderr
    assert "2 damaged or incomplete lines" in proc.stderr
    report = read_json(out)
    assert [(d["line"], d["reason"]) for d in report["source"]["damaged"]] == [(2, "not-record"), (3, "not-record")]
    assert report["summary"]["graded"] == 2
    assert [r["line"] for r in read_csv(out, "damaged")] == ["2", "3"]
