"""Benchmark: the in-page checker over a throttled network, in headless Chromium.

    python bench/checker_network.py [--site DIR] [--main-site DIR | --main-ref REF | --no-main] [--runs N]

Serves the site (built from this tree unless --site) as a static host does (tests/site/static_host.py:
gzip for HTML, CSS, JavaScript, JSON and WebAssembly, zips as they are, Cache-Control: max-age=600),
throttles the browser with DevTools (CDP Network.emulateNetworkConditions, which holds for the page
and its workers, one shared bandwidth), and times a reader who opens a lesson, goes to an answer box,
types and clicks Check: from the moment the page is asked for to the verdict. It prints, median of
--runs (each first-time figure in a fresh browser context, an empty cache; this tree's site and main's
taken in turn in each run):

- the bytes on the wire before the first plain-number verdict (target <= 6 MB);
- the first plain-number verdict at 9 Mbit/s and 60 ms (target <= 8 s) and at 1.6 Mbit/s and 150 ms
  (target <= 35 s);
- the first exact form (SymPy) at 9 Mbit/s (target <= 15 s);
- bench/checker.py's walk through the course in one browser profile (a lesson reached by its link, the
  first exact form there, Show this variant, Load answers, a lesson opened anew) at both speeds, and the
  checker's bytes on the wire after the first verdict (target: none);
- the first verdict on a local server without throttling (target: no worse than main);
- a lesson page's weight before any box is touched, as served without compression (as
  bench/checker.py measures it) and on the wire (target: within 5 % of main).

The same figures for the site of --main-ref (default: where this branch left main), built with this
Python and this tree's Pyodide, unless --no-main. The machine's load is printed too: on a shared
machine, run it under the lock (flock /tmp/heavy.lock nice ...).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checker import ROWS, build, build_ref, journey, print_journeys  # noqa: E402
from tests.site.browsing import launch, serve  # noqa: E402
from tests.site.static_host import serve_as_host  # noqa: E402

MB = 1_000_000


@dataclass(frozen=True)
class Network:
    name: str
    down_mbit: float
    latency_ms: float
    up_mbit: float

    def conditions(self) -> dict:
        return {"offline": False, "latency": self.latency_ms, "downloadThroughput": self.down_mbit * MB / 8,
                "uploadThroughput": self.up_mbit * MB / 8}


FAST_4G = Network("9 Mbit/s, 60 ms", 9, 60, 1.5)
SLOW_4G = Network("1.6 Mbit/s, 150 ms", 1.6, 150, 0.75)


@dataclass(frozen=True)
class Visit:
    """A lesson, one of its parts and an answer the reader types: a right one, so the verdict is known."""
    lesson: str
    exercise: str
    part: str
    answer: str


PLAIN = Visit("/03-loss-terrain/", "terrain-warmup", "lr-at-step", "0.0000075")
EXACT = Visit("/01-semantic-distance/", "embedding-distances", "parakeet-fourier", "sqrt(14)/2")
SETTLED = "([sel]) => { const s = document.querySelector(sel).dataset.state; return !!s && s !== 'checking'; }"


def throttle(context, page, network: Network | None) -> None:
    if network:
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", network.conditions())


def verdict_time(page, url: str, visit: Visit, sympy: bool | None = None) -> float:
    """Seconds from asking for the page to the verdict, as a reader gets there: go to the box (it scrolls
    into view), type, click Check. The verdict must be the right one."""
    part = f'.course-checker[data-exercise="{visit.exercise}"][data-part="{visit.part}"]'
    start = time.perf_counter()
    page.goto(url + visit.lesson, wait_until="domcontentloaded")
    page.click(f"{part} .course-checker__answer", timeout=120_000)
    page.keyboard.type(visit.answer)
    page.click(f"{part} .course-checker__check")
    page.wait_for_function(SETTLED, arg=[f"{part} .course-checker__verdict"], timeout=600_000, polling=50)
    took = time.perf_counter() - start
    box = page.locator(f"{part} .course-checker__verdict")
    assert box.get_attribute("data-state") == "done" and box.get_attribute("data-correct") == "true", \
        f"{visit}: {box.inner_text()}"
    if sympy is not None:
        loaded = page.locator(".course-checker__status").first.get_attribute("data-sympy") == "loaded"
        assert loaded == sympy, f"{visit}: SymPy {'not ' if sympy else ''}loaded"
    return took


def wire_bytes(requests) -> int:
    """Headers and bodies as received (compressed), of the requests that finished."""
    total = 0
    for request in requests:
        sizes = request.sizes()
        total += sizes["responseHeadersSize"] + sizes["responseBodySize"]
    return total


@contextmanager
def recorded_page(browser, network: Network | None = None):
    """A page in a fresh browser context (``network``: throttled so), and the list of the requests it finishes."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    finished: list = []
    context.on("requestfinished", lambda request: finished.append(request))
    try:
        page = context.new_page()
        throttle(context, page, network)
        yield page, finished
    finally:
        context.close()


def first_visit(browser, url: str, visit: Visit, network: Network | None, sympy: bool) -> tuple[float, int]:
    """(seconds to the first verdict, bytes on the wire until then), in a fresh context."""
    with recorded_page(browser, network) as (page, finished):
        took = verdict_time(page, url, visit, sympy)
        return took, wire_bytes(list(finished))


def walk(browser, url: str, network: Network, folder: Path) -> tuple[dict[str, float], int, int]:
    """bench/checker.py's journey over ``network`` in a fresh context: (seconds of each row, bytes on the wire
    before the first verdict, bytes of the checker's files on the wire after it)."""
    with recorded_page(browser, network) as (page, finished):
        marks = {}
        took = journey(page, url, folder, after_first=lambda: marks.setdefault("first", len(finished)))
        later = [r for r in finished[marks["first"]:] if "/assets/checker/" in r.url]
        return took, wire_bytes(finished[:marks["first"]]), wire_bytes(later)


