"""The in-page checker over a network (hooks/checker/assets/loader.js and worker.js, hooks/checker/pack.py),
in Debian's Chromium on the built site, served as a static host serves it (tests/site/static_host.py).

When loading starts (an exercise in view; a focused box only, for a reader who saves data), what the
progress line says and how often, that another page of the site fetches none of the checker's files
again, and that a module the import trace did not see is fetched when an answer needs it, the
verdicts staying those of `grader check`. A request to any other host fails each test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import tomllib

from hooks.checker import pack as checker_pack
from hooks.checker import publish as checker
from hooks.checker import trace as checker_trace
from hooks.checker.corpus import Case, corpus
from tests.conftest import ROOT, wait_ms, wait_seconds
from tests.site import test_browser as tb
from tests.site.static_host import serve_as_host
from tests.site.test_checker import (
    CHECKING,
    browser,  # noqa: F401 (a fixture: one Chromium for the module)
    cli_verdict,
    lesson_paths,
    needs_browser,
    needs_runtime,
    page_verdict,
    part_selector,
    two_locale_config,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [needs_browser, needs_runtime]

HEAVY = re.compile(r"/assets/checker/(?:pyodide-\w+/|[a-z]+-\w+\.zip$)")   # what a first verdict downloads
STATUS = ".course-checker__status"


@pytest.fixture(scope="module")
def host_url(built_site):
    with serve_as_host(built_site) as url:
        yield url


@pytest.fixture()
def reader(browser, host_url):
    reader = tb.new_reader(browser, host_url)
    yield reader
    reader.context.close()


def checker_requests(reader) -> list[str]:
    """What the checker asked for, the page's script and stylesheet apart: the worker and its files."""
    return [url for url in reader.requested if "/assets/checker/" in url and "/checker-" not in url]


def test_loading_starts_when_an_exercise_scrolls_into_view_not_before(reader, host_url, built_site):
    reader.open(host_url + lesson_paths(built_site, "en")["terrain-warmup"])
    page = reader.page
    exercise = page.locator('.course-checker-exercise[data-exercise="terrain-warmup"]')
    assert not exercise.evaluate("e => { const r = e.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; }"), \
        "the exercise is in view at the top of the page: this test needs one below it"
    page.wait_for_timeout(1000)
    assert not [url for url in checker_requests(reader) if "worker-" in url], checker_requests(reader)
    assert page.locator(STATUS).first.text_content() == ""
    exercise.scroll_into_view_if_needed()
    page.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.state === 'ready'", timeout=wait_ms(CHECKING))
    assert page.evaluate("document.activeElement === document.body"), "loading began with a focus, not the scroll"
    assert [url for url in checker_requests(reader) if HEAVY.search(url)]
    case = Case("terrain-warmup", "lr-at-step", "0.0000075", why="after the scroll")
    assert page_verdict(reader.page, case) == cli_verdict(case)
    reader.assert_clean("scrolled into view")


def test_a_reader_who_saves_data_loads_at_the_first_focused_box_and_not_sympy_in_the_background(browser, host_url,
                                                                                                  built_site):
    reader = tb.new_reader(browser, host_url, saves_data=True)
    try:
        reader.open(host_url + lesson_paths(built_site, "en")["terrain-warmup"])
        page = reader.page
        page.locator('.course-checker-exercise[data-exercise="terrain-warmup"]').scroll_into_view_if_needed()
        page.wait_for_timeout(1500)
        assert not checker_requests(reader), checker_requests(reader)
        case = Case("terrain-warmup", "lr-at-step", "0.0000075", why="saving data")
        assert page_verdict(page, case) == cli_verdict(case)   # page.fill focuses the box
        page.wait_for_timeout(3000)
        assert not [url for url in checker_requests(reader) if "/sympy-" in url], "SymPy fetched in the background"
        reader.assert_clean("save data")
    finally:
        reader.context.close()


PROGRESS_LOG = """() => {
  window.courseLog = {texts: [], values: 0};
  const line = document.querySelector('.course-checker__status');
  new MutationObserver(() => {
    if (line.dataset.state === 'loading') window.courseLog.texts.push(line.textContent);
    const bar = line.nextElementSibling;
    if (bar && bar.matches('progress') && !bar.hidden) window.courseLog.values += 1;
  }).observe(line.parentElement, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def throttle(reader) -> None:
    """20 Mbit/s for the reader's page and its workers: a few seconds of download."""
    session = reader.context.new_cdp_session(reader.page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20,
                                                      "downloadThroughput": 2.5e6, "uploadThroughput": 2.5e6})


