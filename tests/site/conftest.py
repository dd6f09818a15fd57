"""Where the browser tests keep their screenshots, and the line of the test report that says so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import ROOT

SCREENSHOTS_ENV = "COURSE_SCREENSHOTS"
SCREENSHOTS_KEY = pytest.StashKey[Path]()


def screenshots_folder() -> Path:
    """`test-artifacts/screenshots/` in the project (git ignores it), or $COURSE_SCREENSHOTS."""
    return Path(os.environ.get(SCREENSHOTS_ENV) or ROOT / "test-artifacts" / "screenshots").resolve()


@pytest.fixture(scope="session")
def screenshots(request) -> Path:
    """The folder for `<locale>/<page>.png`, emptied of last run's screenshots."""
    folder = screenshots_folder()
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*/**/*.png"):
        old.unlink()
    request.config.stash[SCREENSHOTS_KEY] = folder
    return folder


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    folder = config.stash.get(SCREENSHOTS_KEY, None)
    if folder is not None:
        count = len(list(folder.glob("*/**/*.png")))
        terminalreporter.write_sep("-", "what readers see")
        terminalreporter.write_line(f"{count} screenshots of the site's pages, per locale, in {folder}")
