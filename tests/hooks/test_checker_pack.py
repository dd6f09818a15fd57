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
    # the same code elsewhere (another clone, mutmut's copy) is keyed the same: no key holds where the files are
    assert first == [pack.trace_key(runtime, checker.pinned_version()), pack.table_path(pack.package_files("grader")).name]
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


# --- the pack without Node.js, in a cache of its own: a small library stands for SymPy and mpmath


@pytest.fixture()
def small(tmp_path, monkeypatch):
    """(a runtime without Node.js: Pyodide's standard library only, the cache) with ``smalllib`` packed as the
    libraries are, and the grader's reference table already kept (computing it takes a child process)."""
    library = tmp_path / "site-packages" / "smalllib"
    for name, text in {"__init__.py": "A = 1\n", "sub/__init__.py": "", "sub/data.txt": "data\n",
                       "tests/test_a.py": "", "__pycache__/x.cpython-311.pyc": "", "old.pyc": ""}.items():
        (library / name).parent.mkdir(parents=True, exist_ok=True)
        (library / name).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(library.parent))
    importlib.invalidate_caches()
    monkeypatch.setattr(pack, "LIBRARIES", ("smalllib",))
    monkeypatch.setattr(pack, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(pack, "_LATER", {})
    monkeypatch.setattr(pack, "_READY", [])
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    with zipfile.ZipFile(runtime / pack.STDLIB, "w") as stdlib:
        for name in ("json/", "json/__init__.py", "json/decoder.py", "json/tool.txt", "fractions.py"):
            stdlib.writestr(name, "" if name.endswith("/") else f"# {name}\n")
    pack.CACHE.mkdir()
    table = pack.table_path(pack.package_files("grader"))
    table.write_bytes(b'{"table": 1}')
    yield runtime, table
    for thread in pack._LATER.values():
        if thread is not None:
            thread.join()


def members(path: Path) -> list[str]:
    return zipfile.ZipFile(path).namelist()


def test_a_package_is_its_files_without_tests_or_bytecode(small):
    parent, paths = pack.package_files("smalllib")
    assert [p.relative_to(parent).as_posix() for p in paths] == ["smalllib/__init__.py", "smalllib/sub/__init__.py",
                                                                "smalllib/sub/data.txt"]
    with pytest.raises(RuntimeError, match="the package 'no_such_package_here' is not installed in "):
        pack.package_files("no_such_package_here")


def test_a_package_is_kept_by_its_files_and_an_installed_one_by_its_record(small):
    first = pack.package_key("smalllib")
    assert len(first) == 16 and pack.package_key("smalllib") == first
    (Path(pack.package_files("smalllib")[0]) / "smalllib" / "sub" / "data.txt").write_text("other\n", encoding="utf-8")
    assert pack.package_key("smalllib") != first
    from grader import files

    record = importlib.metadata.distribution("sympy").read_text("RECORD")
    assert pack.package_key("sympy") == files.text_fingerprint(record, length=16)


def test_without_node_the_standard_library_is_the_runtimes_and_the_trace_takes_all_of_it_first(small):
    runtime, _ = small
    assert pack.compiler(runtime) is None and pack.standard_library(runtime) == runtime / pack.STDLIB
    traced = pack.trace_path(runtime, "1.0")
    assert traced.parent == pack.CACHE and re.fullmatch(r"trace-[0-9a-f]{16}\.json", traced.name)
    pack.make_trace(runtime, "1.0", traced)
    made = json.loads(traced.read_text(encoding="utf-8"))
    assert made == {"first": ["fractions", "json", "json.decoder"], "later": ["smalllib", "smalllib.sub"], "trace": {}}
    assert pack.trace_path(runtime, "1.1") != traced   # another pinned runtime: another trace


def test_the_pack_splits_by_the_trace_and_makes_each_zip_once(small):
    runtime, table = small
    zips = pack.pack(runtime, "1.0")
    assert list(zips) == list(pack.STAGES)
    for stage, path in zips.items():
        assert path.name == pack.content_name(stage, path.read_bytes(), ".zip")
    assert members(zips["stdlib"]) == ["fractions.py", "json/__init__.py", "json/decoder.py", "json/tool.txt"]
    assert members(zips["sympy"]) == ["smalllib/__init__.py", "smalllib/sub/__init__.py", "smalllib/sub/data.txt"]
    assert members(zips["rest"]) == []
    core = zipfile.ZipFile(zips["grader"])
    index = json.loads(core.read("index.json"))
    assert index == {"smalllib": zips["sympy"].name, "smalllib.sub": zips["sympy"].name}
    assert core.read(f"cache/{pack.table_name(pack.package_files('grader'))}") == table.read_bytes()
    assert core.read("checker_boot.py") == BOOT.read_bytes() and "grader/web.py" in core.namelist()
    assert not [n for n in core.namelist() if n.endswith(".pyc")]
    made = {path: path.stat().st_mtime_ns for path in pack.CACHE.rglob("*")}
    assert pack.pack(runtime, "1.0") == zips and pack.pack(runtime, "1.0", wait=False) == zips
    assert {path: path.stat().st_mtime_ns for path in pack.CACHE.rglob("*")} == made   # nothing made again


def test_while_a_trace_is_made_in_the_background_the_latest_one_splits_the_zips(small):
    runtime, _ = small
    assert pack.pack(runtime, "1.0", wait=False) is None   # no trace yet: no checker in this build
    pack._LATER[pack.trace_path(runtime, "1.0")].join()
    assert not pack.tracing()
    ready = []
    pack.on_ready(lambda: ready.append(1))
    old = pack.pack(runtime, "1.0")
    zips = pack.pack(runtime, "2.0", wait=False)   # another runtime's trace is not made yet: the latest splits
    assert {stage: path.name for stage, path in zips.items()} == {stage: path.name for stage, path in old.items()}
    pack._LATER[pack.trace_path(runtime, "2.0")].join()
    assert ready == [1] and pack.trace_path(runtime, "2.0").exists() and not pack.tracing()
    pack.make_trace_later(runtime, "2.0", pack.trace_path(runtime, "2.0"))   # once per target
    assert ready == [1]


def test_the_callbacks_are_called_once_each():
    calls = []
    try:
        for _ in range(2):
            pack.on_ready(calls.append)
        assert pack._READY.count(calls.append) == 1
    finally:
        pack._READY.remove(calls.append)


def test_old_inputs_are_forgotten_after_an_hour_and_what_is_kept_stays(small):
    old, recent = time.time() - 3700, time.time() - 3500
    made = {}
    for name in ("trace-old.json", "trace-kept.json", "trace-recent.json", "libraries-old.zip", "tmpabc",
                 "table-old.json", "python-stdlib-old.zip", "grader-old.zip", "pack-old", "other.txt"):
        made[name] = pack.CACHE / name
        made[name].write_text("x", encoding="utf-8")
    for name in ("split-old", "core-old"):
        made[name] = pack.CACHE / name
        (made[name] / "inner").mkdir(parents=True)
    for name, path in made.items():
        stamp = recent if "recent" in name else old
        os.utime(path, (stamp, stamp))
    pack.forget_old(made["trace-kept.json"])
    left = sorted(path.name for path in pack.CACHE.iterdir())
    assert [n for n in left if n in made] == ["other.txt", "trace-kept.json", "trace-recent.json"]


def test_a_fingerprint_of_large_files_is_read_again_only_when_they_change(tmp_path):
    from grader import files

    big = tmp_path / "big.zip"
    big.write_bytes(b"one")
    first = pack.fingerprint_kept([big], tmp_path)
    assert first == files.fingerprint([big], tmp_path, length=16)
    big.write_bytes(b"two!")
    assert pack.fingerprint_kept([big], tmp_path) == files.fingerprint([big], tmp_path, length=16) != first


def test_a_zips_members_are_sorted_dated_alike_compressed_and_readable_by_all(tmp_path):
    pack.write_zip(tmp_path / "a.zip", {"z.py": b"Z = 1\n" * 50, "a/b.txt": b"text"})
    infos = zipfile.ZipFile(tmp_path / "a.zip").infolist()
    assert [i.filename for i in infos] == ["a/b.txt", "z.py"]
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) and i.compress_type == zipfile.ZIP_DEFLATED
               and i.external_attr >> 16 == 0o644 for i in infos)
    assert infos[1].compress_size < infos[1].file_size


