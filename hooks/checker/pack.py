"""The in-page checker's zips: what a reader's browser downloads to run the grader, packed so that the
first verdict needs little, each file named by the hash of its bytes (cacheable forever).

From the import trace (hooks/checker/trace.py), four zips:

- ``stdlib-<hash>.zip``: the standard library modules that Pyodide's start and a first plain-number
  verdict import (Pyodide's ``stdLibURL``: it stands for Pyodide's whole ``python_stdlib.zip``);
- ``grader-<hash>.zip``: the grader package (its folder walked: every file, as the grader
  fingerprints itself), the fast path's table of references (``cache/``), ``checker_boot.py``
  (hooks/checker/assets/boot.py: the import hook) and ``index.json``, which of the two later zips
  holds each module that is not in the first two;
- ``sympy-<hash>.zip``: the SymPy and mpmath modules (and the standard library's) that the rest of the
  corpus imported: fetched in the background after the first verdict, or by the first exact form;
- ``rest-<hash>.zip``: every other module of SymPy, mpmath and the standard library, and their data
  files: fetched only if an answer ever needs one of them.

SymPy and mpmath come from the Python that runs the build (without their tests), the standard library
from Pyodide; where Node.js can run the runtime, both are compiled to Pyodide's own bytecode by the
runtime itself (checker_compile.mjs: Pyodide starts in about half the time, the first exact form is
judged about three times as fast). Everything is cached in ``.cache/checker/``: the compiled
libraries by their own fingerprint (a change to the grader does not compile SymPy again), the zips
and the trace by the fingerprint of all their inputs.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from functools import lru_cache
from pathlib import Path, PurePosixPath

from grader import files
from hooks.checker import trace as checker_trace
from hooks.checker.trace import module_of

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "checker"
BOOT = Path(__file__).resolve().parent / "assets" / "boot.py"
COMPILE = Path(__file__).resolve().with_name("compile.mjs")
LIBRARIES = ("sympy", "mpmath")   # packed from the build's Python with the grader, without tests
LEFT_OUT = frozenset({"tests", "__pycache__"})
STDLIB = "python_stdlib.zip"      # Pyodide's standard library, in the runtime's folder
STAGES = ("stdlib", "grader", "sympy", "rest")
LATER = ("sympy", "rest")         # the zips the import hook fetches when a module needs them
CODE = [Path(__file__), BOOT, *checker_trace.CODE]
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # one date for every member: the same inputs give the same bytes


# --- what goes in: the packages of the build's Python


def package_files(name: str) -> tuple[Path, list[Path]]:
    """(the folder holding package ``name``, its files) in the Python that runs the build."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"the package {name!r} is not installed in {sys.executable}")
    folder = Path(spec.origin).parent
    found = []
    for here, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in LEFT_OUT)
        found += [Path(here) / n for n in sorted(names) if not n.endswith((".pyc", ".pyo"))]
    return folder.parent, found


def package_key(name: str) -> str:
    """The fingerprint of package ``name``'s files. For an installed distribution, that of the
    installer's record of their hashes (RECORD): reading SymPy's 20 MB on every build would cost
    seconds; otherwise (the grader, a source checkout) that of the files themselves."""
    origin = Path(importlib.util.find_spec(name).origin)
    try:
        dist = importlib.metadata.distribution(name)
        record = dist.read_text("RECORD")
        if record and Path(dist.locate_file(f"{name}/__init__.py")).resolve() == origin.resolve():
            return files.text_fingerprint(record, length=16)
    except importlib.metadata.PackageNotFoundError:
        pass
    parent, paths = package_files(name)
    return files.fingerprint(paths, parent, length=16)


def write_packages(archive: zipfile.ZipFile, names) -> None:
    for name in names:
        parent, paths = package_files(name)
        for source in paths:
            archive.write(source, source.relative_to(parent).as_posix())


