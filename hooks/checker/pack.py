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
import time
import zipfile
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


def pack_key(runtime: Path, pinned: str) -> str:
    keys = [pinned, libraries_key(runtime, pinned), package_key("grader"), checker_trace.corpus_key(),
            files.fingerprint(CODE, ROOT, length=16), files.fingerprint([runtime / STDLIB], runtime, length=16)]
    return files.text_fingerprint("-".join(keys), length=16)


def pack(runtime: Path, pinned: str) -> dict[str, Path]:
    """stage -> its zip (``stdlib``, ``grader``, ``sympy``, ``rest``), built once for these inputs and
    kept in ``.cache/checker/pack-<key>/`` with the trace they were split by (trace.json)."""
    folder = CACHE / f"pack-{pack_key(runtime, pinned)}"
    if not folder.is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            built = Path(tmp) / "pack"
            built.mkdir()
            build_pack(built, runtime, pinned)
            try:
                os.replace(built, folder)
            except OSError:   # another build packed the same inputs meanwhile: the same files
                pass
        forget_old(folder, libraries(runtime, pinned), standard_library(runtime))
    return {stage: next(folder.glob(f"{stage}-*.zip")) for stage in STAGES}


def build_pack(folder: Path, runtime: Path, pinned: str) -> None:
    grader_parent, grader_files = package_files("grader")
    tables = reference_table(grader_parent, folder)
    with zipfile.ZipFile(libraries(runtime, pinned)) as libs, zipfile.ZipFile(standard_library(runtime)) as stdlib:
        library = {name: libs.read(name) for name in libs.namelist() if not name.endswith("/")}
        standard = {name: stdlib.read(name) for name in stdlib.namelist() if not name.endswith("/")}
    node = compiler(runtime)
    if node:
        sources = folder / "sources.zip"
        with zipfile.ZipFile(sources, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
            write_packages(archive, ["grader", *LIBRARIES])
            for table in tables:
                archive.write(table, f"cache/{table.name}")
            archive.write(BOOT, "checker_boot.py")
        first, later = checker_trace.trace(node, runtime, sources, LIBRARIES, folder / "trace.json")
        sources.unlink()
    else:   # no Node.js to trace with: Pyodide's whole standard library first, SymPy and mpmath next
        first = set(filter(None, map(module_of, standard)))
        later = set(filter(None, map(module_of, library)))
    stages = {"first": {}, "later": {}, "rest": {}}
    for members in (library, standard):
        for name, stage in split(sorted(members), first, later).items():
            stages[stage][name] = members[name]
    stdlib_first = {name: data for name, data in stages["first"].items() if name in standard}
    stages["first"] = {name: data for name, data in stages["first"].items() if name not in standard}
    if stages["first"]:   # a library module in the first stage: it goes with the later ones
        stages["later"].update(stages.pop("first"))
    later_zips = {}
    for stage, members in (("sympy", stages["later"]), ("rest", stages["rest"])):
        write_zip(folder / f"{stage}.zip", members)
        later_zips[hashed(folder / f"{stage}.zip", stage).name] = sorted(members)
    core = {source.relative_to(grader_parent).as_posix(): source.read_bytes() for source in grader_files}
    core.update({f"cache/{table.name}": table.read_bytes() for table in tables})
    core["checker_boot.py"] = BOOT.read_bytes()
    core["index.json"] = json.dumps(index(later_zips), sort_keys=True, separators=(",", ":")).encode()
    write_zip(folder / "grader.zip", core)
    hashed(folder / "grader.zip", "grader")
    write_zip(folder / "stdlib.zip", stdlib_first)
    hashed(folder / "stdlib.zip", "stdlib")
    for table in tables:
        table.unlink()


def forget_old(*keep: Path) -> None:
    """Earlier inputs' packs and compiled libraries (an hour old: not another build's, running now)."""
    for old in [*CACHE.glob("pack-*"), *CACHE.glob("libraries-*.zip"), *CACHE.glob("python-stdlib-*.zip"),
                *CACHE.glob("grader-*.zip")]:
        if old not in keep and time.time() - old.stat().st_mtime > 3600:
            shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink(missing_ok=True)
