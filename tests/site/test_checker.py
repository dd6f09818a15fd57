"""The in-page checker (hooks/checker/publish.py) on the built site, in Debian's Chromium.

A reader types into the answer boxes and clicks Check; the grader runs in the browser (Pyodide, in
a Web Worker) and every verdict must be the command line's, word for word: one corpus (every README
example of `grader check`, one answer per named mistake, equivalent exact forms, decimals at and
around the tolerance, malformed and hostile answers) goes through `grader check --format json` in a
subprocess and through the page. Served from 127.0.0.1; a request to any other host is recorded
and fails the test. Also: the time limit, a variant's seed, keyboard only, 375 px, solutions off
(no reference value in any served byte a reader can read), and a build without the runtime.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib
import yaml
from mkdocs.utils.yaml import yaml_load

from grader import bank
from grader.model import targets
from grader.reading.show import show as written
from hooks.checker import publish as checker
from hooks.checker.corpus import Case, corpus, decimal
from tests.conftest import ROOT, run_mkdocs_build, wait_ms, wait_seconds
from tests.grader.inprocess import grader
from tests.site import started
from tests.site import test_browser as tb
from tests.site.browsing import tab_to

sync_api = pytest.importorskip("playwright.sync_api")

GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
RUNTIME = checker.runtime_problem(checker.runtime_dir(os.environ))
needs_browser = pytest.mark.skipif(tb.CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
needs_runtime = pytest.mark.skipif(bool(RUNTIME), reason=f"in-page checking is off: {RUNTIME}")
SLOW_CHECK = "exp(exp(exp(exp(5))))"   # well past the limit in the CLI (5 s) and on the page
OFF_MESSAGE = "in-page answer checking is off"

# --- the command line's verdicts on the corpus (hooks/checker/corpus.py)


def cli(case: Case, fmt: str = "json") -> subprocess.CompletedProcess:
    """`grader check` on the case, run in this process (tests/grader/inprocess.py): its output as a pipe receives
    it. A process of its own for each of the corpus's answers cost more of the run than the page's grader did."""
    seed = ["--seed", case.seed] if case.seed else []
    return grader("check", "--lang", case.lang, "--format", fmt, *seed, "--", case.exercise, case.part, case.answer,
                  NO_COLOR="1")


@functools.cache   # a case's verdict is the same whenever it is asked
def cli_verdict(case: Case) -> dict:
    """What `grader check --format json` says (and, for an answer it cannot read, what it prints)."""
    ran = cli(case)
    assert "Traceback" not in ran.stderr, (str(case), ran.stderr)
    if not ran.stdout.strip():
        return {"error": ran.stderr.strip()}
    result = json.loads(ran.stdout)
    verdict = {key: result[key] for key in ("score", "max_score", "note", "feedback")}
    if result["column"] is not None:
        verdict["text"] = cli(case, "text").stdout.rstrip("\n")
    return verdict


# --- the page

# seconds a verdict may take on an idle machine: the runtime, then SymPy, loaded on the first check that needs them
CHECKING = 60
SETTLED = started.SETTLED


def part_selector(case: Case) -> str:
    return f'.course-checker[data-exercise="{case.exercise}"][data-part="{case.part}"]'


def page_verdict(page, case: Case) -> dict:
    """Type the answer into the part's box, click Check, read the verdict as the page shows it."""
    root = part_selector(case)
    page.fill(f"{root} .course-checker__answer", case.answer)
    page.click(f"{root} .course-checker__check")
    try:
        page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
    except sync_api.TimeoutError:   # what the page shows then: where a grader that never answered stood
        raise AssertionError(f"{case}: no verdict in {wait_ms(CHECKING) / 1000:.0f} s; the page shows "
                             f"{page.evaluate(SHOWN_WHILE_WAITING, root)}") from None
    return read_verdict(page.locator(f"{root} .course-checker__verdict"))


SHOWN_WHILE_WAITING = """root => {
  const status = document.querySelector('.course-checker__status');   // every panel's says the same
  const verdict = document.querySelector(root)?.querySelector('.course-checker__verdict');
  return {status: status?.textContent, state: status?.dataset.state, sympy: status?.dataset.sympy,
          start: status?.dataset.start, verdict: verdict?.dataset.state, text: verdict?.textContent};
}"""


def read_verdict(box) -> dict:
    state = box.get_attribute("data-state")
    if state == "error":
        return {"error": box.inner_text().strip()}
    assert state in ("done", "timeout"), f"the checker says {state}: {box.inner_text()}"
    verdict = {"score": float(box.get_attribute("data-score")), "max_score": int(box.get_attribute("data-max")),
               "note": box.get_attribute("data-note")}
    caret = box.locator(".course-checker__caret")
    if caret.count():   # the grader's lines: the words wrap, the answer and its caret keep their columns
        verdict["text"] = caret.evaluate("c => [...c.children].map(line => line.textContent).join('\\n')")
        verdict["feedback"] = verdict["text"].rsplit(f"[{verdict['note']}] ", 1)[-1]
    else:
        verdict["feedback"] = box.locator(".course-checker__feedback").text_content()
    return verdict


def lesson_paths(site: Path, locale: str) -> dict[str, str]:
    """exercise id -> the URL path of the locale's page that holds it."""
    folder = site if locale == tb.DEFAULT_LOCALE else site / locale
    found = {}
    for path in sorted(folder.glob("*/index.html")):
        for exercise in re.findall(r'class="course-checker-exercise" data-exercise="([^"]+)"', path.read_text("utf-8")):
            found[exercise] = "/" + path.parent.relative_to(site).as_posix() + "/"
    return found


