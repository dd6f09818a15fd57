"""An exercise page in Debian's Chromium: the first answer box a few Tab presses from the top (a skip link);
hints after their parts, opened one at a time; the worked solution's nudge before every part was checked."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from hooks.chapters.labels import load_labels
from tests.conftest import wait_ms
from tests.site import test_browser as tb
from tests.site.test_checker import (  # noqa: F401 - fixtures
    CHECKING,
    GRADER,
    SETTLED,
    base_url,
    browser,
    first_start,
    lesson_paths,
    needs_browser,
    needs_runtime,
    open_lesson,
    reader,
)

pytestmark = [needs_browser, needs_runtime]
LABELS = load_labels(tb.DOCS)
FOCUSED = "el => el === document.activeElement"


def presses_until(page, target, most: int = 60) -> int | None:
    for count in range(1, most + 1):
        page.keyboard.press("Tab")
        if target.evaluate(FOCUSED):
            return count
    return None


@pytest.mark.parametrize("locale", ["en", "ja", "fr"])
def test_the_first_answer_box_is_a_few_tab_presses_from_the_top(reader, base_url, built_site, locale):
    page = open_lesson(reader, base_url, built_site, locale, "attention-weights")
    box = page.locator(".course-checker__answer").first
    box.wait_for(state="visible", timeout=wait_ms(CHECKING))
    skip = page.locator("a.course-skip")
    assert skip.inner_text().strip() == LABELS[locale]["reader.go_to_exercise"]
    to_skip = presses_until(page, skip, 5)
    assert to_skip is not None and to_skip <= 2, to_skip
    page.keyboard.press("Enter")
    to_box = presses_until(page, box, 10)
    assert to_box is not None and to_skip + to_box <= 8, (to_skip, to_box)


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_hints_follow_their_parts_and_open_one_at_a_time(reader, base_url, built_site, locale):
    page = open_lesson(reader, base_url, built_site, locale, "terrain-warmup")
    hints = page.locator("article .course-exercise details.course-hint")
    placed = hints.evaluate_all("""hints => hints.map(h => {
      let el = h.previousElementSibling;
      while (el && el.matches('details.course-hint')) el = el.previousElementSibling;
      const items = el ? [...el.querySelectorAll('ol.course-exercise__parts > li')] : [];
      return [h.querySelector('summary').textContent.trim(), items.length ? items.at(-1).dataset.part : null,
              h.dataset.parts.split(' ')];
    })""")
    assert len(placed) == 2
    for number, (summary, before, named) in enumerate(placed, 1):
        assert summary == LABELS[locale]["hint_of"].format(n=number, total=2)
        assert before in named, (number, before, named)     # right after the last part it helps with
    assert hints.nth(0).is_visible() and not hints.nth(1).is_visible()
    hints.nth(0).locator("summary").click()
    hints.nth(1).wait_for(state="visible")


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_the_worked_solution_opens_after_an_attempt_at_every_part(reader, base_url, built_site, locale):
    page = open_lesson(reader, base_url, built_site, locale, "attention-weights")
    page.locator(".course-checker__answer").first.wait_for(state="visible", timeout=wait_ms(CHECKING))
    solution = page.locator("article .course-exercise details.course-solution")
    note = page.locator("article .course-exercise .course-solution__gate")
    solution.locator("summary").click()
    assert not solution.evaluate("d => d.open") and note.is_visible()
    assert note.inner_text() == LABELS[locale]["solution_gate"].format(checked=0, total=3)
    solution.locator("summary").click()   # a nudge, not a lock
    assert solution.evaluate("d => d.open")
    page.reload()
    page.locator(".course-checker__answer").first.wait_for(state="visible", timeout=wait_ms(CHECKING))
    for i, answer in enumerate(["(1, 1, 0)", "(1/2, 1/2, 0)", "(1/3, 1/3, 1/3)"]):
        page.locator(".course-checker__answer").nth(i).fill(answer)
        page.locator(".course-checker__check").nth(i).click()
        page.wait_for_function(
            "i => ['done', 'timeout'].includes(document.querySelectorAll('.course-checker__verdict')[i].dataset.state)",
            arg=i, timeout=wait_ms(CHECKING))
    solution.locator("summary").click()
    assert solution.evaluate("d => d.open") and not note.is_visible()


# --- a variant in one click, never the lesson's data as the variant's; work kept in another language

WORKER = re.compile(r"/worker-[^/]*\.js$")   # the checker's Web Worker (hooks/checker/publish.py): its script
STATUS = ".course-checker__variant-status"


def words(locale: str, key: str) -> str:
    return LABELS[locale][f"checker.{key}"]


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_new_variant_draws_a_seed_and_keeps_it_as_a_typed_one(reader, base_url, built_site, locale):
    page = open_lesson(reader, base_url, built_site, locale, "reachable-vertices")
    button = page.locator(".course-checker__new-seed")
    assert button.inner_text().strip() == words(locale, "new_variant")
    button.click()
    page.wait_for_function(SETTLED, arg=[STATUS], timeout=wait_ms(CHECKING))
    seed = page.locator(".course-checker__seed").input_value()
    assert re.fullmatch(r"[1-9][0-9]{5}", seed), seed
    assert page.locator(STATUS).get_attribute("data-seed") == seed
    shown = json.loads(subprocess.run([GRADER, "show", "reachable-vertices", "--seed", seed, "--lang", locale,
                                       "--format", "json"], capture_output=True, text=True, check=True).stdout)
    values = page.locator(".course-checker__variant-data .course-checker__data dd").all_inner_texts()
    assert values == list(shown["data_text"].values())
    submit = page.locator(".course-exercise pre[data-submit] code").inner_text()
    assert submit.endswith(f"--lang {locale} --seed {seed}"), submit
    page.reload()   # kept: the page opens on it again
    page.wait_for_function(SETTLED, arg=[STATUS], timeout=wait_ms(CHECKING))
    assert page.locator(".course-checker__seed").input_value() == seed
    reader.assert_clean(f"{locale} new variant")


# every frame from the moment the checker shows itself: whether the lesson's data, or a figure that is not the
# variant's, can be seen, and what the variant's place says
FRAMES = """() => {
  window.courseFrames = [];
  const sample = () => {
    const panel = document.querySelector('.course-checker-exercise');
    if (panel && !panel.hidden) {
      const view = document.querySelector('.course-checker__variant-data');
      const lesson = document.querySelector('.course-exercise__data');
      const figure = panel.dataset.figure && document.getElementById('figure-' + panel.dataset.figure);
      const drawing = figure && figure.querySelector('.course-figure__drawing');
      window.courseFrames.push({
        lesson: !!lesson && lesson.checkVisibility(), state: view ? view.dataset.state || '' : '',
        busy: view ? view.getAttribute('aria-busy') : null, said: view ? view.textContent : '',
        figure: !!drawing && [...drawing.querySelectorAll('svg')].some(svg => svg.checkVisibility()),
        figureSeed: drawing ? drawing.dataset.seed || '' : ''});
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_a_page_opened_with_a_seed_kept_never_shows_the_lessons_data_as_the_variants(reader, base_url, built_site,
                                                                                       locale):
    seed = "s0042"
    page = open_lesson(reader, base_url, built_site, locale, "attention-weights")
    page.fill(".course-checker__seed", seed)
    page.click(".course-checker__use-seed")
    page.wait_for_function(SETTLED, arg=[STATUS], timeout=wait_ms(CHECKING))
    page.add_init_script(f"({FRAMES})()")
    page.reload()   # a new worker: the grader starts again (seconds), the variant drawn once it has
    page.wait_for_function(SETTLED, arg=[STATUS], timeout=wait_ms(CHECKING))
    page.locator(f".course-figure__drawing[data-seed='{seed}']").wait_for(timeout=wait_ms(CHECKING))
    frames = page.evaluate("() => window.courseFrames")
    drawing = [frame for frame in frames if frame["state"] == "drawing"]
    assert drawing and all(frame["busy"] == "true" for frame in drawing)
    assert {frame["said"] for frame in drawing} == {words(locale, "drawing").format(seed=seed)}
    assert not [frame for frame in frames if frame["lesson"]], "the lesson's data was shown with a seed kept"
    assert not [frame for frame in frames if frame["figure"] and frame["figureSeed"] != seed], "the lesson's figure"
    assert frames[-1]["state"] == "done" and frames[-1]["busy"] is None
    reader.assert_clean(f"{locale} seed kept")


def test_a_variant_that_cannot_be_drawn_says_so_beside_the_lessons_data(reader, base_url, built_site):
    page = open_lesson(reader, base_url, built_site, "fr", "attention-weights")
    page.evaluate("key => localStorage.setItem(key, JSON.stringify('s0042'))", "course-work:/:fr:seed")
    page.route(WORKER, lambda route: route.abort())   # no checker in this browser
    page.reload()
    view = page.locator(".course-checker__variant-data")
    page.wait_for_function("() => document.querySelector('.course-checker__variant-data')?.dataset.state === 'not-drawn'",
                           timeout=wait_ms(CHECKING))
    before, _ = words("fr", "not_drawn").format(seed="s0042", error="{error}").split("{error}")
    assert view.inner_text().startswith(before) and view.get_attribute("aria-busy") is None
    assert page.locator(".course-exercise__data").is_visible()
    assert page.locator(".course-figure__drawing .course-checker__drawing").first.inner_text() == view.inner_text()


@pytest.mark.parametrize("kept, here", [("fr", "en"), ("en", "ja")])
def test_work_kept_in_another_language_is_said_to_be_there_with_a_link(reader, base_url, built_site, kept, here):
    page = open_lesson(reader, base_url, built_site, kept, "terrain-warmup")
    box = page.locator(".course-checker__answer").first
    box.wait_for(state="visible", timeout=wait_ms(CHECKING))
    box.fill("801")
    page.wait_for_function("() => document.documentElement.dataset.courseWork === 'done'", timeout=wait_ms(CHECKING))
    page = open_lesson(reader, base_url, built_site, here, "terrain-warmup")
    notice = page.locator(".course-checker__elsewhere")
    notice.wait_for(state="visible", timeout=wait_ms(CHECKING))
    name = LABELS[here][f"languages.{kept}"]
    link = notice.locator("a")
    assert link.inner_text() == words(here, "elsewhere_link").format(lang=name)
    assert notice.inner_text() == f"{words(here, 'elsewhere').format(lang=name)} {link.inner_text()}"
    assert page.locator(".course-checker__answer").first.input_value() == ""   # each language keeps its own
    link.click()
    page.wait_for_url(re.compile(re.escape(lesson_paths(built_site, kept)["terrain-warmup"]) + "$"))
    page.locator(".course-checker__answer").first.wait_for(state="visible", timeout=wait_ms(CHECKING))
    page.wait_for_function("() => document.querySelector('.course-checker__answer').value === '801'",
                           timeout=wait_ms(CHECKING))
    assert not page.locator(".course-checker__elsewhere").is_visible()
    reader.assert_clean(f"{kept} work seen from {here}")
