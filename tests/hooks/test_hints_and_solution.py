"""Hints placed after the parts they help with and numbered; the worked solution's gate; the tolerance paragraph
that agrees with the parts' "(to 4 significant figures)"; a cosine derived in the worked solution (no site
build: the block linter, the hook's pure pieces, the renderer)."""

from __future__ import annotations

import re

import markdown
import pytest

from grader import bank
from grader.languages.messages import message
from grader.model import geometry as g
from grader.model import targets
from grader.model.tex import tex_value
from hooks.chapters import render
from hooks.chapters.blocks import CourseBlocks, PageContext, split_after_parts
from hooks.chapters.blockspec import part_ids, scan_blocks
from hooks.chapters.labels import load_labels
from hooks.site.settings import Settings, SettingsError
from tests.site.test_browser import DOCS, LOCALES

LABELS = load_labels(DOCS)
KNOWN = {"exercise": frozenset(bank.EXERCISES)}
PARTS = {e.id: tuple(p.id for p in e.parts) for e in bank.EXERCISES.values()}


@pytest.mark.parametrize("value, expected", [
    ("scores", ("scores",)), ("d_mp d_mf", ("d_mp", "d_mf")), (["a-b", "cos-a-b"], ("a-b", "cos-a-b")),
])
def test_a_hints_parts_are_ids_separated_by_spaces(value, expected):
    assert part_ids(value) == expected


@pytest.mark.parametrize("value, words", [("", "must not be empty"), ("a a", "names a part twice"),
                                          ("a,b", "is not a part id")])
def test_a_bad_parts_option_says_why(value, words):
    with pytest.raises(ValueError, match=words):
        part_ids(value)


