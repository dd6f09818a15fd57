"""Where things stand on the page, in Debian's Chromium: every verdict and message wraps in its box at 375 and
1280 px, in every locale; a variant's data and figure take the place of the lesson's; a figure shows answers only inside the opened worked solution, on screen and in a printed PDF, in
the default build and with solutions off.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from grader import bank, web
from hooks.chapters import render
from hooks.chapters.labels import figure_labels, load_labels
from tests.conftest import wait_ms
from tests.site import started
from tests.site import test_browser as tb
from tests.site.test_checker import (  # noqa: F401 - fixtures
    CHECKING,
    SETTLED,
    base_url,
    browser,
    build_without_solutions,
    first_start,
    lesson_paths,
    needs_browser,
    needs_runtime,
)
from tests.site.test_work_kept import settle

pypdf = pytest.importorskip("pypdf")
pytestmark = needs_browser
LABELS = load_labels(tb.DOCS)
SVG = "{http://www.w3.org/2000/svg}"
WIDTHS = (375, 1280)


@pytest.fixture(scope="module")
def site_without_solutions(shared_builds):
    with tb.serve(shared_builds.get("two-locales-no-solutions", build_without_solutions)) as url:
        yield url


def new_tab(browser, width: int, base_url: str | None = None, first_start=None):
    """A new tab ``width`` px wide; with the site's kept ``first_start``, its grader starts from it."""
    reader = tb.Reader(tb.new_context(browser, viewport={"width": width, "height": 900}))
    if first_start is not None:
        started.give_started_grader(reader.page, base_url, first_start)
    return reader


# --- every verdict wraps in its box


# what reaches past the right edge of its verdict (or reading), outside the answer's lines, which scroll
OVERFLOW = """box => {
  const right = box.getBoundingClientRect().right + 0.5;
  const out = [...box.querySelectorAll('*')].filter(el => !el.closest('pre'))
    .filter(el => el.getBoundingClientRect().right > right).map(el => el.className + ': ' + el.textContent.slice(0, 40));
  const pre = box.querySelector('pre');
  if (pre && pre.getBoundingClientRect().right > right) out.push('the answer\\'s lines');
  return out;
}"""

LONG = [   # (exercise, part, answer): a refusal with a caret, a long feedback, a very long answer
    ("attention-weights", "weights", "(0,5,0,5,0)"),
    ("attention-weights", "weights", "(1, 2"),
    ("attention-weights", "weights", "(e/(1+2*e), e/(1+2*e), 1/(1+2*e))"),
    ("attention-weights", "scores", "(" + ", ".join(["1"] * 120) + ")"),
]


@needs_runtime
@pytest.mark.parametrize("locale", tb.LOCALES)
def test_every_verdict_wraps_in_its_box_at_375_and_1280_px(browser, base_url, built_site, first_start, locale):
    for width in WIDTHS:
        reader = new_tab(browser, width, base_url, first_start)
        try:
            reader.open(base_url + lesson_paths(built_site, locale)["attention-weights"])
            page = reader.page
            for exercise, part, answer in LONG:
                root = f'.course-checker[data-exercise="{exercise}"][data-part="{part}"]'
                page.fill(f"{root} .course-checker__answer", answer)
                page.click(f"{root} .course-checker__check")
                page.wait_for_function(SETTLED, arg=[f"{root} .course-checker__verdict"], timeout=wait_ms(CHECKING))
                verdict = page.locator(f"{root} .course-checker__verdict")
                assert verdict.evaluate(OVERFLOW) == [], (width, answer)
                assert verdict.evaluate("v => v.getBoundingClientRect().right") <= page.locator(root).evaluate(
                    "p => p.getBoundingClientRect().right") + 0.5
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, answer)
            reader.assert_clean(f"{locale} at {width} px")
        finally:
            reader.context.close()


# --- a variant in the lesson's place


@needs_runtime
@pytest.mark.parametrize("locale, exercise, seed", [("en", "reachable-vertices", "s0042"),
                                                    ("fr", "attention-weights", "alice")])