def test_the_progress_line_counts_megabytes_a_quarter_at_a_time_and_the_bar_moves_between(browser, host_url, built_site):
    reader = tb.new_reader(browser, host_url)
    try:
        page = reader.page
        throttle(reader)
        reader.open(host_url + lesson_paths(built_site, "en")["terrain-warmup"])
        page.evaluate(PROGRESS_LOG)
        page.locator('.course-checker-exercise[data-exercise="terrain-warmup"]').scroll_into_view_if_needed()
        page.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.state === 'ready'", timeout=wait_ms(CHECKING))
        log = page.evaluate("window.courseLog")
        said = list(dict.fromkeys(log["texts"]))
        pattern = re.compile(r"Downloading the grader into your browser: (\d+\.\d) of (\d+\.\d) MB…")
        assert 2 <= len(said) <= 4 and all(pattern.fullmatch(text) for text in said), said
        done = [float(pattern.fullmatch(text).group(1)) for text in said]
        totals = {pattern.fullmatch(text).group(2) for text in said}
        assert done == sorted(done) and len(totals) == 1, said
        files = worker_files(built_site)
        first = [f"{files['runtime']}{name}" for name in checker.SERVED_RUNTIME] + [files["stdlib"], files["grader"]]
        assert abs(float(totals.pop()) - sum(files["sizes"][name] for name in first) / 1e6) <= 0.051
        assert log["values"] > 2 * len(said), log   # the bar moved between the quarters the line said
        line = page.locator(STATUS).first
        assert line.get_attribute("aria-live") == "polite" and line.get_attribute("role") == "status"
        assert page.locator("progress.course-checker__progress").first.get_attribute("aria-hidden") == "true"
        reader.assert_clean("progress")
    finally:
        reader.context.close()


# every frame: where each button under the checker's line is drawn (from the top of the document), and what the line
# says; from the moment the exercise is scrolled to until the grader is ready
BUTTONS_LOG = """() => {
  window.courseButtons = [];
  const panel = document.querySelector('.course-checker-exercise');
  const line = panel.querySelector('.course-checker__status');
  const sample = () => {
    const tops = [...panel.querySelectorAll('.course-checker__variant .md-button:not([hidden]), .course-checker__work .md-button')]
      .map(b => Math.round(b.getBoundingClientRect().top + scrollY));
    window.courseButtons.push({state: line.dataset.state || '', tops, bar: !line.nextElementSibling?.hidden});
    if (line.dataset.state !== 'ready') requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize("locale, width", [("fr", 375), ("en", 1280)])
def test_the_buttons_under_the_checkers_line_stay_where_they_are_while_the_grader_starts(browser, host_url, built_site,
                                                                                          locale, width):
    """A reader who aims at New variant while the grader downloads and starts clicks it: the line's words (longer in
    French, wrapped on a phone) and the download's bar take a room kept for them, so nothing below them moves."""
    reader = tb.new_reader(browser, host_url)
    try:
        page = reader.page
        page.set_viewport_size({"width": width, "height": 900})
        throttle(reader)
        reader.open(host_url + lesson_paths(built_site, locale)["reachable-vertices"])
        page.evaluate("document.fonts.ready.then(() => null)")
        page.evaluate(BUTTONS_LOG)
        page.locator(".course-checker__new-seed").scroll_into_view_if_needed()
        page.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.state === 'ready'", timeout=wait_ms(CHECKING))
        frames = page.evaluate("window.courseButtons")
        states = list(dict.fromkeys(frame["state"] for frame in frames))
        assert {"loading", "ready"} <= set(states) and any(frame["bar"] for frame in frames), states   # all were met
        places = {tuple(frame["tops"]) for frame in frames}
        assert len(frames[0]["tops"]) >= 6 and len(places) == 1, \
            [(frame["state"], frame["tops"]) for frame in frames if tuple(frame["tops"]) != tuple(frames[0]["tops"])][:5]
        reader.assert_clean(f"{locale} at {width} px")
    finally:
        reader.context.close()


BOX_LOG = """([selector]) => {
  window.courseBox = [];
  const box = document.querySelector(selector);
  new MutationObserver(() => window.courseBox.push(box.textContent))
    .observe(box, {subtree: true, childList: true, characterData: true});
}"""


def words_pattern(template: str) -> re.Pattern:
    """A label's words, each placeholder any number as the page writes it."""
    return re.compile(re.sub(r"\\\{\w+\\\}", r"(\\d+\\.\\d)", re.escape(template)))


