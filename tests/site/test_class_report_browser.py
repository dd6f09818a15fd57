"""The class report (`grader report`) in a real browser: Debian's Chromium, no network.

A class graded by the real command, plus result lines with hostile student ids and answers
and variants (SCHEMA.md's format), reported, then opened from the disk as an instructor opens
it: every chart drawn and not empty, with its table beside it; no console error, no dialog (a
hostile id's script would open one), no request of any kind but the file itself. Screenshots
are kept in test-artifacts/class-report/.
"""
from __future__ import annotations

import pytest

from grader import bank
from tests.conftest import ROOT
from tests.grader.test_class_report import hostile_results, run, write_class
from tests.site.browsing import launch, new_context
from tests.site.test_browser import CHROMIUM

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

SHOTS = ROOT / "test-artifacts" / "class-report"

CHARTS = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
  const box = svg.getBoundingClientRect();
  const marks = [...svg.querySelectorAll('rect.bar, rect.seg')].map(r => r.getBoundingClientRect())
    .filter(r => r.width > 0.5 && r.height > 0.5);
  const pair = svg.closest('.pair');
  const table = pair && pair.querySelector('table');
  return {label: svg.getAttribute('aria-label'), role: svg.getAttribute('role'),
          width: box.width, height: box.height, marks: marks.length,
          table_rows: table ? table.querySelectorAll('tbody tr').length : 0};
})"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A graded class of 15 with --report, then hostile lines appended and reported again."""
    base = tmp_path_factory.mktemp("report")
    folder, out = base / "submissions", base / "out"
    folder.mkdir()
    write_class(folder, 15, seed=5)
    assert run("grade", folder, "--out", out, "--jobs", 2, "--report").returncode in (0, 1)
    hostile = hostile_results(base / "hostile") / "results.jsonl"
    with (out / "results.jsonl").open("ab") as log:
        log.write(hostile.read_bytes())
    assert run("report", out).returncode == 0
    return out / "report.html"


@pytest.fixture(scope="module")
def page(report):
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        context = new_context(browser, viewport={"width": 1280, "height": 900})
        seen = {"requests": [], "errors": [], "dialogs": []}

        def route(r):
            if r.request.url.startswith("file://"):
                r.continue_()
            else:
                seen["requests"].append(r.request.url)
                r.abort()

        context.route("**/*", route)
        context.on("request", lambda request: None if request.url.startswith("file://")
                   else seen["requests"].append(request.url))
        tab = context.new_page()
        tab.on("console", lambda m: m.type == "error" and seen["errors"].append(m.text))
        tab.on("pageerror", lambda e: seen["errors"].append(str(e)))
        tab.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
        tab.goto(report.as_uri(), wait_until="load")
        yield tab, seen
        context.close()
        browser.close()


def test_every_chart_is_drawn_with_its_table_beside_it(page):
    tab, _ = page
    charts = tab.evaluate(CHARTS)
    parts = sum(len(exercise.parts) for exercise in bank.EXERCISES.values())
    assert len(charts) >= 1 + len(bank.EXERCISES) + parts + 1, "totals, each exercise, each part's outcomes, variants"
    for chart in charts:
        assert chart["role"] == "img" and chart["label"], chart
        assert chart["width"] > 100 and chart["height"] > 20, chart
        assert chart["marks"] >= 1, f"an empty chart: {chart}"
        assert chart["table_rows"] >= 1, f"a chart without its table: {chart}"
    first = tab.locator("svg.chart").first
    assert first.is_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=SHOTS / "report-top.png")
    tab.locator("section.part").first.scroll_into_view_if_needed()
    tab.locator("section.part").first.screenshot(path=SHOTS / "report-part.png")
    tab.locator("#variants").screenshot(path=SHOTS / "report-variants.png")


def test_nothing_runs_and_nothing_goes_out(page):
    tab, seen = page
    assert not seen["requests"], f"the report asked the network for {seen['requests']}"
    assert not seen["errors"], seen["errors"]
    assert not seen["dialogs"], f"a student's text ran as script: {seen['dialogs']}"
    assert tab.evaluate("document.querySelectorAll('img, script, iframe, object, embed').length") == 0
    text = tab.inner_text("body")
    assert "<img src=x onerror=alert(1)>" in text            # shown, as text
    assert '=HYPERLINK("http://x","y")' in text and "\\x1b[2J" in text and "\x1b" not in text
