"""The real ``grader`` command, in a subprocess: exit codes, JSON schema, files, locales."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"


def run(*args, env=None):
    environ = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LANG")}
    environ.update(env or {})
    proc = subprocess.run([GRADER, *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=environ, timeout=60)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "internal error" not in proc.stderr
    return proc


@pytest.mark.parametrize("args, code", [
    (["list"], 0),
    (["show", "reachable-vertices"], 0),
    (["show", "nope"], 2),
    (["check", "attention-weights", "scores", "(1, 1, 0)"], 0),
    (["check", "attention-weights", "scores", "(1, 1, 1)"], 1),
    (["check", "attention-weights", "scores", "(1, 1 1)"], 2),
    (["check", "attention-weights", "nope", "1"], 2),
    (["check", "nope", "scores", "1"], 2),
    (["check", "attention-weights", "scores", "9**9**9**9"], 2),
    (["submit", DATA / "correct.toml"], 0),
    (["submit", DATA / "correct.json"], 0),
    (["submit", DATA / "partial.toml"], 1),
    (["submit", DATA / "malformed.toml"], 2),
    (["submit", DATA / "malformed.json"], 2),
    (["submit", DATA / "unknown-part.toml"], 2),
    (["submit", DATA / "unknown-exercise.toml"], 2),
    (["submit", DATA / "not-a-string.toml"], 2),
    (["submit", DATA / "no-such-file.toml"], 2),
    (["submit", DATA / "hostile.toml"], 1),
    (["submit", "examples/alice.toml"], 0),
    (["submit", "examples/bob.toml"], 1),
])
def test_exit_codes(args, code):
    assert run(*args).returncode == code


@pytest.mark.parametrize("answer, under, key", [
    ("2^2^x", "x", "unknown-name"),            # column kept through ^ -> ** rewriting
    ("(1, 2, 3) % 2", "%", "operator-not-allowed"),
    ("(1, 2, 3))", ")", "syntax-error"),
])
def test_parse_error_draws_a_caret(answer, under, key):
    proc = run("check", "attention-weights", "scores", answer)
    out = proc.stdout.splitlines()
    row = next(i for i, line in enumerate(out) if line.strip() == answer)
    assert out[row + 1].index("^") == out[row].rindex(under)
    assert f"[{key}]" in out[row + 2]
    column = json.loads(run("check", "attention-weights", "scores", answer,
                            "--format", "json").stdout)["column"]
    assert answer[column] == under


def test_malformed_toml_names_the_line():
    proc = run("submit", DATA / "malformed.toml")
    assert "malformed.toml" in proc.stderr and "line 3" in proc.stderr


def test_malformed_json_names_the_line():
    assert "line 4" in run("submit", DATA / "malformed.json").stderr


def test_json_schema():
    data = json.loads(run("submit", DATA / "partial.toml", "--format", "json").stdout)
    assert set(data) == {"score", "max_score", "exercises"}
    assert data["max_score"] == 26 and data["score"] == 1
    for ex in data["exercises"]:
        assert {"id", "score", "max_score", "parts"} <= set(ex)
        for part in ex["parts"]:
            assert {"id", "score", "max_score", "correct", "note", "feedback"} <= set(part)
            assert (part["note"] == "") == part["correct"]
    notes = {p["id"]: p["note"] for e in data["exercises"] for p in e["parts"]}
    assert notes["weights"] == "unscaled-softmax" and notes["scores"] == "missing"


def test_check_json():
    data = json.loads(run("check", "embedding-distances", "parakeet-monkey", "0.09",
                          "--format", "json").stdout)
    assert data["note"] == "squared-distance" and data["correct"] is False


@pytest.mark.parametrize("args, env, expected", [
    (["--lang", "ko"], {}, "거리의 제곱"),
    ([], {"GRADER_LANG": "fr"}, "distance au carré"),
    ([], {"LANG": "ja_JP.UTF-8"}, "距離の 2 乗"),
    ([], {"LC_ALL": "zh_CN.UTF-8"}, "距离的平方"),
    (["--lang", "id"], {"LANG": "ja_JP.UTF-8"}, "jarak kuadrat"),
    ([], {}, "squared distance"),
])
def test_feedback_language(args, env, expected):
    proc = run("check", "embedding-distances", "parakeet-monkey", "0.09", *args, env=env)
    assert expected in proc.stdout


def test_no_colour_when_not_a_tty():
    assert "\033[" not in run("submit", "examples/bob.toml").stdout


def test_bob_is_instructive():
    out = run("submit", "examples/bob.toml").stdout
    for key in ("squared-distance", "unscaled-softmax", "removed-simplex-vertex", "dim-off-by-one",
                "divided-by-dk", "off-by-one-step", "percent-vs-fraction", "missing"):
        assert f"[{key}]" in out


def test_hostile_submission_runs_nothing():
    marker = Path("/tmp/grader-pwned-marker")
    marker.unlink(missing_ok=True)
    run("submit", DATA / "hostile.toml")
    assert not marker.exists()


GRADESCOPE_TEST_FIELDS = {"name", "number", "score", "max_score", "status", "output"}


def test_gradescope_results_follow_the_specification(tmp_path):
    target = tmp_path / "results" / "results.json"
    proc = run("submit", "examples/bob.toml", "--format", "gradescope", "--output", target)
    assert proc.returncode == 1 and proc.stdout == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert set(data) == {"score", "output", "tests"}
    assert data["score"] == 12 and data["output"] == "Score: 12/26"
    tests = data["tests"]
    from grader.bank import EXERCISES
    assert len(tests) == sum(len(e.parts) for e in EXERCISES.values())   # a test per part
    for test in tests:
        assert set(test) == GRADESCOPE_TEST_FIELDS
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] == ("passed" if test["score"] == test["max_score"] else "failed")
    assert sum(t["score"] for t in tests) == data["score"]
    by_name = {t["name"]: t for t in tests}
    assert by_name["embedding-distances: parakeet-monkey"]["output"].startswith("[squared-distance]")
    assert by_name["attention-weights: weights"]["status"] == "failed"
    assert by_name["embedding-distances: cos-monkey-fourier"]["output"].startswith("[missing]")


def test_gradescope_on_stdout_in_the_students_language():
    data = json.loads(run("submit", "examples/alice.toml", "--format", "gradescope",
                          "--lang", "ja").stdout)
    assert data["score"] == 26 and all(t["status"] == "passed" for t in data["tests"])
    assert data["output"].startswith("得点")


def test_gradescope_for_an_unreadable_file_still_writes_results(tmp_path):
    target = tmp_path / "results.json"
    proc = run("submit", DATA / "malformed.toml", "--format", "gradescope", "--output", target)
    assert proc.returncode == 2 and "line 3" in proc.stderr
    data = json.loads(target.read_text())
    assert data["score"] == 0 and data["tests"] == [] and "line 3" in data["output"]


def test_gradescope_is_only_for_submit():
    assert run("check", "attention-weights", "scores", "1", "--format", "gradescope").returncode == 2
