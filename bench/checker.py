"""Benchmark: the in-page checker in headless Chromium on this machine, every figure from a cold cache.

    python bench/checker.py [--site DIR] [--main-site DIR] [--main-ref REF] [--runs N] [--later N] [--alone]

Builds the site (or takes --site), serves it on 127.0.0.1 and prints:

- a student's walk through the course in one browser profile (:func:`journey`, median of --runs, this
  tree's site and --main-ref's in turn): the first visit (page asked for -> first verdict), a lesson reached
  by its link in the page (click -> first verdict), the first exact form there (Check -> verdict), *Show
  this variant* and *Load answers* as the first thing done on a lesson reached by its link (click -> done),
  and a lesson opened anew, its files in the cache (page asked for -> first verdict), with how its grader
  started (from the kept snapshot, or fresh); ``--alone`` walks this tree's site only;

- the first verdict for a plain number, from the first click into an answer box (target <= 8 s);
- each later verdict (plain numbers and exact forms, once loaded): median and slowest (target <= 300 ms);
- the first exact-form verdict, from the first click, SymPy loaded on the way (target <= 20 s);
- the bytes a lesson page loads before any answer box is touched, against the same page of the
  site built from --main-ref (git archive of that ref, built with this Python; or --main-site)
  (target: within 5 %).

A fresh browser context (an empty cache) for each first-time figure, --runs times (the median and
the fastest are printed). The machine's load average is printed too: on a shared machine the
first-time figures move with it.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.site.browsing import serve  # noqa: E402 (the site as deployed at the server's address: its sitemaps)

CHROMIUM = "/usr/bin/chromium"
LESSON = "/03-loss-terrain/"
PART = '.course-checker[data-part="lr-at-step"]'
PLAIN = ["0.0000075", "0.000007", "7.5e-6", "0.0001", "0.00000752", "0.0000074", "3e-6", "0.0000076"]
EXACT = ["3/400000", "3/(4*10^5)", "15/2000000", "0.0003*25/1000", "3/10000/40", "sqrt(9)/400000"]
SETTLED = "([sel]) => { const s = document.querySelector(sel).dataset.state; return !!s && s !== 'checking'; }"


def build(root: Path, site: Path, env: dict | None = None) -> Path:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml"), "-d", str(site)],
                   cwd=root, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return site


def build_ref(ref: str, folder: Path) -> Path:
    """The site as `ref` builds it: its committed tree, this Python, this tree's Pyodide (node_modules is
    not in git) and its packed zips where they are the same (.cache/checker: named by their inputs)."""
    tree = folder / "tree"
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    if (ROOT / ".cache" / "checker").is_dir():
        shutil.copytree(ROOT / ".cache" / "checker", tree / ".cache" / "checker")
    return build(tree, folder / "site", {"COURSE_PYODIDE_DIR": str(ROOT / "node_modules" / "pyodide")})


@dataclass(frozen=True)
class Step:
    """A lesson, one of its parts and a right answer to it."""
    lesson: str
    exercise: str
    part: str
    answer: str

    @property
    def box(self) -> str:
        return f'.course-checker[data-exercise="{self.exercise}"][data-part="{self.part}"]'


FIRST = Step("/03-loss-terrain/", "terrain-warmup", "lr-at-step", "0.0000075")
LINKED = Step("/01-semantic-distance/", "embedding-distances", "parakeet-monkey", "0.3")
LINKED_EXACT = Step("/01-semantic-distance/", "embedding-distances", "parakeet-fourier", "sqrt(14)/2")
VARIANT = ("/04-simplex-walk/", "reachable-vertices", "s0042")
LOAD = ("/05-submanifold/", "submanifold-dims", 'lang = "en"\n\n[terrain-warmup]\nlr-at-step = "0.0000075"\n')
REOPENED = Step("/02-attention-projection/", "attention-weights", "scores", "(1, 1, 0)")
SNAPSHOT_KEPT = """async () => {
  const store = await caches.open('course-checker');
  return (await store.keys()).some((request) => request.url.endsWith('.snapshot'));
}"""
ROWS = {   # row -> what it times
    "first": "first visit: page asked for -> first verdict",
    "linked": "a lesson reached by its link: click -> first verdict",
    "exact": "first exact form on that lesson: Check -> verdict",
    "variant": "Show this variant, first thing on a linked lesson",
    "load": "Load answers, first thing on a linked lesson",
    "reopened": "a lesson opened anew, files cached: asked for -> verdict",
}


def verdict(page, step: Step) -> None:
    """Type the answer into its box (focused by a click: it scrolls into view), Check, and wait for the
    verdict, which must be the right one."""
    page.click(f"{step.box} .course-checker__answer", timeout=300_000)
    page.keyboard.type(step.answer)
    page.click(f"{step.box} .course-checker__check")
    page.wait_for_function(SETTLED, arg=[f"{step.box} .course-checker__verdict"], timeout=600_000, polling=50)
    box = page.locator(f"{step.box} .course-checker__verdict")
    assert box.get_attribute("data-correct") == "true", f"{step}: {box.inner_text()}"


def follow(page, lesson: str, exercise: str) -> None:
    """Click the lesson's link in the site's navigation, until its exercise is there (the theme may swap the page
    in place: the address changes first, the page after it)."""
    page.locator(f'.md-sidebar--primary a.md-nav__link[href$="{lesson.strip("/")}/"]').first.click()
    page.wait_for_selector(f'.course-checker-exercise[data-exercise="{exercise}"]', state="attached", timeout=300_000)


def journey(page, url: str, folder: Path, after_first=lambda: None) -> dict[str, float]:
    """Seconds of each of ROWS, in one browser profile, in this order (the cache filling as a student's does);
    ``after_first()`` is called once the first verdict is shown."""
    took = {}
    start = time.perf_counter()
    page.goto(url + FIRST.lesson, wait_until="domcontentloaded")
    verdict(page, FIRST)
    took["first"] = time.perf_counter() - start
    after_first()
    page.wait_for_timeout(2000)   # a reader reads
    start = time.perf_counter()
    follow(page, LINKED.lesson, LINKED.exercise)
    verdict(page, LINKED)
    took["linked"] = time.perf_counter() - start
    page.wait_for_timeout(2000)
    start = time.perf_counter()
    verdict(page, LINKED_EXACT)
    took["exact"] = time.perf_counter() - start
    lesson, exercise, seed = VARIANT
    start = time.perf_counter()
    follow(page, lesson, exercise)
    block = f'.course-checker-exercise[data-exercise="{exercise}"]'
    page.fill(f"{block} .course-checker__seed", seed, timeout=300_000)
    page.click(f"{block} .course-checker__use-seed")
    page.wait_for_function("([sel]) => document.querySelector(sel).dataset.state === 'done'",
                           arg=[f"{block} .course-checker__variant-status"], timeout=600_000, polling=50)
    took["variant"] = time.perf_counter() - start
    lesson, exercise, text = LOAD
    answers = folder / "answers.toml"
    answers.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    follow(page, lesson, exercise)
    block = f'.course-checker-exercise[data-exercise="{exercise}"]'
    page.set_input_files(f"{block} .course-checker__file", str(answers), timeout=300_000)
    page.wait_for_function("([sel]) => document.querySelector(sel).textContent.includes('answers.toml')",
                           arg=[f"{block} .course-checker__message"], timeout=600_000, polling=50)
    took["load"] = time.perf_counter() - start
    # a student who opens a lesson anew has read a while: the started grader's snapshot is kept by then (it is
    # made once SymPy is warmed, when no check has come for a moment); the row times the start from it
    waited = time.perf_counter()
    while not page.evaluate(SNAPSHOT_KEPT) and time.perf_counter() - waited < 300:   # a promise: asked, not waited for
        page.wait_for_timeout(500)
    start = time.perf_counter()
    page.goto(url + REOPENED.lesson, wait_until="domcontentloaded")
    verdict(page, REOPENED)
    took["reopened"] = time.perf_counter() - start
    # how the grader started on the page opened anew: "snapshot" (the started grader an earlier page kept) or "fresh"
    took["reopened-start"] = page.evaluate("() => document.querySelector('[data-start]')?.dataset.start || 'unsaid'")
    return took


def check(page, answer: str) -> float:
    """Seconds from clicking Check to the verdict."""
    page.fill(f"{PART} .course-checker__answer", answer)
    start = time.perf_counter()
    page.click(f"{PART} .course-checker__check")
    page.wait_for_function(SETTLED, arg=[f"{PART} .course-checker__verdict"], timeout=300_000)
    return time.perf_counter() - start


def first_verdict(browser, url: str, answer: str) -> float:
    """Seconds from the first click into an answer box to the first verdict, cache empty."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + LESSON, wait_until="load")
        page.wait_for_load_state("networkidle")
        start = time.perf_counter()
        page.click(f"{PART} .course-checker__answer")
        page.keyboard.type(answer)
        page.click(f"{PART} .course-checker__check")
        page.wait_for_function(SETTLED, arg=[f"{PART} .course-checker__verdict"], timeout=300_000)
        return time.perf_counter() - start
    finally:
        context.close()


def later_verdicts(browser, url: str, rounds: int) -> tuple[list[float], list[float]]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url + LESSON, wait_until="load")
        check(page, PLAIN[0])                      # the runtime is up
        check(page, EXACT[0])                      # and SymPy
        plain = [check(page, PLAIN[i % len(PLAIN)]) for i in range(rounds)]
        exact = [check(page, EXACT[i % len(EXACT)]) for i in range(rounds)]
        return plain, exact
    finally:
        context.close()


