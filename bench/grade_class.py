"""Benchmark: an instructor grading a class with `grader grade`.

    python bench/grade_class.py [--students N]

Writes N submissions (alternating the two example files) to a temporary folder,
grades them with the real command, and prints the wall time, the time per
submission and the peak memory of the run (children included).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    args = parser.parse_args()
    examples = [ROOT / "examples" / "alice.toml", ROOT / "examples" / "bob.toml"]
    grader = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(args.students):
            path = Path(tmp) / f"student{i:03d}.toml"
            shutil.copy(examples[i % 2], path)
            files.append(str(path))
        start = time.perf_counter()
        result = subprocess.run([grader, "grade", *files, "--csv", str(Path(tmp) / "grades.csv")],
                                capture_output=True, text=True)
        elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):
        sys.exit(f"grader grade failed ({result.returncode}): {result.stderr}")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    parts = sum(1 for line in result.stdout.splitlines()[1:] if line.strip())
    print(f"submissions graded:   {parts}")
    print(f"wall time:            {elapsed:.2f} s")
    print(f"per submission:       {1000 * elapsed / args.students:.0f} ms (19 parts each)")
    print(f"peak memory (child):  {peak_mb:.0f} MiB")


if __name__ == "__main__":
    main()