def test_a_zips_members_are_deflated_at_the_highest_level():
    """The reader's browser downloads them: as small as zlib makes them (level 9, not its default 6)."""
    import io
    import random
    import zlib

    pick = random.Random(1)
    words = ["".join(pick.choice("abcdefgh") for _ in range(pick.randint(2, 7))) for _ in range(300)]
    data = " ".join(pick.choice(words) for _ in range(40000)).encode()
    sizes = {}
    for level in (6, 9):
        deflate = zlib.compressobj(level, zlib.DEFLATED, -15)
        sizes[level] = len(deflate.compress(data) + deflate.flush())
    assert sizes[9] < sizes[6]
    made = io.BytesIO()
    with zipfile.ZipFile(made, "w") as archive:
        pack.deterministic(archive, "words.txt", data)
    (info,) = zipfile.ZipFile(made).infolist()
    assert info.compress_size == sizes[9] and zipfile.ZipFile(made).read("words.txt") == data
    assert pack.content_name("worker", b"abc", ".js") == f"worker-{hashlib.sha256(b'abc').hexdigest()[:16]}.js"


def test_a_data_file_outside_any_module_goes_with_the_rest():
    assert pack.stage_of("LICENSE", {"a"}, set(), {"a": "first"}) == "rest"
    assert pack.stage_of("x/y.txt", {"a"}, set(), {"a": "first"}) == "rest"
    assert pack.stage_of("a/y.txt", set(), set(), {"a": "first"}) == "first"


