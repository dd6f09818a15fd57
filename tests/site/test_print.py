"""An exercise page printed to PDF in Debian's Chromium (Playwright's page.pdf), in every locale, and the text
pypdf extracts from it.

As built: the hints and the worked solution print folded (their titles, not their text), wherever a reader left
them open; no copy button prints; each figure label comes out once. With `extra.course.print_solutions: true`:
the hints and the solution print once each, unfolded, at the end of the page, after the exercise. The PDF's text
is compared with the page's as tests.site.readback makes both comparable (whatever glyphs the fonts give).
"""

from __future__ import annotations

import io
import unicodedata

import pytest
import tomllib
import yaml
from mkdocs.utils.yaml import yaml_load

from grader.languages.messages import message
from hooks.chapters.labels import exercise_title
from tests.conftest import ROOT, run_mkdocs_build
from tests.site.browsing import serve
from tests.site.readback import RADICALS_SUPPLEMENT, comparable
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


def build_printing_site(folder):
    """The real site built with `extra.course.print_solutions: true`."""
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(DOCS)
    config["hooks"] = [str(ROOT / hook) for hook in config["hooks"]]
    config.setdefault("extra", {}).setdefault("course", {})["print_solutions"] = True
    path = folder / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    result = run_mkdocs_build(path, folder / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "site"


@pytest.fixture(scope="module")
def printing_site(shared_builds):
    """That site, built once per run (whichever worker asks first), served."""
    with serve(shared_builds.get("print-solutions", build_printing_site)) as url:
        yield url


@pytest.mark.parametrize("locale", LOCALES)
def test_hints_and_solutions_print_folded(reader, base_url, screenshots, locale):
    """The PDF's text; and a screenshot of the exercise as printed (`<locale>/<lesson>.print.png`)."""
    where = path_of(locale, LESSON)
    text = comparable(printed(reader, base_url + where))
    reader.page.emulate_media(media="print")
    try:
        reader.page.locator("article section.course-exercise").screenshot(path=screenshots / locale / f"{LESSON}.print.png")
    finally:
        reader.page.emulate_media(media="null")  # back to no emulation: page.pdf() prints with print CSS
    labels = LABELS[locale]
    assert comparable(f"{labels['exercise']} · {exercise_title('reachable-vertices', locale)}") in text, f"{where}: the exercise is not printed"
    assert comparable(labels["hint"]) in text, f"{where}: the hints' titles are not printed"
    for opening in hint_openings(locale, LESSON):
        assert comparable(opening) not in text, f"{where}: a hint printed unfolded: {opening!r}"
    for answer in solution_answers(reader.page):
        assert comparable(answer) not in text, f"{where}: the worked solution printed unfolded: {answer!r}"
    reader.assert_clean(where)


# everything but the figures' drawings printed invisible (no text in the PDF), so the PDF's text is their labels
ONLY_THE_DRAWINGS = "body * { visibility: hidden !important; } .course-figure svg, .course-figure svg * { visibility: visible !important; }"


@pytest.mark.parametrize("locale", LOCALES)
def test_figure_labels_print_once(reader, base_url, locale):
    """A label drawn over lines has a halo (a stroke in the page's colour under its fill); printed, the halo
    would be a second copy of the text. Printed alone, the drawings (the wide layout: paper's) give each label once."""
    where = path_of(locale, LESSON)
    reader.open(base_url + where)
    page = reader.page
    labels = [comparable(t) for t in page.locator("article .course-figure svg:not(.course-svg--narrow) text").evaluate_all("ts => ts.map(t => t.textContent)")]
    assert len(labels) >= 3, f"{where}: too few labels to check: {labels}"
    page.add_style_tag(content=ONLY_THE_DRAWINGS)
    text = comparable("".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(page.pdf(format="A4"))).pages))
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
        text = comparable(printed(reader, printing_site + where))
        labels = LABELS[locale]
        end = text.find(comparable(labels["reader"]["print_answers"]))
        # the exercise's last paragraph, by its opening words: a PDF's text comes back in its runs' order, and the
        # runs of a line around a no-break space (fr: '0,5 % près') may come back after the next line's
        exercise_ends = text.find(comparable(message("tolerance-rule", locale))[:30])
        assert 0 <= exercise_ends < end, f"{where}: no hints and solutions at the end of the page"
        answers = solution_answers(reader.page) if SOLUTIONS else []
        for wanted in [*hint_openings(locale, LESSON), *answers]:
            assert text.count(comparable(wanted)) == 1 and text.find(comparable(wanted)) > end, (
                f"{where}: {wanted!r} is not printed once, at the end")
        assert not reader.page.locator("article .course-print").is_visible(), "the printed copy shows on screen"
        reader.assert_clean(where)
    finally:
        reader.context.close()


def test_text_read_back_is_compared_as_the_ideographs_it_shows():
    """The table of tests.site.readback against unicodedata: every CJK Radicals Supplement character but REPEAT
    (U+2E80, which has no equivalent) maps to a unified ideograph, as NFKC does where unicodedata decomposes one;
    every Kangxi radical is folded by NFKC alone. Then what a Noto CJK font's PDF gives reads as the page's text."""
    supplement = [chr(code) for code in range(0x2E80, 0x2F00) if unicodedata.name(chr(code), "")]
    assert sorted(RADICALS_SUPPLEMENT) == [radical for radical in supplement if radical != "\u2e80"]
    for radical, ideograph in RADICALS_SUPPLEMENT.items():
        assert unicodedata.name(radical).startswith("CJK RADICAL "), radical
        assert unicodedata.name(ideograph).startswith("CJK UNIFIED IDEOGRAPH-"), (radical, ideograph)
        if unicodedata.decomposition(radical):
            assert unicodedata.normalize("NFKC", radical) == ideograph, radical
    for code in range(0x2F00, 0x2FE0):
        if unicodedata.name(chr(code), ""):
            assert unicodedata.name(unicodedata.normalize("NFKC", chr(code))).startswith("CJK UNIFIED IDEOGRAPH-")
    assert comparable("⻆度 ⾓\n（ｘ） ﬁ") == comparable("角度角(x)fi") == "角度角(x)fi"
