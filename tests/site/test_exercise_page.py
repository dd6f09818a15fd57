"""An exercise page in Debian's Chromium: the first answer box a few Tab presses from the top (a skip link);
hints after their parts, opened one at a time; the worked solution's nudge before every part was checked."""

from __future__ import annotations

import pytest

from hooks.chapters.labels import load_labels
from tests.conftest import wait_ms
from tests.site import test_browser as tb
from tests.site.test_checker import (  # noqa: F401 - fixtures
    CHECKING,
    base_url,
    browser,
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
