"""An instructor's commands: --version, an assignment (--exercises on submit, grade and report), and a class
folder whose files that are not .toml or .json are nobody's."""
import csv
import json
import shutil

import pytest

from grader.bank import EXERCISES
from grader.grading.folder import discover, is_submission
from grader.judging.table import engine_version
from grader.languages.messages import plain_math
from tests.grader.test_cli import ROOT
from tests.grader.test_cli import here as run
from tests.grader.test_cli import run as run_the_command

FIRST, SECOND = list(EXERCISES)[:2]


def a_class(folder):
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(ROOT / "examples" / f"{name}.toml", folder / f"{name}.toml")
    return folder


def test_version_names_the_package_and_the_grading_engine():
    proc = run_the_command("--version")         # the installed command's, in its own process
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines() == [proc.stdout.splitlines()[0], f"grading engine {engine_version()}"]
    assert proc.stdout.startswith("grader (andrea-course) ")


def test_submit_counts_the_assignment_only():
    data = json.loads(run("submit", "examples/bob.toml", "--exercises", f"{SECOND}, {FIRST}", "--format", "json").stdout)
    assert [e["id"] for e in data["exercises"]] == [FIRST, SECOND]                 # in lesson order
    assert data["max_score"] == EXERCISES[FIRST].max_score + EXERCISES[SECOND].max_score
    assert data["score"] == sum(e["score"] for e in data["exercises"])
    gradescope = json.loads(run("submit", "examples/bob.toml", "--exercises", SECOND, "--format", "gradescope").stdout)
    lesson = EXERCISES[SECOND].lesson
    assert [t["number"] for t in gradescope["tests"]] == [f"{lesson}.{i}" for i in range(1, len(EXERCISES[SECOND].parts) + 1)]


@pytest.mark.parametrize("command", [["submit", "examples/bob.toml"], ["grade", "examples", "--out", "{tmp}/o"],
                                     ["report", "{tmp}"], ["autograder", "--out", "{tmp}/a.zip"]])
@pytest.mark.parametrize("exercises", ["nope", f"{FIRST},nope", ","])
def test_an_unknown_exercise_is_unusable_input(command, exercises, tmp_path):
    proc = run(*[part.format(tmp=tmp_path) for part in command], "--exercises", exercises)
    assert proc.returncode == 2 and ("nope" in proc.stderr or exercises == ","), proc.stderr
    assert not (tmp_path / "o").exists() and not (tmp_path / "a.zip").exists()


def test_grade_and_report_an_assignment(tmp_path):
    folder = a_class(tmp_path / "class")
    out = tmp_path / "out"
    proc = run("grade", folder, "--out", out, "--exercises", SECOND, "--format", "json", "--jobs", "1", "--report")
    summary = json.loads(proc.stdout)
    assert summary["exercises"] == [SECOND] and summary["graded"] == 2
    rows = list(csv.DictReader((out / "grades.csv").open(newline="")))
    assert list(rows[0]) == ["student", SECOND, "total", "max_score", "error"]
    assert {r["max_score"] for r in rows} == {str(EXERCISES[SECOND].max_score)}
    assert [e["id"] for e in json.loads((out / "report.json").read_text())["exercises"]] == [SECOND]
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {tuple(line["assignment"]) for line in lines} == {(SECOND,)}
    again = json.loads(run("grade", folder, "--out", out, "--exercises", SECOND, "--format", "json").stdout)
    assert (again["kept"], again["graded_now"]) == (2, 0)                           # the same assignment: kept
    every = json.loads(run("grade", folder, "--out", out, "--format", "json").stdout)
    assert (every["kept"], every["graded_now"]) == (0, 2)                           # another: graded again
    header = (out / "grades.csv").read_text().splitlines()[0]
    assert header == ",".join(["student", *EXERCISES, "total", "max_score", "error"])
    run("report", out, "--exercises", FIRST)
    report = json.loads((out / "report.json").read_text())
    assert [e["id"] for e in report["exercises"]] == [FIRST]
    assert report["summary"]["max_score"] == EXERCISES[FIRST].max_score            # totals of the assignment alone


def test_only_toml_and_json_files_are_students(tmp_path):
    folder = a_class(tmp_path / "class")
    (folder / "README.txt").write_text("grading notes")
    (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (folder / "notes").mkdir()
    (folder / "CAROL.TOML").write_text((ROOT / "examples" / "bob.toml").read_text())
    entries, ignored = discover(folder)
    assert [e.student for e in entries] == ["CAROL", "alice", "bob"]
    assert ignored == [".DS_Store", "README.txt", "notes"]
    proc = run("grade", folder, "--out", tmp_path / "out", "--jobs", "1")
    assert "ignored, not .toml or .json files (3):\n  .DS_Store\n  README.txt\n  notes" in proc.stdout
    assert "README" not in (tmp_path / "out" / "grades.csv").read_text()
    data = json.loads(run("grade", folder, "--out", tmp_path / "out", "--format", "json").stdout)
    assert data["ignored"] == [".DS_Store", "README.txt", "notes"] and data["students"] == 3


@pytest.mark.parametrize("name, student", [("a.toml", True), ("a.JSON", True), ("a.toml.bak", False), ("a.txt", False),
                                           (".a.toml", False), ("toml", False), ("a.tml", False)])
def test_what_a_students_file_is_called(name, student):
    assert is_submission(name) is student


@pytest.mark.parametrize("tex, text", [
    (r"the angle $\theta$ between $u$ and $v$", "the angle θ between u and v"),
    (r"$q \cdot k_i / \sqrt{d_k}$", "q · k_i / sqrt(d_k)"),
    (r"$\Delta \le \frac{1}{2}$, $\lambda \ne \mu$", "Δ ≤ 1/2, λ ≠ μ"),
    (r"$\frac{u \cdot v}{\lVert u \rVert \, \lVert v \rVert}$", "(u · v)/(‖ u ‖   ‖ v ‖)"),
    (r"$\alpha_1 \to \infty$", "α_1 → ∞"),
    (r"$\text{softmax}(x)$ and $\unknowncommand$", "softmax(x) and unknowncommand"),
])
def test_tex_in_a_prompt_reads_as_the_terminal_shows_it(tex, text):
    assert plain_math(tex) == text
