"""How the in-page checker's files are split and found (hooks/checker/pack.py, the import hook
hooks/checker/assets/boot.py), without a browser; one slow test packs the real zips."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import re
import sys
import time
import zipfile
from pathlib import Path

import pytest

from hooks.checker import manual, pack
from hooks.checker import publish as checker
from hooks.checker.trace import module_of

BOOT = Path(checker.ASSETS) / "boot.py"


@pytest.mark.parametrize("path, module", [
    ("os.py", "os"), ("sympy/__init__.pyc", "sympy"), ("sympy/core/add.pyc", "sympy.core.add"),
    ("encodings/__init__.py", "encodings"), ("sympy/parsing/latex/LaTeX.lark", None), ("README.txt", None),
])
def test_a_file_is_the_module_its_path_names(path, module):
    assert module_of(path) == module


def test_each_member_goes_where_the_trace_saw_its_module_and_a_data_file_with_its_package():
    members = ["a/__init__.pyc", "a/b.pyc", "a/data.txt", "a/c/__init__.pyc", "a/c/d.pyc", "a/c/x.lark",
               "top.py", "README.txt", "z/__init__.py", "z/w.txt"]
    stages = pack.split(members, first={"a", "a.b"}, later={"a.c"})
    assert stages == {"a/__init__.pyc": "first", "a/b.pyc": "first", "a/data.txt": "first",
                      "a/c/__init__.pyc": "later", "a/c/d.pyc": "rest", "a/c/x.lark": "later",
                      "top.py": "rest", "README.txt": "rest", "z/__init__.py": "rest", "z/w.txt": "rest"}


def test_the_index_names_the_zip_of_every_module_in_the_later_zips():
    found = pack.index({"sympy-1.zip": ["x/__init__.pyc", "x/y.pyc", "x/data.txt"], "rest-2.zip": ["x/z/__init__.pyc", "q.py"]})
    assert found == {"x": "sympy-1.zip", "x.y": "sympy-1.zip", "x.z": "rest-2.zip", "q": "rest-2.zip"}


def test_the_same_members_make_the_same_bytes_whatever_their_order(tmp_path):
    members = {"b.py": b"B = 2\n", "a/__init__.py": b"A = 1\n"}
    pack.write_zip(tmp_path / "one.zip", members)
    pack.write_zip(tmp_path / "two.zip", dict(reversed(list(members.items()))))
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    named = pack.hashed(tmp_path / "one.zip", "sympy")
    assert named.name == f"sympy-{hashlib.sha256(named.read_bytes()).hexdigest()[:16]}.zip"


KEYS = """
import json, sys
from pathlib import Path
from hooks.checker import pack, publish
runtime, pinned = Path(sys.argv[1]), publish.pinned_version()
print(json.dumps([pack.trace_key(runtime, pinned), pack.table_path(pack.package_files("grader")).name]))
"""


def test_a_catalogs_words_leave_the_trace_and_the_table_alone_and_a_module_changes_both(tmp_path):
    """What the trace and the zips it splits (and the reference table) are kept by: the grader's code, never
    its words; the grader's zip, which holds the catalogs, is the only one a catalog's change makes again."""
    import os
    import shutil
    import subprocess
    import sys

    runtime = checker.runtime_dir({})
    if checker.runtime_problem(runtime):
        pytest.skip("no runtime to key the trace by")
    for folder in ("grader", "hooks", "tests/grader"):
        shutil.copytree(pack.ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in (*manual.FILES, "package-lock.json"):     # the manual: its examples are the corpus's
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(pack.ROOT / name, tmp_path / name)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def keys():
        ran = subprocess.run([sys.executable, "-c", KEYS, str(runtime)], capture_output=True, text=True, env=env,
                             cwd=tmp_path, timeout=120)
        assert ran.returncode == 0, ran.stderr[-2000:]
        return json.loads(ran.stdout)

    first = keys()
    catalog = tmp_path / "grader" / "locale" / "fr" / "LC_MESSAGES" / "grader.po"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('msgstr "Lecture du terrain"',
                                                                   'msgstr "Lire le terrain"'), encoding="utf-8")
    assert keys() == first
    module = tmp_path / "grader" / "exercises" / "terrain_warmup.py"
    module.write_text(module.read_text(encoding="utf-8").replace('"step": Integer(50)', '"step": Integer(70)'),
                      encoding="utf-8")
    changed = keys()
    assert changed[0] != first[0] and changed[1] != first[1]


def test_the_files_the_trace_is_kept_by_are_the_grader_s_code_without_its_catalogs(tmp_path):
    names = ["grader/__init__.py", "grader/exercises/demo.py", "grader/locale/fr/LC_MESSAGES/grader.po", "grader/SCHEMA.md"]
    paths = [tmp_path / name for name in names]
    assert pack.code_files(paths, tmp_path) == [paths[0], paths[1], paths[3]]


# --- the import hook, in this Python


@pytest.fixture()
def boot(tmp_path):
    """checker_boot as the worker starts it: the grader's zip unpacked in home/, later zips in later/."""
    spec = importlib.util.spec_from_file_location("checker_boot", BOOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    home, later = tmp_path / "home", tmp_path / "later"
    home.mkdir()
    later.mkdir()
    index = {"probe_pkg": "sympy-1.zip", "probe_pkg.inner": "sympy-1.zip", "probe_pkg.elsewhere": "rest-2.zip"}
    (home / "index.json").write_text(json.dumps(index), encoding="utf-8")
    opened: list[str] = []
    finder = module.start(str(home), str(later), opened.append)
    module.opened = opened   # for the tests: the zips whose first module was imported, in order
    yield module, later
    sys.meta_path.remove(finder)
    for name in [name for name in sys.modules if name.startswith("probe_pkg")]:
        del sys.modules[name]


def write_later(later: Path, name: str, members: dict[str, str]) -> None:
    with zipfile.ZipFile(later / name, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)


def test_a_module_in_a_zip_not_fetched_yet_stops_the_import_then_imports_once_it_is_there(boot):
    module, later = boot
    with pytest.raises(module.Missing) as missing:
        importlib.import_module("probe_pkg.inner")
    assert missing.value.archive == "sympy-1.zip"
    assert "probe_pkg" not in sys.modules
    write_later(later, "sympy-1.zip", {"probe_pkg/__init__.py": "VALUE = 1\n",
                                       "probe_pkg/inner.py": "from . import VALUE\nTWICE = 2 * VALUE\n"})
    assert importlib.import_module("probe_pkg.inner").TWICE == 2
    assert module.opened == ["sympy-1.zip"]   # said once, at its first module
    with pytest.raises(module.Missing) as missing:   # the same package, another zip
        importlib.import_module("probe_pkg.elsewhere")
    assert missing.value.archive == "rest-2.zip"
    write_later(later, "rest-2.zip", {"probe_pkg/elsewhere.py": "WHERE = 'rest'\n"})
    assert importlib.import_module("probe_pkg.elsewhere").WHERE == "rest"
    assert module.opened == ["sympy-1.zip", "rest-2.zip"]
    with pytest.raises(ModuleNotFoundError):   # in no zip: the usual error, as without the hook
        importlib.import_module("probe_pkg.nowhere")


def test_a_call_that_needs_a_missing_zip_says_which_and_is_made_again(boot, monkeypatch):
    import grader.web

    module, later = boot
    monkeypatch.setattr(grader.web, "show", lambda *args: json.dumps({"args": list(args),
                                                                     "inner": importlib.import_module("probe_pkg.inner").TWICE}))
    assert json.loads(module.call("show", json.dumps(["terrain-warmup", "fr", None]))) == {"missing": "sympy-1.zip"}
    write_later(later, "sympy-1.zip", {"probe_pkg/__init__.py": "VALUE = 1\n", "probe_pkg/inner.py": "TWICE = 2\n"})
    assert json.loads(module.call("show", json.dumps(["terrain-warmup", "fr", None]))) == {
        "args": ["terrain-warmup", "fr", None], "inner": 2}
    assert module.call("", "[]") == "{}"


def test_missing_is_no_error_the_grader_would_catch():
    source = BOOT.read_text(encoding="utf-8")
    assert re.search(r"class Missing\(BaseException\)", source)


# --- the real zips (slow: packs, traces and compiles where the cache is cold)


@pytest.mark.slow
def test_the_zips_split_what_the_first_verdict_needs_from_the_rest_and_lose_nothing():
    from grader.judging import table

    runtime = checker.runtime_dir({})
    if checker.runtime_problem(runtime):
        pytest.skip("no runtime to pack for")
    zips = pack.pack(runtime, checker.pinned_version())
    assert zips == pack.pack(runtime, checker.pinned_version())   # the second time from the cache
    for made in pack.CACHE.iterdir():   # made hours ago: what is in use is kept all the same
        os.utime(made, (time.time() - 7200, time.time() - 7200))
    assert zips == pack.pack(runtime, checker.pinned_version()) and all(path.is_file() for path in zips.values())
    members = {}
    for stage, path in zips.items():
        assert re.fullmatch(rf"{stage}-[0-9a-f]{{16}}\.zip", path.name)
        assert path.name == pack.content_name(stage, path.read_bytes(), ".zip")
        members[stage] = set(zipfile.ZipFile(path).namelist())
    core = members["grader"]
    assert {"grader/web.py", "grader/judging/table.py", "grader/locale/fr/LC_MESSAGES/grader.po",
            "checker_boot.py", "index.json", f"cache/references-{table.engine_version()}.json"} <= core
    assert not [n for n in core if n.endswith(".pyc") or "/tests/" in n or "__pycache__" in n]
    # the first verdict's standard library: what Pyodide starts with and the grader imports, no SymPy
    compiled = "c" if pack.compiler(runtime) else ""   # Pyodide's bytecode where Node.js compiles it
    # (os, posixpath, codecs... are frozen into Pyodide's binary: no file to pack)
    assert {f"json/__init__.py{compiled}", f"encodings/__init__.py{compiled}", f"fractions.py{compiled}",
            f"_pyodide/__init__.py{compiled}"} <= members["stdlib"]
    assert not [n for n in members["stdlib"] | core if n.startswith(("sympy/", "mpmath/"))]
    standard = {n for n in zipfile.ZipFile(pack.standard_library(runtime)).namelist() if not n.endswith("/")}
    assert len(members["stdlib"]) < len(standard) / 2
    # nothing lost: every file of the standard library and of the libraries in exactly one zip
    libraries = {n for n in zipfile.ZipFile(pack.libraries(runtime, checker.pinned_version())).namelist()
                 if not n.endswith("/")}
    later = members["sympy"] | members["rest"]
    assert not members["sympy"] & members["rest"] and not members["stdlib"] & later
    assert members["stdlib"] | later == standard | libraries
    assert {f"sympy/__init__.py{compiled}", f"mpmath/__init__.py{compiled}"} <= members["sympy"]
    index = json.loads(zipfile.ZipFile(zips["grader"]).read("index.json"))
    assert index == pack.index({zips[stage].name: sorted(members[stage]) for stage in pack.LATER})
    assert not {module_of(n) for n in members["stdlib"]} & set(index)
    if not compiled:
        return   # no Node.js: no trace, Pyodide's whole standard library first
    trace = json.loads(pack.trace_path(runtime, checker.pinned_version()).read_text(encoding="utf-8"))["trace"]
    assert not [path for _, path in trace["first"] if path.startswith(("sympy/", "mpmath/"))]
    assert [path for _, path in trace["later"] if path.startswith("sympy/")]
    assert not trace["stopped"], trace["stopped"]