def page_weight(browser, url: str) -> tuple[int, int]:
    """(bytes of response bodies, requests) a lesson page loads, cache empty, no box touched, not scrolled."""
    with recorded_page(browser) as (page, finished):
        page.goto(url + PLAIN.lesson, wait_until="load")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(1000)
        return sum(r.sizes()["responseBodySize"] for r in finished), len(finished)


FIGURES = ("bytes", "fast", "slow", "exact", "later_bytes", "local", "weight", "weight_wire")
PROFILES = (FAST_4G, SLOW_4G)


def measure(browser, sites: dict[str, Path], runs: int, folder: Path) -> tuple[dict, dict]:
    """(name -> figure -> one value per run, profile -> name -> row -> one value per run); the sites taken in
    turn in each run, so that a busy moment on a shared machine weighs on each alike."""
    figures = {name: {key: [] for key in FIGURES} for name in sites}
    walks = {network.name: {name: {row: [] for row in [*ROWS, "reopened-start"]} for name in sites} for network in PROFILES}
    with ExitStack() as stack:
        urls = {name: (stack.enter_context(serve_as_host(site)), stack.enter_context(serve(site)))
                for name, site in sites.items()}
        for _ in range(runs):
            for name, (url, plain_url) in urls.items():
                into = figures[name]
                for network in PROFILES:   # the walk's first visit is the first-verdict figure of its profile
                    took, sent, later = walk(browser, url, network, folder)
                    for row, seconds in took.items():
                        walks[network.name][name][row].append(seconds)
                    into["fast" if network is FAST_4G else "slow"].append(took["first"])
                    if network is FAST_4G:
                        into["bytes"].append(sent)
                        into["later_bytes"].append(later)
                into["exact"].append(first_visit(browser, url, EXACT, FAST_4G, sympy=True)[0])
                into["local"].append(first_visit(browser, url, PLAIN, None, sympy=False)[0])
                into["weight"].append(page_weight(browser, plain_url)[0])
                into["weight_wire"].append(page_weight(browser, url)[0])
    return figures, walks


def report(name: str, figures: dict[str, list], main: dict[str, list] | None) -> None:
    med = {key: statistics.median(values) for key, values in figures.items()}
    base = {key: statistics.median(values) for key, values in main.items()} if main else {}
    n = len(figures["fast"])

    def line(label: str, key: str, unit: str, target: str) -> None:
        scale, fmt = (MB, "{:6.2f} MB") if unit == "MB" else (1000, "{:6.0f} kB") if unit == "kB" else (1, "{:6.2f} s")
        value = fmt.format(med[key] / scale)
        spread = f"[{min(figures[key]) / scale:.2f}-{max(figures[key]) / scale:.2f}]" if unit == "s" else ""
        then = f"   main: {fmt.format(base[key] / scale).strip()}" if key in base else ""
        print(f"  {label:<58}{value} {spread:<14}{target:<22}{then}")

    print(f"{name} (median of {n})")
    line("bytes on the wire before the first plain-number verdict", "bytes", "MB", "target <= 6 MB")
    line(f"first plain-number verdict, {FAST_4G.name}", "fast", "s", "target <= 8 s")
    line(f"first plain-number verdict, {SLOW_4G.name}", "slow", "s", "target <= 35 s")
    line(f"first exact form (SymPy), {FAST_4G.name}", "exact", "s", "target <= 15 s")
    line(f"the checker's files on the wire after the first verdict, {FAST_4G.name}", "later_bytes", "MB", "target: 0")
    line("first verdict, local server, no throttling", "local", "s", "target: no worse")
    line("lesson page before any box is touched (as served)", "weight", "kB", "target: within 5 %")
    line("lesson page before any box is touched (on the wire)", "weight_wire", "kB", "")
    if base:
        print(f"  page weight against main: {100 * (med['weight'] / base['weight'] - 1):+.1f} % as served, "
              f"{100 * (med['weight_wire'] / base['weight_wire'] - 1):+.1f} % on the wire")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site built from this tree (default: build one)")
    parser.add_argument("--main-site", type=Path, help="the site to compare with (default: build --main-ref)")
    parser.add_argument("--main-ref", help="the git ref to compare with (default: git merge-base HEAD main)")
    parser.add_argument("--no-main", action="store_true", help="measure this tree's site only")
    parser.add_argument("--runs", type=int, default=5, help="runs of each figure (the median is printed)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if args.main_ref is None and not args.main_site:
        args.main_ref = subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                       capture_output=True, text=True).stdout.strip()[:12]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        site = args.site or build(ROOT, tmp / "site")
        main_site = None if args.no_main else args.main_site or build_ref(args.main_ref, tmp / "main")
        load = os.getloadavg()[0]
        with sync_playwright() as playwright:
            browser = launch(playwright, reader_like=True)
            figures, walks = measure(browser, {"ours": site, **({"main": main_site} if main_site else {})},
                                     args.runs, tmp)
            browser.close()
    ours, theirs = figures["ours"], figures.get("main")
    print(f"machine load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
          f"on {os.cpu_count()} cores; throttled by DevTools (page and workers share the bandwidth)")
    if theirs:
        report(f"main ({args.main_ref or args.main_site})", theirs, None)
    report("this tree", ours, theirs)
    for network, by_site in walks.items():
        print(f"a student's walk through the course, one browser profile, {network} (median, [fastest-slowest]):")
        print_journeys({("this tree" if name == "ours" else f"main ({args.main_ref or args.main_site})"): rows
                        for name, rows in by_site.items()})


if __name__ == "__main__":
    main()