def reference_table(grader_parent: Path, folder: Path) -> list[Path]:
    """The fast path's reference table, as the grader writes it in its cache folder
    (``references-<version>.json``, computed by the grader, in a child process)."""
    env = {**os.environ, "GRADER_CACHE_DIR": str(folder),
           "PYTHONPATH": os.pathsep.join([str(grader_parent), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-c", "from grader.judging import table; table.table()"], env=env,
                   check=True, capture_output=True, timeout=600)
    return sorted(folder.glob("references-*.json"))


# --- SymPy, mpmath and the standard library, compiled once per version


def compiler(runtime: Path) -> str | None:
    """Node.js, when it can run the runtime (to compile to its bytecode, to trace)."""
    node = shutil.which("node")
    return node if node and (runtime / "pyodide.mjs").is_file() else None


def compile_zip(node: str, runtime: Path, sources: Path, target: Path) -> None:
    """``sources`` (a zip of Python files) with each module compiled by the runtime itself: ``target``."""
    ran = subprocess.run([node, str(COMPILE), str(runtime), str(sources), str(target)],
                         capture_output=True, text=True, timeout=3600)
    if ran.returncode:
        from mkdocs.exceptions import PluginError
        raise PluginError(f"{COMPILE.name} could not compile {sources.name} for the browser "
                          f"(node {runtime}):\n{ran.stderr[-2000:]}")


def libraries_key(runtime: Path, pinned: str) -> str:
    """The fingerprint of SymPy's and mpmath's zip: their files, the runtime, compiled or not."""
    keys = [pinned, *(package_key(name) for name in LIBRARIES),
            files.fingerprint([COMPILE], ROOT, length=16), "pyc" if compiler(runtime) else "py"]
    return files.text_fingerprint("-".join(keys), length=16)


def libraries(runtime: Path, pinned: str) -> Path:
    """SymPy and mpmath in a zip, cached: compiled to the runtime's bytecode where Node.js is there
    (the reader's browser then imports SymPy three times as fast), else their source."""
    path = CACHE / f"libraries-{libraries_key(runtime, pinned)}.zip"
    if path.exists():
        return path
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        zipped = Path(tmp) / "sources.zip"
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
            write_packages(archive, LIBRARIES)
        node = compiler(runtime)
        if node:
            compile_zip(node, runtime, zipped, Path(tmp) / "compiled.zip")
            zipped = Path(tmp) / "compiled.zip"
        os.replace(zipped, path)
    return path


def standard_library(runtime: Path) -> Path:
    """Pyodide's standard library compiled to its bytecode where Node.js is there, cached (Pyodide imports
    some 200 of its modules on every start: from bytecode, it starts in about half the time); else as
    Pyodide ships it, as source."""
    node = compiler(runtime)
    if not node:
        return runtime / STDLIB
    key = files.fingerprint([runtime / STDLIB, COMPILE], length=16)
    path = CACHE / f"python-stdlib-{key}.zip"
    if not path.exists():
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            compile_zip(node, runtime, runtime / STDLIB, Path(tmp) / "compiled.zip")
            os.replace(Path(tmp) / "compiled.zip", path)
    return path


# --- splitting by the trace (pure)


def stage_of(path: str, first: set[str], later: set[str], modules: dict[str, str]) -> str:
    """Which zip a member goes to: a module by the trace ("first", "later", else "rest"); a data file with
    its package (the stage of the nearest folder that is a module), else "rest"."""
    module = module_of(path)
    if module is None:
        folder = ".".join(PurePosixPath(path).parent.parts)
        return modules.get(folder, "rest") if folder else "rest"
    return "first" if module in first else "later" if module in later else "rest"


def split(members: list[str], first: set[str], later: set[str]) -> dict[str, str]:
    """member -> stage ("first", "later", "rest") for the members of one zip (a library's, the stdlib's)."""
    modules = {}
    for path in members:
        module = module_of(path)
        if module is not None:
            modules.setdefault(module, stage_of(path, first, later, {}))
    return {path: stage_of(path, first, later, modules) for path in members}


def index(zips: dict[str, list[str]]) -> dict[str, str]:
    """module -> the file name of the later zip that holds it, for the import hook."""
    return {module: name for name, members in zips.items()
            for module in filter(None, map(module_of, members))}


# --- the zips


def deterministic(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data, compresslevel=9)


def content_name(stem: str, data: bytes, suffix: str) -> str:
    """How the site names a file it serves: ``<stem>-<the hash of its content><suffix>``."""
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:16]}{suffix}"


