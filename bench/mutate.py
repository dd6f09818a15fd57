"""How many planted bugs the fast tests catch: mutmut, and deleted statements, over the modules
`[tool.mutmut]` lists.

    python bench/mutate.py                  both passes (at the lowest priority), then the scores
    python bench/mutate.py --minutes 20     each pass stops after 20 minutes (run it again to go on)
    python bench/mutate.py --only mutmut    one pass (mutmut or deletions)
    python bench/mutate.py --module PATH    only that module of the list (repeatable): its unchecked mutants
    python bench/mutate.py --retry          test the survivors and the "no test" ones again (after tests were added)
    python bench/mutate.py --sample 0.2     a fifth of each module's unchecked mutants, drawn at random (--seed)
    python bench/mutate.py --report         print the scores of what earlier runs checked, run nothing
    python bench/mutate.py --survivors      list the surviving mutants of both passes

mutmut (from PyPI: `pip install -e '.[mutation]'`) copies the tree into mutants/ (not in git), changes
one thing at a time in the judge (grader/judging/rules.py, check.py, table.py), the reader
(grader/reading/parse.py, notation.py, commas.py), grader/arithmetic/compare.py, the class folder and
store (grader/grading/folder.py, store.py), the class report (grader/classreport/), and every module of
hooks/ that decides something: reading and rendering chapters (hooks/chapters/: blocks, blockspec, source,
sanitize, render, readable, labels, pages, cache), the translators' checks (hooks/translations/: pagechecks,
typography, composed, surfaces, review, docs), the in-page checker's build side (hooks/checker/pack.py,
trace.py, workspace.py), the theme's (hooks/theme/address.py, navigation.py) and the site's
(hooks/site/settings.py, publish.py, search.py) (an operator, a constant, a returned value...), and runs the
fast tests that reach the function it changed. Left out, as wiring or as what only a real build or
server shows: the MkDocs hooks (hooks/course.py, hooks/theme/hook.py: events to functions), the build's
state and event glue (hooks/site/build.py), the preview server (hooks/site/serve.py: threads and a
socket), the checker's assets and packing glue (hooks/checker/publish.py), its corpus and manual
(hooks/checker/corpus.py, manual.py: test data), the translations' command and report
(hooks/translations/__main__.py, report.py, rendered.py: a whole locale's run), the math and the theme's
page (hooks/chapters/mathml.py, hooks/theme/frame.py, page.py: latex2mathml's and the theme's output, which
the slow site tests read). mutmut never deletes a statement; the second pass
(bench/deletions.py) does: each ``if``, ``raise``, ``return``, ``continue``, ``break`` and assignment
inside a function, replaced by ``pass``, one at a time, against the same tests. A mutant is killed
when a test fails or it runs out of time; it survives when every test passes; "no test" means no fast
test calls that function in process. The score is killed out of checked, per module and in all; the
target is 90 % (the grader's bar, asked of hooks/ too). A stopped run keeps what it checked (a later
run resumes), so the report says how many are unchecked. `mutmut results` lists mutmut's survivors and
`mutmut show NAME` shows one. mutmut runs the mutants it expects to be quickest first, so a run stopped early has checked the easy ones: where a
whole pass takes hours (a module whose functions many slow tests reach), ``--sample`` checks a random share of each
module's unchecked mutants, whole, and the report gives each score with its 95 % interval (Wilson's), which says
how far a sample's score may lie from the module's. A benchmark: CI does not run it. It runs at the lowest priority (nice 19),
each process of a mutant's run within 4 GiB of memory; `--minutes` cuts it into slices on a shared machine.
"""
from __future__ import annotations

import argparse
import filecmp
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import tomllib

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deletions  # noqa: E402  (bench/deletions.py, beside this file)

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = Path(sys.executable).with_name("mutmut")
TARGET = 0.90
CHILDREN = 2    # mutmut's mutants at once (its default is one per core): the machine may be shared