def ask_a_verdict(page) -> str:
    """Check an answer: the part's verdict box, which must get the command line's verdict."""
    case = Case("terrain-warmup", "lr-at-step", "0.0000075", why="asked at once")
    page.evaluate(BOX_LOG, [f"{part_selector(case)} .course-checker__verdict"])
    assert page_verdict(page, case) == cli_verdict(case)   # typed and checked at once: the download has begun
    return f"{part_selector(case)} .course-checker__verdict"


def ask_a_variant(page) -> str:
    """Show a variant: the variant's line, which must end showing its data."""
    block = '.course-checker-exercise[data-exercise="terrain-warmup"]'
    line = f"{block} .course-checker__variant-status"
    page.evaluate(BOX_LOG, [line])
    page.fill(f"{block} .course-checker__seed", "s0042")   # the focus starts the checker
    page.click(f"{block} .course-checker__use-seed")
    page.wait_for_function("([line]) => document.querySelector(line).dataset.state === 'done'", arg=[line],
                           timeout=wait_ms(CHECKING))
    return line


@pytest.mark.parametrize("ask", [ask_a_verdict, ask_a_variant], ids=["check", "variant"])
def test_what_is_asked_before_the_checker_is_ready_says_how_it_is_where_it_was_asked_then_is_done(
        browser, host_url, built_site, ask):
    """The place that was used (the part's verdict, the variant's line) says how the checker is, where the reader
    looks: the download with its share, then the grader imported; the call waits in the queue, then is made."""
    words = tomllib.loads((tb.DOCS / "en" / "labels.toml").read_text("utf-8"))["checker"]
    reader = tb.new_reader(browser, host_url)
    try:
        page = reader.page
        throttle(reader)
        reader.open(host_url + lesson_paths(built_site, "en")["terrain-warmup"])
        place = ask(page)
        said = list(dict.fromkeys(page.evaluate("window.courseBox")))
        loading = [text for text in said if words_pattern(words["queued_loading"]).fullmatch(text)]
        shares = [float(words_pattern(words["queued_loading"]).fullmatch(text).group(1)) for text in loading]
        assert loading and shares == sorted(shares), said
        assert words["queued_importing"] in said and said.index(words["queued_importing"]) > said.index(loading[-1]), said
        assert page.locator(place).get_attribute("data-state") == "done" and said[-1] not in (
            words["checking"], words["queued_importing"]), said
        reader.assert_clean(f"{ask.__name__} at once")
    finally:
        reader.context.close()


def worker_files(site: Path) -> dict:
    worker = next((site / checker.PUBLISHED).glob("worker-*.js")).read_text(encoding="utf-8")
    return json.loads(re.search(r"const FILES=(\{.*?\});", worker).group(1))


def test_another_page_of_the_site_fetches_none_of_the_checkers_files_again(reader, host_url, built_site):
    """One copy for every locale: a French page after an English one (the tests' route turns the HTTP cache
    off: what is not fetched again comes from the checker's own cache)."""
    first = Case("terrain-warmup", "lr-at-step", "0.0000075", why="first page")
    reader.open(host_url + lesson_paths(built_site, "en")[first.exercise])
    assert page_verdict(reader.page, first) == cli_verdict(first)
    fetched = [url for url in checker_requests(reader) if HEAVY.search(url)]
    assert len(fetched) >= 5, fetched
    kept = "async () => (await (await caches.open('course-checker')).keys()).some(r => r.url.includes('/sympy-'))"
    deadline = time.monotonic() + wait_seconds(CHECKING)
    while not reader.page.evaluate(kept):   # the background fetch of SymPy's zip, into the cache
        assert time.monotonic() < deadline, "SymPy's zip was not fetched in the background after the first verdict"
        reader.page.wait_for_timeout(200)
    second = Case("embedding-distances", "parakeet-monkey", "0,3", "fr", why="second page")
    reader.open(host_url + lesson_paths(built_site, "fr")[second.exercise])
    assert page_verdict(reader.page, second) == cli_verdict(second)
    again = [url for url in checker_requests(reader) if HEAVY.search(url)]
    assert not again, again
    reader.assert_clean("second page")


# --- a module the trace did not see


