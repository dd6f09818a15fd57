"""`grader grade SUBMISSIONS_DIR --out OUT_DIR`, the real command: CSV and JSONL content, unreadable
files, resuming after kill -9, changed files, --jobs, hostile answers, bad input.

What the command does (its files, its output, its exit code) is run in this process
(tests/grader/inprocess.py), fast enough for `make test-fast`; what the process does (kill -9, the
workers a killed grader leaves, a progress bar on a terminal) runs it in a subprocess."""
import csv
import io
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from grader import bank
from tests.grader.inprocess import grader

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
EXERCISES = list(bank.EXERCISES)
FULL = {ex.id: ex.max_score for ex in bank.EXERCISES.values()}     # every answer right
TOP = sum(FULL.values())


def graded_row(student, scores, total):
    """A row of grades.csv: ``scores`` {exercise: points}, 0 on any other exercise of the bank."""
    return [student, *(str(scores.get(ex_id, 0)) for ex_id in EXERCISES), str(total), str(TOP), ""]


def unreadable_row(student, error):
    return [student, *[""] * (len(EXERCISES) + 2), error]


def env(**extra):
    environ = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LANG")}
    environ.update(extra)
    return environ


def grade(folder, out, *args, **extra):
    proc = grader("grade", folder, "--out", out, "--format", "json", *args, cwd=ROOT, **extra)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "internal error" not in proc.stderr
    return proc


def lines(out):
    raw = (out / "results.jsonl").read_bytes()
    assert raw == b"" or raw.endswith(b"\n")
    return [json.loads(line) for line in raw.decode().splitlines()]


def rows(out):
    return list(csv.reader((out / "grades.csv").open(encoding="utf-8", newline="")))


@pytest.fixture
def klass(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "alice.toml", folder / "alice.toml")
    shutil.copy(ROOT / "examples" / "bob.toml", folder / "bob.toml")
    shutil.copy(DATA / "partial.toml", folder / "carol.toml")
    shutil.copy(DATA / "correct.json", folder / "dan.json")
    shutil.copy(DATA / "malformed.toml", folder / "erin.toml")
    (folder / "frank.toml").write_text("")
    (folder / "gina.toml").write_bytes(b"\xff\xfe[x]")
    shutil.copy(DATA / "unknown-part.toml", folder / "hal.toml")
    return folder


def test_a_huge_file_is_not_read(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "zed.toml").write_bytes(b"#" * (2 << 20))
    summary = json.loads(grade(folder, tmp_path / "out").stdout)
    assert summary["unreadable"] == [{"student": "zed", "file": "zed.toml", "error":
        "the file is 2,097,152 bytes; a submission has at most 1,048,576."}]   # numbers grouped as English does


def test_csv_and_jsonl_are_exact(klass, tmp_path):
    out = tmp_path / "out"
    proc = grade(klass, out)
    assert proc.returncode == 1        # graded, some files unreadable (2 is for nothing usable)
    assert rows(out) == [
        ["student", *EXERCISES, "total", "max_score", "error"],
        graded_row("alice", FULL, TOP),
        graded_row("bob", {"embedding-distances": 3, "attention-weights": 4, "terrain-warmup": 1,
                           "reachable-vertices": 2, "submanifold-dims": 2}, 12),
        graded_row("carol", {"submanifold-dims": 1}, 1),
        graded_row("dan", FULL, TOP),
        unreadable_row("erin", "line 3: not valid TOML: a value it cannot read (an answer is text in quotes: part = \"(1, 2, 3)\")"),
        unreadable_row("frank", "the file is empty."),
        unreadable_row("gina", "the file is not UTF-8 text."),
        unreadable_row("hal", "Exercise attention-weights has no part 'score'. Its parts: scores, scaled, weights."),
    ]
    records = lines(out)
    assert [(r["student"], r["file"], r["score"], r["error"] is None) for r in records] == [
        ("alice", "alice.toml", TOP, True), ("bob", "bob.toml", 12, True),
        ("carol", "carol.toml", 1, True), ("dan", "dan.json", TOP, True),
        ("erin", "erin.toml", None, False), ("frank", "frank.toml", None, False),
        ("gina", "gina.toml", None, False), ("hal", "hal.toml", None, False)]
    bob = records[1]
    assert set(bob) == {"student", "file", "sha256", "seed", "variants", "lang", "reading", "grader", "assignment",
                        "error", "score", "max_score", "exercises"}
    assert bob["seed"] is None and bob["lang"] == "en" and len(bob["sha256"]) == 64
    notes = {p["id"]: p["note"] for e in bob["exercises"] for p in e["parts"]}
    assert notes["parakeet-monkey"] == "squared-distance"
    assert notes["weights"] == "unscaled-softmax" and notes["cos-monkey-fourier"] == "missing"
    summary = json.loads(proc.stdout)
    assert (summary["students"], summary["graded"], summary["graded_now"], summary["kept"]) == (8, 4, 8, 0)
    assert [u["file"] for u in summary["unreadable"]] == ["erin.toml", "frank.toml", "gina.toml",
                                                          "hal.toml"]