def test_a_hint_naming_a_part_the_exercise_lacks_fails_with_its_line_and_the_parts():
    source = ("# T\n\n/// exercise | attention-weights\nx\n\n/// hint\n    parts: scaled weight\nh\n///\n\n///\n")
    _, problems = scan_blocks(source, "a.md", known_ids=KNOWN, known_parts=PARTS)
    assert [str(p) for p in problems] == [
        "a.md:7: block 'hint': exercise 'attention-weights' has no part 'weight': use its parts, scores, scaled, weights"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_chapters_hints_name_parts_of_their_exercise(locale):
    for page in sorted((DOCS / locale).glob("0*.md")):
        uses, problems = scan_blocks(page.read_text("utf-8"), str(page), known_ids=KNOWN, known_parts=PARTS)
        assert not problems, problems
        assert all(u.options["parts"] for u in uses if u.name == "hint"), f"{page}: a hint names no part"


BODY = ('<ol class="course-exercise__parts"><li data-part="a">A</li><li data-part="b">B</li>'
        '<li data-part="c">C</li></ol><p>after</p>')


def test_a_list_inside_an_earlier_part_does_not_end_the_parts_list():
    """Cut after the last part: where the parts' list ends, past the list a part before it holds."""
    body = ('<ol class="course-exercise__parts"><li data-part="a">A<ol><li>x</li></ol></li>'
            '<li data-part="b">B</li></ol><p>after</p>')
    assert split_after_parts(body, ["b"]) == [("b", body.removesuffix("<p>after</p>")), (None, "<p>after</p>")]


def test_the_body_is_cut_after_the_named_parts_and_its_numbering_goes_on():
    pieces = split_after_parts(BODY, ["a", "c"])
    assert pieces == [
        ("a", '<ol class="course-exercise__parts"><li data-part="a">A</li></ol>'),
        ("c", '<ol class="course-exercise__parts" start="2"><li data-part="b">B</li><li data-part="c">C</li></ol>'),
        (None, "<p>after</p>")]
    assert "".join(html for _, html in split_after_parts(BODY, [])) == BODY
    # after the last part but one: the last goes on in a list of its own, numbered from 3
    assert split_after_parts(BODY, ["b"]) == [
        ("b", '<ol class="course-exercise__parts"><li data-part="a">A</li><li data-part="b">B</li></ol>'),
        (None, '<ol class="course-exercise__parts" start="3"><li data-part="c">C</li></ol><p>after</p>')]
    # after the last part: where the list of parts ends, not a list after it
    later = BODY + "<ol><li>later</li></ol>"
    assert split_after_parts(later, ["c"])[-1] == (None, "<p>after</p><ol><li>later</li></ol>")


def rendered(chapter: str, locale: str = "en") -> str:
    context = PageContext(lang=locale, labels=LABELS[locale],
                          render_exercise=lambda exercise_id, lang: (BODY, '<details class="course-solution"></details>'))
    return markdown.markdown(chapter, extensions=[CourseBlocks(context)])


@pytest.mark.parametrize("locale", ["en", "fr", "ja"])
def test_each_hint_follows_the_last_of_its_parts_numbered_in_the_pages_language(locale):
    chapter = ("/// exercise | x\nStatement.\n\n/// hint\n    parts: c b\nSecond.\n///\n\n"
               "/// hint\n    parts: a\nFirst.\n///\n\n///\n")
    html = rendered(chapter, locale)
    first, second = (LABELS[locale]["hint_of"].format(n=n, total=2) for n in (1, 2))
    order = [m.group(0) for m in re.finditer(r'data-part="[abc]"|<summary[^>]*>[^<]*|<p>after', html)]
    assert order == ['data-part="a"', f'<summary lang="{locale}">{first}', 'data-part="b"', 'data-part="c"',
                     f'<summary lang="{locale}">{second}', "<p>after"], html
    assert html.index("First.") < html.index("Second.")


def test_a_single_hint_is_just_a_hint_and_one_naming_no_part_comes_after_the_body():
    html = rendered("/// exercise | x\nStatement.\n\n/// hint\nOnly.\n///\n\n///\n")
    assert '<summary lang="en">Hint</summary>' in html
    assert html.index("<p>after") < html.index("Only.")   # after the body, as before hints named parts


def test_the_solution_gate_is_a_setting_with_two_values():
    assert Settings().solution_gate == "after-attempt"
    assert Settings.from_config({"solution_gate": "always"}, {}).solution_gate == "always"
    with pytest.raises(SettingsError, match=r"extra.course.solution_gate: 'never' is not one of after-attempt, always"):
        Settings.from_config({"solution_gate": "never"}, {})


@pytest.mark.parametrize("gate, in_browser, nudged", [("after-attempt", True, True), ("always", True, False),
                                                       ("after-attempt", False, False)])
def test_the_nudge_is_under_the_solution_where_the_page_checks_answers(gate, in_browser, nudged):
    _, solution = render.render_exercise("attention-weights", "fr", LABELS["fr"], True, in_browser, gate)
    assert solution.startswith('<details class="course-solution">')
    note = re.search(r'</details><p class="course-solution__gate"[^>]*data-note="([^"]*)"', solution)
    assert bool(note) is nudged
    if note:
        assert note.group(1) == LABELS["fr"]["solution_gate"].format(checked="{checked}", total="{total}")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_tolerance_paragraph_says_what_the_parts_ask(locale):
    for exercise in bank.EXERCISES.values():
        body, _ = render.render_exercise(exercise.id, locale, LABELS[locale], True)
        paragraph = re.search(r'<p class="course-exercise__tolerance">(.*?)</p>', body).group(1)
        asked = {targets.figures(exercise, p.id) for p in exercise.parts} - {3}
        for digits in asked:
            marked = message("part-figures", locale, digits=digits)
            assert marked in body.replace(paragraph, ""), (exercise.id, marked)   # after a part's prompt
            assert marked.strip("()（）") in paragraph, (exercise.id, paragraph)
        assert (message("tolerance-more-figures", locale, digits=4).split("{")[0][:12] in paragraph) is bool(asked)


def test_each_cosine_in_the_worked_solution_is_its_dot_product_over_the_norms():
    exercise = bank.get("embedding-distances")
    rows = exercise.definition.derivation(exercise, "fr")
    for a, b in (("parakeet", "monkey"), ("parakeet", "fourier"), ("monkey", "fourier")):
        u, v = exercise.data[a], exercise.data[b]
        row = next(r for r in rows if r.startswith(rf"\cos(\text{{{a}}}, \text{{{b}}})"))
        assert (rf"\frac{{{tex_value(g.dot(u, v), 'fr')}}}{{\sqrt{{{tex_value(g.dot(u, u), 'fr')}}} \, "
                rf"\sqrt{{{tex_value(g.dot(v, v), 'fr')}}}}}") in row, row
        assert tex_value(exercise.part(f"cos-{a}-{b}").reference, "fr") in row
