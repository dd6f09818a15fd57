"""Benchmark: the class report of 10,000 students, `grader report OUT_DIR`.

    python bench/report_class.py [--students 10000] [--jobs 2] [--runs 3]

1. Writes N submissions with bench/grade_class.py's generator (right answers in many
   forms, decimals, named mistakes, random wrong numbers that are mostly unique,
   unparsable and hostile text, parts left out) and grades them with the real
   `grader grade DIR --out OUT` (timed, for reference).
2. Times `grader report OUT` (process start to exit, median of --runs) and prints its
   peak memory (the report's own process), with the numbers it reported.
3. The same results marked as a `--variants` run (every student's seed is their id, as
   `grader grade --variants` writes it: 10,000 variants), reported and timed again.

Target: a class of 10,000 reported in under 5 s.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.grade_class import generate  # noqa: E402

# The report in a process of its own; last on stderr: the peak resident memory (KiB) of the
# process and of its largest worker, and the CPU seconds of the process and of its workers.
REPORT = ("import resource, sys; from grader.cli.main import main; code = main(sys.argv[1:]); "
          "me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)); "
          "print(me.ru_maxrss, kids.ru_maxrss, me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime, file=sys.stderr); "
          "sys.exit(code)")


def report(out: Path, runs: int) -> tuple[float, float, list[float], tuple[float, float]]:
    """(median seconds, peak MiB of the process or a worker, every run's seconds, the least
    CPU seconds of the process and of its workers) of `grader report out`."""
    times, peak, cpu = [], 0.0, []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", REPORT, "report", str(out), "--lang", "en"],
                              capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"grader report failed ({proc.returncode}): {proc.stderr}")
        rss, worker_rss, mine, workers = proc.stderr.strip().splitlines()[-1].split()
        peak = max(peak, int(rss) / 1024, int(worker_rss) / 1024)
        cpu.append((float(mine), float(workers)))
    return statistics.median(times), peak, times, min(cpu, key=sum)


def as_variants(source: Path, target: Path) -> None:
    """The same results as a `--variants` run writes them: each student's seed is their id."""
    target.mkdir()
    with (source / "results.jsonl").open(encoding="utf-8") as src, \
            (target / "results.jsonl").open("w", encoding="utf-8") as dst:
        for line in src:
            record = json.loads(line)
            record.update(seed=record["student"], variants=True)
            dst.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2, help="workers of the grading run")
    parser.add_argument("--runs", type=int, default=3, help="runs of the report (median shown)")
    args = parser.parse_args()
    grader = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
    print(f"machine:          {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
          "at start (shared: timings are noisy, medians shown)")
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "class", Path(tmp) / "out"
        folder.mkdir()
        written = generate(folder, args.students)
        start = time.perf_counter()
        proc = subprocess.run([grader, "grade", str(folder), "--out", str(out), "--jobs",
                               str(args.jobs), "--format", "json"], capture_output=True, text=True)
        graded = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            sys.exit(f"grader grade failed ({proc.returncode}): {proc.stderr}")
        size = (out / "results.jsonl").stat().st_size / 2**20
        print(f"class:            {args.students} students, {len(written)} answers; graded by "
              f"`grader grade --jobs {args.jobs}` in {graded:.1f} s; results.jsonl {size:.0f} MiB")
        elapsed, peak, times, (mine, workers) = report(out, args.runs)
        tables = json.loads((out / "report.json").read_text(encoding="utf-8"))
        parts = [p for ex in tables["exercises"] for p in ex["parts"]]
        html = (out / "report.html").stat().st_size / 1024
        print(f"grader report:    {elapsed:.2f} s median of {args.runs} "
              f"({', '.join(f'{t:.2f}' for t in times)}; process start to exit)  "
              f"target < 5 s: {'met' if elapsed < 5 else 'NOT met'}")
        print(f"peak memory:      {peak:.0f} MiB (the report's process or its largest worker)")
        print(f"CPU time:         {mine:.2f} s in the report's process + {workers:.2f} s in its "
              f"workers (least of {args.runs}; on a busy machine the wall time is several times this "
              "share of the cores)")
        print(f"reported:         {tables['summary']['graded']} graded, {len(parts)} parts, "
              f"{sum(len(p['wrong_answers']) for p in parts)} common wrong answers listed, "
              f"report.html {html:.0f} KiB")
        variant_out = Path(tmp) / "variants"
        as_variants(out, variant_out)
        elapsed, peak, times, (mine, workers) = report(variant_out, args.runs)
        seeds = json.loads((variant_out / "report.json").read_text(encoding="utf-8"))["variants"]["seeds"]
        print(f"with --variants:  {elapsed:.2f} s median of {args.runs} "
              f"({', '.join(f'{t:.2f}' for t in times)}), peak {peak:.0f} MiB, CPU {mine:.2f} + "
              f"{workers:.2f} s, {seeds} variants  "
              f"target < 5 s: {'met' if elapsed < 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