# Survivors no test can kill, read one by one (`mutmut show NAME`) and left as they are:
# - code run once at import: each mutant runs in a child forked after the tests' modules were imported, so a
#   change to what a module computes when it is imported is never seen (hooks.site.settings.x_setting__mutmut_1
#   to _8: `setting()` builds the Settings dataclass's fields at import; tests/hooks/test_settings_words.py
#   pins the defaults and the meanings they give, which the real code keeps).
# - a path passed only to name problems that are then dropped: `scan_blocks(text, None)` in
#   hooks.chapters.pages.x_structure__mutmut_3, and pages.structure's path in
#   hooks.translations.pagechecks.x_check_page__mutmut_5 and hooks.translations.surfaces.x_check_titles__mutmut_22.
# - hooks.chapters.pages.x_math_segments__mutmut_20: `masked.count("\n", None, offset)`; None is 0 there.
# - hooks.chapters.sanitize: x_sanitized__mutmut_11 and _19 (url_schemes None or left to nh3's default) and
#   x__filter__mutmut_4 and _5 (href not filtered by _url_refusal): two guards of the same rule (a link leads to
#   http, https or mail only), each enough alone; x_sanitized__mutmut_21 (strip_comments left to its default,
#   True); x__style_refusal__mutmut_22 (the pattern in capitals, matched with re.I); x__shape__mutmut_7 (the
#   attributes' names in capitals on both sides of the comparison).
# - a file read or written as "UTF-8" or with the locale's encoding (encoding=None or left out) instead of "utf-8"
#   (hooks.site.publish.x_course_settings__mutmut_3/_8, x_check_site__mutmut_32/_34/_37, x_main__mutmut_81/_83/_88;
#   hooks.translations.review's read_text("UTF-8") and read_text(None); hooks.chapters.readable.x_read_text__mutmut_4;
#   hooks.translations.composed.x__storable__mutmut_8; hooks.translations.surfaces.x_catalog_units__mutmut_12,
#   x_check_surfaces__mutmut_33, x_check_titles__mutmut_27): the same codec; Python reads a C or POSIX locale as
#   UTF-8 (PEP 538), so no machine the tests run on tells them apart.
# - None for False where a flag is only read as true or false: hooks.site.search.x_wrap_reader__mutmut_17 and
#   hooks.chapters.cache.x_refresh__mutmut_60 (getattr's default), hooks.chapters.source.xǁ_Readerǁ_item__mutmut_8,
#   xǁ_Readerǁ__init____mutmut_5, xǁ_Readerǁread__mutmut_42.
# - None for a locale, which pages.FORMATS.get reads as English's (SOURCE's own):
#   hooks.translations.pagechecks.x_check_math__mutmut_3, hooks.translations.surfaces.x_check_numbers__mutmut_35.
# - hooks.theme.address.x_locale_choice__mutmut_4/_7: the homes sorted in reverse order of their text, not of their
#   length: a home that another begins with sorts after it either way, and two homes neither begins with never
#   match the same address, so the first that matches is the same.
# - hooks.site.search.x_searchable__mutmut_19/_21 (what `inner` is when the element is never closed: that branch
#   does not read it).
# - hooks.checker.pack: what a machine does not show in a test's time: a child's time limit (x_compile_zip__mutmut_5,
#   _9, _16), the tracing thread's name (x_make_trace_later__mutmut_29 to _35), a temporary file's or folder's name or
#   place and the compression of a zip made only to be read once (x_make_trace__mutmut_7 to _24, x_split_zips__mutmut_87
#   to _92), the hour after which an unused input is forgotten, by a second (x_forget_old__mutmut_31, _32), and
#   `ignore_errors` where another build removes the same folder at once (x_forget_old__mutmut_36 to _39).
# - hooks.checker.trace.x_trace__mutmut_4 to _17: the names of the tracer's two files in its own temporary folder.
# - the disk cache: an entry's kind and key are its file's name only (hooks.translations.pagechecks.x_known_ids__mutmut_10,
#   _11, _18, _19, x_bank_values__mutmut_35: the test of a catalog's save pins the sources it follows), and its file
#   written with fsync is what survives a power cut only (hooks.chapters.cache.x_cached__mutmut_44).
# - hooks.translations.composed.x__final__mutmut_10 ("XX178XX" for "178": the character is a digit there).
# - hooks.translations.pagechecks.x_english_words__mutmut_10 and _12 (the word in capitals, the language as "EN"):
#   wordfreq folds a word's case and reads a language tag whatever its case, so the frequency is the same.
# - hooks.translations.pagechecks.x_restated__mutmut_30 ("XXXX" for "" as the id of an exercise block that names
#   none: no exercise has either id, so neither has data to find).
# - hooks.translations.pagechecks.x_check_glossary__mutmut_75 (the line where no line of English's prose names the
#   term: a term is asked for only when its prose names it, on one of its lines).
# - hooks.translations.pagechecks.x_broken__mutmut_3 (no ids given read as an empty table of them: scan_blocks
#   checks the kinds a table names, and an empty one names none, as None).
# - small things no reader sees: "\u202F" for "\u202f" in a pattern (the same character:
#   pagechecks.x_canonical_math__mutmut_13); both sides of a comparison in capitals (pagechecks.x__plain__mutmut_5);
#   a bound one line past the end of a range read with .get(n, "") (surfaces.x__between__mutmut_10); a line number
#   that `for _, v` drops (surfaces.x_check_numbers__mutmut_46).
# - hooks.translations.composed: an inner "text" span copied with its key or own text None or left out
#   (x_compose__mutmut_70, _71, _75, _76: a text span has neither, and neither is read); the name after a "data."
#   key's last dot split with no limit or taken at index 1 of the two pieces (x_problems__mutmut_6, _10: the same
#   name); the corpus judged under the judge's time limit, which none of its answers reaches
#   (x_answered_said__mutmut_44: the same findings).

