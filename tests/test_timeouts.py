"""COURSE_TEST_TIMEOUT_SCALE: every wait of the slow tests is scaled by it; a value that is no factor stops the run
at once, with the fix."""
import os
import subprocess
import sys

import pytest

from tests.conftest import DEFAULT_TIMEOUT_SCALE, ROOT, TIMEOUT_SCALE_ENV, timeout_scale, wait_ms, wait_seconds


def test_the_factor_scales_every_wait(monkeypatch):
    assert timeout_scale({}) == timeout_scale({TIMEOUT_SCALE_ENV: " "}) == DEFAULT_TIMEOUT_SCALE
    assert timeout_scale({TIMEOUT_SCALE_ENV: " 2.5 "}) == 2.5
    monkeypatch.setenv(TIMEOUT_SCALE_ENV, "10")
    assert wait_seconds(3) == 30 and wait_ms(3) == 30_000


@pytest.mark.parametrize("value", ["abc", "0", "nan"])
def test_a_value_that_is_no_factor_stops_the_run_with_the_fix(value):
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "--co", "-p", "no:cacheprovider", "tests/test_layout.py"],
                         cwd=ROOT, env={**os.environ, TIMEOUT_SCALE_ENV: value}, capture_output=True, text=True, timeout=60)
    said = ran.stdout + ran.stderr
    assert ran.returncode == 4 and f"{TIMEOUT_SCALE_ENV}={value!r}: a number greater than 0 is expected" in said, said
    assert "Traceback" not in said
