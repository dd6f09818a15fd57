"""Check an answer on the page: the grader itself, run in the reader's browser (Pyodide), offline.

When `extra.course.check_in_browser` is on (the default) and the pinned runtime is installed
(`npm ci` puts the npm package `pyodide` in node_modules/):

- each exercise part gets an answer box, a Check button and a live verdict, each exercise its "Check all",
  a seed box for a variant and the student's work kept in the browser (hooks/workspace.py: the markup,
  hidden until checker.js shows it, so a reader without script sees the command-line route only);
- a page with an exercise, and the home page (the progress), loads two small files, checker.js and
  checker.css (:func:`page_tags`);
  the worker and everything it loads are fetched only when an answer box is first focused;
- once per build, the hook writes into the site's `assets/checker/` (:func:`publish`): those files,
  the worker, the Pyodide files that loading needs, and one zip holding the grader package, SymPy
  and mpmath of the Python that runs the build, with the fast path's reference table (so the first
  plain number is judged without SymPy). Where Node.js is installed, SymPy and mpmath go in as
  Pyodide's own bytecode, compiled by the runtime itself (checker_compile.mjs): the first exact form
  is then judged about three times as fast. The zip is cached in `.cache/checker/` by the
  fingerprint of its inputs (the compiled libraries apart, so a change to the grader does not
  compile SymPy again).

Where the runtime is missing (or is not the version package-lock.json pins), the build goes on
without in-page checking and says why, once. `COURSE_PYODIDE_DIR` points the hook at another
folder than node_modules/pyodide (the tests use it to build without the runtime).
"""

from __future__ import annotations

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
from dataclasses import dataclass
from pathlib import Path

from grader import files

ROOT = Path(__file__).resolve().parent.parent
ASSETS = Path(__file__).resolve().parent / "assets" / "checker"   # checker.js, checker.css, worker.js
CACHE = ROOT / ".cache" / "checker"
PUBLISHED = "assets/checker"         # where the site serves them, for every locale
RUNTIME_ENV = "COURSE_PYODIDE_DIR"
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
LIBRARIES = ("sympy", "mpmath")   # packed from the build's Python with the grader, without tests
COMPILE = Path(__file__).resolve().with_name("checker_compile.mjs")
LEFT_OUT = frozenset({"tests", "__pycache__"})
# wasm runs the grader about twice as slowly as CPython: the page's limit on one check
WASM_SLOWDOWN = 2
SYMPY_BUDGET = 120   # seconds the first exact form may take to load SymPy, on top of the limit
MARKERS = ('class="course-checker-exercise"', 'class="course-progress"')   # what needs checker.js on a page


@dataclass(frozen=True)
class Checker:
    """Whether the build puts a checker on the pages; if not, why (for the one message)."""

    on: bool
    reason: str = ""
    runtime: Path | None = None
    archive: str = ""          # the zip's file name, named by its inputs' fingerprint
    version: str = ""          # the fingerprint of checker.js, worker.js and checker.css: their URLs' ?v=

    @classmethod
    def decide(cls, wanted: bool, environ) -> "Checker":
        """On when the setting wants it and the pinned runtime is installed; else off, and why."""
        if not wanted:
            return cls(False, "extra.course.check_in_browser is false")
        runtime = runtime_dir(environ)
        why = runtime_problem(runtime)
        if why:
            return cls(False, why, runtime)
        return cls(True, "", runtime, f"grader-{archive_key(runtime)}.zip", assets_version())

    def message(self) -> str:
        return (f"in-page answer checking is off: {self.reason}; the exercises show the "
                "command-line route only")

    def cache_key(self) -> list:
        """What the rendered exercises depend on besides their labels: on or off, and this module."""
        return [self.on, files.fingerprint([Path(__file__), Path(__file__).with_name("workspace.py")], ROOT, length=16)]


def runtime_dir(environ) -> Path:
    """Where the installed npm package `pyodide` is: node_modules/pyodide, or $COURSE_PYODIDE_DIR."""
    return Path(environ.get(RUNTIME_ENV) or ROOT / "node_modules" / "pyodide")


def pinned_version(root: Path = ROOT) -> str | None:
    """The Pyodide version package-lock.json pins, or None without a lock file."""
    try:
        lock = json.loads((root / "package-lock.json").read_text(encoding="utf-8"))
        return lock["packages"]["node_modules/pyodide"]["version"]
    except (OSError, ValueError, KeyError):
        return None


