"""hooks/chapters/render.py without a site build: an exercise block's data, parts, commands, answers file and
worked solution, read back from its HTML; the prose and label pieces it is made of; the words a figure carries."""

from __future__ import annotations

import shlex
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

from grader import bank
from grader.files import tomllib
from grader.languages.messages import message
from grader.model.tex import tex_answer
from hooks.chapters import render
from hooks.chapters.labels import figure_labels, load_labels
from hooks.checker import workspace
from tests.hooks.test_workspace import ROOT

LABELS = load_labels(ROOT / "docs")
VOID = {"br", "input", "mspace", "img", "hr", "meta", "link", "path", "circle", "line", "rect", "polygon", "polyline"}


class Node:
    def __init__(self, tag: str, attrs: dict):
        self.tag, self.attrs, self.children = tag, attrs, []

    def text(self) -> str:
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def all(self, tag: str | None = None, **attrs) -> list[Node]:
        """Every element under this one (depth first) of that tag whose attributes have those values
        (`class_` for class; True: the attribute is there)."""
        found = []
        for child in self.children:
            if isinstance(child, Node):
                wanted = {k.rstrip("_"): v for k, v in attrs.items()}
                if (tag is None or child.tag == tag) and all(
                        (k in child.attrs) if v is True else child.attrs.get(k) == v for k, v in wanted.items()):
                    found.append(child)
                found += child.all(tag, **attrs)
        return found

    def one(self, tag: str | None = None, **attrs) -> Node:
        (found,) = self.all(tag, **attrs)
        return found


class Tree(HTMLParser):
    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("", {})
        self.open = [self.root]
        self.feed(markup)
        self.close()
        assert self.open == [self.root], [n.tag for n in self.open]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.open[-1].children.append(node)
        if tag not in VOID:
            self.open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag not in VOID:
            assert self.open[-1].tag == tag, (self.open[-1].tag, tag)
            self.open.pop()

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parsed(markup: str) -> Node:
    return Tree(markup).root


CASES = [(exercise_id, "fr") for exercise_id in bank.EXERCISES] + [("attention-weights", "en")]


@pytest.mark.parametrize("exercise_id, locale", CASES)
def test_an_exercise_block_shows_its_data_and_each_part_with_its_points_and_form(exercise_id, locale):
    exercise, labels = bank.get(exercise_id), LABELS[locale]
    body, _ = render.render_exercise(exercise_id, locale, labels, solutions=False)
    page = parsed(body)
    headings = [p.text() for p in page.all("p", class_="course-exercise__heading")]
    assert headings == [labels["data"], labels["to_submit"]]
    data = exercise.definition.data_items(exercise, locale)
    assert len(page.one("ul", class_="course-exercise__data").children) == len(data) > 0
    assert ('<ul class="course-exercise__data">' + "".join(f"<li>{render.prose(item)}</li>" for item in data)
            + "</ul>") in body
    items = page.one("ol", class_="course-exercise__parts").children
    assert [item.attrs["data-part"] for item in items] == [p.id for p in exercise.parts]
    before, after = labels["part"].split("{part}")[0], labels["part"].split("{part}")[1].split("{prompt}")[0]
    for item, part in zip(items, exercise.parts):
        assert item.one("code").text() == part.id and item.text().startswith(before + part.id + after)
        assert item.one("span", class_="course-exercise__points").text() == labels["points"].format(n=part.points)
        assert item.one("small").text() == labels["type_as"].format(form=part.form_in(locale))
    assert page.all("input") == []   # no answer box unless the page checks answers


@pytest.mark.parametrize("exercise_id, locale", CASES)
def test_an_exercise_block_s_commands_and_answers_file_are_what_the_grader_reads(exercise_id, locale):
    exercise, labels = bank.get(exercise_id), LABELS[locale]
    body, _ = render.render_exercise(exercise_id, locale, labels, solutions=False)
    page = parsed(body)
    first = exercise.parts[0]
    check = page.one("pre", id=f"exercise-{exercise_id}-check")
    assert (check.attrs["class"], check.attrs["data-part"], check.attrs["data-answer"]) == \
        ("course-command", first.id, first.example)
    assert shlex.split(check.text()) == ["grader", "check", exercise_id, first.id, first.example, "--lang", locale]
    answers = page.one("pre", id=f"exercise-{exercise_id}-answers")
    assert answers.attrs["class"] == "course-toml"
    assert tomllib.loads(answers.text()) == {"lang": locale, exercise_id: {p.id: "" for p in exercise.parts}}
    comments = [line.split("#", 1)[1].strip() for line in answers.text().splitlines() if "#" in line]
    assert comments == [" ".join(p.form_in(locale).split()) for p in exercise.parts]
    submit = page.one("pre", id=f"exercise-{exercise_id}-submit")
    assert (submit.attrs["class"], "data-submit" in submit.attrs) == ("course-command", True)
    assert shlex.split(submit.text()) == ["grader", "submit", "answers.toml", "--lang", locale]
    shown = [child for child in page.children if isinstance(child, Node)]
    at = shown.index(check)
    assert [shown[at - 1].text(), shown[at + 1].text()] == [labels["check_one"], labels["submit_all"]]
    assert shown[at + 2:at + 4] == [answers, submit]
    assert workspace.install_html(labels, workspace.INSTALL_HREF) in body
    assert page.one("p", class_="course-exercise__tolerance").text() == \
        render.tolerance_text(exercise, locale)


