"""The real site, built with `mkdocs build --strict`, asserted on its HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
LESSONS = (
    "01-semantic-distance",
    "02-attention-projection",
    "03-loss-terrain",
    "04-simplex-walk",
    "05-submanifold",
)
READING_TITLE = {
    "en": "Geometric reading",
    "ja": "幾何学的な読み方",
    "zh": "几何解读",
    "ko": "기하학적 해석",
    "fr": "Lecture géométrique",
    "id": "Pembacaan geometris",
}


def page(site: Path, locale: str, lesson: str = "") -> str:
    prefix = site if locale == "en" else site / locale
    path = prefix / lesson / "index.html" if lesson else prefix / "index.html"
    return path.read_text(encoding="utf-8")


def all_pages(site: Path):
    return sorted(site.rglob("*.html"))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_locale_has_a_home_and_every_lesson(built_site, locale):
    home = page(built_site, locale)
    for lesson in LESSONS:
        assert f'href="{lesson}/"' in home or f'href="./{lesson}/"' in home, f"{locale} home does not link {lesson}"
        html = page(built_site, locale, lesson)
        assert f'<html lang="{locale}"' in html


@pytest.mark.parametrize("locale", LOCALES)
def test_no_lesson_falls_back_to_english(built_site, locale):
    """Every locale translates every lesson, lesson 1 included: no page shows the fallback notice (a page a
    locale lacks: tests/site/test_translation_status.py)."""
    for lesson in LESSONS:
        assert "course-fallback" not in page(built_site, locale, lesson), lesson


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_language_switcher_keeps_the_lesson(built_site, locale, lesson):
    html = page(built_site, locale, lesson)
    links = dict(
        (lang, href)
        for href, lang in re.findall(r'<a href="([^"]*)" hreflang="([a-z]+)" class="md-select__link"', html)
    )
    assert set(links) == set(LOCALES)
    for other, href in links.items():
        if other == locale:
            continue
        target = (built_site / (locale if locale != "en" else "") / lesson / href).resolve()
        expected = (built_site / (other if other != "en" else "") / lesson).resolve()
        assert target == expected, f"{locale} {lesson}: switcher to {other} goes to {href}"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_math_is_rendered_as_mathml(built_site, locale, lesson):
    html = page(built_site, locale, lesson)
    article = html.split('<article', 1)[1].split("</article>", 1)[0]
    assert "<math" in article
    assert "arithmatex" not in article
    for raw in (r"\(", r"\[", r"\frac", r"\sqrt", "$$", "sqrt(d_k)", "R^768", "K^T"):
        assert raw not in article, f"raw math {raw!r} left in {locale}/{lesson}"


def test_no_script_or_stylesheet_comes_from_the_network(built_site):
    for path in all_pages(built_site):
        html = re.sub(r'<link rel="canonical" [^>]*>', "", path.read_text(encoding="utf-8"))  # its address: nothing loads it
        remote = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?://[^"]+)"', html)
        assert remote == [], f"{path} loads {remote}"


def test_no_export_marker_or_raw_block_fence_anywhere(built_site):
    for path in all_pages(built_site):
        html = path.read_text(encoding="utf-8")
        prose = re.sub(r"<code>.*?</code>", "", html, flags=re.S)  # the translators' guide names them as code
        assert "[BLOCK_TYPE" not in prose, path
        assert not re.search(r"<p>\s*/{3}", html), f"an unrendered block fence in {path}"


@pytest.mark.parametrize("locale", LOCALES)
def test_blocks_render_in_every_locale(built_site, locale):
    lesson2 = page(built_site, locale, "02-attention-projection")
    steps = re.findall(rf'class="course-step__number" lang="{locale}">([^<]+)</span>', lesson2)
    assert len(steps) == 3 and all(str(n) in s for n, s in zip((1, 2, 3), steps)), steps
    assert f'<p class="admonition-title" lang="{locale}">{READING_TITLE[locale]}</p>' in lesson2
    for lesson, exercise in (("02-attention-projection", "attention-weights"), ("04-simplex-walk", "reachable-vertices")):
        html = page(built_site, locale, lesson)
        assert f'id="exercise-{exercise}"' in html
        assert 'class="course-figure"' in html
    lesson1 = page(built_site, locale, "01-semantic-distance")
    assert len(re.findall(r'class="course-step__number"', lesson1)) == 4


def test_cjk_search_index_is_segmented(built_site):
    import json

    index = json.loads((built_site / "zh" / "search" / "search_index.json").read_text(encoding="utf-8"))
    zh_text = " ".join(doc["text"] for doc in index["docs"])
    assert "\u200b" in zh_text, "Chinese text was not segmented for search"
    assert index["config"]["lang"] == ["zh"]
    assert "、" in index["config"]["separator"] and "。" in index["config"]["separator"]


def test_figure_drawings_stay_out_of_search_but_captions_do_not(built_site):
    import json

    import tomllib

    labels = tomllib.loads((Path(__file__).resolve().parents[2] / "docs/en/labels.toml").read_text(encoding="utf-8"))
    title = labels["figures"]["title_reachable_region"]
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    english = " ".join(doc["text"] for doc in index["docs"] if not re.match(r"(ja|zh|ko|fr|id)/", doc["location"]))
    assert title in page(built_site, "en", "04-simplex-walk")
    assert title not in english
    assert "the reachable region they cut out of the triangle" in english  # the caption


def test_formulas_stay_out_of_search_but_the_words_around_them_do_not(built_site):
    import json

    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    lesson = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("02-attention-projection/"))
    assert "The softmax normalises the projections into weights" in lesson
    for leftover in ("\\(", "\\frac", "arithmatex", "<math", "<mi>"):
        assert leftover not in lesson, leftover
    html = page(built_site, "en", "02-attention-projection")
    assert "<math" in html and "arithmatex" not in html


def test_every_page_s_search_sections_are_the_same_read_whole_or_with_the_skipped_parts_emptied(built_site):
    """The search index reads each page through hooks/site/search.py's searchable: the theme's parser, fed
    each built page's article whole and emptied, finds the same sections, titles and text."""
    from hooks.site.search import searchable
    from tests.hooks.test_search import sections

    articles = [re.search(r"<article[^>]*>(.*)</article>", path.read_text(encoding="utf-8"), re.S)
                for path in all_pages(built_site)]
    articles = [found.group(1) for found in articles if found]
    assert len(articles) >= 6 * (len(LESSONS) + 1)
    emptied = [searchable(article) for article in articles]
    assert any("<svg" in article for article in articles) and not any("<svg" in short for short in emptied)
    for article, short in zip(articles, emptied):
        assert sections(short) == sections(article)
