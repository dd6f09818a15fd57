"""The search index reads a page with the insides of what it skips emptied (hooks/site/search.py), and makes
the same sections of it: the theme's own parser is fed both, on the exercises and figures the pages show,
and on planted markup where emptying would change what it finds."""

import pytest
from material.plugins.search.plugin import Parser

from grader import bank
from hooks.chapters import render
from hooks.chapters.cache import ROOT
from hooks.chapters.labels import figure_labels, load_labels
from hooks.site.search import searchable

LABELS = load_labels(ROOT / "docs")


def sections(html: str) -> list:
    parser = Parser()
    parser.feed(html)
    parser.close()
    return [(s.id, "".join(s.title), "".join(s.text), s.is_excluded()) for s in parser.data]


def page(body: str) -> str:
    return f'<h1 id="t">Title</h1><p>Before the block.</p>{body}<h2 id="after">After</h2><p>Text after it.</p>'


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_every_exercise_and_figure_is_indexed_alike_read_whole_or_emptied(locale):
    for exercise in bank.EXERCISES.values():
        body, solution = render.render_exercise(exercise.id, locale, LABELS[locale], True, True, "after-attempt")
        html = page(body + solution)
        assert searchable(html) != html, f"{exercise.id}: nothing was emptied"
        assert sections(searchable(html)) == sections(html), exercise.id
    for figure_id in render.figure_ids():
        svg = render.render_figure(figure_id, figure_labels(LABELS[locale]), locale)
        html = page(f'<figure class="course-figure"><div class="course-figure__drawing" data-search-exclude>{svg}</div>'
                    '<figcaption>The caption is found</figcaption></figure>')
        emptied = searchable(html)
        assert "<svg" not in emptied and "The caption is found" in emptied
        assert sections(emptied) == sections(html), figure_id


@pytest.mark.parametrize("html", [
    '<div data-search-exclude><h2 id="inside">A heading inside</h2><p>skipped</p></div><p>kept</p>',   # kept whole
    '<p data-search-exclude>no end tag, so left as it is<p>kept</p>',
    '<span class="arithmatex" data-search-exclude>\\(x^2\\)</span> words <span data-search-exclude/> more',
    '<section class="course-print" data-search-exclude="true"><p>printed</p><section><p>x</p></section></section>',
])
def test_planted_markup_is_indexed_alike(html):
    assert sections(searchable(page(html))) == sections(page(html))


def test_what_follows_a_nested_element_of_the_same_tag_stays_out_of_search_as_its_marker_says():
    """The theme's parser takes the inner <div>'s end for the skipped one's and indexes what follows inside
    it; emptied, none of it is read."""
    html = page('<div data-search-exclude><div><span>nested</span></div><p>deep</p></div><p>kept</p>')
    assert "deep" in str(sections(html)) and "deep" not in str(sections(searchable(html)))
    assert "kept" in str(sections(searchable(html)))


def test_what_is_skipped_is_emptied_and_the_rest_kept():
    html = '<p>one</p><div class="a" data-search-exclude><svg><text>label</text></svg></div><p>two</p>'
    assert searchable(html) == '<p>one</p><div class="a" data-search-exclude></div><p>two</p>'


def test_an_excluded_element_holding_a_heading_is_kept_and_the_next_is_still_emptied():
    """A heading is never taken from the index (its section would go), so such an element stays as it is; the
    excluded elements after it are emptied all the same."""
    html = ('<div data-search-exclude><h2 id="t">T</h2>kept</div>'
            '<p data-search-exclude>gone</p><span class="x" data-search-exclude>gone too</span>')
    assert searchable(html) == ('<div data-search-exclude><h2 id="t">T</h2>kept</div>'
                                '<p data-search-exclude></p><span class="x" data-search-exclude></span>')
