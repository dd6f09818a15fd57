"""Where the browser tests keep their screenshots (tests/conftest.py counts them in the test report)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from filelock import FileLock

from tests.conftest import ROOT, run_root

SCREENSHOTS_ENV = "COURSE_SCREENSHOTS"
# a whole page is kept as a JPEG: to look at, it shows what a PNG shows, and the browser writes it in about half
# the time (0.28 s against 0.48 s for a lesson, 0.53 s against 1.2 s for the longest page, measured)
SHOT_QUALITY = 80


def pictures(folder: Path) -> list[Path]:
    """The screenshots in `folder`'s locale folders: the pages' JPEGs and the PNGs of parts of pages."""
    return [path for pattern in ("*/**/*.jpg", "*/**/*.png") for path in folder.glob(pattern)]


def screenshots_folder() -> Path:
    """`test-artifacts/screenshots/` in the project (git ignores it), or $COURSE_SCREENSHOTS."""
    return Path(os.environ.get(SCREENSHOTS_ENV) or ROOT / "test-artifacts" / "screenshots").resolve()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory, worker_id) -> Path:
    """The folder for `<locale>/<page>.jpg` (and the few `.png` of parts of pages), emptied of last run's screenshots once per run (by the first of
    the workers to ask)."""
    folder = screenshots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    root = run_root(tmp_path_factory, worker_id)
    with FileLock(str(root / "screenshots.lock")):
        if not (root / "screenshots.emptied").exists():
            for old in pictures(folder):
                old.unlink()
            (root / "screenshots.emptied").touch()
    return folder
