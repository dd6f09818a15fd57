"""Where the browser tests keep their screenshots (tests/conftest.py counts them in the test report)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from filelock import FileLock

from tests.conftest import ROOT, run_root

SCREENSHOTS_ENV = "COURSE_SCREENSHOTS"


def screenshots_folder() -> Path:
    """`test-artifacts/screenshots/` in the project (git ignores it), or $COURSE_SCREENSHOTS."""
    return Path(os.environ.get(SCREENSHOTS_ENV) or ROOT / "test-artifacts" / "screenshots").resolve()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory, worker_id) -> Path:
    """The folder for `<locale>/<page>.png`, emptied of last run's screenshots once per run (by the first of
    the workers to ask)."""
    folder = screenshots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    root = run_root(tmp_path_factory, worker_id)
    with FileLock(str(root / "screenshots.lock")):
        if not (root / "screenshots.emptied").exists():
            for old in folder.glob("*/**/*.png"):
                old.unlink()
            (root / "screenshots.emptied").touch()
    return folder