def page_bytes(browser, url: str) -> tuple[int, int]:
    """(bytes, requests) a lesson page loads, cache empty, nothing touched."""
    context = browser.new_context()
    sizes: list[int] = []
    try:
        page = context.new_page()
        page.on("requestfinished", lambda request: sizes.append(request.sizes()["responseBodySize"]))
        page.goto(url + LESSON, wait_until="load")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(1000)
        return sum(sizes), len(sizes)
    finally:
        context.close()


def walked(browser, url: str, folder: Path) -> dict[str, float]:
    """:func:`journey` in a fresh browser context (an empty cache, a profile of its own)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        return journey(context.new_page(), url, folder)
    finally:
        context.close()


def print_journeys(walks: dict[str, dict[str, list]]) -> None:
    """One line a row: each site's median and range, the first site's against the others'; then how the page
    opened anew started its grader, on each site."""
    for row, what in ROWS.items():
        cells = [f"{name}: {statistics.median(rows[row]):5.2f} s [{min(rows[row]):.2f}-{max(rows[row]):.2f}]"
                 for name, rows in walks.items()]
        n = len(next(iter(walks.values()))[row])
        print(f"  {what:<60}" + "   ".join(cells) + f"   (n={n})")
    started = [f"{name}: {', '.join(f'{how} {n}' for how, n in sorted(Counter(rows['reopened-start']).items()))}"
               for name, rows in walks.items()]
    print(f"  {'how the lesson opened anew started its grader':<60}" + "   ".join(started))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built from this tree (default: build one)")
    parser.add_argument("--main-site", type=Path, help="the site built from the reference ref (default: build one)")
    parser.add_argument("--main-ref", help="the git ref to compare page weight with (default: where this branch "
                        "left main, git merge-base HEAD main)")
    parser.add_argument("--runs", type=int, default=5, help="cold starts and walks to time, of each kind")
    parser.add_argument("--later", type=int, default=10, help="later verdicts to time, of each kind")
    parser.add_argument("--alone", action="store_true", help="walk this tree's site only (no reference build)")
    args = parser.parse_args()
    if args.main_ref is None:
        args.main_ref = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                       capture_output=True, text=True).stdout.strip()[:12]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        site = args.site or build(ROOT, tmp / "site")
        main_site = site if args.alone else args.main_site or build_ref(args.main_ref, tmp / "main")
        with serve(site) as url, serve(main_site) as main_url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu", "--disable-quic"])
            load = os.getloadavg()[0]
            plain_first, exact_first = [], []
            walks = {name: {row: [] for row in [*ROWS, "reopened-start"]}
                     for name in ["this tree"] + ([] if args.alone else [args.main_ref])}
            for _ in range(args.runs):   # interleaved: a busy moment weighs on both alike
                plain_first.append(first_verdict(browser, url, PLAIN[0]))
                exact_first.append(first_verdict(browser, url, EXACT[0]))
                for name, where in list(zip(walks, (url, main_url))):
                    for row, seconds in walked(browser, where, tmp).items():
                        walks[name][row].append(seconds)
            plain, exact = later_verdicts(browser, url, args.later)
            (ours, requests), (theirs, their_requests) = page_bytes(browser, url), page_bytes(browser, main_url)
            browser.close()
    print(f"machine load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
          f"on {os.cpu_count()} cores")
    print(f"first verdict, plain number:    {statistics.median(plain_first):6.2f} s median, {min(plain_first):.2f} s fastest"
          f"   (n={len(plain_first)}, from the first click; target <= 8 s)")
    print(f"first verdict, exact form:      {statistics.median(exact_first):6.2f} s median, {min(exact_first):.2f} s fastest"
          f"   (n={len(exact_first)}, from the first click, SymPy loaded; target <= 20 s)")
    print(f"later verdicts, plain number:   {1000 * statistics.median(plain):6.0f} ms median, {1000 * max(plain):.0f} ms slowest"
          f"   (n={len(plain)}; target <= 300 ms)")
    print(f"later verdicts, exact form:     {1000 * statistics.median(exact):6.0f} ms median, {1000 * max(exact):.0f} ms slowest"
          f"   (n={len(exact)}; target <= 300 ms)")
    print(f"lesson page before any answer box is touched: {ours} bytes in {requests} requests; "
          f"{args.main_ref}: {theirs} bytes in {their_requests} requests; "
          f"{100 * (ours / theirs - 1):+.1f} % (target within 5 %)")
    print("a student's walk through the course, one browser profile, local server, idle network "
          "(median, [fastest-slowest]):")
    print_journeys(walks)


if __name__ == "__main__":
    main()
