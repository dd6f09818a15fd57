"""An exercise page printed to PDF in Debian's Chromium (Playwright's page.pdf), in every locale, and the text
pypdf extracts from it.

As built: the hints and the worked solution print folded (their titles, not their text), wherever a reader left
them open; no copy button prints; each figure label comes out once. With `extra.course.print_solutions: true`:
the hints and the solution print once each, unfolded, at the end of the page, after the exercise.
"""

from __future__ import annotations

import io
import re
import unicodedata

import pytest
import tomllib
import yaml

from grader.languages.messages import message
from tests.conftest import ROOT, run_mkdocs_build
from tests.site.browsing import serve
from tests.site.test_browser import (  # noqa: F401 - fixtures
    DOCS,
    LOCALES,
    SOLUTIONS,
    base_url,
    browser,
    hint_openings,
    new_reader,
    path_of,
    reader,
)

pypdf = pytest.importorskip("pypdf")

LESSON = "04-simplex-walk"  # an exercise with two hints, a solution, and a figure whose labels have a halo
LABELS = {locale: tomllib.loads((DOCS / locale / "labels.toml").read_text(encoding="utf-8")) for locale in LOCALES}


def flat(text: str) -> str:
    """Text as compared here: compatibility forms (ligatures, math letters, subscripts) folded, no white space
    (PDF text breaks lines, and puts spaces where the layout had gaps)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def printed(reader, url: str, open_everything: bool = True) -> str:
    """The page printed to an A4 PDF (every hint and solution opened first, as a reader might leave them), as text."""
    reader.open(url)
    if open_everything:
        reader.page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")
    pdf = reader.page.pdf(format="A4", print_background=True)
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def solution_answers(page) -> list[str]:
    """Each part's line of the worked solution, as the page shows it."""
    answers = page.locator("article .course-exercise details.course-solution li")  # not the printed copy
    return answers.evaluate_all("items => items.map(li => li.textContent)")


@pytest.fixture(scope="module")
def printing_site(tmp_path_factory):
    """The real site built with `extra.course.print_solutions: true`."""
    folder = tmp_path_factory.mktemp("print-solutions")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(DOCS)
    config["hooks"] = [str(ROOT / hook) for hook in config["hooks"]]
    config.setdefault("extra", {}).setdefault("course", {})["print_solutions"] = True
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    result = run_mkdocs_build(path, folder / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    with serve(folder / "site") as url:
        yield url


@pytest.mark.parametrize("locale", LOCALES)
def test_hints_and_solutions_print_folded(reader, base_url, screenshots, locale):
    """The PDF's text; and a screenshot of the exercise as printed (`<locale>/<lesson>.print.png`)."""
    where = path_of(locale, LESSON)
    text = flat(printed(reader, base_url + where))
    reader.page.emulate_media(media="print")
    try:
        reader.page.locator("article section.course-exercise").screenshot(path=screenshots / locale / f"{LESSON}.print.png")
    finally:
        reader.page.emulate_media(media="null")  # back to no emulation: page.pdf() prints with print CSS
    labels = LABELS[locale]
    assert flat(f"{labels['exercise']} · reachable-vertices") in text, f"{where}: the exercise is not printed"
    assert flat(labels["hint"]) in text, f"{where}: the hints' titles are not printed"
    for opening in hint_openings(locale, LESSON):
        assert flat(opening) not in text, f"{where}: a hint printed unfolded: {opening!r}"
    for answer in solution_answers(reader.page):
        assert flat(answer) not in text, f"{where}: the worked solution printed unfolded: {answer!r}"
    reader.assert_clean(where)


# everything but the figures' drawings printed invisible (no text in the PDF), so the PDF's text is their labels
ONLY_THE_DRAWINGS = "body * { visibility: hidden !important; } .course-figure svg, .course-figure svg * { visibility: visible !important; }"


@pytest.mark.parametrize("locale", LOCALES)
def test_figure_labels_print_once(reader, base_url, locale):
    """A label drawn over lines has a halo (a stroke in the page's colour under its fill); printed, the halo
    would be a second copy of the text. Printed alone, the drawings give each label once."""
    where = path_of(locale, LESSON)
    reader.open(base_url + where)
    page = reader.page
    labels = [flat(t) for t in page.locator("article .course-figure svg text").evaluate_all("ts => ts.map(t => t.textContent)")]
    assert len(labels) >= 3, f"{where}: too few labels to check: {labels}"
    page.add_style_tag(content=ONLY_THE_DRAWINGS)
    text = flat("".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(page.pdf(format="A4"))).pages))
    for label in labels:
        expected = sum(other.count(label) for other in labels)
        assert text.count(label) == expected, f"{where}: {label!r} printed {text.count(label)} times, not {expected}"
    reader.assert_clean(where)


def test_copy_buttons_do_not_print(reader, base_url):
    reader.open(base_url + path_of(LOCALES[0], LESSON))
    page = reader.page
    buttons = page.locator("article .md-code__button")
    assert buttons.count() > 0 and buttons.first.is_visible()
    page.emulate_media(media="print")
    try:
        assert not any(buttons.nth(i).is_visible() for i in range(buttons.count()))
    finally:
        page.emulate_media(media="null")  # back to no emulation: page.pdf() prints with print CSS


@pytest.mark.parametrize("locale", LOCALES)
def test_the_switch_prints_hints_and_solutions_at_the_end(browser, printing_site, locale):
    reader = new_reader(browser, printing_site)
    try:
        where = path_of(locale, LESSON)
        text = flat(printed(reader, printing_site + where))
        labels = LABELS[locale]
        end = text.find(flat(labels["reader"]["print_answers"]))
        exercise_ends = text.find(flat(message("tolerance-rule", locale)))
        assert 0 <= exercise_ends < end, f"{where}: no hints and solutions at the end of the page"
        answers = solution_answers(reader.page) if SOLUTIONS else []
        for wanted in [*hint_openings(locale, LESSON), *answers]:
            assert text.count(flat(wanted)) == 1 and text.find(flat(wanted)) > end, (
                f"{where}: {wanted!r} is not printed once, at the end")
        assert not reader.page.locator("article .course-print").is_visible(), "the printed copy shows on screen"
        reader.assert_clean(where)
    finally:
        reader.context.close()
