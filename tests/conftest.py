"""Shared fixtures: the real site, built once per test session with `mkdocs build --strict`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = [sys.executable, "-m", "mkdocs"]


SLOW_FOLDERS = ("site",)   # real site builds and the real browser


def pytest_configure(config):
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
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site")
    result = run_mkdocs_build(ROOT / "mkdocs.yml", site_dir)
    assert result.returncode == 0, result.stderr[-4000:]
    return site_dir
