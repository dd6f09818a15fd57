"""The reference table kept between runs: where it lives, what is trusted, and that it cannot lie to an
instructor (submit and grade build their own) nor stop or hang the grader."""
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.judging import table
from tests.grader.inprocess import grader

ROOT = Path(__file__).resolve().parents[2]
GRADER = [sys.executable, "-m", "grader.cli"]


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "here"))
    assert table.cache_dir() == tmp_path / "here"
    monkeypatch.delenv("GRADER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert table.cache_dir() == tmp_path / "xdg" / "andrea-grader"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert table.cache_dir() == Path(tmp_path / "home" / ".cache" / "andrea-grader")


@pytest.fixture(scope="module")
def fresh():
    return table.build_table()


def entry(data, kind):
    """The first part of that kind (real, vector, integer, set), one with named mistakes if any has."""
    parts = [(e, p) for e, ps in data.items() for p, v in ps.items() if v["kind"] == kind]
    return next(((e, p) for e, p in parts if data[e][p]["mistakes"]), parts[0])


DAMAGE = {
    "no-points": lambda e: e.pop("points"), "no-form": lambda e: e.pop("form"), "no-whole": lambda e: e.pop("whole"),
    "no-reference": lambda e: e.pop("reference"), "points-not-a-number": lambda e: e.update(points="two"),
    "points-a-bool": lambda e: e.update(points=True), "points-huge": lambda e: e.update(points=10**6),
    "figures-zero": lambda e: e.update(figures=0), "kind-unknown": lambda e: e.update(kind="matrix"),
    "decimal-damaged": lambda e: first(e).update(decimal="0.3.1"),
    "decimal-nan": lambda e: first(e).update(decimal="NaN"),
    "decimal-huge": lambda e: first(e).update(decimal="1" * 5000),
    "exact-divides-by-zero": lambda e: first(e).update(exact="3/x"),
    "exact-over-zero": lambda e: first(e).update(exact="1/0"),
    "exact-over-zeros": lambda e: first(e).update(exact="-7/000"),
    "exact-huge": lambda e: first(e).update(exact="1" * 500 + "/3"),
    "form-huge": lambda e: first(e).update(form="1+" * 400 + "1"),
    "value-extra-key": lambda e: first(e).update(run="os.system"),
    "params-not-text": lambda e: e.update(params={"a": 1}),
    "mistake-no-key": lambda e: [m.pop("key") for m in e["mistakes"][:1]] or e.pop("mistakes"),
    "mistake-value-damaged": lambda e: [m["values"][0].update(decimal="x") for m in e["mistakes"][:1]] or e.pop("mistakes"),
    "reference-nested": lambda e: e.update(reference=[[[[{"decimal": "1", "exact": None, "form": None}]]]]),
    "reference-empty": lambda e: e.update(reference=[]),
}


def first(e) -> dict:
    """The first number of an entry's reference (of its first point, for a set)."""
    value = e["reference"][0]
    return value[0] if isinstance(value, list) else value


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_each_damaged_field_is_not_trusted(fresh, damage):
    assert table.well_formed(fresh)
    for kind in ("real", "vector", "integer", "set"):
        data = copy.deepcopy(fresh)
        exercise, part = entry(data, kind)
        damage(data[exercise][part])
        assert not table.well_formed(data), (kind, exercise, part)


def cached(tmp_path) -> Path:
    return tmp_path / f"references-{table.engine_version()}.json"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("GRADER_CACHE_DIR", str(folder))
    # a grade run earlier in this process (batch.run: table.build_here) stops it reading any cache: then
    # every test below would pass without reading the file it is about
    monkeypatch.setattr(table, "_trusted_only", False)
    table.table.cache_clear()
    yield folder
    table.table.cache_clear()


@pytest.mark.parametrize("content", [
    b'{"a": NaN}', b'{"a": Infinity}', b'{"a": 1e999}', b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe",
    b'{"embedding-distances": {}}', b'{"x": 1' + b"0" * 5000 + b"}", b"{}",
])
def test_a_malformed_file_means_rebuild_never_a_crash(cache, content, fresh):
    cached(cache).write_bytes(content)
    assert table.table() == fresh
    assert table.well_formed(json.loads(cached(cache).read_text()))        # and written again


def test_links_pipes_and_devices_are_never_read(cache, fresh):
    """A link to /dev/zero or a named pipe in the table's place: rebuilt at once, nothing blocks."""
    path = cached(cache)
    for make in (lambda: path.symlink_to("/dev/zero"), lambda: os.mkfifo(path)):
        make()
        script = ("from grader.judging import table; import sys; "
                  "sys.exit(0 if table.table()['embedding-distances'] else 1)")
        ran = subprocess.run([sys.executable, "-c", script], env={**os.environ, "GRADER_CACHE_DIR": str(cache)},
                             cwd=ROOT, timeout=120, capture_output=True)
        assert ran.returncode == 0, ran.stderr
        path.unlink()


def test_a_file_others_may_write_is_not_trusted(cache, fresh):
    tampered = copy.deepcopy(fresh)
    tampered["embedding-distances"]["parakeet-monkey"]["reference"][0] = {"decimal": "0.09", "exact": "9/100", "form": None}
    cached(cache).write_text(json.dumps(tampered))
    os.chmod(cached(cache), 0o666)
    assert table.table() == fresh
    table.table.cache_clear()
    os.chmod(cache, 0o777)
    cached(cache).write_text(json.dumps(tampered))
    os.chmod(cached(cache), 0o600)
    assert table.table() == fresh          # the folder is writable by others: not trusted either


def run(*args, cache, cwd=ROOT):
    return subprocess.run([*GRADER, *map(str, args)], env={**os.environ, "GRADER_CACHE_DIR": str(cache)},
                          cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_an_edited_table_never_changes_an_instructors_grades(cache, fresh, tmp_path):
    """A well-formed edit of the cache (the squared distance made the reference, an exercise added)
    can change what `check` says on that user's machine, never what submit or grade give."""
    tampered = copy.deepcopy(fresh)
    tampered["embedding-distances"]["parakeet-monkey"]["reference"][0] = {"decimal": "0.09", "exact": "9/100", "form": None}
    tampered["embedding-distances"]["parakeet-monkey"]["mistakes"] = []
    cached(cache).write_text(json.dumps(tampered))
    submission = tmp_path / "class" / "ada.toml"
    submission.parent.mkdir()
    submission.write_text('[embedding-distances]\nparakeet-monkey = "0.09"\n')
    submitted = run("submit", submission, "--format", "json", cache=cache)
    part = json.loads(submitted.stdout)["exercises"][0]["parts"][0]
    assert (part["correct"], part["note"]) == (False, "squared-distance")
    graded = run("grade", submission.parent, "--out", tmp_path / "out", cache=cache)
    assert graded.returncode == 1, graded.stderr
    assert '"note":"squared-distance"' in (tmp_path / "out" / "results.jsonl").read_text()


def test_files_the_grader_did_not_write_are_never_deleted(cache, fresh):
    kept = [cache / "references-notes.json", cache / "references-0123456789abcdef.json.bak", cache / "mine.txt"]
    for path in kept:
        path.write_text("{}")
    older = cache / "references-0000000000000000.json"        # an earlier grader's table: replaced
    older.write_text("{}")
    (cache / "references-1111111111111111.json").symlink_to(cache / "mine.txt")
    assert table.table() == fresh
    assert all(path.exists() for path in kept) and not older.exists()
    assert (cache / "references-1111111111111111.json").is_symlink()


def test_the_engine_version_follows_the_code_and_the_wording_only(tmp_path):
    """The cache and a class's results are renamed whenever a module or a catalog changes, and only then."""
    files = {"__init__.py": "", "check.py": "x = 1", "classreport/tables.py": "y = 2",
             "languages/messages.py": "", "languages/notes.toml": "a = 1",
             "locale/fr/LC_MESSAGES/grader.po": 'msgid ""', "locale/fr/LC_MESSAGES/grader.mo": "bin",
             "locale/fr/README.txt": "notes", "__pycache__/check.cpython-311.pyc": "bytecode",
             "classreport/__pycache__/tables.cpython-311.pyc": "bytecode", "SCHEMA.md": "# schema",
             "exercises/data.json": "{}"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = table.code_fingerprint(str(tmp_path))
    assert len(before) == 16 and before == table.code_fingerprint(str(tmp_path))
    counted = {"__init__.py", "check.py", "classreport/tables.py", "languages/messages.py",
               "locale/fr/LC_MESSAGES/grader.po"}
    for name in files:
        path = tmp_path / name
        path.write_text(files[name] + " changed")
        assert (table.code_fingerprint(str(tmp_path)) != before) == (name in counted), name
        path.write_text(files[name])
    (tmp_path / "check.py").rename(tmp_path / "checks.py")          # a module renamed
    assert table.code_fingerprint(str(tmp_path)) != before


def a_form(data) -> dict:
    """A number of the table that a proof reads as an exact form: the cosine, a named mistake."""
    return data["embedding-distances"]["parakeet-monkey"]["mistakes"][1]["values"][0]


HOSTILE = {
    "an-exercise-the-bank-lacks": lambda d: d.update({"no-such-exercise": copy.deepcopy(d["embedding-distances"])}),
    "no-entry-for-the-exercise": lambda d: d.pop("embedding-distances"),
    "exact-1/0": lambda d: d["embedding-distances"]["parakeet-monkey"]["reference"][0].update(exact="1/0"),
    "form-tower": lambda d: a_form(d).update(form="9**9**9**9"),
    "form-a-vector": lambda d: a_form(d).update(form="(1, 2)"),
    "form-import": lambda d: a_form(d).update(form="__import__('os')"),
}


@pytest.mark.parametrize("damage", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_table_is_recomputed_on_every_rerun_never_a_crash(cache, fresh, damage):
    """The student owns the cache folder: whatever it holds, check gives the lesson's verdicts. Each run
    here is a new process's as far as the table goes (read again from the file; `grader check` here,
    tests.grader.inprocess)."""
    data = copy.deepcopy(fresh)
    damage(data)
    said = []
    for answer in ("0.3", "27*sqrt(770)/770", "0.97301", "0.3"):
        cached(cache).write_text(json.dumps(data))          # before every run: the student's own file
        table.table.cache_clear()
        proc = grader("check", "embedding-distances", "parakeet-monkey", answer)
        assert "Traceback" not in proc.stderr and "internal" not in proc.stdout + proc.stderr, proc.stdout
        said.append((proc.returncode, proc.stdout.split("]")[0].split()[-1] if "[" in proc.stdout else "ok"))
    assert said == [(0, "ok"), (1, "[cosine-for-distance"), (1, "[cosine-for-distance"), (0, "ok")], said
