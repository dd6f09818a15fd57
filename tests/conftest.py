"""Shared fixtures: the real site, built once per test session with `mkdocs build --strict`; how long a test waits."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = [sys.executable, "-m", "mkdocs"]


SLOW_FOLDERS = ("site",)   # real site builds and the real browser

# Every wait of the slow tests (a browser's, a polling loop's, a subprocess's) is its time on an idle machine
# times this factor; the default lets them pass on a loaded 2-core machine (another `make test` beside them).
TIMEOUT_SCALE_ENV = "COURSE_TEST_TIMEOUT_SCALE"
DEFAULT_TIMEOUT_SCALE = 4.0


def timeout_scale(environ=os.environ) -> float:
    """The factor from $COURSE_TEST_TIMEOUT_SCALE (a number > 0), else the default."""
    text = environ.get(TIMEOUT_SCALE_ENV, "").strip()
    if not text:
        return DEFAULT_TIMEOUT_SCALE
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise pytest.UsageError(f"{TIMEOUT_SCALE_ENV}={text!r}: a number greater than 0 is expected "
                                f"(e.g. {TIMEOUT_SCALE_ENV}=2 doubles every wait; unset, it is {DEFAULT_TIMEOUT_SCALE:g})")
    return value


def wait_seconds(idle: float) -> float:
    """How long to wait for what takes up to `idle` seconds on an idle machine (subprocess timeouts, polling)."""
    return idle * timeout_scale()


def wait_ms(idle: float) -> float:
    """The same in milliseconds, as Playwright takes it."""
    return wait_seconds(idle) * 1000


def pytest_configure(config):
    timeout_scale()  # a bad value stops the run at once, with the fix
    config.addinivalue_line("markers", "slow: a real site build, the browser, or a long run (left out of `make test-fast`)")


RUN_STARTED = pytest.StashKey[float]()


def pytest_sessionstart(session):
    session.config.stash[RUN_STARTED] = time.time()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """How many screenshots the browser tests took in this run (said once, where the run is reported)."""
    from tests.site.conftest import pictures, screenshots_folder

    if hasattr(config, "workerinput"):
        return
    folder, started = screenshots_folder(), config.stash.get(RUN_STARTED, 0.0)
    count = sum(1 for shot in pictures(folder) if shot.stat().st_mtime >= started)
    if count:
        terminalreporter.write_sep("-", "what readers see")
        terminalreporter.write_line(f"{count} screenshots of the site's pages, per locale, in {folder}")


# `make test` hands its workers a file at a time (--dist loadfile: a file's module fixtures are made once), in
# the order the tests are collected (--no-loadscope-reorder: xdist's own order puts the files with the most tests
# first, so the files of a few long tests started last and ran alone on one core at the end): the files below
# first, longest first (`pytest --durations`), then the rest of the slow files, then the quick ones, which fill
# in wherever a core is free at the end. A file longer than a fair share of one core is handed out in parts
# (SPLIT; pytest_xdist_make_scheduler), each part on whichever worker is free, with its own module fixtures
# there (a browser, a served folder; the sites come from shared_builds, built once).
# The grader's files come before them: they need no site, and both cores run them while the real site builds in
# the background (pytest_collection_finish), so that no worker waits the first build out.
FIRST = "grader/"
LONGEST_FIRST = ("site/test_accessibility.py", "site/test_browser.py", "site/test_checker.py", "site/test_work_kept.py",
                 "site/test_exercises.py", "site/test_publish.py", "site/test_translation_status.py")
SPLIT = {"site/test_accessibility.py": 4, "site/test_browser.py": 2}


def run_order(path: Path, slow_files: set[Path]) -> tuple[int, int]:
    """Where a test file comes in the run: the grader's first; then its place in LONGEST_FIRST; else after them
    if it holds a slow test; else last. The same for every test of a file, so that a file's tests stay together, in their order."""
    name = path.relative_to(ROOT / "tests").as_posix()
    if name.startswith(FIRST):
        return (0, 0)
    if name in LONGEST_FIRST:
        return (1, LONGEST_FIRST.index(name))
    return (2, 0) if path in slow_files else (3, 0)


def run_groups(name: str, count: int) -> list[str]:
    """The unit of work of each of a file's `count` tests, in order: the file, or its SPLIT parts (name#1,
    name#2, ...), each a run of consecutive tests."""
    parts = min(SPLIT.get(name, 1), count)
    return [name if parts == 1 else f"{name}#{index * parts // count + 1}" for index in range(count)]


def pytest_collection_modifyitems(config, items):
    """Everything under tests/site/ is slow; other slow tests say so with @pytest.mark.slow. Then the files
    are put in run_order's order (a stable sort: every worker collects the same order)."""
    for item in items:
        if Path(str(item.fspath)).relative_to(ROOT / "tests").parts[0] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: run_order(item.path, slow_files))


