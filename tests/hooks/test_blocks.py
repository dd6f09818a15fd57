"""The course's blocks rendered by Markdown with a page context (no site build): a step's number and title, the
reading's callout, a figure's drawing and caption, the translation status, an exercise's heading level, the hints
and solutions printed at the end of the page, and the ids of a second copy of generated HTML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
import pytest

from hooks.chapters.blocks import CourseBlocks, PageContext, heading_level, suffixed_ids, words
from hooks.chapters.labels import load_labels
from tests.site.test_browser import DOCS

LABELS = load_labels(DOCS)
SOLUTION = '<details class="course-solution"><summary>S</summary><p id="w">worked</p></details>'
BODY = '<ol class="course-exercise__parts"><li data-part="a">A</li></ol><p>after</p>'


def rendered(chapter: str, locale: str = "en", **context) -> str:
    context = PageContext(lang=locale, labels=LABELS[locale], **context)
    # Markdown puts each block-level element on a line of its own: the lines joined, the markup is compared whole
    return markdown.markdown(chapter, extensions=[CourseBlocks(context)]).replace("\n", "")


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_steps_are_numbered_in_order_with_their_badge_in_the_pages_language(locale):
    html = rendered("/// step | First move\nOne.\n///\n\n/// step | Second move\nTwo.\n///\n", locale)
    for n, title in ((1, "First move"), (2, "Second move")):
        badge = LABELS[locale]["step"].format(n=n)
        assert (f'<div class="course-step" id="step-{n}"><p class="course-step__title">'
                f'<span class="course-step__number" lang="{locale}">{badge}</span> {title}</p>') in html, html
    assert html.index("One.") < html.index('id="step-2"') < html.index("Two.")


def test_a_steps_title_is_text_never_markup():
    html = rendered("/// step | a <b> & *c*\nx\n///\n")
    assert "</span> a &lt;b&gt; &amp; *c*</p>" in html, html


def test_the_reading_is_a_callout_titled_in_the_pages_language():
    html = rendered("/// reading\nThe picture.\n///\n", "fr")
    assert re.fullmatch(r'<div class="admonition course-reading"><p class="admonition-title" lang="fr">'
                        r'Lecture géométrique</p>\s*<p>The picture.</p>\s*</div>', html), html


def test_a_figure_holds_its_drawing_for_the_pages_language_then_its_caption():
    asked = []

    def draw(figure_id, lang):
        asked.append((figure_id, lang))
        return '<svg id="d"></svg>'

    html = rendered("/// figure | vectors\nThe *caption*.\n///\n", "fr", render_figure=draw)
    assert asked == [("vectors", "fr")]
    assert re.fullmatch(r'<figure class="course-figure" id="figure-vectors"><div class="course-figure__drawing" '
                        r'lang="fr" data-search-exclude><svg id="d"></svg></div>\s*'
                        r'<figcaption>\s*<p>The <em>caption</em>.</p>\s*</figcaption>\s*</figure>', html), html


def test_a_figure_without_a_drawing_is_its_caption_alone():
    html = rendered("/// figure | vectors\nCaption.\n///\n")
    assert "course-figure__drawing" not in html and "<figcaption>" in html
    assert re.fullmatch(r'<figure class="course-figure" id="figure-vectors">\s*<figcaption>\s*<p>Caption.</p>\s*'
                        r'</figcaption>\s*</figure>', html), html


def test_the_translation_status_block_holds_what_the_status_renders():
    html = rendered("/// translation-status\n///\n", render_status=lambda: '<table id="s"></table>')
    assert re.fullmatch(r'<div class="course-status-block"><table id="s"></table></div>', html.strip()), html
    assert re.fullmatch(r'<div class="course-status-block">\s*</div>', rendered("/// translation-status\n///\n").strip())


@pytest.mark.parametrize("before, level", [("", 2), ("# T\n\n", 2), ("## S\n\n", 3), ("# T\n\n#### S\n\n", 5),
                                           ("##### S\n\n", 6), ("###### S\n\n", 6), ("### A\n\n## B\n\n", 3)])
def test_an_exercises_heading_is_one_below_the_last_heading_before_it(before, level):
    html = rendered(before + "/// exercise | ex-1\nStatement.\n///\n",
                    exercise_title=lambda exercise_id, lang: f"Title of {exercise_id} in {lang}")
    assert (f'<section class="course-exercise" id="exercise-ex-1"><h{level} class="course-exercise__title" '
            f'id="exercise-ex-1-title" lang="en">Exercise · Title of ex-1 in en</h{level}>') in html, html


def test_heading_level_reads_the_last_heading_of_the_tree():
    root = etree.fromstring("<div><h4>a</h4><p><h2>b</h2></p><hx>c</hx></div>")
    assert heading_level(root) == 3
    assert heading_level(etree.fromstring("<div><p>no heading</p></div>")) == 2


def test_an_exercises_body_and_solution_are_in_the_pages_language_with_display_math_in_a_box():
    math = '<math display="block"><mi>x</mi></math>'
    body = BODY + f"<p>{math}</p><math><mi>y</mi></math>"
    html = rendered("/// exercise | ex-1\nStatement.\n///\n", "fr", render_exercise=lambda i, lang: (body, SOLUTION))
    assert '<div lang="fr"><ol class="course-exercise__parts">' in html
    assert f'<p><div class="course-math">{math}</div></p><math><mi>y</mi></math></div>' in html, html
    # each generated piece stands as it is, not inside a paragraph of its own
    assert ('<div class="course-exercise__statement"><p>Statement.</p></div><div lang="fr"><ol '
            'class="course-exercise__parts">') in html, html
    assert html.endswith(f'</div><div lang="fr">{SOLUTION}</div></section>'), html


def test_an_exercise_without_solution_shows_no_words_of_its_own_beyond_its_title_and_body():
    html = rendered("/// exercise | ex-1\nStatement.\n///\n", render_exercise=lambda i, lang: (BODY, ""))
    assert re.sub(r"<[^>]+>", "", html) == "Exercise · ex-1Statement.Aafter"


def test_an_exercise_without_solution_adds_no_empty_wrapper():
    html = rendered("/// exercise | ex-1\nStatement.\n///\n", render_exercise=lambda i, lang: (BODY, ""))
    assert '<div lang="en"></div>' not in html and "<details" not in html


def test_open_true_unfolds_the_exercises_hints():
    chapter = "/// exercise | ex-1\n    open: {}\nStatement.\n\n/// hint\nH.\n///\n\n///\n"
    shut = rendered(chapter.format("false"), render_exercise=lambda i, lang: (BODY, SOLUTION))
    opened = rendered(chapter.format("true"), render_exercise=lambda i, lang: (BODY, SOLUTION))
    assert '<details class="course-hint" data-hint="1">' in shut
    assert '<details class="course-hint" data-hint="1" open="open">' in opened


def test_a_hint_says_which_parts_it_helps_with():
    html = rendered("/// exercise | ex-1\nS.\n\n/// hint\n    parts: a\nH.\n///\n\n///\n",
                    render_exercise=lambda i, lang: (BODY, SOLUTION))
    assert '<details class="course-hint" data-hint="1" data-parts="a">' in html, html


def test_print_solutions_copies_each_exercises_hints_and_solution_unfolded_at_the_end(monkeypatch):
    chapter = ("/// exercise | ex-1\nS1.\n\n/// hint\nFirst *hint*.\n///\n\n///\n\n"
               "/// exercise | ex-2\nS2.\n///\n\nThe end.\n")
    solutions = {"ex-1": SOLUTION, "ex-2": ""}
    kwargs = dict(render_exercise=lambda i, lang: (BODY, solutions[i]),
                  exercise_title=lambda i, lang: f"{i.upper()}/{lang}")
    assert "course-print" not in rendered(chapter, "fr", **kwargs)
    html = rendered(chapter, "fr", print_solutions=True, **kwargs)
    printed = html[html.index('<section class="course-print"'):]
    assert html.index("The end.") < html.index('<section class="course-print"')
    assert printed.startswith('<section class="course-print" data-search-exclude="true">'
                              '<p class="course-print__title" lang="fr">Indices et solutions détaillées</p>'
                              '<p class="course-print__exercise" lang="fr">Exercice · EX-1/fr</p>'
                              '<div class="course-print__hint"><p class="course-print__label" lang="fr">Indice</p>'
                              '<p>First <em>hint</em>.</p></div>'), printed
    # the solution printed open, its ids not those of the one under the exercise
    assert ('<p>First <em>hint</em>.</p></div><div lang="fr"><details open class="course-solution"><summary>S</summary>'
            '<p id="w-printed">') in printed
    assert printed.count("<details") == 1 and printed.endswith("</section>")
    assert '<p class="course-print__exercise" lang="fr">Exercice · EX-2/fr</p></section>' in printed
    assert rendered("No exercise.\n", print_solutions=True) == "<p>No exercise.</p>"


@pytest.mark.parametrize("html, expected", [
    ('<p id="a">x</p>', '<p id="a-2">x</p>'),
    ('<b aria-labelledby="a b" aria-describedby="c">', '<b aria-labelledby="a-2 b-2" aria-describedby="c-2">'),
    ('<a href="#a" class="id">', '<a href="#a" class="id">'),
    ('<p id="a"><i id="b"></i></p>', '<p id="a-2"><i id="b-2"></i></p>'),
])
def test_a_second_copy_of_generated_html_has_ids_of_its_own(html, expected):
    assert suffixed_ids(html, "-2") == expected


def test_words_are_text_in_a_language_with_a_class_only_when_given():
    parent = etree.Element("div")
    words(parent, "span", None, "a <b>", "ja")
    words(parent, "p", "note", "c", "fr")
    assert etree.tostring(parent, encoding="unicode") == (
        '<div><span lang="ja">a &lt;b&gt;</span><p lang="fr" class="note">c</p></div>')


def test_an_exercise_is_rendered_once_by_its_id_in_the_pages_language():
    asked = []

    def render(exercise_id, lang):
        asked.append((exercise_id, lang))
        return BODY, SOLUTION

    rendered("/// exercise | ex-1\nS.\n\n/// hint\nH1.\n///\n\n/// hint\nH2.\n///\n\n///\n", "ja",
             render_exercise=render)
    assert asked == [("ex-1", "ja")]
