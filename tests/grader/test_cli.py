"""The real ``grader`` command, in a subprocess: exit codes, JSON schema, files, locales."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader import bank
from tests.grader.inprocess import grader

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"


def run(*args, env=None, cwd=ROOT):
    environ = {k: v for k, v in os.environ.items()
               if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update(env or {})
    proc = subprocess.run([GRADER, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=environ, timeout=60)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "internal error" not in proc.stderr
    return proc


def here(*args, env=None, cwd=ROOT):
    """``run``'s command in this process, for the tests whose subject is what it prints and its exit code
    (tests/grader/inprocess.py): no interpreter and no SymPy to start again for each."""
    proc = grader(*args, cwd=cwd, **(env or {}))
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
@pytest.mark.slow
def test_exit_codes(args, code):
    assert run(*args).returncode == code


@pytest.mark.parametrize("answer, under, key", [
    ("2^2^x", "x", "unknown-name"),            # column kept through ^ -> ** rewriting
    ("(1, 2, 3) % 2", "%", "operator-not-allowed"),
    ("(1, 2, 3))", ")", "bracket-not-opened"),
])
@pytest.mark.slow
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
    proc = here("submit", DATA / "malformed.toml")
    assert "malformed.toml" in proc.stderr and "line 3" in proc.stderr


def test_malformed_json_names_the_line():
    assert "line 4" in here("submit", DATA / "malformed.json").stderr


def test_json_schema():
    data = json.loads(here("submit", DATA / "partial.toml", "--format", "json").stdout)
    assert set(data) == {"score", "max_score", "seed", "exercises"} and data["seed"] is None
    assert [e["id"] for e in data["exercises"]] == list(bank.EXERCISES)   # every exercise, in lesson order
    assert data["max_score"] == sum(e.max_score for e in bank.EXERCISES.values()) and data["score"] == 1
    for ex in data["exercises"]:
        assert {"id", "score", "max_score", "parts"} <= set(ex)
        for part in ex["parts"]:
            assert {"id", "score", "max_score", "correct", "note", "feedback"} <= set(part)
            assert (part["note"] == "") == part["correct"]
    notes = {p["id"]: p["note"] for e in data["exercises"] for p in e["parts"]}
    assert notes["weights"] == "unscaled-softmax" and notes["scores"] == "missing"


def test_check_json():
    data = json.loads(here("check", "embedding-distances", "parakeet-monkey", "0.09",
                          "--format", "json").stdout)
    assert data["note"] == "squared-distance" and data["correct"] is False


@pytest.mark.parametrize("args, env, expected", [
    (["--lang", "ko"], {}, "거리의 제곱"),
    ([], {"GRADER_LANG": "fr"}, "distance au carré"),
    ([], {"LANG": "ja_JP.UTF-8"}, "距離の 2 乗"),
    ([], {"LC_ALL": "zh_CN.UTF-8"}, "距离的平方"),
    ([], {"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "fr_FR.UTF-8"}, "거리의 제곱"),
    ([], {"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "squared distance"),
    (["--lang", "id"], {"LANG": "ja_JP.UTF-8"}, "kuadrat jarak"),
    ([], {}, "squared distance"),
])
@pytest.mark.slow
def test_feedback_language(args, env, expected):
    proc = run("check", "embedding-distances", "parakeet-monkey", "0.09", *args, env=env)
    assert expected in proc.stdout


@pytest.mark.slow
def test_no_colour_when_not_a_tty():
    assert "\033[" not in run("submit", "examples/bob.toml").stdout


@pytest.mark.slow
def test_bob_is_instructive():
    out = run("submit", "examples/bob.toml").stdout
    for key in ("squared-distance", "unscaled-softmax", "removed-simplex-vertex", "dim-off-by-one",
                "divided-by-dk", "off-by-one-step", "percent-vs-fraction", "missing"):
        assert f"[{key}]" in out


@pytest.mark.slow
def test_hostile_submission_runs_nothing():
    marker = Path("/tmp/grader-pwned-marker")
    marker.unlink(missing_ok=True)
    run("submit", DATA / "hostile.toml")
    assert not marker.exists()


# --- every message in the student's language ----------------------------------

from grader.languages.messages import LOCALES, message  # noqa: E402


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.slow
def test_show_is_fully_localized(lang):
    out = run("show", "terrain-warmup", "--lang", lang).stdout
    for key, params in (("exercise.terrain-warmup.title", {}),
                        ("data.terrain-warmup.peak_lr", {}),
                        ("part.terrain-warmup.lr-at-step.prompt", {"step": 50}),
                        ("form.steps", {}), ("label-check-with", {})):
        assert message(key, lang, **params) in out, key
    data = json.loads(run("show", "terrain-warmup", "--lang", lang, "--format", "json").stdout)
    assert data["title"] == message("exercise.terrain-warmup.title", lang)
    assert data["parts"][2]["prompt"] == message("part.terrain-warmup.first-step-ratio.prompt",
                                                 lang, ratio_step=10)
    assert data["seed"] is None


@pytest.mark.parametrize("env, args, expected", [
    ({"LANG": "ja_JP.UTF-8"}, ["list"], "距離を計算する"),
    ({"LANG": "ja_JP.UTF-8"}, ["submit", DATA / "no-such-file.toml"], "ファイルがありません"),
    ({}, ["submit", DATA / "not-a-string.toml", "--lang", "ko"], "따옴표로 감싼 문자열"),
    ({"LC_ALL": "id_ID.UTF-8"}, ["check", "nope", "x", "1"], "nope"),
])
@pytest.mark.slow
def test_errors_and_lists_in_the_environment_language(env, args, expected):
    proc = run(*args, env=env)
    assert expected in proc.stdout + proc.stderr


def test_an_unknown_language_by_name_is_refused():
    proc = here("list", env={"GRADER_LANG": "klingon"})
    assert proc.returncode == 2 and "GRADER_LANG" in proc.stderr


# --- decimal comma -------------------------------------------------------------

@pytest.mark.parametrize("args, env, code", [
    (["embedding-distances", "parakeet-monkey", "0,3", "--lang", "fr"], {}, 0),
    (["embedding-distances", "cos-parakeet-monkey", "0,973"], {"LANG": "id_ID.UTF-8"}, 0),
    (["attention-weights", "weights", "(0,3837 ; 0,3837 ; 0,2327)", "--lang", "fr"], {}, 0),
    (["attention-weights", "weights", "(0.3837, 0.3837, 0.2327)", "--lang", "fr"], {}, 0),
    (["embedding-distances", "parakeet-monkey", "0,3"], {}, 0),     # English too: 0,3 cannot be two entries
    (["attention-weights", "scores", "(1,1,0)", "--lang", "fr"], {}, 0),   # three entries: three commas' worth
    (["attention-weights", "weights", "(0,38, 0,38, 0,23)", "--lang", "en"], {}, 1),   # read, then imprecise
])
@pytest.mark.slow
def test_decimal_comma(args, env, code):
    assert run("check", *args, env=env).returncode == code


@pytest.mark.parametrize("lang, answer, key", [
    ("fr", "(0,5,1,0)", "decimal-comma-in-vector"),      # (0,5 ; 1 ; 0), (0 ; 5,1 ; 0) or (0 ; 5 ; 1,0)?
    ("id", "(1,1,0,5)", "decimal-comma-in-vector"),
    ("fr", "(0,5 ; 1, 0)", "decimal-comma-mixed"),
])
@pytest.mark.slow
def test_ambiguous_decimal_comma_is_refused_with_a_caret(lang, answer, key):
    proc = run("check", "attention-weights", "scores", answer, "--lang", lang)
    assert proc.returncode == 2
    out = proc.stdout.splitlines()
    row = next(i for i, line in enumerate(out) if line.strip() == answer)
    column = out[row + 1].index("^") - out[row].index(answer)
    assert answer[column] == ","
    assert f"[{key}]" in out[row + 2]
    assert message(key, lang, text="X").split("X")[0][:20] in out[row + 2]


@pytest.mark.slow
def test_scalar_with_two_commas_is_refused():
    proc = run("check", "embedding-distances", "parakeet-monkey", "0,3, 1", "--lang", "fr",
               "--format", "json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["note"] == "decimal-comma-ambiguous"


# --- variants ----------------------------------------------------------------------

@pytest.mark.slow
def test_show_with_a_seed_is_stable_and_differs_from_the_lesson():
    first = run("show", "reachable-vertices", "--seed", "s1")
    again = run("show", "reachable-vertices", "--seed", "s1")
    lesson = run("show", "reachable-vertices")
    assert first.returncode == 0 and first.stdout == again.stdout != lesson.stdout
    assert "--seed s1" in first.stdout
    data = json.loads(run("show", "reachable-vertices", "--seed", "s1", "--format", "json").stdout)
    assert data["seed"] == "s1"
    assert data["data"] != json.loads(run("show", "reachable-vertices", "--format", "json").stdout)["data"]


def _variant_answer(exercise_id, part_id, seed):
    from grader.bank import variant
    return str(variant(exercise_id, seed).part(part_id).reference)


@pytest.mark.slow
def test_check_with_a_seed():
    mine = _variant_answer("terrain-warmup", "first-step-ratio", "s0042")   # 3000/20 = 150
    proc = run("check", "terrain-warmup", "first-step-ratio", mine, "--seed", "s0042",
               "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["seed"] == "s0042"
    assert run("check", "terrain-warmup", "first-step-ratio", mine).returncode == 1


@pytest.mark.slow
def test_submit_reads_the_seed_from_the_file_or_the_option(tmp_path):
    answer = _variant_answer("terrain-warmup", "first-step-ratio", "s0042")
    body = f'["terrain-warmup"]\nfirst-step-ratio = "{answer}"\n'
    plain, seeded = tmp_path / "plain.toml", tmp_path / "seeded.toml"
    plain.write_text(body)
    seeded.write_text('seed = "s0042"\n' + body)

    def ratio(proc):
        data = json.loads(proc.stdout)
        parts = {p["id"]: p for e in data["exercises"] for p in e["parts"]}
        return data["seed"], parts["first-step-ratio"]["correct"]
    assert ratio(run("submit", seeded, "--format", "json")) == ("s0042", True)
    assert ratio(run("submit", plain, "--seed", "s0042", "--format", "json")) == ("s0042", True)
    assert ratio(run("submit", seeded, "--seed", "s0042", "--format", "json")) == ("s0042", True)
    assert ratio(run("submit", plain, "--format", "json")) == (None, False)
    assert "variant s0042" in run("submit", seeded).stdout
    conflict = run("submit", seeded, "--seed", "s7", "--lang", "fr")
    assert conflict.returncode == 2 and "s0042" in conflict.stderr and "s7" in conflict.stderr
    assert "seeded.toml" in conflict.stderr


@pytest.mark.parametrize("args", [
    ["show", "terrain-warmup", "--seed", ""],
    ["check", "terrain-warmup", "lr-at-step", "1", "--seed", " s1"],
    ["submit", DATA / "correct.toml", "--seed", "x" * 101],
])
@pytest.mark.slow
def test_an_unusable_seed_is_refused_in_the_students_language(args):
    proc = run(*args, "--lang", "fr")
    assert proc.returncode == 2 and "Graine inutilisable" in proc.stderr


def test_an_unusable_seed_in_a_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('seed = 1.5\n["terrain-warmup"]\nlr-at-step = "1"\n')
    proc = here("submit", bad)
    assert proc.returncode == 2 and "bad.toml" in proc.stderr and 'seed = "s0042"' in proc.stderr


GRADESCOPE_TEST_FIELDS = {"name", "number", "score", "max_score", "status", "output"}


@pytest.mark.slow
def test_gradescope_results_follow_the_specification(tmp_path):
    target = tmp_path / "results" / "results.json"
    proc = run("submit", "examples/bob.toml", "--format", "gradescope", "--output", target)
    assert proc.returncode == 1 and proc.stdout == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert set(data) == {"score", "output", "tests"}
    from grader.bank import EXERCISES
    top = sum(e.max_score for e in EXERCISES.values())
    assert data["score"] == 12 and data["output"] == f"Score: 12/{top}"
    tests = data["tests"]
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


@pytest.mark.slow
def test_gradescope_on_stdout_in_the_students_language():
    data = json.loads(run("submit", "examples/alice.toml", "--format", "gradescope",
                          "--lang", "ja").stdout)
    from grader.bank import EXERCISES
    assert data["score"] == sum(e.max_score for e in EXERCISES.values())
    assert all(t["status"] == "passed" for t in data["tests"])
    assert data["output"].startswith("得点")


def test_gradescope_for_an_unreadable_file_still_writes_results(tmp_path):
    target = tmp_path / "results.json"
    proc = here("submit", DATA / "malformed.toml", "--format", "gradescope", "--output", target)
    assert proc.returncode == 2 and "line 3" in proc.stderr
    data = json.loads(target.read_text())
    assert data["score"] == 0 and data["tests"] == [] and "line 3" in data["output"]


def test_gradescope_is_only_for_submit():
    assert here("check", "attention-weights", "scores", "1", "--format", "gradescope").returncode == 2


# --- an answer that begins with '-' (issue 12) --------------------------------------

@pytest.mark.parametrize("args, code, answer", [
    (["terrain-warmup", "first-step-ratio", "-1/2"], 1, "-1/2"),
    (["terrain-warmup", "first-step-ratio", "-sqrt(2)"], 1, "-sqrt(2)"),
    (["terrain-warmup", "first-step-ratio", "-e"], 1, "-e"),
    (["terrain-warmup", "first-step-ratio", "--1"], 1, "--1"),
    (["attention-weights", "scores", "-(1, 1, 0)"], 2, "-(1, 1, 0)"),      # read, then refused
    (["attention-weights", "scores", "--lang", "fr", "-(1, 1, 0)"], 2, "-(1, 1, 0)"),
    (["terrain-warmup", "first-step-ratio", "-1/2", "--seed", "s1"], 1, "-1/2"),
    (["terrain-warmup", "first-step-ratio", "-x"], 2, "-x"),
])
@pytest.mark.slow
def test_an_answer_may_begin_with_a_minus(args, code, answer):
    proc = run("check", *args, "--format", "json")
    assert proc.returncode == code, proc.stderr
    assert json.loads(proc.stdout)["answer"] == answer


def test_options_still_work_beside_a_negative_answer():
    assert "usage" in run("check", "-h").stdout
    assert run("check", "attention-weights", "scores", "-1", "--lang", "klingon").returncode == 2
    proc = run("check", "attention-weights", "scores", "--format", "yaml", "-1")
    assert proc.returncode == 2 and "yaml" in proc.stderr


# --- nothing the student typed can act on the terminal --------------------------------

FAKE = "\x1b[1A\x1b[2Kfake: 3/3 Correct."


@pytest.mark.slow
def test_an_answer_cannot_rewrite_the_screen():
    proc = run("check", "attention-weights", "scores", FAKE)
    assert proc.returncode == 2
    assert "\x1b" not in proc.stdout + proc.stderr
    out = proc.stdout.splitlines()
    row = next(i for i, line in enumerate(out) if "fake: 3/3" in line)
    assert "\\x1b[1A\\x1b[2Kfake" in out[row]
    column = json.loads(run("check", "attention-weights", "scores", FAKE, "--format", "json").stdout)["column"]
    from grader.cli.output import printable
    assert out[row + 1].index("^") == out[row].index("\\x1b") + len(printable(FAKE[:column]))


@pytest.mark.parametrize("args", [
    ["check", "attention-weights", "\x1b[2Jscores", "1"],         # an unknown part, echoed back
    ["check", "\x1b[2J", "scores", "1"],
    ["submit", "\x1b[2J.toml"],
    ["check", "attention-weights", "scores", "1", "\x1b[2J"],     # argparse's own error
])
@pytest.mark.slow
def test_errors_escape_what_they_echo(args):
    proc = run(*args)
    assert proc.returncode == 2
    assert "\x1b" not in proc.stdout + proc.stderr and "\\x1b" in proc.stdout + proc.stderr


def _run_bytes(*args):
    proc = subprocess.run([GRADER.encode(), *args], capture_output=True, cwd=ROOT, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "GRADER_LANG"})
    assert b"Traceback" not in proc.stderr
    return proc


@pytest.mark.parametrize("answer", [b"1\xff", b"(1, \xe9)", "\u202e1".encode(), "1\u0085".encode()])
@pytest.mark.slow
def test_json_output_is_always_valid_utf8(answer):
    proc = _run_bytes(b"check", b"attention-weights", b"scores", answer, b"--format", b"json")
    assert proc.returncode == 2
    data = json.loads(proc.stdout.decode("utf-8"))          # strict: valid UTF-8
    assert data["note"] == "syntax-error"
    assert "\u202e".encode() not in proc.stdout and "\u0085".encode() not in proc.stdout
    text = _run_bytes(b"check", b"attention-weights", b"scores", answer)
    assert text.returncode == 2 and text.stdout.decode("utf-8")


@pytest.mark.parametrize("name", ["key:nope.toml", "key:error-internal.toml"])
def test_a_file_name_that_looks_like_a_message_key(name):
    proc = here("submit", name)
    assert proc.returncode == 2 and name in proc.stderr


@pytest.mark.parametrize("command", [[GRADER], [sys.executable, "-m", "grader.cli"]])
def test_the_quick_exit_keeps_every_line_and_the_exit_code(command, tmp_path):
    """The command exits without tearing the interpreter down (grader.cli.main.run): what it wrote to a
    file (fully buffered) is all there, and so is the exit code."""
    out = tmp_path / "out.txt"
    with open(out, "w") as handle:
        code = subprocess.call([*command, "check", "attention-weights", "weights",
                                "(exp(1/2)/(1 + 2*exp(1/2)), 1, 1/(1 + 2*exp(1/2)))", "--format", "json"],
                               stdout=handle, cwd=ROOT, timeout=60)
    assert code == 1
    found = json.loads(out.read_text())
    assert found["correct"] is False and found["score"] == 2


# --- a file read as written: the rules of a quoted answer, a name once, a language however it is cased


def test_an_integer_toml_reads_in_a_base_or_with_separators_is_refused_as_its_quoted_text_is(tmp_path):
    """`0x320` unquoted was read as TOML's 800 while "0x320" is refused: the same text, two verdicts."""
    for written in ("0x320", "0o17", "0b11", "1_200", "+1_200"):
        path = tmp_path / "answers.toml"
        path.write_text(f'lang = "en"\n\n[terrain-warmup]\nstep-at-fraction = {written}   # the step\n')
        result = here("submit", str(path), "--exercises", "terrain-warmup")
        assert result.returncode == 2, (written, result.stdout, result.stderr)
        assert f"{path}: line 4: not valid TOML: an integer in hexadecimal" in result.stderr + result.stdout, written
        assert "Traceback" not in result.stderr
    path.write_text('[terrain-warmup]\nstep-at-fraction = 800\nlr-at-step = "x = 0x1"\n')   # decimal, and a string
    result = here("submit", str(path), "--exercises", "terrain-warmup")
    assert result.returncode == 1 and "✓ step-at-fraction" in result.stdout, result.stdout + result.stderr


