"""Benchmark: one `grader check` from the command line, as a ratio to `python -c "import sympy"`.

    python bench/check_speed.py [--runs 9]

Each command is started afresh (process start to exit) `--runs` times, interleaved with the
`import sympy` baseline so a busy moment weighs on both; medians are shown. The fast path's
reference table is computed once before timing (as it is on a student's machine after the first
check), and so is the bytecode of the grader's modules (as pip, or the first run, writes it).
The grader exits without tearing the interpreter down (:func:`grader.cli.main.run`), which the
yardstick still does; so each figure is also given against importing SymPy without that teardown.
Targets (issue 12): a plain number and a vector of plain decimals at most 0.3x, an exact
form at most 1.2x.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _decimal(value, digits: int = 4) -> str:
    import sympy
    return f"{float(sympy.N(value, 30)):.{digits}g}"


def cases() -> list[tuple[str, list[str], float]]:
    """The checks timed, each drawn from the registry (no exercise is named here): (what, the
    arguments of `grader check`, the target ratio)."""
    import sympy

    from grader import bank
    from grader.reading.show import show

    parts = [(ex.id, p) for ex in bank.EXERCISES.values() for p in ex.parts]
    irrational = lambda v: not sympy.sympify(v).is_Rational  # noqa: E731
    real = next((e, p) for e, p in parts if p.kind == "real" and irrational(p.reference))
    rational = next((e, p) for e, p in parts if p.kind == "real" and not irrational(p.reference)
                    and not p.reference.is_Integer)
    vector = next((e, p) for e, p in parts if p.kind == "vector" and any(map(irrational, p.reference)))
    point_set = next((e, p) for e, p in parts if p.kind == "set")
    points = ", ".join("(" + ", ".join(_decimal(c) for c in point) + ")" for point in point_set[1].reference)
    return [
        ("plain number", [real[0], real[1].id, _decimal(real[1].reference)], 0.3),
        ("vector of plain decimals", [vector[0], vector[1].id,
                                      "(" + ", ".join(_decimal(c) for c in vector[1].reference) + ")"], 0.3),
        ("set of plain decimals", [point_set[0], point_set[1].id, "{" + points + "}"], 0.3),
        (f"exact form sqrt({show(rational[1].reference ** 2)})",
         [rational[0], rational[1].id, f"sqrt({show(rational[1].reference ** 2)})"], 1.2),
        ("exact form of a vector", [vector[0], vector[1].id,
                                    "(" + ", ".join(show(c) for c in vector[1].reference) + ")"], 1.2),
    ]


def seconds(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    env = {**os.environ, "GRADER_CACHE_DIR": tempfile.mkdtemp(prefix="grader-bench-")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)    # compiled once, as pip or a first run does on a student's machine
    grader = [sys.executable, "-m", "grader.cli", "check"]
    CASES = cases()
    subprocess.run([*grader, *CASES[0][1]], env=env, capture_output=True, check=False)   # the table, once
    baseline, quick_exit, times = [], [], {name: [] for name, _, _ in CASES}
    for _ in range(args.runs):
        baseline.append(seconds([sys.executable, "-c", "import sympy"], env))
        quick_exit.append(seconds([sys.executable, "-c", "import os, sympy; os._exit(0)"], env))
        for name, case, _ in CASES:
            times[name].append(seconds([*grader, *case], env))
    sympy_time, import_only = statistics.median(baseline), statistics.median(quick_exit)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; medians of {args.runs} runs")
    print(f"python -c 'import sympy': {1000 * sympy_time:.0f} ms (the yardstick), of which "
          f"{1000 * (sympy_time - import_only):.0f} ms tear the interpreter down at exit")
    print("(the grader exits without that teardown: the second ratio is against the import alone)")
    for name, _, target in CASES:
        median = statistics.median(times[name])
        ratio = median / sympy_time
        verdict = "met" if ratio <= target else "NOT met"
        print(f"grader check, {name + ':':28} {1000 * median:6.0f} ms  {ratio:.2f}x  (target <= {target}x: "
              f"{verdict}; {median / import_only:.2f}x the import alone)")


if __name__ == "__main__":
    main()