NODE = """#!{python}
import json, os, sys, zipfile
script, runtime, sources, target = sys.argv[1:5]
if not os.path.isfile(os.path.join(runtime, "pyodide.mjs")):   # what Node.js runs: the runtime's own code
    sys.exit("no runtime at " + runtime)
with open({log!r}, "a") as log:
    log.write(script.rsplit("/", 1)[-1] + "\\n")
if script.endswith("compile.mjs"):   # each module compiled: name.py -> name.pyc
    if "broken" in open(sources, "rb").read().decode("latin-1"):
        print("x" * 2500 + "cannot compile", file=sys.stderr)
        sys.exit(2)
    with zipfile.ZipFile(sources) as given, zipfile.ZipFile(target, "w") as made:
        for name in given.namelist():
            made.writestr(name + "c" if name.endswith(".py") else name, given.read(name))
if script.endswith("trace.mjs"):     # what a first verdict and the corpus would import
    with open({log!r}, "a") as log:
        log.write(" ".join(sorted(n for n in zipfile.ZipFile(sources).namelist() if not n.startswith("grader/"))) + "\\n")
    json.dump({{"first": [["/home", "grader/web.py"], ["/lib", "json/__init__.pyc"]],
               "later": [["/home", "smalllib/__init__.pyc"]], "stopped": []}}, open(sys.argv[5], "w"))
"""


@pytest.fixture()
def node(small, tmp_path, monkeypatch):
    """A stand-in for Node.js on the PATH, and the runtime it can run (its pyodide.mjs): ``(runtime, log)``,
    the log naming each script it ran."""
    runtime, _ = small
    (runtime / "pyodide.mjs").write_text("", encoding="utf-8")
    folder, log = tmp_path / "bin", tmp_path / "node.log"
    folder.mkdir()
    (folder / "node").write_text(NODE.format(python=sys.executable, log=str(log)), encoding="utf-8")
    (folder / "node").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return runtime, log


def test_with_node_the_libraries_are_compiled_once_and_kept(node):
    runtime, log = node
    assert pack.compiler(runtime) == str(Path(os.environ["PATH"].split(os.pathsep)[0]) / "node")
    assert pack.compiler(runtime.parent) is None   # no runtime there to run
    stdlib = pack.standard_library(runtime)
    assert stdlib.parent == pack.CACHE and stdlib.name.startswith("python-stdlib-")
    assert "json/decoder.pyc" in members(stdlib) and "json/tool.txt" in members(stdlib)
    libraries = pack.libraries(runtime, "1.0")
    assert members(libraries) == ["smalllib/__init__.pyc", "smalllib/sub/__init__.pyc", "smalllib/sub/data.txt"]
    assert pack.standard_library(runtime) == stdlib and pack.libraries(runtime, "1.0") == libraries
    assert log.read_text(encoding="utf-8").splitlines() == ["compile.mjs", "compile.mjs"]   # once each
    assert pack.libraries_key(runtime, "1.0") != pack.libraries_key(runtime, "1.1")
    assert not [path for path in pack.CACHE.iterdir() if path.name.startswith("tmp")]


def test_a_library_that_cannot_be_compiled_fails_the_build_with_what_node_said(node):
    runtime, _ = node
    with zipfile.ZipFile(runtime / pack.STDLIB, "a") as stdlib:
        stdlib.writestr("broken.py", "broken")
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError) as raised:
        pack.standard_library(runtime)
    said = str(raised.value)
    assert f"compile.mjs could not compile {pack.STDLIB} for the browser (node {runtime}):\n" in said
    assert said.split("):\n", 1)[1] == ("x" * 2500 + "cannot compile\n")[-2000:]   # the end of what it said


