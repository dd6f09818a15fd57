"""Check an answer on the page: the grader itself, run in the reader's browser (Pyodide), offline.

When `extra.course.check_in_browser` is on (the default) and the pinned runtime is installed
(`npm ci` puts the npm package `pyodide` in node_modules/):

- each exercise part gets an answer box, a Check button and a live verdict, each exercise its "Check all",
  a seed box for a variant and the student's work kept in the browser (hooks/checker/workspace.py: the markup,
  hidden until checker.js shows it, so a reader without script sees the command-line route only);
- every page loads two small files, the checker's script and stylesheet (:func:`page_tags`): the theme's instant
  navigation may swap any page for one with an exercise without loading the new page's scripts, so the script
  is there from the first page of a visit, and attaches to each page (loader.js); the worker and everything it
  loads are fetched when an exercise scrolls into view, once per visit;
- once per build, the hook writes into the site's `assets/checker/` (:func:`publish`) those files, the
  worker, the Pyodide files it loads and the zips of hooks/checker/pack.py (the grader and its table,
  the standard library's part a first verdict needs, SymPy's and the rest), every one named by the
  hash of its content, so a host may let browsers keep them forever.

Where the runtime is missing (or is not the version package-lock.json pins), the build goes on
without in-page checking and says why, once. `COURSE_PYODIDE_DIR` points the hook at another
folder than node_modules/pyodide (the tests use it to build without the runtime).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from grader import files

ROOT = Path(__file__).resolve().parents[2]
ASSETS = Path(__file__).resolve().parent / "assets"   # loader.js, checker.js, checker.css, worker.js
SCRIPT_PARTS = ("loader.js", "checker.js")   # joined into the one script a page loads
PUBLISHED = "assets/checker"         # where the site serves them, for every locale
RUNTIME_ENV = "COURSE_PYODIDE_DIR"
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
SERVED_RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm")   # the rest is read by the build only
FILES_MARK = "const FILES = {};   // replaced by the build"   # in worker.js
WORK_MARK = 'const WORK = "work.js";'   # in checker.js: work.js's name in the site
# wasm runs the grader about twice as slowly as CPython: the page's limit on one check
WASM_SLOWDOWN = 2
SYMPY_BUDGET = 120   # seconds the first exact form may take to load SymPy, on top of the limit


@dataclass(frozen=True)
class Checker:
    """Whether the build puts a checker on the pages; if not, why (for the one message). When on, what
    the site serves, packed the first time a page or the publish step asks (a hook's test that only
    configures a build never traces the grader): ``served`` maps each file's path in assets/checker/
    to its source (a file, or text); ``given``, the same and the three names, for a test."""

    on: bool
    reason: str = ""
    runtime: Path | None = None
    given: tuple | None = None   # (served, (script, style, worker))
    wait: bool = True            # False (mkdocs serve): pages go out without it until its first pack is made

    @classmethod
    def decide(cls, wanted: bool, environ) -> "Checker":
        """On when the setting wants it and the pinned runtime is installed; else off, and why."""
        if not wanted:
            return cls(False, "extra.course.check_in_browser is false")
        runtime = runtime_dir(environ)
        why = runtime_problem(runtime)
        return cls(not why, why, runtime)

    @cached_property
    def _files(self) -> tuple[dict, tuple[str, str, str]] | None:
        return self.given or site_files(self.runtime, self.wait)

    @property
    def ready(self) -> bool:
        """On, and packed: False while `mkdocs serve` makes the first pack in the background."""
        return self.on and self._files is not None

    @property
    def served(self) -> dict:
        return self._files[0]

    @property
    def script(self) -> str:
        """The name the page asks for: checker-<hash>.js (and style: checker-<hash>.css; worker: worker-<hash>.js)."""
        return self._files[1][0]

    @property
    def style(self) -> str:
        return self._files[1][1]

    @property
    def worker(self) -> str:
        return self._files[1][2]

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
    """Add the checker's stylesheet and script to a written page: to every page, since the theme's instant
    navigation keeps the first page's scripts for the pages it swaps in (the same tags on each: it keeps them).
    Nothing while the checker is still being prepared (`mkdocs serve` serves the first pages before its trace)."""
    if not checker.on or not checker.ready:
        return output
    from mkdocs.utils import get_relative_url

    from grader.judging.limits import time_limit

    base = get_relative_url(PUBLISHED, page_url or ".")
    tags = (
        f'<link rel="stylesheet" href="{base}/{checker.style}">'
        f'<script src="{base}/{checker.script}" data-worker="{checker.worker}" '
        f'data-limit="{time_limit() * WASM_SLOWDOWN:g}" data-sympy-budget="{SYMPY_BUDGET}" defer></script>'
    )
    return output.replace("</head>", tags + "</head>", 1)


# --- the files the site serves, each named by its content


def site_files(runtime: Path, wait: bool = True) -> tuple[dict[str, Path | str], tuple[str, str, str]] | None:
    """(path in assets/checker/ -> its source, (the script's, the stylesheet's and the worker's names)); None
    when ``wait`` is False and no pack is made yet (hooks/checker/pack.py makes it in the background).

    The runtime in ``pyodide-<hash>/`` (its three files keep the names Pyodide asks for), the zips of
    hooks/checker/pack.py, and the worker, told their names and sizes (its FILES) and the lock file's
    ``info`` (Pyodide reads nothing else of it here: no package is loaded)."""
    from hooks.checker import pack as checker_pack

    pinned = pinned_version() or ""
    runtime_paths = [runtime / name for name in SERVED_RUNTIME]
    folder = f"pyodide-{checker_pack.fingerprint_kept(runtime_paths, runtime)}/"
    served: dict[str, Path | str] = {folder + path.name: path for path in runtime_paths}
    zips = checker_pack.pack(runtime, pinned, wait=wait)
    if zips is None:
        return None
    served.update({path.name: path for path in zips.values()})
    manifest = {"runtime": folder, **{stage: path.name for stage, path in zips.items()},
                "sizes": {name: source.stat().st_size for name, source in served.items()},
                "lock": {"info": lock_info(runtime / "pyodide-lock.json"), "packages": {}}}
    texts = assets(manifest)
    names = {name: checker_pack.content_name(Path(name).stem, text.encode("utf-8"), Path(name).suffix) for name, text in texts.items()}
    served.update({names[name]: text for name, text in texts.items()})
    return served, (names["checker.js"], names["checker.css"], names["worker.js"])


_LOCK_INFO: dict[tuple, dict] = {}   # the lock file's info, by its path, size and time (`mkdocs serve`: once)


def lock_info(lock: Path) -> dict:
    """The ``info`` of Pyodide's lock file (a megabyte of JSON, read once while it stays the same)."""
    stat = lock.stat()
    key = (str(lock), stat.st_size, stat.st_mtime_ns)
    if key not in _LOCK_INFO:
        _LOCK_INFO.clear()
        _LOCK_INFO[key] = json.loads(lock.read_text(encoding="utf-8"))["info"]
    return _LOCK_INFO[key]


def assets(manifest: dict) -> dict[str, str]:
    """The script, the stylesheet and the worker as the site serves them: the script is loader.js
    (the worker, when it starts, the progress line) and checker.js (the answer boxes) joined in one
    function, so the page makes one request; the worker knows its files (``manifest``); all minified
    (rjsmin, rcssmin), so the page that loads the script and the stylesheet weighs about what it did
    before the checker."""
    import rcssmin
    import rjsmin

    from hooks.checker import pack as checker_pack

    read = lambda name: (ASSETS / name).read_text(encoding="utf-8")  # noqa: E731
    script = "(() => {\n\"use strict\";\n" + "\n".join(read(name) for name in SCRIPT_PARTS) + "\n})();\n"
    work = rjsmin.jsmin(read("work.js"))   # the student's work: a module the script imports when first needed
    if WORK_MARK not in script:
        raise RuntimeError(f"{ASSETS / 'checker.js'} lacks the line the build writes work.js's name into: {WORK_MARK}")
    script = script.replace(WORK_MARK, f"const WORK = {json.dumps(checker_pack.content_name('work', work.encode('utf-8'), '.js'))};")
    worker = read("worker.js")
    if FILES_MARK not in worker:
        raise RuntimeError(f"{ASSETS / 'worker.js'} lacks the line the build writes its files into: {FILES_MARK}")
    worker = worker.replace(FILES_MARK, f"const FILES = {json.dumps(manifest, sort_keys=True)};")
    return {"checker.js": rjsmin.jsmin(script), "checker.css": rcssmin.cssmin(read("checker.css")),
            "worker.js": rjsmin.jsmin(worker), "work.js": work}


def publish(site_dir: Path, checker: Checker) -> None:
    """Write the checker's files into the site, once per build (every locale's pages use them)."""
    if not checker.ready:
        return
    target = Path(site_dir) / PUBLISHED
    for name, source in checker.served.items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            copy(source, target / name)
        else:
            files.write_atomic(target / name, source)


def copy(source: Path, target: Path) -> None:
    """``source`` at ``target``: a second name for the same file where the disk allows it (the zips and the
    runtime weigh 20 MB: every `mkdocs serve` rebuild writes them), else a copy. Nothing writes into either."""
    target.unlink(missing_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