def test_a_json_name_given_twice_is_refused_with_its_line_as_toml_refuses_it(tmp_path):
    path = tmp_path / "answers.json"
    path.write_text('{"terrain-warmup": {\n  "lr-at-step": "1",\n  "lr-at-step": "7.5e-6"\n}}\n')
    result = here("submit", str(path))
    assert result.returncode == 2 and f"{path}: line 3: not valid JSON: a name given twice" in result.stderr, result.stderr
    path.write_text('{"terrain-warmup": {"lr-at-step": "1"}, "terrain-warmup": {"step-at-fraction": "1200"}}')
    result = here("submit", str(path), "--lang", "fr")
    assert result.returncode == 2 and "ligne 1" in result.stderr and "un nom donné deux fois" in result.stderr


@pytest.mark.parametrize("written", ["FR", " fr ", "Fr"])
def test_a_file_s_language_is_read_whatever_its_case(tmp_path, written):
    path = tmp_path / "answers.toml"
    path.write_text(f'lang = "{written}"\n\n[terrain-warmup]\nlr-at-step = "0,0000075"\n')
    result = here("submit", str(path), "--exercises", "terrain-warmup")
    assert result.returncode == 1 and "✓ lr-at-step" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("lang, answer, said", [
    ("en", "(0.5, 0.25, 0.125)", "yours sum to 0.875."),
    ("en", "(0.50, 0.20, 0.20)", "yours sum to 0.90."),          # the places the student wrote
    ("en", "(0.5, 0.5, 0.1)", "yours sum to 1.1."),
    ("en", "(1/2, 1/4, 1/8)", "yours sum to 7/8."),             # an exact fraction stays exact
    ("en", "(1, 1, 1)", "yours sum to 3."),
    ("fr", "(0,5 ; 0,25 ; 0,3)", "celle des vôtres vaut 1,05."),
    ("fr", "(0,0500 ; 0,25 ; 0,3)", "celle des vôtres vaut 0,6000."),
    ("fr", "(1/3 ; 1/3 ; 1/2)", "celle des vôtres vaut 7/6."),
])
def test_a_sum_of_weights_is_said_as_the_student_wrote_its_numbers(lang, answer, said):
    proc = run("check", "attention-weights", "weights", answer, "--lang", lang)
    assert proc.returncode == 1 and "[weights-not-normalized]" in proc.stdout, proc.stdout + proc.stderr
    assert said in proc.stdout, proc.stdout
