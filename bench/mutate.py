"""How many planted bugs the fast tests catch: mutmut over the modules `[tool.mutmut]` lists.

    python bench/mutate.py            run mutmut (at the lowest priority), then print the scores
    python bench/mutate.py --report   print the scores of what earlier runs checked, run nothing

mutmut (from PyPI: `pip install -e '.[mutation]'`) copies the tree into mutants/ (not in git),
changes one thing at a time in grader/reading/parse.py, compare.py, check.py, fast.py, store.py,
hooks/chapter.py and hooks/blockspec.py (an operator, a constant, a returned value...), and runs the
fast tests that reach the function it changed. A mutant is killed when a test fails or it runs out
of time; it survives when every test passes; "no test" means no fast test calls that function in
process. The score is killed out of checked, per module and in all; the target is 85 %. A run that
is stopped keeps what it checked (a later run resumes), so the report says how many are unchecked.
`mutmut results` lists the survivors and `mutmut show NAME` shows one. A benchmark: CI does not run it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = Path(sys.executable).with_name("mutmut")
TARGET = 0.85

# mutmut's exit codes for a mutant (mutmut/stats.py); anything else is a crash of its test run
VERDICT = {1: "killed", 3: "killed", 0: "survived", 5: "no test", 33: "no test", 34: "skipped",
           36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "unchecked"}


def modules() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["mutmut"]["only_mutate"]


def verdicts(module: str) -> Counter:
    """How many mutants of ``module`` got each verdict, from the record mutmut keeps beside its copy."""
    meta = ROOT / "mutants" / f"{module}.meta"
    if not meta.exists():
        return Counter()
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].values()
    return Counter(VERDICT.get(code, "crashed") for code in codes)


def score_line(name: str, counts: Counter) -> str:
    total = sum(counts.values())
    killed = counts["killed"] + counts["timeout"]
    checked = total - counts["unchecked"] - counts["skipped"]
    share = f"{killed / checked:6.1%}" if checked else "     -"
    return (f"{name:<20} {share}  {killed:5d} / {checked:<5d} killed   {counts['survived']:4d} survived   "
            f"{counts['no test']:4d} no test   {counts['timeout']:4d} timeouts   {counts['unchecked']:4d} unchecked "
            f"of {total}")


def report() -> Counter:
    everything = Counter()
    for module in modules():
        counts = verdicts(module)
        everything += counts
        print(score_line(module, counts))
    print(score_line("all", everything))
    return everything


def main(argv: list[str]) -> int:
    if argv not in ([], ["--report"]):
        print(__doc__)
        return 2
    ran = subprocess.CompletedProcess([], 0)
    if not argv:
        if not MUTMUT.exists():
            print(f"mutmut is not installed in {MUTMUT.parent}: pip install -e '.[mutation]'", file=sys.stderr)
            return 2
        # the lowest priority: the machine running the benchmark may be shared
        ran = subprocess.run(["nice", "-n", "19", str(MUTMUT), "run"], cwd=ROOT, env={**os.environ, "NO_COLOR": "1"})
        if ran.returncode != 0:
            # mutmut could not run the tests on its copy (a failing test, a file the copy lacks): the
            # scores below are earlier runs' only
            print(f"mutmut run stopped with exit code {ran.returncode}: run `mutmut run` to see why; "
                  "the scores below are what earlier runs checked", file=sys.stderr)
    counts = report()
    checked = sum(counts.values()) - counts["unchecked"] - counts["skipped"]
    score = (counts["killed"] + counts["timeout"]) / checked if checked else 0.0
    verdict = "met" if score >= TARGET else "not met"
    if counts["unchecked"]:
        verdict += f" so far ({counts['unchecked']} mutants unchecked: run it again to go on)"
    print(f"target: {TARGET:.0%} killed; {verdict}")
    return 0 if argv or ran.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
