"""Shared fixtures: the real site, built once per test session with `mkdocs build --strict`; how long a test waits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def pytest_collection_modifyitems(config, items):
    """Everything under tests/site/ is slow; other slow tests say so with @pytest.mark.slow."""
    for item in items:
        if Path(str(item.fspath)).relative_to(ROOT / "tests").parts[0] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="session")
def grader_cache(tmp_path_factory):
    """The grader's reference cache in a temporary folder, not the user's home."""
    os.environ["GRADER_CACHE_DIR"] = str(tmp_path_factory.mktemp("grader-cache"))


def run_mkdocs_build(config: Path, site_dir: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(
        [*MKDOCS, "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=wait_seconds(150),
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site")
    result = run_mkdocs_build(ROOT / "mkdocs.yml", site_dir)
    assert result.returncode == 0, result.stderr[-4000:]
    return site_dir