# mutmut's exit codes for a mutant (mutmut/stats.py); anything else is a crash of its test run
VERDICT = {1: "killed", 3: "killed", 0: "survived", 5: "no test", 33: "no test", 34: "skipped",
           36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "unchecked"}


def config() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["mutmut"]


def modules() -> list[str]:
    return config()["only_mutate"]


def mutmut_verdicts(module: str) -> Counter:
    """How many mutants of ``module`` got each verdict, from the record mutmut keeps beside its copy."""
    meta = ROOT / "mutants" / f"{module}.meta"
    if not meta.exists():
        return Counter()
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].values()
    return Counter(VERDICT.get(code, "crashed") for code in codes)


def deletion_verdicts(module: str, record: dict) -> Counter:
    entry = record.get(module, {})
    counts = Counter(entry.get("verdicts", {}).values())
    counts["unchecked"] = len(entry.get("statements", {})) - sum(counts.values())
    return counts


def wilson(killed: int, checked: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of the share killed among all of a module's mutants, from ``checked`` of them drawn at
    random (Wilson's score interval: right near 0 and 1, unlike the normal one)."""
    share = killed / checked
    middle = (share + z * z / (2 * checked)) / (1 + z * z / checked)
    half = z * math.sqrt(share * (1 - share) / checked + z * z / (4 * checked * checked)) / (1 + z * z / checked)
    return max(0.0, middle - half), min(1.0, middle + half)


def score_line(name: str, counts: Counter) -> str:
    total = sum(counts.values())
    killed = counts["killed"] + counts["timeout"]
    checked = total - counts["unchecked"] - counts["skipped"]
    share = f"{killed / checked:6.1%}" if checked else "     -"
    if checked and counts["unchecked"]:
        low, high = wilson(killed, checked)
        share += f" ({low:.0%}-{high:.0%})"
    else:
        share += " " * 10
    return (f"{name:<34} {share}  {killed:5d} / {checked:<5d} killed  {counts['survived']:4d} survived  "
            f"{counts['no test']:4d} no test  {counts['timeout']:4d} timeouts  {counts['unchecked']:4d} unchecked "
            f"of {total}")


def report() -> Counter:
    everything = Counter()
    record = deletions.load(ROOT)
    for title, verdicts in (("mutmut", mutmut_verdicts), ("deleted statements", None)):
        print(f"{title}:")
        pass_total = Counter()
        for module in modules():
            counts = verdicts(module) if verdicts else deletion_verdicts(module, record)
            pass_total += counts
            print("  " + score_line(module, counts))
        print("  " + score_line(f"all ({title})", pass_total))
        everything += pass_total
    print(score_line("all", everything))
    return everything


def sync_copy() -> None:
    """mutmut copies the project into mutants/ once and never updates a file it does not mutate: bring
    those up to date (the module list's files it keeps itself), the tests among them (a test added since is
    found there, and mutmut learns which functions it calls)."""
    mutated = set(modules())
    for folder in [*config().get("source_paths", ["grader", "hooks"]), "tests"]:
        for path in (ROOT / folder).rglob("*"):   # the checker's assets too, which its tests read
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(ROOT).as_posix()
            copy = ROOT / "mutants" / relative
            if relative not in mutated and copy.parent.exists() and not (copy.exists() and filecmp.cmp(path, copy, shallow=False)):
                shutil.copy2(path, copy)


GRACE = 60   # seconds mutmut has to stop after Ctrl-C before it is terminated (what it checked is kept)


def _child_setup() -> None:
    """In mutmut's process: the memory limit, and Ctrl-C heard even when this script was started in the
    background by a shell without job control (which starts it with SIGINT ignored, and mutmut with it)."""
    deletions.limit_memory()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_mutmut(names: list[str], minutes: float | None) -> int:
    """``mutmut run [NAMES]`` at the lowest priority; after ``minutes`` it is interrupted as by Ctrl-C,
    and terminated if it has not stopped a minute later (it keeps what it checked)."""
    sync_copy()
    process = subprocess.Popen(["nice", "-n", "19", str(MUTMUT), "run", "--max-children", str(CHILDREN), *names], cwd=ROOT,
                               env={**os.environ, "NO_COLOR": "1"}, preexec_fn=_child_setup)
    try:
        return process.wait(timeout=None if minutes is None else 60 * minutes)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:
            process.terminate()
            process.wait()
        return 0


def mutmut_names(chosen: list[str], verdict: str) -> list[str]:
    """mutmut's mutants of those modules with that verdict ("survived", "unchecked")."""
    names = []
    for module in chosen:
        meta = ROOT / "mutants" / f"{module}.meta"
        if meta.exists():
            codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
            names += [name for name, code in codes.items() if VERDICT.get(code, "crashed") == verdict]
    return names


def sample(chosen: list[str], share: float, seed: int) -> list[str]:
    """``share`` of each module's unchecked mutants, drawn at random (the modules' mutants are made by a first
    run: ``--module PATH --minutes 1``)."""
    drawn = []
    for module in chosen:
        names = sorted(mutmut_names([module], "unchecked"))
        drawn += random.Random(f"{seed}:{module}").sample(names, round(share * len(names)))
    return drawn


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, help="stop each pass after this many minutes")
    parser.add_argument("--only", choices=("mutmut", "deletions"), help="run one pass")
    parser.add_argument("--retry", action="store_true", help="test the survivors (and those no test reached) again")
    parser.add_argument("--sample", type=float, metavar="SHARE",
                        help="a random share (0.2: a fifth) of each module's unchecked mutants, not all of them")
    parser.add_argument("--seed", type=int, default=0, help="the sample's draw (the same seed, the same mutants)")
    parser.add_argument("--module", action="append", metavar="PATH",
                        help="only this module of the list (grader/judging/rules.py); may be repeated")
    parser.add_argument("--report", action="store_true", help="print the scores so far, run nothing")
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants")
    args = parser.parse_args(argv)
    if args.survivors:
        print("\n".join(mutmut_names(modules(), "survived")))
        print("\n".join(f"{key}  deleted: {statement}" for key, statement in deletions.survivors(ROOT)))
        return 0
    chosen = args.module or modules()
    unknown = sorted(set(chosen) - set(modules()))
    if unknown:
        parser.error(f"not in [tool.mutmut] only_mutate: {', '.join(unknown)}")
    code = 0
    if not args.report:
        os.nice(19 - os.nice(0))        # the lowest priority: the machine running the benchmark may be shared
        if args.only != "deletions":
            if not MUTMUT.exists():
                print(f"mutmut is not installed in {MUTMUT.parent}: pip install -e '.[mutation]'", file=sys.stderr)
                return 2
            # a retry tests again the survivors and the mutants no test reached (a test added since may reach them)
            names = mutmut_names(chosen, "survived") + mutmut_names(chosen, "no test") if args.retry else \
                sample(chosen, args.sample, args.seed) if args.sample else \
                [] if not args.module else \
                mutmut_names(chosen, "unchecked") or [f"{deletions.dotted(module)}.*" for module in chosen]
            if args.retry and not names:
                print("no survivor to test again")
            elif run_mutmut(names, args.minutes) != 0:
                # mutmut could not run the tests on its copy (a failing test, a file the copy lacks)
                print("mutmut run stopped with an error: run `mutmut run` to see why; the scores below are "
                      "what earlier runs checked", file=sys.stderr)
                code = 1
        if args.only != "mutmut":
            copied = [*config().get("source_paths", ["grader", "hooks"]), "tests", "pyproject.toml",
                      *config().get("also_copy", [])]
            deletions.run(ROOT, chosen, [p.rstrip("/") for p in copied], config()["pytest_add_cli_args"],
                          minutes=args.minutes, retry=args.retry)
    counts = report()
    checked = sum(counts.values()) - counts["unchecked"] - counts["skipped"]
    score = (counts["killed"] + counts["timeout"]) / checked if checked else 0.0
    verdict = "met" if score >= TARGET else "not met"
    if counts["unchecked"]:
        verdict += f" so far ({counts['unchecked']} mutants unchecked: run it again to go on)"
    print(f"target: {TARGET:.0%} killed; {verdict}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