def test_with_node_the_trace_splits_the_zips(node):
    runtime, log = node
    zips = pack.pack(runtime, "1.0")
    ran = log.read_text(encoding="utf-8").splitlines()
    assert ran[ran.index("trace.mjs"):][:2] == ["trace.mjs", f"cache/{pack.table_name(pack.package_files('grader'))} checker_boot.py "
                                     "smalllib/__init__.py smalllib/sub/__init__.py smalllib/sub/data.txt"]
    assert members(zips["stdlib"]) == ["json/__init__.pyc", "json/tool.txt"]
    assert members(zips["sympy"]) == ["smalllib/__init__.pyc"]
    assert members(zips["rest"]) == ["fractions.pyc", "json/decoder.pyc", "smalllib/sub/__init__.pyc",
                                     "smalllib/sub/data.txt"]
    text = pack.trace_path(runtime, "1.0").read_text(encoding="utf-8")
    made = json.loads(text)
    assert text == json.dumps(made, indent=1, sort_keys=True)        # the same trace, the same bytes: a diff reads it
    assert made["first"] == ["grader.web", "json"] and made["later"] == ["smalllib"]
    assert made["trace"]["later"] == [["/home", "smalllib/__init__.pyc"]]
    index = json.loads(zipfile.ZipFile(zips["grader"]).read("index.json"))
    assert index == {"smalllib": zips["sympy"].name, "fractions": zips["rest"].name, "json.decoder": zips["rest"].name,
                     "smalllib.sub": zips["rest"].name}


def test_what_the_pack_uses_stays_however_old_it_is(node):
    """forget_old keeps every input of the zips it returns: the trace, the split, the grader's zip, the
    compiled libraries and standard library, the table, even when they were made hours ago."""
    runtime, _ = node
    zips = pack.pack(runtime, "1.0")
    made = sorted(path.name for path in pack.CACHE.iterdir())
    hours_ago = time.time() - 3 * 3600
    for path in pack.CACHE.iterdir():
        os.utime(path, (hours_ago, hours_ago))
    assert pack.pack(runtime, "1.0") == zips
    assert sorted(path.name for path in pack.CACHE.iterdir()) == made
    assert {prefix for name in made for prefix in ("trace-", "split-", "core-", "libraries-", "python-stdlib-", "table-")
            if name.startswith(prefix)} == {"trace-", "split-", "core-", "libraries-", "python-stdlib-", "table-"}


def test_the_latest_trace_is_the_one_made_last_whatever_its_name(small):
    assert pack.latest_trace() is None
    for name, age in (("trace-aaa.json", 10), ("trace-bbb.json", 100), ("trace-ccc.json", 1000)):
        path = pack.CACHE / f"{name}"
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (time.time() - age, time.time() - age))
    assert pack.latest_trace() == pack.CACHE / "trace-aaa.json"


def test_the_table_is_computed_once_in_the_cache_and_kept_by_the_graders_code(small, monkeypatch):
    _, table = small
    table.unlink()
    asked = []

    def reference_table(grader_parent, folder):
        asked.append((grader_parent, folder.parent))
        made = folder / "references-abc.json"
        made.write_bytes(b'{"computed": 1}')
        return [made]

    monkeypatch.setattr(pack, "reference_table", reference_table)
    grader = pack.package_files("grader")
    assert pack.table_for(grader) == b'{"computed": 1}' and table.read_bytes() == b'{"computed": 1}'
    assert pack.table_for(grader) == b'{"computed": 1}'
    assert asked == [(grader[0], pack.CACHE)]   # once, in a folder of the cache
    assert not [path for path in pack.CACHE.iterdir() if path.name.startswith("tmp")]


@pytest.fixture()
def background(small, monkeypatch):
    """Traces made in the background by a stand-in make_trace: it fails for a target named in ``fail``, and
    waits for ``gate`` for one named in ``wait``; ``stopped`` counts the calls to stop the traces under way."""
    import threading

    runtime, _ = small
    state = {"fail": set(), "wait": set(), "gate": threading.Event(), "stopped": []}

    def make_trace(runtime, pinned, traced):
        if traced in state["wait"]:
            state["gate"].wait(10)
        if traced in state["fail"]:
            raise RuntimeError(f"no trace for {traced.name}")

    monkeypatch.setattr(pack, "make_trace", make_trace)
    monkeypatch.setattr(pack, "split_zips", lambda *args: None)
    monkeypatch.setattr(pack.checker_trace, "stop_all", lambda: state["stopped"].append(1))
    return runtime, state