def hashed(path: Path, stage: str) -> Path:
    """``path`` renamed ``<stage>-<the hash of its bytes>.zip``."""
    named = path.with_name(content_name(stage, path.read_bytes(), ".zip"))
    path.rename(named)
    return named


def write_zip(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name in sorted(members):
            deterministic(archive, name, members[name])


def code_files(grader_files: list[Path], grader_parent: Path) -> list[Path]:
    """The grader's files that can change what it imports: every one but its catalogs (words)."""
    return [path for path in grader_files if not path.relative_to(grader_parent).as_posix().startswith("grader/locale/")]


def trace_key(runtime: Path, pinned: str) -> str:
    """What the trace (and the zips split by it) depends on: code, never words. A catalog's wording changes
    the grader's zip only."""
    grader_parent, grader_files = package_files("grader")
    keys = [pinned, libraries_key(runtime, pinned), files.fingerprint(code_files(grader_files, grader_parent), grader_parent,
                                                                      length=16),
            checker_trace.corpus_key(), files.fingerprint(CODE, ROOT, length=16), runtime_key(runtime)]
    return files.text_fingerprint("-".join(keys), length=16)


def runtime_key(runtime: Path) -> str:
    return fingerprint_kept([runtime / STDLIB], runtime)


@lru_cache(maxsize=None)
def _fingerprint_at(paths: tuple[Path, ...], root: Path, stamps: tuple) -> str:
    return files.fingerprint(paths, root, length=16)


def fingerprint_kept(paths: list[Path], root: Path) -> str:
    """``files.fingerprint(paths, root, length=16)`` of large files (the runtime's), read once per process
    while their times and sizes stay the same."""
    stamps = tuple((info.st_mtime_ns, info.st_size) for info in (path.stat() for path in paths))
    return _fingerprint_at(tuple(paths), root, stamps)


def trace_path(runtime: Path, pinned: str) -> Path:
    """Where the trace for these inputs is kept (made by :func:`make_trace`)."""
    return CACHE / f"trace-{trace_key(runtime, pinned)}.json"


def pack(runtime: Path, pinned: str, *, wait: bool = True) -> dict[str, Path] | None:
    """stage -> its zip (``stdlib``, ``grader``, ``sympy``, ``rest``), each made once for what it holds
    and kept in ``.cache/checker/``: the trace by the code it traced, the standard library's, SymPy's and
    the rest's zips by the trace that split them, the grader's zip by its files, its table and the index.

    ``wait=False`` (`mkdocs serve`): when the trace for this code is not made yet, it is made in the
    background (:func:`make_trace_later`) and the latest trace made before splits the zips meanwhile (a
    module it did not see is fetched when needed: hooks/checker/assets/boot.py); None when there is none."""
    CACHE.mkdir(parents=True, exist_ok=True)
    traced = trace_path(runtime, pinned)
    if not traced.exists():
        if wait:
            make_trace(runtime, pinned, traced)
        else:
            make_trace_later(runtime, pinned, traced)
            traced = latest_trace()
            if traced is None:
                return None
    split = split_zips(runtime, pinned, traced)
    zips = {stage: next(split.glob(f"{stage}-*.zip")) for stage in ("stdlib", *LATER)}
    zips["grader"] = grader_zip(json.loads((split / "index.json").read_text(encoding="utf-8")))
    forget_old(traced, split, zips["grader"].parent, libraries(runtime, pinned), standard_library(runtime),
               table_path(package_files("grader")))
    return {stage: zips[stage] for stage in STAGES}


def latest_trace() -> Path | None:
    made = sorted(CACHE.glob("trace-*.json"), key=lambda path: path.stat().st_mtime)
    return made[-1] if made else None


_LATER: dict[Path, threading.Thread] = {}   # traces being made in the background, by where they go
_READY: list = []                           # what to call when one is made (mkdocs serve: rebuild)


def make_trace_later(runtime: Path, pinned: str, traced: Path) -> None:
    """Make the trace in a thread (once per target), then call each of ``_READY``. A trace under way for
    other code (a module saved again meanwhile) is stopped: its code is gone."""
    if traced in _LATER:
        return

    def run():
        try:
            make_trace(runtime, pinned, traced)
            split_zips(runtime, pinned, traced)   # SymPy compiled, the zips split: the next build only copies
        except Exception as error:  # noqa: BLE001 - said, and the previous pack stays in use
            superseded = list(_LATER)[-1] != traced
            _LATER[traced] = None
            if not superseded:
                from mkdocs.plugins import get_plugin_logger
                get_plugin_logger("course").warning(f"the in-page checker's trace failed: {error}")
            return
        for ready in list(_READY):
            ready()

    others = tracing()
    _LATER[traced] = threading.Thread(target=run, name="checker-trace", daemon=True)
    if others:
        checker_trace.stop_all()
    _LATER[traced].start()


def on_ready(call) -> None:
    """Call ``call()`` whenever a trace made in the background is ready."""
    if call not in _READY:
        _READY.append(call)


def tracing() -> bool:
    """Is a trace being made in the background?"""
    return any(thread is not None and thread.is_alive() for thread in _LATER.values())


def table_path(grader: tuple[Path, list[Path]]) -> Path:
    grader_parent, grader_files = grader
    return CACHE / f"table-{files.fingerprint(code_files(grader_files, grader_parent), grader_parent, length=16)}.json"


def table_for(grader: tuple[Path, list[Path]]) -> bytes:
    """The fast path's reference table (computed by the grader, in a child process), kept by the grader's
    code: the table holds numbers, never words, so a catalog's change leaves it as it is."""
    path = table_path(grader)
    if not path.exists():
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            made = reference_table(grader[0], Path(tmp))
            files.write_atomic(path, made[0].read_bytes())
    return path.read_bytes()


def table_name(grader: tuple[Path, list[Path]]) -> str:
    """The name the grader looks its table up by, in the page: ``references-<its engine version>.json``."""
    from grader.judging.table import code_fingerprint

    return f"references-{code_fingerprint(str(grader[0] / 'grader'))}.json"


def make_trace(runtime: Path, pinned: str, traced: Path) -> None:
    """Trace the grader's imports in the runtime (Node.js) and write to ``traced`` the modules of each
    stage, and the trace itself; without Node.js: Pyodide's whole standard library first, SymPy and mpmath
    next."""
    node = compiler(runtime)
    grader = package_files("grader")
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        made = {}
        if node:
            sources = Path(tmp) / "sources.zip"
            with zipfile.ZipFile(sources, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
                write_packages(archive, ["grader", *LIBRARIES])
                archive.writestr(f"cache/{table_name(grader)}", table_for(grader))
                archive.write(BOOT, "checker_boot.py")
            first, later = checker_trace.trace(node, runtime, sources, LIBRARIES, Path(tmp) / "trace.json")
            made = json.loads((Path(tmp) / "trace.json").read_text(encoding="utf-8"))
        else:
            with zipfile.ZipFile(standard_library(runtime)) as stdlib, zipfile.ZipFile(libraries(runtime, pinned)) as libs:
                first = set(filter(None, map(module_of, stdlib.namelist())))
                later = set(filter(None, map(module_of, libs.namelist())))
        files.write_atomic(traced, json.dumps({"first": sorted(first), "later": sorted(later), "trace": made},
                                              indent=1, sort_keys=True))


def split_zips(runtime: Path, pinned: str, traced: Path) -> Path:
    """The standard library's, SymPy's and the rest's zips as ``traced`` splits them, and index.json (which
    later zip holds each module), in a folder named by the trace and the libraries: made once."""
    trace = json.loads(traced.read_text(encoding="utf-8"))
    key = files.text_fingerprint(json.dumps([trace["first"], trace["later"], libraries_key(runtime, pinned),
                                             runtime_key(runtime), files.fingerprint([Path(__file__)], length=16)]),
                                 length=16)
    folder = CACHE / f"split-{key}"
    if folder.is_dir():
        return folder
    first, later = set(trace["first"]), set(trace["later"])
    with zipfile.ZipFile(libraries(runtime, pinned)) as libs, zipfile.ZipFile(standard_library(runtime)) as stdlib:
        library = {name: libs.read(name) for name in libs.namelist() if not name.endswith("/")}
        standard = {name: stdlib.read(name) for name in stdlib.namelist() if not name.endswith("/")}
    stages = {"first": {}, "later": {}, "rest": {}}
    for members in (library, standard):
        for name, stage in split(sorted(members), first, later).items():
            stages[stage][name] = members[name]
    stdlib_first = {name: data for name, data in stages["first"].items() if name in standard}
    stages["first"] = {name: data for name, data in stages["first"].items() if name not in standard}
    if stages["first"]:   # a library module in the first stage: it goes with the later ones
        stages["later"].update(stages.pop("first"))
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        built = Path(tmp) / "split"
        built.mkdir()
        later_zips = {}
        for stage, members in (("sympy", stages["later"]), ("rest", stages["rest"])):
            write_zip(built / f"{stage}.zip", members)
            later_zips[hashed(built / f"{stage}.zip", stage).name] = sorted(members)
        write_zip(built / "stdlib.zip", stdlib_first)
        hashed(built / "stdlib.zip", "stdlib")
        files.write_atomic(built / "index.json", json.dumps(index(later_zips), sort_keys=True, separators=(",", ":")))
        try:
            os.replace(built, folder)
        except OSError:   # another build split the same trace meanwhile: the same files
            pass
    return folder


def grader_zip(modules: dict[str, str]) -> Path:
    """The grader's zip: its files (catalogs included), its table, checker_boot.py and the index of the later
    zips (``modules``), named by its content. Rewritten when a word changes; nothing else is."""
    grader = package_files("grader")
    grader_parent, grader_files = grader
    core = {source.relative_to(grader_parent).as_posix(): source.read_bytes() for source in grader_files}
    core[f"cache/{table_name(grader)}"] = table_for(grader)
    core["checker_boot.py"] = BOOT.read_bytes()
    core["index.json"] = json.dumps(modules, sort_keys=True, separators=(",", ":")).encode()
    key = files.text_fingerprint(json.dumps({name: hashlib.sha256(data).hexdigest() for name, data in core.items()},
                                            sort_keys=True), length=16)
    folder = CACHE / f"core-{key}"
    if not folder.is_dir():
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            built = Path(tmp) / "core"
            built.mkdir()
            write_zip(built / "grader.zip", core)
            hashed(built / "grader.zip", "grader")
            try:
                os.replace(built, folder)
            except OSError:
                pass
    return next(folder.glob("grader-*.zip"))


def forget_old(*keep: Path) -> None:
    """Earlier inputs' traces, zips and compiled libraries, and what a stopped build left (an hour old: not
    another build's, running now)."""
    for old in [*CACHE.glob("pack-*"), *CACHE.glob("libraries-*.zip"), *CACHE.glob("python-stdlib-*.zip"),
                *CACHE.glob("grader-*.zip"), *CACHE.glob("trace-*.json"), *CACHE.glob("split-*"),
                *CACHE.glob("core-*"), *CACHE.glob("table-*.json"), *CACHE.glob("tmp*")]:
        if old not in keep and time.time() - old.stat().st_mtime > 3600:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