def test_text_summary_names_each_unreadable_file(klass, tmp_path):
    proc = grader("grade", klass, "--out", tmp_path / "o")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr   # graded, some files unreadable
    assert "8 students: 4 graded, 4 unreadable" in proc.stdout
    assert "  erin.toml: line 3: not valid TOML" in proc.stdout
    assert "  frank.toml: the file is empty." in proc.stdout
    assert proc.stderr == ""                            # no progress bar when not a terminal


def test_a_rerun_grades_nothing_and_a_changed_file_again(klass, tmp_path):
    out = tmp_path / "out"
    grade(klass, out)
    before = lines(out)
    again = json.loads(grade(klass, out).stdout)
    assert (again["graded_now"], again["kept"]) == (0, 8)
    assert lines(out) == before
    shutil.copy(ROOT / "examples" / "alice.toml", klass / "bob.toml")   # bob fixes everything
    shutil.copy(ROOT / "examples" / "alice.toml", klass / "erin.toml")  # erin fixes her file
    third = json.loads(grade(klass, out).stdout)
    assert (third["graded_now"], third["kept"]) == (2, 6)
    assert [r["student"] for r in lines(out)[len(before):]] == ["bob", "erin"]
    by_student = {r[0]: r for r in rows(out)}
    assert by_student["bob"][-3:] == by_student["erin"][-3:] == [str(TOP), str(TOP), ""]
    assert len(rows(out)) == 9                          # one row per student, latest result


def test_a_torn_last_line_is_cut_and_that_student_graded_again(klass, tmp_path):
    out = tmp_path / "out"
    grade(klass, out)
    raw = (out / "results.jsonl").read_bytes()
    (out / "results.jsonl").write_bytes(raw[:-40])     # the last line, half written
    summary = json.loads(grade(klass, out).stdout)
    assert (summary["graded_now"], summary["kept"]) == (1, 7)
    assert [r["student"] for r in lines(out)] == ["alice", "bob", "carol", "dan", "erin",
                                                 "frank", "gina", "hal"]


def test_a_damaged_whole_line_is_not_trusted_nor_cut(klass, tmp_path):
    out = tmp_path / "out"
    grade(klass, out)
    text = (out / "results.jsonl").read_text().splitlines(keepends=True)
    text[1] = '{"student": "bob", "sha256": \n'               # bob's line, damaged
    (out / "results.jsonl").write_text("".join(text))
    summary = json.loads(grade(klass, out).stdout)
    assert (summary["graded_now"], summary["kept"]) == (1, 7)
    after = (out / "results.jsonl").read_text().splitlines()
    assert after[:8] == [line.rstrip("\n") for line in text] and json.loads(after[8])["student"] == "bob"


def big_class(folder: Path, n: int) -> None:
    """n students, each with answers nobody else gave, so each one is real work."""
    folder.mkdir()
    alice = (ROOT / "examples" / "alice.toml").read_text()
    for i in range(n):
        text = alice.replace('"sqrt(14)/2"', f'"sqrt(14)/2 + {i} - {i}"')
        text = text.replace('"(1, 1, 0)"', f'"(1, 1, {i} - {i})"')
        text = text.replace('"800"', f'"{800 + i % 3}"')
        text = text.replace('1/(1+2*e^(1/2)))"', f'{i + 1}/({i + 1}+{2 * (i + 1)}*e^(1/2)))"')
        (folder / f"s{i:04d}.toml").write_text(text)