def runtime_problem(runtime: Path) -> str:
    """Why ``runtime`` cannot serve the page ('' when it can)."""
    pinned = pinned_version()
    if pinned is None:
        return "package-lock.json does not pin the npm package 'pyodide'"
    missing = [name for name in RUNTIME_FILES if not (runtime / name).is_file()]
    if missing:
        return (f"the Pyodide runtime is not installed ({runtime} lacks {', '.join(missing)}): "
                "run `npm ci` (Node.js 18+) to install it")
    try:
        installed = json.loads((runtime / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        installed = None
    if installed != pinned:
        return (f"{runtime} holds Pyodide {installed or '(unknown version)'}, not the {pinned} that "
                "package-lock.json pins: run `npm ci`")
    return ""


# --- the page: two small files, only where there is an exercise


def page_tags(output: str, page_url: str, checker: Checker) -> str:
    """Add checker.css and checker.js to a written page that has an exercise checker."""
    if not checker.on or not any(marker in output for marker in MARKERS):
        return output
    from mkdocs.utils import get_relative_url

    from grader.judging.limits import DEFAULT_TIMEOUT

    base = get_relative_url(PUBLISHED, page_url or ".")
    version = checker.version   # hashed once per build, not per page
    tags = (
        f'<link rel="stylesheet" href="{base}/checker.css?v={version}">'
        f'<script src="{base}/checker.js?v={version}" data-archive="{checker.archive}" '
        f'data-version="{version}" data-limit="{DEFAULT_TIMEOUT * WASM_SLOWDOWN:g}" '
        f'data-sympy-budget="{SYMPY_BUDGET}" defer></script>'
    )
    return output.replace("</head>", tags + "</head>", 1)


def assets_version() -> str:
    return files.fingerprint(sorted(ASSETS.iterdir()), ROOT, length=12)


# --- the files the site serves


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


def compiler(runtime: Path) -> str | None:
    """Node.js, when it can run the runtime to compile SymPy and mpmath to its bytecode."""
    node = shutil.which("node")
    return node if node and (runtime / "pyodide.mjs").is_file() else None


def libraries_key(runtime: Path) -> str:
    """The fingerprint of SymPy's and mpmath's zip: their files, the runtime, compiled or not."""
    keys = [pinned_version() or "", *(package_key(name) for name in LIBRARIES),
            files.fingerprint([COMPILE], ROOT, length=16), "pyc" if compiler(runtime) else "py"]
    return files.text_fingerprint("-".join(keys), length=16)


def archive_key(runtime: Path) -> str:
    """The fingerprint of everything the zip holds (and of the code that packs it)."""
    keys = [files.fingerprint([Path(__file__)], ROOT, length=16), package_key("grader"), libraries_key(runtime)]
    return files.text_fingerprint("-".join(keys), length=16)


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


def libraries(runtime: Path) -> Path:
    """SymPy and mpmath in a zip, cached: compiled to the runtime's bytecode where Node.js is there
    (the reader's browser then imports SymPy three times as fast), else their source."""
    path = CACHE / f"libraries-{libraries_key(runtime)}.zip"
    if path.exists():
        return path
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        zipped = Path(tmp) / "sources.zip"
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
            write_packages(archive, LIBRARIES)
        node = compiler(runtime)
        if node:
            compiled = Path(tmp) / "compiled.zip"
            ran = subprocess.run([node, str(COMPILE), str(runtime), str(zipped), str(compiled)],
                                 capture_output=True, text=True, timeout=3600)
            if ran.returncode:
                from mkdocs.exceptions import PluginError
                raise PluginError(f"{COMPILE.name} could not compile SymPy and mpmath for the browser "
                                  f"(node {runtime}):\n{ran.stderr[-2000:]}")
            zipped = compiled
        os.replace(zipped, path)
    return path


def build_archive(path: Path, runtime: Path) -> None:
    """The zip the worker unpacks: grader/ (source, as the grader fingerprints itself), cache/ (the
    fast path's table), sympy/ and mpmath/."""
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        zipped = Path(tmp) / path.name
        with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
            write_packages(archive, ["grader"])
            for table in reference_table(package_files("grader")[0], Path(tmp)):
                archive.write(table, f"cache/{table.name}")
            with zipfile.ZipFile(libraries(runtime)) as packed:
                for member in packed.infolist():
                    archive.writestr(member, packed.read(member))
        zipped.chmod(0o644)
        os.replace(zipped, path)


def archive(checker: Checker) -> Path:
    """The zip for this build, from the cache when its inputs have not changed."""
    path = CACHE / checker.archive
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        build_archive(path, checker.runtime)
        for old in [*CACHE.glob("grader-*.zip"), *CACHE.glob("libraries-*.zip")]:
            # earlier inputs' zips (an hour old: not another build's, running now)
            if old.name not in (path.name, f"libraries-{libraries_key(checker.runtime)}.zip") \
                    and time.time() - old.stat().st_mtime > 3600:
                old.unlink(missing_ok=True)
    return path


def publish(site_dir: Path, checker: Checker) -> None:
    """Write the checker's files into the site, once per build (every locale's pages use them)."""
    if not checker.on:
        return
    target = Path(site_dir) / PUBLISHED
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        shutil.copyfile(checker.runtime / name, target / "pyodide" / name)
    for source in ASSETS.iterdir():
        files.write_atomic(target / source.name, minified(source))
    shutil.copyfile(archive(checker), target / checker.archive)


def minified(source: Path) -> str:
    """A script or stylesheet as the site serves it: without comments and layout (rjsmin, rcssmin), so
    the page that loads checker.js and checker.css weighs about what it did before the checker."""
    import rcssmin
    import rjsmin

    text = source.read_text(encoding="utf-8")
    return {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}.get(source.suffix, str)(text)
