"""GRADER_TIMEOUT: a number of seconds in (0, 600], read when a check needs it (never at import); anything
else is one line naming it, its value and what to write, exit 2, no traceback, whatever the command."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.cli import gradescope
from grader.judging.limits import DEFAULT_TIMEOUT, MAX_TIMEOUT, BadTimeout, time_limit

ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
BAD = ["abc", "nan", "inf", "-inf", "0", "-1", "five", "601", "5s"]
FIX = "write a number of seconds above 0 and at most 600, such as GRADER_TIMEOUT=5"


@pytest.mark.parametrize("value, seconds", [("5", 5.0), (" 0.25 ", 0.25), ("600", 600.0), ("", DEFAULT_TIMEOUT),
                                            ("  ", DEFAULT_TIMEOUT), (None, DEFAULT_TIMEOUT)])
def test_a_good_value_is_the_limit(value, seconds):
    assert time_limit({} if value is None else {"GRADER_TIMEOUT": value}) == seconds


@pytest.mark.parametrize("value", BAD)
def test_a_bad_value_is_refused_by_name(value):
    with pytest.raises(BadTimeout) as refused:
        time_limit({"GRADER_TIMEOUT": value})
    assert refused.value.value == value and "GRADER_TIMEOUT" in str(refused.value)
    assert MAX_TIMEOUT == 600


def run(*args, value):
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([GRADER, *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          env={**env, "GRADER_TIMEOUT": value}, timeout=120)


@pytest.mark.parametrize("value", ["abc", "nan", "inf", "0"])
def test_check_says_the_setting_and_the_fix(value):
    ran = run("check", "embedding-distances", "parakeet-monkey", "sqrt(9/100)", value=value)
    assert ran.returncode == 2 and ran.stdout == "", ran.stdout
    assert ran.stderr == f"grader: GRADER_TIMEOUT={value!r} is not a time limit: {FIX} (the default when it is unset).\n"


@pytest.mark.parametrize("args", [
    ["list"], ["show", "attention-weights"], ["submit", "examples/alice.toml"],
    ["grade", "examples", "--out", "{tmp}/out"], ["report", "{tmp}/out"], ["autograder", "--out", "{tmp}/a.zip"],
])
def test_every_command_refuses_a_bad_value_before_any_work(args, tmp_path):
    words = [a.replace("{tmp}", str(tmp_path)) for a in args]
    ran = run(*words, "--lang", "ja", value="abc")
    assert ran.returncode == 2 and "Traceback" not in ran.stderr and ran.stdout == ""
    assert len(ran.stderr.splitlines()) == 1 and "GRADER_TIMEOUT='abc'" in ran.stderr and "600" in ran.stderr
    assert not any(tmp_path.iterdir())          # nothing written


def test_the_gradescope_runner_says_it_in_its_results(tmp_path, monkeypatch):
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "autograder.json").write_text(json.dumps({"lang": "fr"}))
    (tmp_path / "submission").mkdir()
    shutil.copy(ROOT / "examples" / "alice.toml", tmp_path / "submission" / "answers.toml")
    monkeypatch.setenv("GRADER_TIMEOUT", "nan")
    assert gradescope.run(tmp_path) == 2
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["tests"] == []
    assert results["output"].startswith("grader\u00a0: GRADER_TIMEOUT='nan' n’est pas une limite de temps")


def test_importing_the_grader_with_a_bad_value_works():
    ran = subprocess.run([sys.executable, "-c", "import grader.judging.limits, grader.grading.pool, grader.cli.main"],
                         capture_output=True, text=True, env={**os.environ, "GRADER_TIMEOUT": "abc"}, timeout=60)
    assert ran.returncode == 0, ran.stderr