def test_in_the_browser_each_part_gets_its_answer_box_and_the_exercise_its_workspace():
    exercise, locale, labels = bank.get("attention-weights"), "fr", LABELS["fr"]
    body, _ = render.render_exercise(exercise.id, locale, labels, solutions=False, in_browser=True)
    page = parsed(body)
    for item, part in zip(page.one("ol", class_="course-exercise__parts").children, exercise.parts):
        assert workspace.part_html(exercise.id, part.id, part.points, part.form_in(locale), labels) in body
        assert item.all("input")
    assert workspace.exercise_html(exercise.id, locale, labels, render.course_parts(),
                                   render.figure_words(exercise, labels, locale)) in body


@pytest.mark.parametrize("exercise_id, locale", CASES)
def test_the_worked_solution_gives_the_working_each_part_s_answer_and_the_figure_with_its_answers(exercise_id, locale):
    exercise, labels = bank.get(exercise_id), LABELS[locale]
    body, solution = render.render_exercise(exercise_id, locale, labels, solutions=True)
    assert render.render_exercise(exercise_id, locale, labels, solutions=False) == (body, "")
    details = parsed(solution).one("details", class_="course-solution")
    assert details.children[0].tag == "summary" and details.children[0].text() == labels["solution"]
    rows = exercise.definition.derivation(exercise, locale)
    assert [child.attrs["display"] for child in details.children[1:1 + len(rows)]] == ["block"] * len(rows)
    assert details.children[1 + len(rows)].tag == "ul"
    lines = details.children[1 + len(rows)].children
    assert [line.attrs["data-part"] for line in lines] == [p.id for p in exercise.parts]
    for line, part in zip(lines, exercise.parts):
        assert line.one("code").text() == part.id
        assert line.one("math").attrs["display"] == "inline"
        assert render.math(tex_answer(part.reference, locale)) in solution
    figure = exercise.definition.figure
    drawings = details.all("div", class_="course-figure__drawing")
    if figure is None:
        assert drawings == [] and render.solution_figure(exercise, labels, locale) == ""
        return
    (drawing,) = drawings
    assert "data-search-exclude" in drawing.attrs
    assert details.children[-1].attrs["class"] == "course-solution__figure"
    svgs = [child for child in drawing.children if child.tag == "svg"]
    assert len(svgs) == 2 and all(node.attrs["id"].endswith("-solution") for node in svgs if "id" in node.attrs)
    assert all(node.attrs["id"].endswith("-solution") for node in drawing.all() if "id" in node.attrs)


@pytest.mark.parametrize("figure_id", render.figure_ids())
def test_a_figure_is_drawn_wide_then_narrow_and_with_its_answers_only_when_asked(figure_id):
    table = figure_labels(LABELS["en"])
    wide, narrow = (render.render_figure(figure_id, table, "en", narrow=n) for n in (False, True))
    assert wide != narrow and render.both_layouts(figure_id, table, "en") == wide + narrow
    assert render.render_figure(figure_id, table, "en") == wide
    answered = render.both_layouts(figure_id, table, "en", solutions=True)
    assert answered != wide + narrow
    assert render.both_layouts(figure_id, table, "en", False) == wide + narrow


def test_prose_escapes_its_text_converts_its_math_and_marks_up_its_code():
    assert render.prose("a < b, $x^2$ & `f(<x>)` > c") == \
        "a &lt; b, " + render.math("x^2") + " &amp; <code>f(&lt;x&gt;)</code> &gt; c"
    assert render.prose("no math: a $ alone & ``") == "no math: a $ alone &amp; ``"
    assert render.prose("") == ""
    assert 'display="block"' in render.math("x", display=True) and 'display="inline"' in render.math("x")


def test_a_label_s_own_words_are_escaped_and_its_placeholders_filled_with_markup():
    assert render.filled("{part} & {prompt} <ok>", part="<code>a</code>", prompt="<math/>") == \
        "<code>a</code> &amp; <math/> &lt;ok&gt;"
    assert render.filled("nothing to fill") == "nothing to fill"
    assert render.filled("{part}", part="<b>") == "<b>"


class Drawn:
    """A figure that reads a word only in its narrow layout, and one only in some locales."""
    id = "drawn"

    def draw(self, exercise, labels, locale, solutions, narrow=False):
        words = [labels["title"], labels[f"unit_{locale}"]]
        if narrow:
            words.append(labels["narrow_key"])
        if solutions:
            words.append(labels["answer"])
        return " ".join(words)


def test_the_words_a_page_carries_for_its_figure_are_those_both_layouts_read_in_its_language():
    exercise = SimpleNamespace(definition=SimpleNamespace(figure=Drawn()))
    labels = {"figures.title": "T", "figures.unit_fr": "u", "figures.unit_en": "v", "figures.narrow_key": "k",
              "figures.answer": "A", "figures.unused": "x", "solution": "S"}
    assert render.figure_words(exercise, labels, "fr") == ("drawn", {"narrow_key": "k", "title": "T", "unit_fr": "u"})
    without = SimpleNamespace(definition=SimpleNamespace(figure=None))   # an exercise module may draw none
    assert render.figure_words(without, labels, "fr") is None and render.solution_figure(without, labels, "fr") == ""


def test_the_course_s_parts_are_every_exercise_s_in_order():
    assert render.course_parts() == {e.id: [p.id for p in e.parts] for e in bank.EXERCISES.values()}
    assert render.exercise_ids() == tuple(bank.EXERCISES) and set(render.figure_ids()) == set(bank.figures())


@pytest.mark.parametrize("locale", sorted(LABELS))
def test_the_tolerance_paragraph_is_the_rule_then_the_parts_that_need_more_figures(locale):
    rule = message("tolerance-rule", locale)
    after = "" if locale in ("ja", "zh") else " "    # no space after a full stop 。
    assert render.tolerance_text(bank.get("attention-weights"), locale) == rule   # every part: the rule's figures
    assert render.tolerance_text(bank.get("embedding-distances"), locale) == \
        rule + after + message("tolerance-more-figures", locale, digits=4)