STUDENTS = 400


@pytest.mark.slow
def test_kill_9_then_rerun_equals_a_clean_run(tmp_path):
    folder, out, clean = tmp_path / "class", tmp_path / "out", tmp_path / "clean"
    big_class(folder, STUDENTS)
    proc = subprocess.Popen([GRADER, "grade", str(folder), "--out", str(out), "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                            env=env(GRADER_CHUNK="1"), start_new_session=True)
    log = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and log.read_bytes().count(b"\n") >= 10:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)                 # the grader and its workers
    proc.wait()
    complete = log.read_bytes().count(b"\n")
    assert 10 <= complete < STUDENTS
    summary = json.loads(grade(folder, out).stdout)
    assert summary["kept"] == complete and summary["graded_now"] == STUDENTS - complete
    resumed = lines(out)
    assert len(resumed) == STUDENTS and len({r["student"] for r in resumed}) == STUDENTS   # nobody twice
    grade(folder, clean)
    by_student = lambda records: sorted(records, key=lambda r: r["student"])  # noqa: E731
    assert by_student(resumed) == by_student(lines(clean))
    assert (out / "grades.csv").read_text() == (clean / "grades.csv").read_text()
    assert not list(out.glob(".*.tmp"))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"                                 # a zombie has finished


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.slow
def test_workers_do_not_outlive_a_killed_grader(tmp_path):
    folder = tmp_path / "class"
    big_class(folder, STUDENTS)
    proc = subprocess.Popen([GRADER, "grade", str(folder), "--out", str(tmp_path / "out"),
                             "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=ROOT, env=env(GRADER_CHUNK="1"), start_new_session=True)
    try:
        log, workers = tmp_path / "out" / "results.jsonl", []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and not workers:
            if log.exists() and log.read_bytes().count(b"\n") >= 5:
                workers = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            time.sleep(0.02)
        assert workers and proc.poll() is None
        proc.kill()                                       # the grader only, not its workers
        proc.wait()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(int(w)) for w in workers):
            time.sleep(0.1)
        assert not any(_alive(int(w)) for w in workers)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_jobs_do_not_change_results(tmp_path, klass):
    for name in ("s1", "s2", "s3"):
        shutil.copy(ROOT / "examples" / "bob.toml", klass / f"{name}.toml")
    grade(klass, tmp_path / "one", "--jobs", "1")
    grade(klass, tmp_path / "three", "--jobs", "3")
    for name in ("results.jsonl", "grades.csv"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "three" / name).read_bytes()


def test_hostile_answers_in_a_batch_are_contained(tmp_path):
    marker = Path("/tmp/grader-pwned-marker")
    marker.unlink(missing_ok=True)
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(DATA / "hostile.toml", folder / "mallory.toml")
    shutil.copy(ROOT / "examples" / "alice.toml", folder / "alice.toml")
    (folder / "oscar.toml").write_text(
        '["embedding-distances"]\nparakeet-monkey = "exp(exp(exp(exp(10))))"\n'
        'parakeet-fourier = "' + "sqrt(" * 60 + "2" + ")" * 60 + '"\n'
        'monkey-fourier = "1e999999999"\n')
    proc = grade(folder, tmp_path / "out", "--jobs", "2")
    assert proc.returncode == 1 and not marker.exists()
    records = {r["student"]: r for r in lines(tmp_path / "out")}
    assert records["alice"]["score"] == TOP
    assert records["mallory"]["score"] == 0 and records["oscar"]["score"] == 0
    oscar = {p["id"]: p["note"] for p in records["oscar"]["exercises"][0]["parts"]}
    assert oscar["parakeet-monkey"] == "too-large" and oscar["parakeet-fourier"] == "too-deep"


@pytest.mark.parametrize("args, says", [
    (["grade", "no-such-folder", "--out", "OUT"], "no-such-folder: not a folder"),
    (["grade", "examples", "--out", "OUT", "--jobs", "0"], "--jobs"),
    (["grade", "examples"], "--out"),
    (["grade", "examples", "--out", "README.md"], "README.md"),
])
def test_bad_input_is_a_clear_error(args, says, tmp_path):
    args = [str(tmp_path / "o") if a == "OUT" else a for a in args]
    proc = grader(*args, cwd=ROOT)
    assert proc.returncode == 2 and says in proc.stderr
    assert "Traceback" not in proc.stderr


def test_variants_grade_each_student_on_their_own_seed(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(ROOT / "examples" / f"{name}.toml", folder / f"{name}.toml")
    (folder / "carol.toml").write_text('seed = "s7"\n' + (ROOT / "examples/bob.toml").read_text())
    plain = grade(folder, tmp_path / "plain")
    records = {r["student"]: r for r in lines(tmp_path / "plain")}
    assert plain.returncode == 1 and records["alice"]["seed"] is None and records["carol"]["seed"] == "s7"
    varied = grade(folder, tmp_path / "varied", "--variants")
    assert varied.returncode == 1, varied.stderr
    for student, record in {r["student"]: r for r in lines(tmp_path / "varied")}.items():
        assert record["seed"] == student
        alone = grader("submit", ROOT / "examples" / "bob.toml", "--seed", student, "--format", "json")
        if student != "carol":   # carol's file names its own seed, which --variants overrides
            alone = grader("submit", folder / f"{student}.toml", "--seed", student, "--format", "json")
        assert json.loads(alone.stdout)["score"] == record["score"], student
    assert records["alice"]["score"] == TOP and {r["student"]: r for r in lines(tmp_path / "varied")}["alice"]["score"] < TOP


def test_a_progress_bar_on_a_terminal(klass, tmp_path):
    import pty
    master, slave = pty.openpty()
    proc = subprocess.run([GRADER, "grade", str(klass), "--out", str(tmp_path / "out")],
                          stdout=subprocess.PIPE, stderr=slave, text=True, env=env(), timeout=300)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert proc.returncode == 1   # graded, some files unreadable
    assert "[##############################] 8/8 students" in shown.decode()
    assert "8 students" in proc.stdout and "[#" not in proc.stdout


@pytest.mark.parametrize("lang", ["ja", "fr"])
def test_the_summary_and_its_errors_speak_the_language(klass, tmp_path, lang):
    from grader.languages.messages import message

    proc = grader("grade", klass, "--out", tmp_path / "out", "--lang", lang)
    assert message("batch-unreadable", lang, count=4) in proc.stdout, proc.stdout
    assert message("batch-results", lang, path=tmp_path / "out" / "results.jsonl") in proc.stdout
    missing = grader("grade", "nowhere", "--out", tmp_path / "o", "--lang", lang, cwd=ROOT)
    assert missing.returncode == 2
    assert message("error-not-a-folder", lang, folder="nowhere") in missing.stderr


# --- a class folder that can't break the run (issue 12) ------------------------------

from grader.languages.messages import message  # noqa: E402

ALICE = (ROOT / "examples" / "alice.toml").read_text()


def summary_of(proc):
    data = json.loads(proc.stdout.encode("utf-8", "surrogateescape").decode("utf-8"))   # strict UTF-8
    return data, {u["student"]: u["error"] for u in data["unreadable"]}


def says(key, path, **params):
    """The English message for ``key``, as the summary shows it (without the file's name)."""
    return message(key, "en", path=path, **params).removeprefix(f"{path}: ")


@pytest.fixture
def odd(tmp_path):
    """A class folder with every odd thing a folder can hold, and alice's good file."""
    folder = tmp_path / "odd"
    folder.mkdir()
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(ALICE)
    (folder / "alice.toml").write_text(ALICE)
    os.symlink("alice.toml", folder / "alias.toml")                  # a link inside: graded
    os.symlink(outside, folder / "leak.toml")                        # leaves the folder: refused
    os.symlink("../elsewhere.toml", folder / "leak2.toml")
    os.symlink("nowhere.toml", folder / "dangling.toml")
    os.symlink("loop-b.toml", folder / "loop-a.toml")
    os.symlink("loop-a.toml", folder / "loop-b.toml")
    os.mkfifo(folder / "fifo.toml")                                  # never opened for reading
    (folder / "dir.toml").mkdir()
    (folder / "nested").mkdir()
    (folder / "nested" / "zoe.toml").write_text(ALICE)               # not graded: not in the folder
    os.symlink("nested", folder / "dirlink.toml")
    (folder / "deep.json").write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (folder / "deeptoml.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    (folder / "deepinline.toml").write_text("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n")
    (folder / "bigint.json").write_text('{"terrain-warmup": {"lr-at-step": ' + "9" * 5000 + "}}")
    (folder / "bigint2.toml").write_text('["terrain-warmup"]\n"lr-at-step" = ' + "9" * 5000 + "\n")
    (folder / "surrogate.json").write_text('{"terrain-warmup": {"lr-at-step": "\\ud800"}}')
    (folder / "surrogatekey.json").write_text('{"\\udfff": {}}')
    (folder / "bom.toml").write_bytes(b"\xef\xbb\xbf" + ALICE.encode())       # read: a BOM is not content
    (folder / "bomjson.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"terrain-warmup": {"lr-at-step": "3e-4"}}).encode())
    (folder / "keyref.toml").write_text('["key:zzz"]\na = "1"\n')
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "sock.toml"))
    return folder


def test_an_odd_folder_grades_every_readable_file_and_lists_the_others(odd, tmp_path):
    out = tmp_path / "out"
    proc = grader("grade", odd, "--out", out, "--format", "json")       # a FIFO never blocks
    assert "Traceback" not in proc.stderr and proc.returncode == 1, proc.stderr   # graded, some files unreadable
    data, errors = summary_of(proc)
    graded = {r["student"]: r["score"] for r in lines(out) if r["error"] is None}
    assert set(graded) == {"alice", "alias", "bom", "bomjson"}
    assert graded["alice"] == graded["alias"] == graded["bom"] == TOP
    assert errors == {
        "leak": says("error-link-outside", "leak.toml"),
        "leak2": says("error-link-outside", "leak2.toml"),
        "dangling": says("error-link-broken", "dangling.toml"),
        "loop-a": says("error-link-broken", "loop-a.toml"),
        "loop-b": says("error-link-broken", "loop-b.toml"),
        "fifo": says("error-fifo", "fifo.toml"),
        "sock": says("error-socket", "sock.toml"),
        "dir": says("error-is-folder", "dir.toml"),
        "dirlink": says("error-is-folder", "dirlink.toml"),
        "deep": says("error-too-deep", "deep.json"),
        "deeptoml": says("error-too-deep", "deeptoml.toml"),
        "deepinline": says("error-too-deep", "deepinline.toml"),
        "bigint": says("error-long-number", "bigint.json", limit=sys.get_int_max_str_digits()),
        "bigint2": says("error-long-number", "bigint2.toml", limit=sys.get_int_max_str_digits()),
        "surrogate": says("error-lone-surrogate", "surrogate.json"),
        "surrogatekey": says("error-lone-surrogate", "surrogatekey.json"),
        "keyref": says("error-unknown-exercise", "keyref.toml", id="key:zzz",
                       known=", ".join(EXERCISES)),
    }
    assert data["students"] == len(graded) + len(errors)
    assert data["ignored"] == ["nested"]                   # a folder not named .toml or .json: nobody's
    leaked = (out / "results.jsonl").read_text()
    assert "zoe" not in leaked and '"elsewhere' not in leaked and "leak" in leaked
    assert {r[0] for r in rows(out)[1:]} == set(graded) | set(errors)


def test_an_odd_folder_summary_in_text(odd, tmp_path):
    proc = grader("grade", odd, "--out", tmp_path / "o")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr   # graded, some files unreadable
    assert "  leak.toml: " + says("error-link-outside", "leak.toml") in proc.stdout
    assert "  fifo.toml: " + says("error-fifo", "fifo.toml") in proc.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_is_refused(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    try:
        os.mknod(folder / "null.toml", 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("no permission to make a device node here")
    data, errors = summary_of(grade(folder, tmp_path / "out"))
    assert errors == {"null": says("error-device", "null.toml")}


def test_a_file_name_that_is_not_utf8(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.toml").write_text(ALICE)
    with open(os.path.join(os.fsencode(folder), b"caf\xe9.toml"), "w") as handle:
        handle.write(ALICE)
    out = tmp_path / "out"
    proc = grade(folder, out)
    assert proc.returncode == 1   # graded, some files unreadable
    data, errors = summary_of(proc)
    assert errors == {"caf\\xe9": says("error-name-not-utf8", "caf\\xe9.toml")}
    assert [u["file"] for u in data["unreadable"]] == ["caf\\xe9.toml"]
    (out / "results.jsonl").read_bytes().decode("utf-8")               # strict: valid UTF-8
    assert (out / "grades.csv").read_bytes().decode("utf-8").count("caf\\xe9") == 1
    text = grader("grade", folder, "--out", out)
    shown = text.stdout.encode("utf-8", "surrogateescape")      # as a UTF-8 pipe receives it
    assert text.returncode == 1 and b"caf\\xe9.toml" in shown
    shown.decode("utf-8")


def test_ids_that_differ_only_by_normalisation_or_invisible_characters_conflict(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    nfc, nfd = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    for name in (nfc, nfd, "alice", "ali\u200bce", "bob\u2060", "zoë"):
        (folder / f"{name}.toml").write_text(ALICE)
    (folder / unicodedata.normalize("NFD", "chloé.toml")).write_text(ALICE)
    data, errors = summary_of(grade(folder, tmp_path / "out"))
    graded = {r["student"] for r in lines(tmp_path / "out") if r["error"] is None}
    assert graded == {"bob\u2060", "zoë", unicodedata.normalize("NFC", "chloé")}   # ids in NFC
    assert set(errors) == {nfc, "alice"}
    conflict = message("error-id-conflict", "en", files="X").split("X")[0]
    assert errors["alice"].startswith(conflict) and "ali\\u200bce.toml" in errors["alice"]
    assert errors[nfc].startswith(conflict)


def test_csv_injection_in_student_ids(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    ids = ['=HYPERLINK("evil.example","x")', "+cmd", "-2+3", "@SUM(1)", "\t=1", "\r=1",
           "a;=1+1"]
    for student in ids:
        (folder / f"{student}.toml").write_text(ALICE)
    grade(folder, tmp_path / "out")
    text = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8")
    for delimiter in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row), row
    students = [r[0] for r in rows(tmp_path / "out")[1:]]
    inner = {";=": ";'=", "\t=": "\t'=", "\r=": "\r'="}      # where ';', tab or CR would split a cell

    def neutralised(s):
        for bad, good in inner.items():
            s = s.replace(bad, good)
        return "'" + s if s[0] in "=+-@\t\r" else s
    assert sorted(students) == sorted(map(neutralised, ids))
    assert {r["student"] for r in lines(tmp_path / "out")} == set(ids)   # the JSONL keeps them as they are


def test_control_and_bidirectional_characters_in_file_names_are_escaped_in_grades_csv(tmp_path):
    """A file name can hold ESC (a terminal's commands) and U+202E (it reverses what follows on screen): grades.csv
    shows them as escapes, for a graded student and for an unreadable file, and results.jsonl keeps them."""
    folder = tmp_path / "class"
    folder.mkdir()
    graded, broken = "\x1b[2Kbob\u202etxt.", "\x1b]0;carol\u2066"
    (folder / f"{graded}.toml").write_text(ALICE)
    (folder / f"{broken}.toml").write_text("not toml [")
    grade(folder, tmp_path / "out")
    text = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8")
    assert not {"\x1b", "\u202e", "\u2066"} & set(text), text
    students = {row[0] for row in rows(tmp_path / "out")[1:]}
    assert students == {"\\x1b[2Kbob\\u202etxt.", "\\x1b]0;carol\\u2066"}, students
    assert {r["student"] for r in lines(tmp_path / "out")} == {graded, broken}


def test_control_characters_in_file_names_are_escaped_in_the_summary(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "\x1b[1A\x1b[2Kfake.toml").write_text("not toml [")
    proc = grader("grade", folder, "--out", tmp_path / "o")
    assert proc.returncode == 2 and "\x1b" not in proc.stdout + proc.stderr
    assert "\\x1b[1A\\x1b[2Kfake.toml: " in proc.stdout


def test_the_output_folder_inside_the_class_folder_is_not_a_student(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.toml").write_text(ALICE)
    for _ in range(2):
        proc = grade(folder, folder / "out")
        assert proc.returncode == 0, proc.stdout
    other = tmp_path / "other"
    other.mkdir()
    (other / "alice.toml").write_text(ALICE)
    for _ in range(2):                                  # results written among the submissions
        again = grade(other, other)
        assert again.returncode == 0, again.stdout
    assert {r["student"] for r in lines(other)} == {"alice"}
    assert json.loads(again.stdout)["students"] == 1


@pytest.mark.parametrize("make, key, params", [
    (lambda p: os.mkfifo(p), "error-fifo", {}),
    (lambda p: p.mkdir(), "error-is-folder", {}),
    (lambda p: p.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"), "error-too-deep", {}),
    (lambda p: p.write_text('{"terrain-warmup": {"lr-at-step": ' + "9" * 5000 + "}}"),
     "error-long-number", {"limit": sys.get_int_max_str_digits()}),
    (lambda p: p.write_text('{"terrain-warmup": {"lr-at-step": "\\ud800"}}'), "error-lone-surrogate", {}),
    (lambda p: p.write_bytes(b"#" * (2 << 20)), "error-too-big", {"size": 2 << 20, "limit": 1 << 20}),
])
def test_submit_follows_the_same_rules(tmp_path, make, key, params):
    path = tmp_path / "mine.json"
    make(path)
    proc = grader("submit", path)                       # a FIFO never blocks
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == message(key, "en", path=path, **params)


def test_submit_reads_a_toml_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_bytes(b"\xef\xbb\xbf" + ALICE.encode())
    assert grader("submit", path).returncode == 0


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko", "fr", "id"])
def test_an_error_in_the_summary_does_not_repeat_the_path(tmp_path, lang):
    folder = tmp_path / "class"
    folder.mkdir()
    os.mkfifo(folder / "fifo.toml")
    data, errors = summary_of(grade(folder, tmp_path / "out", "--lang", lang))
    assert str(folder) not in errors["fifo"]
    said = message("error-fifo", lang, path="P")
    assert errors["fifo"] == said.removeprefix("P").lstrip(" \u00a0:\uff1a")    # fr: a no-break space, then ':'
    assert errors["fifo"][0] not in " \u00a0\u202f:\uff1a" and errors["fifo"] in said


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko", "fr", "id"])
def test_the_summary_counts_add_up_and_the_exit_tells_some_unreadable_from_nothing_usable(tmp_path, lang):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "carol.toml").write_text('["embedding-distances"]\nparakeet-monkey = \n')
    nothing = grader("grade", folder, "--out", tmp_path / "none", "--lang", lang, cwd=ROOT)
    assert nothing.returncode == 2, nothing.stdout                         # nothing usable
    for name in ("alice", "bob", "dave"):
        shutil.copy(ROOT / "examples" / ("alice.toml" if name == "dave" else f"{name}.toml"), folder / f"{name}.toml")
    some = grader("grade", folder, "--out", tmp_path / "out", "--lang", lang, cwd=ROOT)
    assert some.returncode == 1, some.stdout                                # graded, one file unreadable
    first = some.stdout.splitlines()[0]
    numbers = [int(n) for n in re.findall(r"\d+", first)]
    assert numbers == [4, 3, 1, 0, 4, 0], first     # students; graded, unreadable, not decided; read now, kept
    line = next(t for t in some.stdout.splitlines() if "carol.toml" in t)
    assert not re.search(r"carol\.toml\W*[:：]\W*[:：]", line), line      # one separator after the name (fr too)
    again = grader("grade", folder, "--out", tmp_path / "out", "--lang", lang, cwd=ROOT)
    assert [int(n) for n in re.findall(r"\d+", again.stdout.splitlines()[0])] == [4, 3, 1, 0, 0, 4]
