"""A check past the time limit is no verdict: ``timeout``, said as 'try again', exit 4, and in a class run
tried again with twice the limit, then listed as not decided and never stored (a resumed run checks it
again). The limit is made tight with GRADER_TIMEOUT, on a right exact form SymPy takes a while to prove."""
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.cli.exits import UNDECIDED
from grader.grading import batch
from grader.judging.check import check_part, limit_outcome
from grader.judging.limits import LimitExceeded
from tests.grader.inprocess import grader

ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
# right (sin(k)² + cos(k)² = 1 ten times, times the reference's 3/100), and proved by SymPy in about 0.3 s on an
# idle machine (the one identity alone is proved in 0.1 s there): far past a limit of 0.02 s, and of twice that
SLOW_RIGHT = "3/100*(" + "+".join(f"sin({k})^2+cos({k})^2" for k in range(1, 11)) + ")"
TIGHT, ROOMY = "0.02", "120"


def cli(*args, **environ):
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    proc = subprocess.run([GRADER, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          env={**env, **environ}, timeout=120)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


def test_the_outcome_of_a_limit_says_which():
    assert [f.key for f in limit_outcome(LimitExceeded("timeout")).findings] == ["timeout"]
    assert [f.key for f in limit_outcome(LimitExceeded("memory")).findings] == ["too-large"]


def test_check_past_the_limit_says_try_again_and_exits_4():
    slow = cli("check", "embedding-distances", "parakeet-monkey", SLOW_RIGHT, GRADER_TIMEOUT=TIGHT)
    assert slow.returncode == UNDECIDED == 4, slow.stderr
    assert "[timeout] The check ran past the time limit: try again; if it repeats, tell your instructor." in slow.stdout
    assert "too large" not in slow.stdout and slow.stdout.lstrip().startswith("?")
    said = cli("check", "embedding-distances", "parakeet-monkey", SLOW_RIGHT, "--format", "json", "--lang", "fr",
               GRADER_TIMEOUT=TIGHT)
    result = json.loads(said.stdout)
    assert (said.returncode, result["note"], result["score"], result["correct"]) == (4, "timeout", 0, False)
    assert "réessayez" in result["feedback"]
    roomy = cli("check", "embedding-distances", "parakeet-monkey", SLOW_RIGHT, GRADER_TIMEOUT=ROOMY)
    assert roomy.returncode == 0 and "\u2713" in roomy.stdout, roomy.stdout      # the same answer is right


def test_submit_past_the_limit_exits_4(tmp_path):
    path = tmp_path / "answers.toml"
    path.write_text(f'["embedding-distances"]\nparakeet-monkey = "{SLOW_RIGHT}"\nparakeet-fourier = "1"\n')
    ran = cli("submit", path, "--format", "json", GRADER_TIMEOUT=TIGHT)
    parts = {p["id"]: p["note"] for p in json.loads(ran.stdout)["exercises"][0]["parts"]}
    assert ran.returncode == 4 and parts["parakeet-monkey"] == "timeout" and parts["parakeet-fourier"] != "timeout"


def _class(tmp_path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    # alice's answers are plain decimals, decided at once however tight the limit and however loaded the machine
    (folder / "alice.toml").write_text('["embedding-distances"]\nparakeet-monkey = "0.3"\nparakeet-fourier = "1.8708"\n')
    (folder / "dave.toml").write_text(f'["embedding-distances"]\nparakeet-monkey = "{SLOW_RIGHT}"\n')
    return folder


def _results(out: Path) -> dict:
    return {json.loads(line)["student"]: json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()}


def _rows(out: Path) -> dict:
    return {row["student"]: row for row in csv.DictReader((out / "grades.csv").open(encoding="utf-8", newline=""))}


def test_a_class_run_lists_what_is_not_decided_and_stores_no_score_for_it(tmp_path):
    folder, out = _class(tmp_path), tmp_path / "out"
    # in a process of its own: an earlier test in this one may have proved the same form already (SymPy's cache)
    ran = cli("grade", folder, "--out", out, "--jobs", "1", GRADER_TIMEOUT=TIGHT)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert "not decided (1): a check ran past the time limit, twice" in ran.stdout
    assert "dave.toml: embedding-distances/parakeet-monkey" in ran.stdout
    assert "1 graded" in ran.stdout.splitlines()[0]
    assert set(_results(out)) == {"alice"}                        # no line, so no 0 a rerun would keep
    rows = _rows(out)
    assert rows["dave"]["total"] == "" and rows["dave"]["embedding-distances"] == ""
    assert rows["dave"]["error"].startswith("not decided: the check of embedding-distances/parakeet-monkey")
    said = json.loads(cli("grade", folder, "--out", out, "--format", "json", "--jobs", "1", GRADER_TIMEOUT=TIGHT).stdout)
    assert said["undecided"] == [{"student": "dave", "file": "dave.toml", "parts": ["embedding-distances/parakeet-monkey"]}]
    assert said["kept"] == 1 and said["graded"] == 1
    # the same class again with room: dave is checked again, and right
    again = json.loads(grader("grade", folder, "--out", out, "--format", "json", GRADER_TIMEOUT=ROOMY).stdout)
    assert again["undecided"] == [] and again["kept"] == 1 and again["graded_now"] == 1
    dave = _results(out)["dave"]
    assert dave["exercises"][0]["parts"][0]["note"] == "" and dave["exercises"][0]["score"] == 1
    assert _rows(out)["dave"]["embedding-distances"] == "1"


def test_a_timeout_is_tried_again_with_twice_the_limit(tmp_path, monkeypatch):
    """The first check of dave's answer hangs (the worker's alarm ends it), the second answers: graded."""
    first = tmp_path / "hung-once"
    real, limits = batch.evaluate, []

    def hangs_once(exercise_id, seed, part_id, text, convention=None):
        if text == SLOW_RIGHT and not first.exists():
            first.touch()
            time.sleep(600)
        return real(exercise_id, seed, part_id, text, convention)

    class Pool(batch.Pool):
        def __init__(self, fn, jobs, timeout=None, depth=4):
            super().__init__(fn, jobs, timeout, depth)
            limits.append(self.timeout)

    monkeypatch.setattr(batch, "evaluate", hangs_once)
    monkeypatch.setattr(batch, "Pool", Pool)
    folder, out = _class(tmp_path), tmp_path / "out"
    # 2 s: the hung check is cut after 2 s, and the second has 4 s (a loaded machine proves it in 2)
    ran = grader("grade", folder, "--out", out, "--jobs", "1", "--format", "json", GRADER_TIMEOUT="2")
    assert first.exists() and limits == [2.0, 4.0]
    assert ran.returncode == 1 and json.loads(ran.stdout)["undecided"] == [], ran.stderr
    assert _results(out)["dave"]["exercises"][0]["score"] == 1


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko", "fr", "id"])
def test_the_words_of_a_timeout_are_every_language_s_own(lang):
    result = check_part("embedding-distances", "parakeet-monkey", SLOW_RIGHT, lang, timeout=0.0)
    assert result.note == "timeout" and result.feedback
    assert lang == "en" or result.feedback != check_part("embedding-distances", "parakeet-monkey", SLOW_RIGHT,
                                                         "en", timeout=0.0).feedback
