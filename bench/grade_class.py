"""Benchmark: an instructor grading a class with `grader grade`, against a naive reference.

    python bench/grade_class.py [--students 10000] [--jobs 2] [--sample 300]
                                [--grade-runs 3] [--runs 7] [--variant-students 10000]

1. Writes N submissions (every exercise of the registry, every part) with a realistic mix of
   answers: right in the reference's exact form, equivalent exact forms,
   decimals (precise and imprecise), named mistakes, random wrong numbers,
   unparsable text, hostile text, and a few parts left out. Answers repeat as
   they do in a class, and the random wrong numbers are mostly unique.
2. Grades the folder with the real command, `grader grade DIR --out OUT --jobs J`
   (process start to exit), and prints answers and students per second and the peak memory
   of that process tree.
3. Grades a sample of the same answers with a naive reference (SymPy's
   `sympify` + `simplify` on each answer, in this process) and prints its
   throughput, the ratio, and whether both give the same verdict (full marks or
   not) on every sampled answer. The naive reference executes what it parses,
   so it is never given the hostile answers: they are left out of its sample.
4. With variants: writes --variant-students submissions, each answering the student's own
   variant with the same mix (from the variant's references in plain numbers; every twentieth
   student from its SymPy references, in exact forms), grades them with
   `grader grade --variants`, prints students per second, and checks a sample against the
   naive reference on each student's variant.
5. Times `grader check` on one numeric answer (process start to exit) against
   `python -c "import sympy"`, medians of --runs runs, and says whether that
   check imported SymPy.

Targets (issue 12): 10,000 submissions in under 10 s, and with --variants in under 60 s, with
--jobs 2 on a 2-core machine; at least 20 times the naive throughput.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sympy  # noqa: E402  (the benchmark itself may use SymPy freely)

from grader import bank  # noqa: E402
from grader.arithmetic.intervals import Approx, Undecided  # noqa: E402
from grader.model import targets  # noqa: E402
from grader.reading.show import show as show_value  # noqa: E402

HOSTILE = ["__import__('os').system('true')", "().__class__.__base__.__subclasses__()",
           "9**9**9**9", "10**10**10", "exp(exp(exp(exp(exp(10)))))", "2**2**2**2**2**2",
           "(" * 150 + "1" + ")" * 150, "sqrt(" * 60 + "2" + ")" * 60, "1" * 600,
           "[i for i in range(10**9)]", "lambda: 1", "open('/etc/passwd')", "1e999999999"]
UNPARSABLE = ["(1, 2 3)", "sqrt(14", "1/2/", "x + 1", "3 0", "half", "1,,2", "()", "",
              "sqrt 2", "2x"]
MIX = [("right", 30), ("equivalent", 10), ("decimal", 20), ("imprecise", 5), ("mistake", 14),
       ("random", 11), ("unparsable", 6), ("hostile", 2), ("missing", 2)]


def show(value) -> str:
    return show_value(value)


def decimal(value, digits: int) -> str:
    return f"{float(sympy.N(value, 30)):.{digits}g}"


def sympy_value(value):
    """A reference or named mistake of a variant in plain numbers (:func:`grader.bank.numeric`)
    as SymPy: a rational exactly, an irrational one as a 15-digit decimal (it has no exact form
    there; the students given exact forms get their variant in SymPy)."""
    if isinstance(value, Approx):
        return sympy.Float(str(value.mid()), 15)
    if isinstance(value, (tuple, list)):
        return tuple(sympy_value(v) for v in value)
    return sympy.sympify(value)


def vector_text(items, brackets="()") -> str:
    return brackets[0] + ", ".join(items) + brackets[1]


class Lazy(dict):
    """Categories of answers, each computed when first asked for (a student on a variant needs
    one category per part)."""

    def __init__(self, makers: dict):
        super().__init__()
        self.makers = makers

    def __missing__(self, category: str):
        value = self[category] = self.makers[category]()
        return value


def pools(part, exercise=None) -> dict[str, list[str]]:
    """The answers students give to one part (of ``exercise``: a variant; else the lesson's), by
    category (none typed: all from the bank)."""
    exercise = exercise or bank.get(part_exercise[part.id])
    on_variant = exercise.seed is not None
    ref = sympy_value(part.reference) if on_variant else part.reference
    mistakes = lambda: [sympy_value(v) if on_variant else v  # noqa: E731
                        for _, entries in targets.mistakes(exercise, part.id)
                        for v in [entries if part.kind == "vector" else entries[0]]]
    if part.kind in ("real", "integer"):
        exact = show(ref)
        right = lambda: [exact]  # noqa: E731
        equivalent = lambda: sorted({f"2*({exact})/2", f"({exact}) + 0", f"3*({exact}) - 2*({exact})",  # noqa: E731
                                     show(sympy.together(ref)), show(sympy.radsimp(ref))} - {exact})
        decimals = lambda: ([decimal(ref, d) for d in (3, 4, 5, 6)] if part.kind == "real"  # noqa: E731
                            else [f"{int(ref)}"])
        imprecise = lambda: [decimal(ref * sympy.Rational(103, 100), 4)] if ref != 0 else ["0.01"]  # noqa: E731
        wrong = lambda: ([show(m) for m in mistakes()]  # noqa: E731
                         + [decimal(m, 3) for m in mistakes() if m != 0])
        random_wrong = lambda rng: (str(rng.randint(0, 40)) if part.kind == "integer"  # noqa: E731
                                    else f"{rng.uniform(0, 3):.4f}")
    elif part.kind == "vector":
        comps = [show(c) for c in ref]
        right = lambda: [vector_text(comps)]  # noqa: E731
        equivalent = lambda: [vector_text(comps, "[]"), vector_text([f"2*({c})/2" for c in comps]),  # noqa: E731
                              vector_text([show(sympy.together(c)) for c in ref])]
        decimals = lambda: [vector_text([decimal(c, d) if c != 0 else "0" for c in ref])  # noqa: E731
                            for d in (3, 4, 6)]
        imprecise = lambda: [vector_text([decimal(c * sympy.Rational(102, 100), 3) if c != 0 else "0"  # noqa: E731
                                          for c in ref])]
        wrong = lambda: ([vector_text([show(c) for c in m]) for m in mistakes()]  # noqa: E731
                         + [vector_text([decimal(c, 3) if c != 0 else "0" for c in m]) for m in mistakes()]
                         + [vector_text(list(reversed(comps)))])
        random_wrong = lambda rng: vector_text([f"{rng.uniform(0, 1):.3f}"  # noqa: E731
                                                for _ in comps])
    else:   # set
        points = [vector_text([show(c) for c in p]) for p in ref]
        right = lambda: ["{" + ", ".join(points) + "}"]  # noqa: E731
        equivalent = lambda: ["[" + ", ".join(points[::-1]) + "]",  # noqa: E731
                              "{" + ", ".join(points[1:] + points[:1]) + "}"]
        decimals = lambda: ["{" + ", ".join(vector_text([decimal(c, 3) for c in p]) for p in ref) + "}"]  # noqa: E731
        imprecise = decimals
        wrong = lambda: ["{" + ", ".join(points[:-1]) + "}", "{" + ", ".join(points + ["(0, 0, 1)"]) + "}",  # noqa: E731
                         "{(1, 0, 0), (0, 1, 0), (0, 0, 1)}", "{" + ", ".join(points + points[:1]) + "}"]
        random_wrong = lambda rng: "{" + ", ".join(  # noqa: E731
            vector_text([f"{rng.randint(0, 4)}/4" for _ in range(3)]) for _ in range(4)) + "}"
    return Lazy({"right": right, "equivalent": lambda: equivalent() or right(), "decimal": decimals,
                 "imprecise": imprecise, "mistake": lambda: wrong() or imprecise(),
                 "random": lambda: random_wrong, "unparsable": lambda: UNPARSABLE,
                 "hostile": lambda: HOSTILE})


def variant_answers(part, exercise, category: str):
    """A category of :func:`pools` of a variant's part; from its SymPy references where plain
    numbers cannot say (a named mistake that is 0 only exact arithmetic can tell)."""
    try:
        return pools(part, exercise)[category]
    except Undecided:
        exact = bank.variant(exercise.id, exercise.seed)
        return pools(exact.part(part.id), exact)[category]


part_exercise = {p.id: ex.id for ex in bank.EXERCISES.values() for p in ex.parts}


def generate(folder: Path, students: int, seed: int = 7,
             mix: list[tuple[str, int]] = MIX, on_variants: bool = False) -> list[tuple[str, str, str, str]]:
    """Write the class (``mix``: the categories of answers and their weights); return every
    (exercise, part, answer, category) written. ``on_variants``: each student answers their own
    variant (seeded by their id, as `grader grade --variants` draws it): from its references in
    plain numbers, and every twentieth student from its SymPy references (exact forms)."""
    rng = random.Random(seed)
    table = {(ex.id, p.id): pools(p) for ex in bank.EXERCISES.values() for p in ex.parts} if not on_variants else {}
    categories = [c for c, w in mix for _ in range(w)]
    written = []
    for i in range(students):
        student = f"student{i:05d}"
        lines = []
        for ex in bank.EXERCISES.values():
            if on_variants:
                ex = bank.variant(ex.id, student) if i % 20 == 0 else bank.numeric(ex.id, student)
            lines.append(f'["{ex.id}"]')
            for p in ex.parts:
                category = rng.choice(categories)
                if category == "missing":
                    continue
                choices = (variant_answers(p, ex, category) if on_variants
                           else table[(ex.id, p.id)][category])
                answer = choices(rng) if callable(choices) else rng.choice(choices)
                written.append((ex.id, p.id, answer, category, student if on_variants else None))
                lines.append(f"{p.id} = {json.dumps(answer)}")
        (folder / f"{student}.toml").write_text("\n".join(lines) + "\n")
    return [w[:4] for w in written] if not on_variants else written


# --- the naive reference ----------------------------------------------------

NAIVE_NAMES = {"e": sympy.E, "E": sympy.E, "ln": sympy.log, "pi": sympy.pi}


def naive_equal(a, r, tolerant: bool) -> bool:
    """simplify(answer - reference): zero, or within 0.5 % for a decimal answer."""
    a = sympy.sympify(a)
    difference = sympy.simplify(a - r)
    if tolerant and a.has(sympy.Float):
        bound = 0.005 * abs(float(r)) if r != 0 else 0.0005
        return abs(float(sympy.N(difference))) <= bound
    return difference == 0


def naive_verdict(part, text: str) -> bool:
    """Full marks or not, by sympify + simplify (executes the text: never give it hostile input)."""
    try:
        if part.kind == "set":   # a Python set would merge duplicate points: keep them
            text = text.replace("{", "[").replace("}", "]")
        value = sympy.sympify(text.replace("^", "**"), locals=NAIVE_NAMES)
        ref = part.reference
        if part.kind in ("real", "integer"):
            return naive_equal(value, ref, part.kind == "real")
        if part.kind == "vector":
            items = list(value)
            return len(items) == len(ref) and all(naive_equal(a, r, True)
                                                  for a, r in zip(items, ref))
        points = [tuple(p) for p in value]
        left = [tuple(p) for p in ref]
        for point in points:
            hit = next((q for q in left if len(q) == len(point)
                        and all(naive_equal(a, r, True) for a, r in zip(point, q))), None)
            if hit is None:
                return False
            left.remove(hit)
        return not left
    except Exception:   # noqa: BLE001 - whatever sympify cannot take is not full marks
        return False


def naive_main() -> None:
    """The naive reference in a process of its own (SymPy's caches as cold as a real
    grader's at its start): the sample on stdin, (seconds, verdicts) on stdout; the
    import and the bank are not timed."""
    sample = json.loads(sys.stdin.read())
    parts = [(bank.variant(w[0], w[4]) if w[4:] else bank.get(w[0])).part(w[1]) for w in sample]
    start = time.perf_counter()
    verdicts = [naive_verdict(part, w[2]) for part, w in zip(parts, sample)]
    print(json.dumps([time.perf_counter() - start, verdicts]))


def grade(folder: Path, out: Path, jobs: int, *options: str) -> tuple[float, dict, dict]:
    """`grader grade` on the folder (process start to exit): its seconds, its JSON summary and
    each answer's verdict by (exercise, part, answer, student or None)."""
    grader = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
    start = time.perf_counter()
    proc = subprocess.run([grader, "grade", str(folder), "--out", str(out), "--jobs", str(jobs),
                           "--format", "json", *options], capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"grader grade failed ({proc.returncode}): {proc.stderr}")
    verdicts = {}
    with (out / "results.jsonl").open() as fh:
        for line in fh:
            rec = json.loads(line)
            student = rec["student"] if "--variants" in options else None
            for ex in rec["exercises"]:
                for p in ex["parts"]:
                    if p["answer"] is not None:
                        verdicts[(ex["id"], p["id"], p["answer"], student)] = p["correct"]
    return elapsed, json.loads(proc.stdout), verdicts


def agreement(written: list, ours: dict, size: int, runs: int, label: str) -> None:
    """Grade a sample of the answers with the naive reference; print its throughput and whether
    both give the same verdict (full marks or not) on each."""
    rng = random.Random(11)
    judgeable = [w for w in written if w[3] != "hostile"]
    sample = rng.sample(judgeable, min(size, len(judgeable)))
    naive_times = []
    for _ in range(runs):
        naive = subprocess.run([sys.executable, __file__, "--naive"], input=json.dumps(sample),
                               capture_output=True, text=True, check=True)
        naive_time, verdicts = json.loads(naive.stdout)
        naive_times.append(naive_time)
    naive_time = statistics.median(naive_times)
    disagreements = [(w, ours[(*w[:3], w[4] if w[4:] else None)], verdict)
                     for w, verdict in zip(sample, verdicts)
                     if ours[(*w[:3], w[4] if w[4:] else None)] != verdict]
    hostile = sum(1 for w in written if w[3] == "hostile")
    print(f"naive reference{label}: {len(sample) / naive_time:.1f} answers/s (sympify + simplify, "
          f"{len(sample)} sampled answers, in a fresh process, median of {len(naive_times)})")
    print(f"verdicts agree{label}:  {len(sample) - len(disagreements)}/{len(sample)} (full marks or not; "
          f"the naive reference never sees the {hostile} hostile answers, which it would execute)")
    for d in disagreements[:10]:
        print("  disagree:", d)
    return len(sample) / naive_time


def main() -> None:
    if sys.argv[1:] == ["--naive"]:
        return naive_main()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=300, help="answers for the naive reference")
    parser.add_argument("--grade-runs", type=int, default=3,
                        help="runs of the class and of the naive sample (medians)")
    parser.add_argument("--runs", type=int, default=7, help="runs of the single-answer timing")
    parser.add_argument("--variant-students", type=int, default=10_000,
                        help="students graded with --variants, each answering their own variant (0: none)")
    args = parser.parse_args()
    grader = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
    print(f"machine:                {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at start (shared: timings are noisy, medians shown)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        written = generate(folder, args.students)
        runs = [grade(folder, Path(tmp) / f"out{run}", args.jobs) for run in range(args.grade_runs)]
        times = [r[0] for r in runs]
        _, summary, ours = runs[-1]
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if args.variant_students:
            variant_folder = Path(tmp) / "variant-class"
            variant_folder.mkdir()
            on_variants = generate(variant_folder, args.variant_students, on_variants=True)
            variant_time, variant_summary, variant_ours = grade(
                variant_folder, Path(tmp) / "variant-out", args.jobs, "--variants")
    elapsed = statistics.median(times)
    rate = len(written) / elapsed
    print(f"submissions:            {summary['students']} ({summary['graded']} graded, "
          f"{len(summary['unreadable'])} unreadable)")
    print(f"answers:                {len(written)} ({summary['distinct_answers']} distinct, "
          f"each checked once)")
    print(f"wall time:              {elapsed:.2f} s median of {len(times)} "
          f"({', '.join(f'{t:.1f}' for t in times)}; grader grade --jobs {args.jobs}, "
          f"process start to exit)  target < 10 s: {'met' if elapsed < 10 else 'NOT met'}")
    print(f"throughput:             {rate:.0f} answers/s, {args.students / elapsed:.0f} students/s")
    print(f"peak RSS:               {peak_mb:.0f} MiB (largest process of the runs, workers included)")
    naive_rate = agreement(written, ours, args.sample, args.grade_runs, "")
    ratio = rate / naive_rate
    print(f"speed ratio:            {ratio:.0f}x  target >= 20x: {'met' if ratio >= 20 else 'NOT met'}")
    if args.variant_students:
        n = args.variant_students
        print(f"with --variants:        {n} students ({variant_summary['answers']} answers, each student "
              f"on their own data) in {variant_time:.1f} s, {n / variant_time:.0f} students/s  "
              f"target 10,000 in < 60 s: {'met' if variant_time * 10_000 / n < 60 else 'NOT met'}")
        agreement(on_variants, variant_ours, args.sample, 1, " (variants)")

    ex_id, part = next((ex.id, p) for ex in bank.EXERCISES.values() for p in ex.parts
                       if p.kind == "real" and not p.reference.is_Rational)
    answer = decimal(part.reference, 3)   # a numeric answer: needs no SymPy
    check = [grader, "check", ex_id, part.id, answer]
    ours_t = [timed(check) for _ in range(args.runs)]
    sympy_t = [timed([sys.executable, "-c", "import sympy"]) for _ in range(args.runs)]
    imported = subprocess.run([sys.executable, "-X", "importtime", "-m", "grader.cli.main",
                               *check[1:]], capture_output=True, text=True, cwd=ROOT).stderr
    uses_sympy = any(re.search(r"\|\s*sympy\s*$", line) for line in imported.splitlines())
    print(f"one check from the CLI: {1000 * statistics.median(ours_t):.0f} ms (median of "
          f"{args.runs}; `grader check ... {answer}`, imports SymPy: {'yes' if uses_sympy else 'no'})")
    print(f"python -c 'import sympy': {1000 * statistics.median(sympy_t):.0f} ms (median of "
          f"{args.runs})")


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