def test_a_trace_that_fails_in_the_background_is_said_and_calls_nothing(background, caplog):
    runtime, state = background
    traced = pack.CACHE / "trace-one.json"
    state["fail"].add(traced)
    state["wait"].add(traced)
    ready = []
    pack.on_ready(lambda: ready.append(1))
    pack.make_trace_later(runtime, "1.0", traced)
    thread = pack._LATER[traced]
    assert thread.daemon and pack.tracing()   # a stopped server does not wait for it
    state["gate"].set()
    thread.join()
    assert pack._LATER[traced] is None and not pack.tracing() and ready == [] and state["stopped"] == []
    said = [(record.name, record.getMessage()) for record in caplog.records]
    assert said == [("mkdocs.plugins.course", "course: the in-page checker's trace failed: no trace for trace-one.json")]


def test_a_trace_superseded_by_newer_code_is_stopped_and_its_failure_is_not_said(background, caplog):
    runtime, state = background
    old, new = pack.CACHE / "trace-old.json", pack.CACHE / "trace-new.json"
    state["fail"].add(old)
    state["wait"].add(old)
    ready = []
    pack.on_ready(lambda: ready.append(1))
    pack.make_trace_later(runtime, "1.0", old)
    assert pack.tracing() and state["stopped"] == []
    thread = pack._LATER[old]
    pack.make_trace_later(runtime, "1.0", new)
    assert state["stopped"] == [1]   # the old code's trace is stopped
    pack._LATER[new].join()
    assert ready == [1]
    state["gate"].set()
    thread.join()
    assert pack._LATER[old] is None and not pack.tracing() and ready == [1]
    assert not [record for record in caplog.records if "trace failed" in record.getMessage()]


# --- what each zip and its cache folder are kept by


def write_trace(path: Path, first: list[str], later: list[str]) -> Path:
    path.write_text(json.dumps({"first": first, "later": later, "trace": {}}), encoding="utf-8")
    return path


def test_a_library_module_a_first_verdict_imports_goes_in_the_zip_fetched_next(small, monkeypatch):
    """The first zip of all holds the standard library only (Pyodide's stdLibURL): a library module the first
    verdict imported goes with the later ones; a folder's own entry in a zip is no member of any."""
    runtime, _ = small
    libraries = pack.CACHE / "libraries-given.zip"
    with zipfile.ZipFile(libraries, "w") as archive:
        for name in ("smalllib/", "smalllib/__init__.py", "smalllib/sub/", "smalllib/sub/__init__.py",
                     "smalllib/sub/data.txt"):
            archive.writestr(name, "" if name.endswith("/") else f"# {name}\n")
    monkeypatch.setattr(pack, "libraries", lambda runtime, pinned: libraries)
    traced = write_trace(pack.CACHE / "trace-given.json", ["json", "smalllib"], ["fractions"])
    folder = pack.split_zips(runtime, "1.0", traced)
    assert re.fullmatch(r"split-[0-9a-f]{16}", folder.name) and folder.parent == pack.CACHE
    zips = {stage: next(folder.glob(f"{stage}-*.zip")) for stage in ("stdlib", *pack.LATER)}
    assert members(zips["stdlib"]) == ["json/__init__.py", "json/tool.txt"]
    assert members(zips["sympy"]) == ["fractions.py", "smalllib/__init__.py"]
    assert members(zips["rest"]) == ["json/decoder.py", "smalllib/sub/__init__.py", "smalllib/sub/data.txt"]
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert index == {"fractions": zips["sympy"].name, "smalllib": zips["sympy"].name,
                     "json.decoder": zips["rest"].name, "smalllib.sub": zips["rest"].name}
    assert sorted(path.name for path in folder.iterdir()) == sorted(["index.json", *(p.name for p in zips.values())])
    assert not [path for path in pack.CACHE.iterdir() if path.name.startswith("tmp")]