def scopes(nodeids: list[str]) -> dict[str, str]:
    """The unit of work of each collected test under --dist loadfile: its file, or its file's part (run_groups)."""
    by_file: dict[str, list[str]] = {}
    for nodeid in nodeids:
        by_file.setdefault(nodeid.split("::", 1)[0], []).append(nodeid)
    found = {}
    for file, ids in by_file.items():
        found.update(zip(ids, run_groups(file.removeprefix("tests/"), len(ids))))
    return found


@pytest.hookimpl(optionalhook=True)   # xdist's hook: a run without xdist (make mutate: -p no:xdist) has none
def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, with the SPLIT files handed out in parts."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class InParts(LoadFileScheduling):
        parts: dict[str, str] = {}

        def schedule(self):
            if self.collection is None and self.registered_collections:
                self.parts = scopes(list(next(iter(self.registered_collections.values()))))
            super().schedule()

        def _split_scope(self, nodeid):
            return self.parts.get(nodeid) or super()._split_scope(nodeid)

    return InParts(config, log)


# GRADER_TIMEOUT as the run was given it (None: unset), before grader_time_limit scales it
GIVEN_TIME_LIMIT = os.environ.get("GRADER_TIMEOUT")


@pytest.fixture(autouse=True, scope="session")
def grader_time_limit():
    """The grader's limit on one check (GRADER_TIMEOUT, 5 s unset) is a wait like the others: scaled, so that a
    hostile answer a loaded machine proves in 6 s gets its verdict, not 'try again'. A test of the limit sets its
    own (tests/grader/test_not_decided.py, test_timeout_setting.py). The sites the tests build keep the run's own
    (run_mkdocs_build)."""
    os.environ.setdefault("GRADER_TIMEOUT", f"{min(600.0, 5 * timeout_scale()):g}")


@pytest.fixture(autouse=True, scope="session")
def grader_cache(tmp_path_factory):
    """The grader's reference cache in a temporary folder, not the user's home."""
    os.environ["GRADER_CACHE_DIR"] = str(tmp_path_factory.mktemp("grader-cache"))


@pytest.fixture(autouse=True)
def no_mutant_in_children(monkeypatch):
    """Under `make mutate`, mutmut 3 names the mutant under test in its own process and in MUTANT_UNDER_TEST: a
    child process a test starts on a copy of the mutated code (the grader's CLI, a cache's reader) must not inherit
    the name (its copy would look for mutmut's state and fail); the test's own process still knows it."""
    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)


def run_mkdocs_build(config: Path, site_dir: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` as `make build` runs it: the page's time limit (twice the command line's) is the
    site's own, not the one grader_time_limit scaled for the command-line tests (a slow answer's test would wait
    four times as long on the page, then for the grader's restart)."""
    environ = {key: value for key, value in os.environ.items() if key != "GRADER_TIMEOUT"}
    if GIVEN_TIME_LIMIT is not None:
        environ["GRADER_TIMEOUT"] = GIVEN_TIME_LIMIT
    environ.update({"NO_MKDOCS_2_WARNING": "1", **(env or {})})
    return subprocess.run(
        [*MKDOCS, "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=wait_seconds(150),
    )


def run_root(tmp_path_factory, worker_id: str) -> Path:
    """The folder this test run shares between its pytest-xdist workers (each has its own basetemp in it)."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


class SharedBuilds:
    """Sites built once per test run, by whichever worker asks first: the others wait for it, then read the
    same folder. A build that fails is tried again by the next test that asks, and fails there too."""

    def __init__(self, root: Path):
        self.root = root

    def get(self, name: str, build: Callable[[Path], Path]) -> Path:
        """The site ``build(folder)`` returns (a folder inside ``folder``), built once under ``name``."""
        folder, done = self.root / "builds" / name, self.root / "builds" / f"{name}.built"
        folder.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(folder.parent / f"{name}.lock")):
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                done.write_text(str(build(folder).relative_to(folder)), encoding="utf-8")
        return folder / done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def shared_builds(tmp_path_factory, worker_id) -> SharedBuilds:
    return SharedBuilds(run_root(tmp_path_factory, worker_id))


def pytest_collection_finish(session):
    """When a collected test needs the real site, its build starts now, in a thread (its lock taken by whichever
    worker comes first), while the first tests run; a test that needs it waits for it there (built_site)."""
    config = session.config
    if config.option.collectonly or not any("built_site" in getattr(item, "fixturenames", ()) for item in session.items):
        return
    worker = config.workerinput["workerid"] if hasattr(config, "workerinput") else "master"
    builds = SharedBuilds(run_root(config._tmp_path_factory, worker))

    def build_ahead():
        try:
            builds.get("site", build_real_site)
        except Exception:   # noqa: BLE001 - the first test that needs the site builds it again, and fails with why
            pass

    threading.Thread(target=build_ahead, daemon=True).start()


def build_real_site(folder: Path) -> Path:
    result = run_mkdocs_build(ROOT / "mkdocs.yml", folder / "site")
    assert result.returncode == 0, result.stderr[-4000:]
    return folder / "site"


@pytest.fixture(scope="session")
def built_site(shared_builds) -> Path:
    """The real site, `mkdocs build --strict`, once per test run."""
    return shared_builds.get("site", build_real_site)