FORGETFUL_BUILD = """
import json, sys
from pathlib import Path
from hooks.checker import pack as checker_pack
from hooks.checker import trace as checker_trace

cache, forget, traced = Path(sys.argv[1]), set(json.loads(sys.argv[2])), Path(sys.argv[3])
checker_pack.CACHE = cache


def forgetful(node, runtime, sources, deferred, out):
    # the real trace, without the modules it is made to forget
    out.write_text(traced.read_text(encoding="utf-8"), encoding="utf-8")
    trace = json.loads(traced.read_text(encoding="utf-8"))
    return checker_trace.modules(trace["first"]) - forget, checker_trace.modules(trace["later"]) - forget


checker_trace.trace = forgetful
sys.argv = ["mkdocs", "build", "--strict", "-f", sys.argv[4], "-d", sys.argv[5]]
from mkdocs.__main__ import cli
cli()
"""


@pytest.fixture(scope="module")
def forgetful_site(built_site, tmp_path_factory):
    """A site whose trace missed modules: the standard library's that the grader imports (Pyodide's own
    start kept) and SymPy's that a check imports after `import sympy`."""
    runtime = checker.runtime_dir({})
    pinned = checker.pinned_version()
    kept = checker_pack.trace_path(runtime, pinned)
    if not kept.exists() or not json.loads(kept.read_text(encoding="utf-8"))["trace"]:
        pytest.skip("no trace (no Node.js): nothing to forget")
    trace = json.loads(kept.read_text(encoding="utf-8"))["trace"]
    traced = tmp_path_factory.mktemp("trace") / "trace.json"   # the trace itself, as trace.mjs writes it
    traced.write_text(json.dumps(trace), encoding="utf-8")
    imported = json.loads(subprocess.run([sys.executable, "-c", "import sys, json, sympy; print(json.dumps(sorted(sys.modules)))"],
                                         capture_output=True, text=True, check=True).stdout)
    grader_stdlib = checker_trace.modules(trace["first"]) - checker_trace.modules(trace["start"])
    grader_stdlib = {name for name in grader_stdlib if not name.startswith("grader")}
    lazy_sympy = {name for name in checker_trace.modules(trace["later"]) if name.startswith("sympy.")} - set(imported)
    assert grader_stdlib and lazy_sympy
    folder = tmp_path_factory.mktemp("forgetful")
    cache = folder / "cache"
    cache.mkdir()
    for compiled in checker_pack.CACHE.glob("libraries-*.zip"):   # SymPy compiled once is enough
        (cache / compiled.name).write_bytes(compiled.read_bytes())
    config = two_locale_config(folder)
    ran = subprocess.run([sys.executable, "-c", FORGETFUL_BUILD, str(cache), json.dumps(sorted(grader_stdlib | lazy_sympy)),
                          str(traced), str(config), str(folder / "site")], cwd=ROOT, capture_output=True, text=True,
                         timeout=wait_seconds(900), env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert ran.returncode == 0, ran.stderr[-3000:]
    return folder / "site", grader_stdlib, lazy_sympy


def test_a_module_the_trace_did_not_see_is_fetched_when_needed_and_the_verdicts_stay_the_command_lines(
        browser, forgetful_site):
    site, grader_stdlib, lazy_sympy = forgetful_site
    rest = next((site / checker.PUBLISHED).glob("rest-*.zip"))
    index = json.loads(zipfile.ZipFile(next((site / checker.PUBLISHED).glob("grader-*.zip"))).read("index.json"))
    assert {index.get(name) for name in grader_stdlib | lazy_sympy} == {rest.name}
    cases = [case for case in corpus() if case.lang in ("en", "fr") and case.seed is None]
    picked = {}
    for case in cases:   # a few of each kind of answer, on two pages
        picked.setdefault((case.exercise, case.why.split()[0]), case)
    by_page = {}
    for case in picked.values():
        by_page.setdefault((case.lang, case.exercise), []).append(case)
    exact = Case("embedding-distances", "parakeet-fourier", "sqrt(14)/2", why="an exact form: SymPy")
    with serve_as_host(site) as url:
        reader = tb.new_reader(browser, url)
        every: list[str] = []
        reader.context.on("request", lambda request: every.append(request.url))
        try:
            for (lang, exercise), group in sorted(by_page.items())[:4]:
                reader.open(url + lesson_paths(site, lang)[exercise])
                for case in group:
                    assert page_verdict(reader.page, case) == cli_verdict(case), case
                reader.assert_clean(f"{lang} {exercise}, modules left out of the trace")
            reader.open(url + lesson_paths(site, "en")[exact.exercise])
            assert page_verdict(reader.page, exact) == cli_verdict(exact)
            assert reader.page.locator(STATUS).first.get_attribute("data-sympy") == "loaded"
        finally:
            reader.context.close()
    assert [u for u in every if u.endswith(rest.name)], "the rest was never fetched: the test proves nothing"
