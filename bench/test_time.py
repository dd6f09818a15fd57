"""Where `make test`'s time goes: its wall time, and each test file's worker-seconds (its tests' setup, call and
teardown, from pytest's JUnit report), the longest first, with how evenly the workers were kept busy.

    python bench/test_time.py                 # runs `make test` (its lint too) and reports it
    python bench/test_time.py --junit FILE    # reports a run already made (make test PYTEST_ADDOPTS=--junitxml=FILE)

A file's worker-seconds are what it costs the run whichever core runs it: `make test`'s wall time is about their sum
over the cores (2 here), plus what no file accounts for (the lint, starting the workers, a worker waiting idle).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def seconds_by_file(junit: Path) -> tuple[Counter, float]:
    """Each test file's worker-seconds, and the run's own time as pytest reported it."""
    tree = ET.parse(junit).getroot()
    by_file: Counter = Counter()
    for case in tree.iter("testcase"):
        by_file[case.get("classname", "?").replace(".", "/") + ".py"] += float(case.get("time") or 0)
    suite = tree if tree.tag == "testsuite" else tree.find("testsuite")
    return by_file, float(suite.get("time") or 0)


def report(by_file: Counter, pytest_seconds: float, wall: float | None, cores: int, top: int) -> None:
    total = sum(by_file.values())
    if wall is not None:
        print(f"make test: {wall:.0f} s wall ({wall / 60:.1f} min)")
    print(f"pytest: {pytest_seconds:.0f} s; the files' worker-seconds: {total:.0f} s, over {cores} cores "
          f"{total / cores:.0f} s ({100 * total / cores / pytest_seconds:.0f} % of pytest's time)")
    for name, seconds in by_file.most_common(top):
        print(f"  {seconds:7.1f} s  {100 * seconds / total:4.1f} %  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--junit", type=Path, help="a JUnit report of a run already made")
    parser.add_argument("--top", type=int, default=20, help="how many files to list (20)")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    wall = None
    junit = args.junit
    if junit is None:
        junit = Path(tempfile.mkdtemp()) / "junit.xml"
        started = time.monotonic()
        ran = subprocess.run(["make", "test", f"PYTEST_ADDOPTS=--junitxml={junit}"], cwd=ROOT)
        wall = time.monotonic() - started
        if ran.returncode:
            print(f"make test failed (exit {ran.returncode}); its times below", file=sys.stderr)
    if not junit.is_file():
        print(f"{junit}: no JUnit report there (make test PYTEST_ADDOPTS=--junitxml={junit} writes one)", file=sys.stderr)
        return 2
    by_file, pytest_seconds = seconds_by_file(junit)
    report(by_file, pytest_seconds, wall, cores, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