@pytest.fixture(scope="module")
def base_url(built_site):
    with tb.serve(built_site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = tb.launch(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def first_start(shared_builds, browser, base_url, built_site):
    """The grader as a first visit starts it on this site, kept once per run (tests/site/started.py)."""
    return started.kept_first_start(shared_builds, browser, base_url, built_site)


@pytest.fixture()
def reader(browser, base_url, first_start):
    """A new tab whose grader starts from the first start's snapshot, as on a reader's second page."""
    reader = started.started_tab(browser, base_url, first_start)
    yield reader
    reader.context.close()


@pytest.fixture()
def fresh_reader(browser, base_url):
    """A new tab with nothing kept: its grader starts the first time's way (the tests of that start)."""
    reader = tb.new_reader(browser, base_url)
    yield reader
    reader.context.close()


def open_lesson(reader, base_url: str, site: Path, locale: str, exercise: str):
    reader.open(base_url + lesson_paths(site, locale)[exercise])
    return reader.page


# --- the same verdicts, on the page and on the command line


@needs_browser
@needs_runtime
def test_every_verdict_on_the_page_is_the_command_lines(fresh_reader, base_url, built_site):
    """The corpus's answers, checked on the page by a grader started the first time's way (nothing kept by an
    earlier page), each verdict the command line's."""
    reader = fresh_reader
    cases = corpus()
    seen = {}
    by_page = {}
    for case in cases:
        if case.seed is None:
            by_page.setdefault((case.lang, case.exercise), []).append(case)
    for (lang, exercise), group in sorted(by_page.items()):
        page = open_lesson(reader, base_url, built_site, lang, exercise)
        assert page.locator(".course-checker").first.is_visible(), f"{lang} {exercise}: the checker is hidden"
        for case in group:
            seen[case] = page_verdict(page, case)
        reader.assert_clean(f"{lang} {exercise}")
    expected = {case: cli_verdict(case) for case in seen}
    differ = [f"{case}\n   page: {seen[case]}\n    cli: {expected[case]}" for case in seen if seen[case] != expected[case]]
    assert not differ, f"{len(differ)} of {len(seen)} verdicts differ:\n" + "\n".join(differ[:20])
    assert len(seen) >= 120 and {c.lang for c in seen} >= {"en", "fr", "ja", "ko", "id"}
    notes = {v["note"] for v in seen.values() if "note" in v}
    assert {"", "decimal-imprecise", "too-large", "unscaled-softmax", "decimal-comma-in-vector"} <= notes, notes


@needs_browser
@needs_runtime
@pytest.mark.parametrize("locale, exercise, part, answers", [
    ("en", "terrain-warmup", "lr-at-step", ["0.0000075", "3/400000", "0.0001", "sqrt(9)/400000"]),
    # a decimal comma is plain arithmetic too: only the exact form at the end needs SymPy
    ("fr", "terrain-warmup", "lr-at-step", ["7.5e-6", "0,0000075", "7,5e-6", "sqrt(9)/400000"]),
    ("ja", "embedding-distances", "parakeet-fourier", ["1.8708", "sqrt(14)/2", "3.5"]),
], ids=["en", "fr-decimal-comma", "ja"])
def test_typing_and_checking_in_a_locale(reader, base_url, built_site, locale, exercise, part, answers):
    """The first plain number is judged before SymPy loads; the words are the locale's, as the CLI's."""
    page = open_lesson(reader, base_url, built_site, locale, exercise)
    status = page.locator(f'.course-checker-exercise[data-exercise="{exercise}"] .course-checker__status')
    assert status.text_content() == "", "the checker started before a box was touched"
    for i, answer in enumerate(answers):
        case = Case(exercise, part, answer, locale, why="typed")
        assert page_verdict(page, case) == cli_verdict(case), case
        if i == 0:   # SymPy is not loaded for it ("loaded"); its warm-up in the background begins once it is judged
            assert status.get_attribute("data-sympy") in (None, "warmed"), "SymPy was loaded for a plain number"
    # loaded for the exact form, or before it in the background (warmed) once the first verdict was given
    assert status.get_attribute("data-sympy") in ("loaded", "warmed"), "an exact form was judged without SymPy?"
    reader.assert_clean(f"{locale} {exercise}")


@needs_browser
@needs_runtime
def test_check_all_checks_every_answered_part(reader, base_url, built_site):
    exercise = bank.get("terrain-warmup")
    page = open_lesson(reader, base_url, built_site, "en", exercise.id)
    answers = {p.id: str(p.reference) for p in exercise.parts[:-1]}   # the last one left empty
    for part, answer in answers.items():
        page.fill(f'{part_selector(Case(exercise.id, part, ""))} .course-checker__answer', answer)
    page.click(f'.course-checker-exercise[data-exercise="{exercise.id}"] .course-checker__check-all')
    total = page.locator(f'.course-checker-exercise[data-exercise="{exercise.id}"] .course-checker__total')
    total.filter(has_text="/").wait_for(timeout=wait_ms(CHECKING))
    points = sum(p.points for p in exercise.parts[:-1])
    assert total.text_content() == f"Total: {points}/{exercise.max_score}"
    for part in exercise.parts:
        box = page.locator(f"{part_selector(Case(exercise.id, part.id, ''))} .course-checker__verdict")
        assert box.get_attribute("data-note") == ("" if part.id in answers else None), part.id
    reader.assert_clean("check all")


# --- one grader for the visit: the theme's instant navigation swaps pages in place


NAV_LINK = '.md-sidebar--primary a.md-nav__link[href$="{}"]'
STATUS_LOG = """() => {
  window.courseStates = [];
  const line = document.querySelector('.course-checker__status');
  new MutationObserver(() => window.courseStates.push(line.dataset.state))
    .observe(line, {attributes: true, attributeFilter: ['data-state']});
}"""


def follow(page, base_url: str, path: str, exercise: str) -> None:
    """Click the page's link to ``path`` in the site's navigation, as a reader goes to the next lesson, until its
    exercise is there (a page swapped in place: the address changes first, the page after it)."""
    page.locator(NAV_LINK.format(path.rstrip("/").rsplit("/", 1)[-1] + "/")).first.click()
    page.wait_for_url(base_url + path)
    page.locator(f'.course-checker-exercise[data-exercise="{exercise}"]').wait_for(state="attached")


@needs_browser
@needs_runtime
def test_a_lesson_reached_by_its_link_is_judged_by_the_grader_already_running(fresh_reader, base_url, built_site):
    """The page swaps in place: the worker and the grader started in it live on, so no worker starts again and
    none of the checker's files is asked for again; the checker is ready on arrival, before a box is touched; the
    verdicts are the command line's. SymPy's modules were imported in the background after the first verdict
    (data-sympy "warmed"), so the first exact form on the next page loads nothing. A link to another language
    loads that page anew (its words, its search), where the checker starts again from the browser's cache."""
    reader = fresh_reader
    first = Case("terrain-warmup", "lr-at-step", "0.0000075", why="first page")
    page = open_lesson(reader, base_url, built_site, "en", first.exercise)
    assert page_verdict(page, first) == cli_verdict(first)
    page.wait_for_function("() => document.querySelector('.course-checker__status').dataset.sympy === 'warmed'",
                           timeout=wait_ms(CHECKING))
    page.evaluate("window.courseVisit = 'the first page'")
    asked = len(reader.requested)
    paths = lesson_paths(built_site, "en")
    later = [[Case("embedding-distances", "parakeet-monkey", "0.3", why="linked"),
              Case("embedding-distances", "parakeet-fourier", "sqrt(14)/2", why="linked, an exact form"),
              Case("embedding-distances", "parakeet-fourier", "sqrt(14)", why="linked, a wrong exact form")],
             [Case("attention-weights", "weights", "(e/(1+2*e), e/(1+2*e), 1/(1+2*e))", why="linked, a named mistake"),
              Case("attention-weights", "scores", "(1, 1, 0)", why="linked, a vector")]]
    for cases in later:
        follow(page, base_url, paths[cases[0].exercise], cases[0].exercise)
        assert page.evaluate("window.courseVisit") == "the first page", "the page was loaded anew, not swapped in"
        status = page.locator(".course-checker__status").first
        assert status.get_attribute("data-state") == "ready", "the checker was not ready on arrival"
        # the site's other script attached to the page too (reader.js): its copy buttons are no landmarks
        page.wait_for_function("() => document.querySelector('article nav.md-code__nav')"
                               " && !document.querySelector('nav.md-code__nav:not([role])')")
        page.evaluate(STATUS_LOG)
        for case in cases:
            assert page_verdict(page, case) == cli_verdict(case), case
        assert status.get_attribute("data-sympy") == "warmed" and "loading_sympy" not in page.evaluate("window.courseStates")
        reader.assert_clean(f"linked to {cases[0].exercise}")
    again = [url for url in reader.requested[asked:] if "/assets/checker/" in url]
    assert not again, f"asked for again after the first page: {again}"
    # the language switcher: that page anew, in its language, the checker started again there
    page.hover(".md-header__option .md-select")
    page.click(f'{tb.SWITCHER_LINKS}[hreflang="fr"]')
    page.wait_for_url(base_url + lesson_paths(built_site, "fr")["attention-weights"])
    assert page.locator("html").get_attribute("lang") == "fr" and page.evaluate("window.courseVisit") is None
    french = Case("attention-weights", "scores", "(1 ; 1 ; 0)", "fr", why="after the language switch")
    assert page_verdict(page, french) == cli_verdict(french)
    reader.assert_clean("after the language switch")


# the files the worker keeps in the Cache Storage (the runtime, the zips): a page opened anew may not ask for them
KEPT_FILES = re.compile(r"/assets/checker/(pyodide-[^/]+/|[^/]+\.zip$|[^/]+\.snapshot$)")


def kept_snapshot(page) -> list[str]:
    """The snapshot's entry in the Cache Storage, once the worker has put it there (after the warm-up)."""
    return started.kept_snapshot(page, CHECKING)


def refuse_kept_files(reader) -> list[str]:
    """From now on the server is never asked for the runtime, a zip or a snapshot: those come from the Cache
    Storage or not at all. The list of what was refused, to assert empty."""
    refused: list[str] = []

    def route(route):
        refused.append(route.request.url)
        route.abort()

    reader.context.route(KEPT_FILES, route)
    return refused


@needs_browser
@needs_runtime
def test_a_lesson_opened_anew_starts_from_the_snapshot_of_the_started_grader(fresh_reader, base_url, built_site):
    """The first start, warmed up, is kept in the Cache Storage as a memory snapshot under this build's worker name;
    a lesson opened anew (a fresh page load, another locale) starts from it: data-start "snapshot", SymPy in it
    already, nothing of the runtime, the zips or the snapshot asked of the server, and the verdicts (plain numbers,
    exact forms, named mistakes, a variant) the command line's, word for word."""
    reader = fresh_reader
    first = Case("terrain-warmup", "lr-at-step", "0.0000075", why="first start")
    page = open_lesson(reader, base_url, built_site, "en", first.exercise)
    assert page_verdict(page, first) == cli_verdict(first)
    status = page.locator(".course-checker__status").first
    assert status.get_attribute("data-start") == "fresh"
    worker = next(url for url in reader.requested if re.search(r"/worker-[0-9a-f]+\.js$", url))
    assert kept_snapshot(page) == [worker.removesuffix(".js") + ".snapshot"], "the snapshot is not keyed by this build"
    refused = refuse_kept_files(reader)
    cases = {"en": [Case("attention-weights", "scores", "(1, 1, 0)", why="reopened"),
                    Case("attention-weights", "weights", "(e/(1+2*e), e/(1+2*e), 1/(1+2*e))", why="reopened, a named mistake"),
                    Case("attention-weights", "weights", "(e/(1+2*e), e/(1+2*e), 1)", why="reopened, a wrong exact form")],
             "fr": [Case("embedding-distances", "parakeet-fourier", "sqrt(14)/2", "fr", why="reopened in French"),
                    Case("embedding-distances", "parakeet-monkey", "0,09", "fr", why="reopened, a named mistake")]}
    for locale, group in cases.items():
        page = open_lesson(reader, base_url, built_site, locale, group[0].exercise)
        for case in group:
            assert page_verdict(page, case) == cli_verdict(case), case
        asked = [url for url in reader.requested if KEPT_FILES.search(url)]
        assert not asked, f"{locale}: asked of the server again: {asked}"
        status = page.locator(".course-checker__status").first
        assert status.get_attribute("data-start") == "snapshot", f"{locale}: not started from the snapshot"
        assert status.get_attribute("data-sympy") == "warmed", f"{locale}: SymPy is not in the snapshot"
        reader.assert_clean(f"reopened in {locale}")
    seeded = Case("terrain-warmup", "lr-at-step", written(bank.variant("terrain-warmup", "alice").part("lr-at-step").reference),
                  "en", "alice", why="reopened, a variant")
    page = open_lesson(reader, base_url, built_site, "en", seeded.exercise)
    block = page.locator(f'.course-checker-exercise[data-exercise="{seeded.exercise}"]')
    block.locator(".course-checker__seed").fill(seeded.seed)
    block.locator(".course-checker__use-seed").click()
    page.wait_for_function(SETTLED, arg=[f'.course-checker-exercise[data-exercise="{seeded.exercise}"] '
                                         '.course-checker__variant-status'], timeout=wait_ms(CHECKING))
    assert page_verdict(page, seeded) == cli_verdict(seeded)
    assert page.locator(".course-checker__status").first.get_attribute("data-start") == "snapshot"
    assert not refused, f"asked of the server again: {refused}"
    reader.assert_clean("reopened, a variant")


@needs_browser
@needs_runtime
def test_a_snapshot_that_does_not_load_is_dropped_and_the_grader_starts_as_the_first_time(fresh_reader, base_url, built_site):
    """A snapshot that does not load (here: its magic number changed, as Pyodide tells another build's) is
    deleted, the grader started anew from the cached files, its verdict the command line's; a new snapshot is
    made once it is warmed up."""
    reader = fresh_reader
    first = Case("terrain-warmup", "lr-at-step", "0.0000075", why="first start")
    page = open_lesson(reader, base_url, built_site, "en", first.exercise)
    assert page_verdict(page, first) == cli_verdict(first)
    [url] = kept_snapshot(page)
    magic = page.evaluate("""async (url) => {
      const store = await caches.open('course-checker');
      const bytes = new Uint8Array(await (await store.match(url)).arrayBuffer());
      const magic = bytes[0];
      bytes[0] ^= 0xff;
      await store.put(url, new Response(bytes));
      return magic;
    }""", url)
    case = Case("attention-weights", "scores", "(1, 1, 0)", why="after a broken snapshot")
    page = open_lesson(reader, base_url, built_site, "en", case.exercise)
    assert page_verdict(page, case) == cli_verdict(case)
    assert page.locator(".course-checker__status").first.get_attribute("data-start") == "fresh"
    assert kept_snapshot(page) == [url]
    kept = page.evaluate("async (url) => (await (await caches.open('course-checker')).match(url)).arrayBuffer()"
                         ".then((bytes) => bytes.byteLength)", url)
    first_byte = page.evaluate("async (url) => new Uint8Array(await (await (await caches.open('course-checker'))"
                               ".match(url)).arrayBuffer())[0]", url)
    assert kept > 1_000_000 and first_byte == magic, "the broken snapshot was not replaced by a new one"
    reader.assert_clean("after a broken snapshot")


# --- the time limit


@needs_browser
@needs_runtime
def test_an_answer_past_the_time_limit_gets_the_timeout_verdict_and_the_next_check_works(reader, base_url, built_site):
    case = Case("terrain-warmup", "lr-at-step", SLOW_CHECK, why="slow")
    expected = cli_verdict(case)
    assert expected["note"] == "timeout", expected   # the command line's own limit: not decided
    page = open_lesson(reader, base_url, built_site, "en", case.exercise)
    # SymPy imported first: the first exact form's import has a budget of its own (SYMPY_BUDGET) on top of the
    # limit, and the slow answer is then bound by the limit alone
    exact = Case(case.exercise, case.part, "sqrt(9)/400000", why="SymPy imported")
    assert page_verdict(page, exact) == cli_verdict(exact)
    assert page_verdict(page, case) == expected
    box = page.locator(f"{part_selector(case)} .course-checker__verdict")
    assert box.get_attribute("data-state") == "timeout"
    restarted = bank.get(case.exercise).parts[0]
    after = Case(case.exercise, restarted.id, "0.0000075", why="after the restart")
    assert page_verdict(page, after) == cli_verdict(after)
    reader.assert_clean("after a timeout")


@needs_browser
@needs_runtime
def test_a_runtime_that_cannot_start_says_so_and_the_command_line_stays(browser, built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    for archive in (site / checker.PUBLISHED).glob("grader-*.zip"):
        archive.unlink()
    with tb.serve(site) as url:
        reader = tb.new_reader(browser, url)
        try:
            page = open_lesson(reader, url, site, "fr", "terrain-warmup")
            case = Case("terrain-warmup", "lr-at-step", "0,0000075", "fr")
            page.fill(f"{part_selector(case)} .course-checker__answer", case.answer)
            page.click(f"{part_selector(case)} .course-checker__check")
            page.wait_for_function(SETTLED, arg=[f"{part_selector(case)} .course-checker__verdict"], timeout=wait_ms(CHECKING))
            verdict = page.locator(f"{part_selector(case)} .course-checker__verdict")
            assert verdict.get_attribute("data-state") == "failed"
            failed = json.loads(page.locator(".course-checker-exercise").first.get_attribute("data-words"))["failed"]
            assert verdict.inner_text().startswith(failed.split("{error}")[0]) and "404" in verdict.inner_text()
            assert page.locator("pre.course-command").first.is_visible()
            assert not reader.foreign, reader.foreign
        finally:
            reader.context.close()


# --- variants


@needs_browser
@needs_runtime
@pytest.mark.parametrize("locale, exercise, seed", [("en", "reachable-vertices", "s0042"),
                                                    ("fr", "terrain-warmup", "alice"),
                                                    ("ko", "attention-weights", "20240917")])
def test_a_seed_shows_the_variants_data_and_checks_against_it(reader, base_url, built_site, locale, exercise, seed):
    variant = bank.variant(exercise, seed)
    cases = []
    for part in variant.parts:
        answers = [written(part.reference) if part.kind != "set" else
                   "{" + ", ".join(written(tuple(p)) for p in part.reference) + "}"]
        answers += [written(value if part.kind == "vector" else value[0])
                    for _, value in targets.mistakes(variant, part.id)][:2]
        answers.append(written(bank.get(exercise).part(part.id).reference) if part.kind != "set" else "{(1, 0, 0)}")
        cases += [Case(exercise, part.id, answer, locale, seed, why="variant") for answer in answers]
    command = [GRADER, "show", exercise, "--seed", seed, "--lang", locale]
    shown = json.loads(subprocess.run([*command, "--format", "json"], capture_output=True, text=True, check=True,
                                      timeout=wait_seconds(30)).stdout)
    lines = subprocess.run(command, capture_output=True, text=True, check=True, timeout=wait_seconds(30)).stdout.splitlines()
    page = open_lesson(reader, base_url, built_site, locale, exercise)
    block = page.locator(f'.course-checker-exercise[data-exercise="{exercise}"]')
    block.locator(".course-checker__seed").fill(seed)
    block.locator(".course-checker__use-seed").click()
    page.wait_for_function(SETTLED, arg=[f'.course-checker-exercise[data-exercise="{exercise}"] .course-checker__variant-status'],
                           timeout=wait_ms(CHECKING))
    data = page.locator(f"#exercise-{exercise} .course-checker__variant-data .course-checker__data")
    pairs = list(zip(data.locator("dt").all_text_contents(), data.locator("dd").all_text_contents()))
    # each line as `grader show` prints it, in the locale's words and typography ('  label : value' in fr)
    from grader.languages.messages import message
    shown_lines = ["  " + message("show.data-item", locale, label=label, value=value) for label, value in pairs]
    assert all(line in lines for line in shown_lines), (shown_lines, lines)
    assert [lines.index(line) for line in shown_lines] == sorted(lines.index(line) for line in shown_lines)
    assert len(pairs) == len(shown["data"]) >= 3
    for part in shown["parts"]:
        prompt = page.locator(f'{part_selector(Case(exercise, part["id"], ""))} .course-checker__prompt')
        assert part["prompt"] in prompt.text_content()
    for case in cases:
        assert page_verdict(page, case) == cli_verdict(case), case
    block.locator(".course-checker__lesson").click()
    lesson = bank.get(exercise).parts[0]
    case = Case(exercise, lesson.id, "1/7", locale, why="the lesson again")
    assert page_verdict(page, case) == cli_verdict(case)
    reader.assert_clean(f"{locale} {exercise} seed {seed}")


@needs_browser
@needs_runtime
def test_an_unusable_seed_gets_the_command_lines_words(reader, base_url, built_site):
    seed = "s" * 1000
    ran = subprocess.run([GRADER, "show", "terrain-warmup", "--seed", seed, "--lang", "fr"], capture_output=True, text=True,
                         timeout=wait_seconds(30))
    assert ran.returncode == 2
    page = open_lesson(reader, base_url, built_site, "fr", "terrain-warmup")
    block = page.locator('.course-checker-exercise[data-exercise="terrain-warmup"]')
    block.locator(".course-checker__seed").fill(seed)
    block.locator(".course-checker__seed").press("Enter")
    page.wait_for_function(SETTLED, arg=['.course-checker-exercise[data-exercise="terrain-warmup"] .course-checker__variant-status'],
                           timeout=wait_ms(CHECKING))
    assert block.locator(".course-checker__variant-status").inner_text().strip() == ran.stderr.strip()


# --- every reader: keyboard only, labels and live regions, a narrow screen


@needs_browser
@needs_runtime
def test_keyboard_only_labels_and_live_regions(reader, base_url, built_site):
    page = open_lesson(reader, base_url, built_site, "en", "embedding-distances")
    boxes = page.locator(".course-checker__answer, .course-checker__seed")
    for i in range(boxes.count()):
        described = boxes.nth(i).evaluate(
            "b => ({label: [...b.labels].map(l => l.textContent.trim()), live: (b.getAttribute('aria-describedby') || '')"
            ".split(' ').filter(Boolean).map(id => document.getElementById(id)).filter(e => e && e.getAttribute('aria-live'))"
            ".map(e => e.getAttribute('aria-live'))})")
        assert len(described["label"]) == 1 and described["label"][0], described
        if "course-checker__answer" in boxes.nth(i).get_attribute("class"):
            assert described["live"] == ["polite", "polite"], described   # how it was read, then the verdict
    # from the top of the page, Tab until the first answer box
    assert tab_to(page, page.locator(".course-checker__answer").first, 300), "the first answer box cannot be reached with Tab"
    page.keyboard.type("0.3")
    page.keyboard.press("Enter")
    verdict = page.locator(".course-checker__verdict").first
    page.wait_for_function(SETTLED, arg=[".course-checker__verdict"], timeout=wait_ms(CHECKING))
    assert verdict.get_attribute("data-note") == ""
    page.keyboard.press("Tab")   # to its Check button
    assert page.evaluate("document.activeElement.classList.contains('course-checker__check')")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("0.09")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    page.wait_for_function(SETTLED, arg=[".course-checker__verdict"], timeout=wait_ms(CHECKING))
    assert verdict.get_attribute("data-note") == "squared-distance"
    reader.assert_clean("keyboard")


@needs_browser
@needs_runtime
def test_fits_a_375_px_screen(browser, base_url, built_site):
    context = tb.new_context(browser, viewport={"width": 375, "height": 800})
    try:
        reader = tb.Reader(context)
        page = open_lesson(reader, base_url, built_site, "fr", "attention-weights")
        page.locator(".course-checker__answer").first.fill("(1, 1, 0)")
        page.locator(".course-checker__check").first.click()
        page.wait_for_function(SETTLED, arg=[".course-checker__verdict"], timeout=wait_ms(CHECKING))
        page.locator(".course-checker__answer").nth(2).fill("(0,5,0,5,0)")   # a long verdict, with a caret
        page.locator(".course-checker__check").nth(2).click()
        page.wait_for_function(SETTLED, arg=[".course-checker[data-part='weights'] .course-checker__verdict"], timeout=wait_ms(CHECKING))
        boxes = page.locator(".course-checker, .course-checker-exercise, .course-checker input, .course-checker button, "
                             ".course-checker-exercise input, .course-checker-exercise button")
        for i in range(boxes.count()):
            if not boxes.nth(i).is_visible():
                continue
            box = boxes.nth(i).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375 + 0.5, (i, box)
        caret = page.locator(".course-checker[data-part='weights'] .course-checker__verdict .course-checker__caret")
        assert caret.evaluate("p => p.getBoundingClientRect().right") <= 375.5
        # the refusal is said once, in the verdict: the reading under the box (a second live region) said it too
        page.wait_for_timeout(wait_ms(2))   # a reading asked before Check may come back after the verdict
        assert page.locator(".course-checker[data-part='weights'] .course-checker__caret").count() == 1
        reader.assert_clean("375 px")
    finally:
        context.close()


# --- builds: the runtime copied once; solutions off; no runtime


def two_locale_config(folder: Path, **course) -> Path:
    """The real configuration and chapters, built in English and French only; extra.course updated."""
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(ROOT / "docs")
    config["hooks"] = [str(ROOT / "hooks/course.py")]
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "i18n" in plugin:
            plugin["i18n"]["languages"] = [lang for lang in plugin["i18n"]["languages"] if lang["locale"] in ("en", "fr")]
    config["extra"]["course"].update(course)
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


@needs_runtime
def test_the_runtime_is_in_the_site_once_and_only_what_loading_needs(built_site):
    copies = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("pyodide.asm.wasm"))
    assert len(copies) == 1 and re.fullmatch(rf"{checker.PUBLISHED}/pyodide-[0-9a-f]{{16}}/pyodide.asm.wasm", copies[0])
    runtime = built_site / copies[0].rsplit("/", 1)[0]
    assert sorted(p.name for p in runtime.iterdir()) == sorted(checker.SERVED_RUNTIME)   # no lock file, no stdlib
    zips = {re.sub(r"-[0-9a-f]{16}\.zip$", "", p.name): p for p in (built_site / checker.PUBLISHED).glob("*.zip")}
    assert sorted(zips) == ["grader", "rest", "stdlib", "sympy"]
    names = zipfile.ZipFile(zips["grader"]).namelist()
    assert "grader/web.py" in names and [n for n in names if re.fullmatch(r"cache/references-\w+\.json", n)]
    later = zipfile.ZipFile(zips["sympy"]).namelist()
    assert {"sympy/__init__.py", "sympy/__init__.pyc"} & set(later) and {"mpmath/__init__.py", "mpmath/__init__.pyc"} & set(later)
    every = [n for path in zips.values() for n in zipfile.ZipFile(path).namelist()]
    assert not [n for n in every if "/tests/" in n or "__pycache__" in n]
    lesson = (built_site / "02-attention-projection" / "index.html").read_text("utf-8")
    head = lesson.split("</head>")[0]
    assert len(re.findall(r"checker-[0-9a-f]{16}\.js", head)) == 1 and "pyodide" not in head


def reference_strings(exercise_ids) -> dict[str, list[str]]:
    """How each reference value could be read: short decimals in the locales' formats, long decimals
    (a table of references), the exact form as text; whole numbers cannot be told apart from data."""
    found = {}
    for exercise_id in exercise_ids:
        for part in bank.get(exercise_id).parts:
            values = list(part.reference) if part.kind == "vector" else [part.reference] if part.kind != "set" else []
            for value in values:
                if value.is_Integer:
                    continue
                short = decimal(value, 4)
                long = decimal(value, 30)[:10]   # the start of a long decimal, as a table of references has it
                found[f"{exercise_id} {part.id} {value}"] = [short, short.replace(".", ","), long] + (
                    [str(value)] if not value.is_Rational else [])
    return found


def build_without_solutions(folder: Path) -> Path:
    """English and French, solutions off: the site the checker's and the layout's tests share."""
    result = run_mkdocs_build(two_locale_config(folder, solutions=False), folder / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "site"


@pytest.fixture(scope="module")
def site_without_solutions(shared_builds):
    return shared_builds.get("two-locales-no-solutions", build_without_solutions)


FIGURE = re.compile(r'<figure class="course-figure.*?</figure>', re.S)


def served_text(site: Path, figures: bool = True) -> dict[str, str]:
    """Every file the site serves, as a reader's tools would read it (compressed archives stay as they
    are); ``figures=False``: the figures' drawings left out of the pages."""
    served = {p.relative_to(site).as_posix(): p.read_bytes().decode("utf-8", "replace")
              for p in site.rglob("*") if p.is_file()}
    return served if figures else {name: FIGURE.sub("", text) for name, text in served.items()}


def leaked(site: Path, figures: bool) -> list[str]:
    strings = reference_strings(bank.EXERCISES)
    return [f"{where}: {what} ({name})" for where, text in served_text(site, figures).items()
            for what, forms in strings.items() for name in forms if name in text]


@needs_runtime
def test_solutions_off_no_reference_value_is_served_in_readable_form(built_site, site_without_solutions):
    strings = reference_strings(bank.EXERCISES)
    # the yardstick: with solutions on, the HTML shows the references; the archive holds them in its table
    lesson_text = "".join(p.read_text("utf-8") for p in built_site.glob("0*/index.html"))
    shown = [s for forms in strings.values() for s in forms[:1] if s in lesson_text]
    assert len(shown) >= 5, shown
    archive = next((site_without_solutions / checker.PUBLISHED).glob("grader-*.zip"))
    with zipfile.ZipFile(archive) as opened:
        table = "".join(opened.read(n).decode() for n in opened.namelist() if n.startswith("cache/"))
    assert sum(forms[2] in table for forms in strings.values()) >= 5
    leaks = leaked(site_without_solutions, figures=False)   # the figures: the next test
    assert not leaks, "\n".join(leaks[:20])
    assert "course-checker" in (site_without_solutions / "fr" / "02-attention-projection" / "index.html").read_text("utf-8")


@needs_runtime
def test_solutions_off_the_figures_show_no_reference_value(site_without_solutions):
    leaks = leaked(site_without_solutions, figures=True)
    assert not leaks, "\n".join(leaks[:20])


@needs_browser
@needs_runtime
def test_solutions_off_the_page_still_judges_with_feedback(browser, site_without_solutions):
    with tb.serve(site_without_solutions) as url:
        reader = tb.new_reader(browser, url)
        loaded: list[str] = []
        reader.context.on("requestfinished", lambda request: loaded.append(request.url))
        try:
            reader.open(url + "/02-attention-projection/")
            for answer in ("(1, 1, 0)", "(1/2, 1/2, 0)"):
                case = Case("attention-weights", "scores", answer, why="solutions off")
                assert page_verdict(reader.page, case) == cli_verdict(case)
            exact = Case("attention-weights", "weights", "(1/(2+exp(-1/2)), sqrt(e)/(2*sqrt(e)+1), 1/(1+2*exp(1/2)))",
                         why="solutions off, an exact form: SymPy's zip")
            assert page_verdict(reader.page, exact) == cli_verdict(exact)
            reader.assert_clean("solutions off")
        finally:
            reader.context.close()
    assert any(u.endswith(".zip") and "grader-" in u for u in loaded)
    assert any(u.endswith(".zip") and "sympy-" in u for u in loaded)


def test_without_the_runtime_the_build_passes_and_says_so_once(tmp_path):
    missing = tmp_path / "no-node-modules" / "pyodide"
    result = run_mkdocs_build(two_locale_config(tmp_path), tmp_path / "site", env={checker.RUNTIME_ENV: str(missing)})
    assert result.returncode == 0, result.stderr[-3000:]
    said = [line for line in result.stderr.splitlines() if OFF_MESSAGE in line]
    assert len(said) == 1, said
    assert str(missing) in said[0] and "npm ci" in said[0]
    site = tmp_path / "site"
    assert not (site / checker.PUBLISHED).exists()
    for path in site.rglob("*.html"):
        text = path.read_text("utf-8")
        # no box and nothing loaded from the checker's folder (the publishing page names the folder in its text)
        assert 'class="course-checker' not in text and not re.search(r'(?:src|href)="[^"]*assets/checker/', text), path
    lesson = (site / "fr" / "02-attention-projection" / "index.html").read_text("utf-8")
    assert "grader check attention-weights" in lesson   # the command-line route stays


def test_the_switch_turns_it_off(tmp_path):
    result = run_mkdocs_build(two_locale_config(tmp_path, check_in_browser=False), tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    assert [line for line in result.stderr.splitlines() if OFF_MESSAGE in line and "check_in_browser" in line]
    assert not (tmp_path / "site" / checker.PUBLISHED).exists()
    assert "course-checker" not in (tmp_path / "site" / "02-attention-projection" / "index.html").read_text("utf-8")


# --- each box's state beside it, in words; the verdict said in words


LABELS = {locale: tomllib.loads((tb.DOCS / locale / "labels.toml").read_text("utf-8"))["checker"] for locale in tb.LOCALES}
# the text a screen reader reads in a node: every text not inside aria-hidden, its spaces folded
SPOKEN = ("n => { const walk = document.createTreeWalker(n, NodeFilter.SHOW_TEXT); const out = [];"
          " while (walk.nextNode()) if (!walk.currentNode.parentElement.closest('[aria-hidden=\"true\"]'))"
          " out.push(walk.currentNode.textContent); return out.join(' ').replace(/\\s+/g, ' ').trim(); }")


def badge_of(page, case: Case) -> tuple[str, str]:
    badge = page.locator(f"{part_selector(case)} .course-checker__badge")
    return badge.get_attribute("data-state"), badge.inner_text().strip()


@needs_browser
@needs_runtime
@pytest.mark.parametrize("locale", ["en", "fr"])
def test_each_box_shows_its_state_in_words_and_the_verdict_is_said_in_words(reader, base_url, built_site, locale):
    words = LABELS[locale]
    said = lambda state, score, max_score: words["verdict_said"].format(  # noqa: E731
        verdict=words[f"verdict_{state}"], score=score, max=max_score)
    page = open_lesson(reader, base_url, built_site, locale, "embedding-distances")
    right = Case("embedding-distances", "parakeet-monkey", "0.3", locale, why="right")
    verdict = page.locator(f"{part_selector(right)} .course-checker__verdict")
    page_verdict(page, right)
    state, text = badge_of(page, right)
    assert state == "right" and text.endswith(words["verdict_right"]) and "\u2713" in text
    assert verdict.evaluate(SPOKEN).startswith(said("right", 1, 1)), verdict.evaluate(SPOKEN)
    wrong = Case("embedding-distances", "parakeet-monkey", "0.09", locale, why="a named mistake")
    page_verdict(page, wrong)
    spoken = verdict.evaluate(SPOKEN)
    assert badge_of(page, wrong)[0] == "wrong" and words["verdict_wrong"] in badge_of(page, wrong)[1]
    assert spoken.startswith(said("wrong", 0, 1)) and "squared-distance" not in spoken and "0/1" not in spoken, spoken
    # changed since its check: not checked yet, beside the box; the verdict goes
    page.fill(f"{part_selector(right)} .course-checker__answer", "0.31")
    assert badge_of(page, right)[0] == "unchecked" and badge_of(page, right)[1].endswith(words["verdict_unchecked"])
    assert verdict.inner_text() == ""
    # unreadable: the reading says the grader's refusal after a pause; Check then says it once, not twice
    unreadable = Case("embedding-distances", "parakeet-monkey", "0.3)", locale, why="unreadable")
    root = part_selector(unreadable)
    page.fill(f"{root} .course-checker__answer", unreadable.answer)
    page.wait_for_function("sel => document.querySelector(sel).dataset.state === 'refused'",
                           arg=f"{root} .course-checker__reading", timeout=wait_ms(CHECKING))
    page.click(f"{root} .course-checker__check")
    page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
    assert badge_of(page, unreadable)[0] == "unreadable"
    assert verdict.evaluate(SPOKEN) == said("unreadable", 0, 1), "the refusal was said again by the verdict"
    assert verdict.locator(".course-checker__caret").is_visible()   # shown, once, under the box
    assert page.locator(f"{root} .course-checker__reading").inner_text() == ""
    # partly right, on lesson 4: a verdict below the fold comes into view, the focus stays in the box
    page = open_lesson(reader, base_url, built_site, locale, "reachable-vertices")
    partial = Case("reachable-vertices", "vertices", "{(1, 0, 0)}", locale, why="partly right")
    root = part_selector(partial)
    page.set_viewport_size({"width": 1280, "height": 500})
    box = page.locator(f"{root} .course-checker__answer")
    box.evaluate("b => b.closest('.course-checker__row').scrollIntoView({block: 'end'})")
    box.fill(partial.answer)
    box.press("Enter")
    page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
    assert badge_of(page, partial)[0] == "partial" and words["verdict_partial"] in badge_of(page, partial)[1]
    assert page.locator(f"{root} .course-checker__verdict").evaluate(SPOKEN).startswith(said("partial", 1, 4))
    # the theme scrolls smoothly: the verdict comes into view, or the wait runs out
    page.wait_for_function("sel => document.querySelector(sel).getBoundingClientRect().bottom <= window.innerHeight",
                           arg=f"{root} .course-checker__verdict", timeout=wait_ms(10))
    assert page.evaluate("document.activeElement.classList.contains('course-checker__answer')")
    reader.assert_clean(f"{locale}: states")