def test_the_zips_are_split_once_per_trace_and_libraries(small):
    runtime, _ = small
    traced = write_trace(pack.CACHE / "trace-one.json", ["json"], ["smalllib"])
    folder = pack.split_zips(runtime, "1.0", traced)
    made = {path: path.stat().st_mtime_ns for path in folder.iterdir()}
    assert pack.split_zips(runtime, "1.0", traced) == folder
    assert {path: path.stat().st_mtime_ns for path in folder.iterdir()} == made   # not made again
    others = {pack.split_zips(runtime, "1.0", write_trace(pack.CACHE / "trace-two.json", ["json", "fractions"], ["smalllib"])),
              pack.split_zips(runtime, "1.0", write_trace(pack.CACHE / "trace-three.json", ["json"], [])),
              pack.split_zips(runtime, "1.1", traced)}       # another runtime pinned: other libraries
    assert folder not in others and len(others) == 3
    with zipfile.ZipFile(runtime / pack.STDLIB, "a") as stdlib:   # another runtime's standard library
        stdlib.writestr("heapq.py", "# heapq\n")
    assert pack.split_zips(runtime, "1.0", traced) not in {folder, *others}


def test_the_graders_zip_is_kept_by_what_it_holds(small):
    """The grader's zip holds the index the import hook reads (compact: every reader downloads it); the same
    index, whatever its order, is the same zip, made once; another index is another zip."""
    index = {"smalllib": "sympy-1.zip", "fractions": "rest-2.zip"}
    made = pack.grader_zip(index)
    assert re.fullmatch(r"core-[0-9a-f]{16}", made.parent.name) and made.parent.parent == pack.CACHE
    assert re.fullmatch(r"grader-[0-9a-f]{16}\.zip", made.name)
    written = zipfile.ZipFile(made).read("index.json")
    assert json.loads(written) == index and b" " not in written
    stamp = made.stat().st_mtime_ns
    assert pack.grader_zip(dict(reversed(list(index.items())))) == made and made.stat().st_mtime_ns == stamp
    other = pack.grader_zip({**index, "smalllib.sub": "rest-2.zip"})
    assert other.parent != made.parent and other.name != made.name and made.is_file()
    assert not [path for path in pack.CACHE.iterdir() if path.name.startswith("tmp")]


def test_the_libraries_zip_is_kept_by_their_files_the_runtime_and_whether_they_are_compiled(node):
    runtime, _ = node
    compiled = pack.libraries_key(runtime, "1.0")
    assert re.fullmatch(r"[0-9a-f]{16}", compiled) and pack.libraries_key(runtime, "1.0") == compiled
    assert pack.libraries(runtime, "1.0").name == f"libraries-{compiled}.zip"
    (runtime / "pyodide.mjs").unlink()      # Node.js can no longer run it: the libraries' source
    source = pack.libraries_key(runtime, "1.0")
    assert source != compiled
    (Path(pack.package_files("smalllib")[0]) / "smalllib" / "__init__.py").write_text("A = 2\n", encoding="utf-8")
    assert pack.libraries_key(runtime, "1.0") not in (compiled, source)


def test_the_trace_is_kept_by_the_libraries_the_corpus_and_the_runtime(small, monkeypatch):
    runtime, _ = small
    first = pack.trace_key(runtime, "1.0")
    assert re.fullmatch(r"[0-9a-f]{16}", first) and pack.trace_key(runtime, "1.0") == first
    keys = {first}
    monkeypatch.setattr(pack.checker_trace, "corpus_key", lambda: "another corpus")
    keys.add(pack.trace_key(runtime, "1.0"))
    (Path(pack.package_files("smalllib")[0]) / "smalllib" / "__init__.py").write_text("A = 2\n", encoding="utf-8")
    keys.add(pack.trace_key(runtime, "1.0"))
    with zipfile.ZipFile(runtime / pack.STDLIB, "a") as stdlib:
        stdlib.writestr("heapq.py", "# heapq\n")
    keys.add(pack.trace_key(runtime, "1.0"))
    assert len(keys) == 4


def test_the_reference_table_packed_is_the_one_the_grader_writes_in_its_cache(tmp_path, monkeypatch):
    """Computed by the grader found beside `grader_parent`, in a child process, into the folder given: the file the
    grader itself would read (its name carries the engine's version), whatever cache folder this process uses."""
    from grader.judging import table

    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "elsewhere"))
    written = pack.reference_table(pack.ROOT, tmp_path / "packed")
    assert [path.name for path in written] == [f"references-{table.engine_version()}.json"]
    assert pack.table_name(pack.package_files("grader")) == written[0].name        # the name the zip gives it
    assert written[0].parent == tmp_path / "packed" and not (tmp_path / "elsewhere").exists()
    data = json.loads(written[0].read_text(encoding="utf-8"))
    assert table.well_formed(data) and data == json.loads(json.dumps(table.build_table()))