def test_a_variants_data_and_figure_take_the_place_of_the_lessons(browser, base_url, built_site, first_start, locale,
                                                                  exercise, seed):
    reader = new_tab(browser, 1280, base_url, first_start)
    try:
        reader.open(base_url + lesson_paths(built_site, locale)[exercise])
        page = reader.page
        section = page.locator(f"section#exercise-{exercise}")
        lesson_data = section.locator(".course-exercise__data")
        on_page = "el => el.getBoundingClientRect().top + window.scrollY"   # Use this variant scrolls to its button
        top = lesson_data.evaluate(on_page)
        figure_id = bank.get(exercise).definition.figure.id
        drawing = page.locator(f"#figure-{figure_id} .course-figure__drawing")
        lesson_desc = drawing.locator("svg desc").first.text_content()
        page.fill(".course-checker__seed", seed)
        page.click(".course-checker__use-seed")
        page.wait_for_function(SETTLED, arg=[".course-checker__variant-status"], timeout=wait_ms(CHECKING))
        drawing.and_(page.locator(f"[data-seed='{seed}']")).wait_for(timeout=wait_ms(CHECKING))
        view = section.locator(".course-checker__variant-data")
        assert lesson_data.is_hidden() and view.is_visible()
        # where the lesson's data were: right after them, before what to submit
        assert view.evaluate("v => v.previousElementSibling.classList.contains('course-exercise__data')")
        assert view.evaluate("v => v.nextElementSibling.classList.contains('course-exercise__heading')")
        assert abs(view.evaluate(on_page) - top) < 2
        shown = dict(zip(view.locator("dt").all_text_contents(), view.locator("dd").all_text_contents()))
        grader_show = json.loads(web.show(exercise, locale, seed))["result"]
        assert list(shown) == [grader_show["data_labels"][name] for name in grader_show["data"]]
        # the figure block draws the variant, data only, as the grader draws it
        _, words = render.figure_words(bank.get(exercise), LABELS[locale], locale)
        expected = ET.fromstring(json.loads(web.figure(exercise, locale, seed, json.dumps(words)))["svg"])
        assert drawing.locator("svg desc").first.text_content() == expected.find(f"{SVG}desc").text != lesson_desc
        narrow = ET.fromstring(json.loads(web.figure(exercise, locale, seed, json.dumps(words)))["narrow"])
        assert drawing.locator("svg text").all_text_contents() == ["".join(t.itertext()) for svg in (expected, narrow)
                                                                  for t in svg.iter(f"{SVG}text")]
        page.click(".course-checker__lesson")
        settle(page)
        assert lesson_data.is_visible() and view.is_hidden()
        assert drawing.locator("svg desc").first.text_content() == lesson_desc
        reader.assert_clean(f"{locale} {exercise} variant")
    finally:
        reader.context.close()


# --- figures: answers only inside the opened solution


def figure_texts(figure_id: str, locale: str, solutions: bool, layouts=(False, True)) -> list[str]:
    """The texts of the figure's layouts (wide, narrow: a drawing holds both), in order."""
    return ["".join(t.itertext()) for narrow in layouts
            for t in ET.fromstring(render.render_figure(figure_id, figure_labels(LABELS[locale]), locale, solutions,
                                                        narrow)).iter(f"{SVG}text")]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


DRAWINGS_ONLY = "body * { visibility: hidden !important; } svg, svg * { visibility: visible !important; }"


def assert_figures_show_no_answers(reader, url: str, locale: str, solutions: bool) -> None:
    """On screen, the figure block is the data-only drawing and the solution (if any) holds the one with the answers;
    printed with every hint and solution opened first, no answer-only label of any figure is in the PDF."""
    page = reader.page
    lessons = [name for name in tb.PAGES if tb.count_blocks(locale, name, "figure")]
    assert len(lessons) >= 5
    for name in lessons:
        reader.open(url + tb.path_of(locale, name))
        for figure in page.locator("article figure.course-figure").all():
            figure_id = figure.get_attribute("id").removeprefix("figure-")
            exercise = bank.figures()[figure_id].id
            assert figure.locator("svg text").all_text_contents() == figure_texts(figure_id, locale, False), name
            in_solution = page.locator(f"#exercise-{exercise} details.course-solution svg text")
            assert in_solution.all_text_contents() == (figure_texts(figure_id, locale, True) if solutions else []), name
            assert not page.locator(f"#exercise-{exercise} details.course-solution").evaluate_all(
                "ds => ds.some(d => d.open)"), "a solution starts open"
        page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")
        page.add_style_tag(content=DRAWINGS_ONLY)
        printed = flat("".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(page.pdf(format="A4"))).pages))
        for figure_id in [f.get_attribute("id").removeprefix("figure-") for f in page.locator("article figure.course-figure").all()]:
            data = figure_texts(figure_id, locale, False, layouts=(False,))   # paper: the wide layout
            assert all(flat(label) in printed for label in data), f"{name}: the figure is not printed"
            for label in set(figure_texts(figure_id, locale, True, layouts=(False,))) - set(data):
                allowed = sum(flat(other).count(flat(label)) for other in data)
                assert printed.count(flat(label)) <= allowed, f"{name}: {label!r} printed (an answer)"
        reader.assert_clean(f"{locale} {name} figures")


@pytest.mark.parametrize("locale", ["en", "fr", "ja"])
def test_in_the_default_build_a_figure_shows_answers_only_in_the_opened_solution(browser, base_url, locale):
    reader = new_tab(browser, 1280)
    try:
        assert_figures_show_no_answers(reader, base_url, locale, tb.SOLUTIONS)
    finally:
        reader.context.close()


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_with_solutions_off_no_figure_shows_an_answer(browser, site_without_solutions, locale):
    reader = new_tab(browser, 1280)
    try:
        assert_figures_show_no_answers(reader, site_without_solutions, locale, False)
    finally:
        reader.context.close()

