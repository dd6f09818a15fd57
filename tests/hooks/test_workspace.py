"""hooks/checker/workspace.py without a browser: the markup of the student's workspace (answer boxes, the reading, the
work kept, the home page's progress), the install line's link, and the words a variant's figure needs."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader import bank, web
from grader.languages.messages import message
from hooks.chapters import render
from hooks.chapters.labels import figure_labels, load_labels
from hooks.checker import publish as checker
from hooks.checker import workspace

ROOT = Path(__file__).resolve().parents[2]
LABELS = load_labels(ROOT / "docs")
LOCALES = tuple(LABELS)


class Elements(HTMLParser):
    def __init__(self, markup: str):
        super().__init__()
        self.found: list[tuple[str, dict]] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def exercise_markup(lang: str, exercise_id: str = "attention-weights") -> str:
    exercise = bank.get(exercise_id)
    labels = LABELS[lang]
    markup = "".join(workspace.part_html(exercise.id, p.id, p.points, "a vector (a, b, c) <of 3>", labels)
                     for p in exercise.parts)
    return markup + workspace.exercise_html(exercise.id, lang, labels, render.course_parts(),
                                            render.figure_words(exercise, labels, lang))


@pytest.mark.parametrize("lang", LOCALES)
def test_each_box_has_a_label_a_description_and_live_regions(lang):
    markup = exercise_markup(lang)
    elements = Elements(markup).found
    ids = [attrs["id"] for _, attrs in elements if "id" in attrs]
    assert len(ids) == len(set(ids)), "an id twice"
    inputs = [attrs for tag, attrs in elements if tag == "input" and attrs.get("type") == "text"]
    assert len(inputs) == len(bank.get("attention-weights").parts) + 1   # the answers and the seed
    for box in inputs:
        assert [a for t, a in elements if t == "label" and a.get("for") == box["id"]]
        assert set(box.get("aria-describedby", "").split()) <= set(ids)
    for box in inputs[:-1]:   # each answer is described by its form, its reading and its verdict
        described = box["aria-describedby"].split()
        live = {a["id"]: a.get("aria-live") for t, a in elements if a.get("id") in described}
        assert [live[i] for i in described] == [None, "polite", "polite"], described
    # the file chooser is reached through its button, never on its own
    (chooser,) = [a for t, a in elements if a.get("type") == "file"]
    assert "hidden" in chooser and chooser["tabindex"] == "-1"
    assert all("hidden" in a for t, a in elements if a.get("class") in ("course-checker", "course-checker-exercise"))
    assert "&lt;of 3&gt;" in markup
    for key in ("check_all", "download", "load", "clear", "clear_all"):
        assert markup.count(f">{LABELS[lang][f'checker.{key}']}</button>") == 1, key
    words = json.loads(next(a["data-words"] for t, a in elements if "data-words" in a))
    assert set(words) == {*workspace.EXERCISE_LABELS, "read_as"}
    assert words["read_as"] == message("read-as", lang, expression="{expression}")   # the grader's words
    course = json.loads(next(a["data-course"] for t, a in elements if "data-course" in a))
    assert course == {e.id: [p.id for p in e.parts] for e in bank.EXERCISES.values()}


def test_every_word_the_script_needs_is_in_every_locale():
    for lang, labels in LABELS.items():
        for key in {*workspace.EXERCISE_LABELS, *workspace.PROGRESS_LABELS}:
            assert labels[f"checker.{key}"].strip(), (lang, key)


@pytest.mark.parametrize("figure_id", render.figure_ids())
@pytest.mark.parametrize("lang", ("en", "fr", "ja"))
def test_the_words_a_page_carries_draw_every_variants_figure(figure_id, lang):
    """The page carries only the words its figure draws; with them the grader draws each variant's figure
    (grader.web.figure) exactly as with the whole table, data only."""
    exercise = bank.get(bank.figures()[figure_id].id)
    figure, carried = render.figure_words(exercise, LABELS[lang], lang)
    table = figure_labels(LABELS[lang])
    assert figure == figure_id and set(carried) < set(table) and carried
    for seed in ("s0042", "alice", "20240917", "7"):
        reply = json.loads(web.figure(exercise.id, lang, seed, json.dumps(carried)))
        variant = bank.variant(exercise.id, seed)
        wide, narrow = (variant.definition.figure.draw(variant, table, lang, False, narrow=n) for n in (False, True))
        assert reply == {"code": 0, "svg": wide, "narrow": narrow, "error": ""}
        assert 'data-vertex' not in reply["svg"]


def test_a_figure_for_an_unusable_seed_is_refused_not_drawn():
    reply = json.loads(web.figure("reachable-vertices", "en", " s1", "{}"))
    assert reply["code"] == 2 and reply["svg"] == "" and reply["error"]


def fake_files(*names: str):
    pages = [SimpleNamespace(src_uri=f"fr/{name}", norm_src_uri=name, url=f"fr/{Path(name).stem}/") for name in names]
    return SimpleNamespace(documentation_pages=lambda: pages)


def test_the_install_line_links_to_the_install_page_of_the_locale():
    line = workspace.install_html(LABELS["fr"], workspace.INSTALL_HREF)
    assert f"<code>{workspace.INSTALL_COMMAND}</code>" in line and LABELS["fr"]["checker.install_link"] in line
    page = SimpleNamespace(url="fr/02-attention-projection/")
    linked = workspace.with_install_link(f"<p>before</p>{line}", fake_files("02-attention-projection.md", "grader.md"), page)
    assert re.findall(r'href="([^"]+)"', linked) == ["../grader/"]
    # a site without the page: the line stays, without a link to nowhere
    unlinked = workspace.with_install_link(line, fake_files("02-attention-projection.md"), page)
    assert "<a " not in unlinked and workspace.INSTALL_COMMAND in unlinked
    link = f' <a href="{workspace.INSTALL_HREF}">{LABELS["fr"]["checker.install_link"]}</a>'
    assert link in line and unlinked == line.replace(link, "")   # the link gone, every other word kept


def test_a_site_of_one_language_finds_the_install_page_by_its_own_name():
    """Without mkdocs-static-i18n a file has no ``norm_src_uri``: the page is found by its ``src_uri``."""
    pages = [SimpleNamespace(src_uri=name, url=f"{Path(name).stem}/") for name in ("lesson.md", "grader.md")]
    files = SimpleNamespace(documentation_pages=lambda: pages)
    assert workspace.page_url(files, "grader.md", SimpleNamespace(url="lesson/")) == "../grader/"
    assert workspace.page_url(files, "other.md", SimpleNamespace(url="lesson/")) is None


@pytest.mark.parametrize("lang", LOCALES)
def test_the_progress_lists_every_exercise_with_a_link_and_a_text_state(lang):
    rows = [{"id": e.id, "lesson": e.lesson, "title": e.title_in(lang), "max": e.max_score,
             "href": f"0{e.lesson}-lesson/#exercise-{e.id}"} for e in bank.EXERCISES.values()]
    markup = workspace.progress_html(lang, LABELS[lang], rows, render.course_parts())
    elements = Elements(markup).found
    assert [a["data-exercise"] for t, a in elements if t == "tr" and "data-exercise" in a] == list(bank.EXERCISES)
    assert [a["href"] for t, a in elements if t == "a"] == [row["href"] for row in rows]
    assert [t for t, a in elements if t == "th"] == ["th"] * 5 and all(a["scope"] == "col" for t, a in elements if t == "th")
    for key in ("col_lesson", "col_exercise", "col_state", "col_last", "col_best"):   # the last score beside the best
        assert markup.count(f'<th scope="col">{LABELS[lang][f"checker.{key}"]}</th>') == 1, key
    assert [a.get("class") for t, a in elements if t == "td" and a.get("class")] == [
        "course-progress__state", "course-progress__last", "course-progress__best"] * len(rows)
    assert markup.count(f">{LABELS[lang]['checker.state_new']}</td>") == len(rows)   # a state in words, before the script
    assert "hidden" in elements[0][1] and "data-search-exclude" in elements[0][1]
    assert LABELS[lang]["checker.clear"] not in markup   # the home page clears all, not one exercise
    words = json.loads(elements[0][1]["data-words"])
    assert set(words) == set(workspace.PROGRESS_LABELS)
    assert json.loads(elements[0][1]["data-languages"]) == workspace.language_names(LABELS[lang])


def test_every_language_a_file_can_name_has_a_name_in_every_locale():
    """Load answers names a file's language (grader submit's ``lang``: one of the grader's locales) by its name in the
    page's language, never its code."""
    from grader.languages.messages import LOCALES as GRADER_LOCALES

    for lang, labels in LABELS.items():
        names = workspace.language_names(labels)
        assert set(names) == set(GRADER_LOCALES), lang
        assert all(name.strip() and name != code for code, name in names.items()), (lang, names)
        assert len(set(names.values())) == len(names), (lang, names)
        for markup in (exercise_markup(lang), workspace.progress_html(lang, labels, [], {})):
            (given,) = [a["data-languages"] for t, a in Elements(markup).found if "data-languages" in a]
            assert json.loads(given) == names
    assert workspace.language_names(LABELS["en"])["fr"] == "French"
    assert "{lang}" in LABELS["en"]["checker.load_lang"] and "language {lang}" not in LABELS["en"]["checker.load_lang"]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_progress_summary_says_the_last_and_the_best_totals(lang):
    text = LABELS[lang]["checker.progress_summary"].format(done=1, total=7, last="23", best="26", max="26")
    assert "23/26" in text and "26/26" in text and "grader submit" in text
    assert LABELS[lang]["checker.progress_unchecked"].format(count=2).count("2") == 1


def test_the_home_page_loads_the_checker_for_its_progress():
    state = checker.Checker(True, runtime=Path("."), given=({}, ("checker-0123.js", "checker-4567.css", "worker-89ab.js")))
    page = f'<html><head></head><body>{workspace.progress_html("en", LABELS["en"], [], {})}</body></html>'
    assert checker.page_tags(page, "", state).count("checker-0123.js") == 1


def asset_names() -> tuple[set[str], set[str]]:
    """(the classes, the data- attributes) the checker's scripts and stylesheet name: what the markup is for."""
    assets = Path(workspace.__file__).with_name("assets")
    text = "".join((assets / name).read_text(encoding="utf-8") for name in ("checker.js", "work.js", "checker.css"))
    classes = set(re.findall(r"course-(?:checker|progress|exercise)[\w-]*", text))
    classes |= {f"course-checker__{what}" for what in re.findall(r'\bon\("([\w-]+)"', text)}   # a button's handler
    data = set(re.findall(r"data-[a-z-]+", text))
    data |= {"data-" + re.sub(r"[A-Z]", lambda m: "-" + m[0].lower(), name) for name in re.findall(r"dataset\.(\w+)", text)}
    return classes, data


@pytest.mark.parametrize("lang", ("en", "ja"))
def test_every_class_and_data_attribute_of_the_markup_is_one_the_checker_reads(lang):
    classes, data = asset_names()
    rows = [{"id": "x", "lesson": 1, "title": "X", "href": "01/#x", "max": 3}]
    line = workspace.install_html(LABELS[lang], workspace.INSTALL_HREF)
    for markup in (exercise_markup(lang), workspace.progress_html(lang, LABELS[lang], rows, {"x": ["a"]}), line):
        for tag, attrs in Elements(markup).found:
            given = {name for name in (attrs.get("class") or "").split() if name != "md-button"}
            assert given <= classes, (tag, given - classes)
            assert {name for name in attrs if name.startswith("data-")} <= data, (tag, attrs)


@pytest.mark.parametrize("lang, decimal", [("en", "."), ("fr", ","), ("id", ",")])
def test_the_progress_carries_the_locales_decimal_mark_the_course_and_only_its_rows(lang, decimal):
    rows = [{"id": e.id, "lesson": e.lesson, "title": e.title_in(lang), "max": e.max_score, "href": f"#{e.id}"}
            for e in bank.EXERCISES.values()]
    markup = workspace.progress_html(lang, LABELS[lang], rows, render.course_parts())
    section = Elements(markup).found[0][1]
    assert section["data-decimal"] == decimal and section["data-lang"] == lang
    assert json.loads(section["data-course"]) == render.course_parts()
    (body,) = re.findall(r"<tbody>(.*)</tbody>", markup)
    assert re.sub(r"<tr [^>]*>.*?</tr>", "", body) == ""   # the rows, one after another, nothing between
    exercise = Elements(exercise_markup(lang)).found
    assert [a["data-decimal"] for t, a in exercise if "data-decimal" in a] == [decimal]


class Tree(HTMLParser):
    """Whether a piece of markup is one element, each of its elements closed in order, no text outside it."""
    VOID = {"input", "br", "img"}

    def __init__(self, markup: str):
        super().__init__()
        self.open, self.roots, self.outside = [], 0, ""
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        if not self.open:
            self.roots += 1
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, (tag, self.open)

    def handle_data(self, data):
        if not self.open:
            self.outside += data


@pytest.mark.parametrize("lang", ("en", "ko"))
def test_each_piece_of_markup_is_one_element_closed_in_order(lang):
    labels, exercise = LABELS[lang], bank.get("attention-weights")
    rows = [{"id": "x", "lesson": 1, "title": "X", "href": "01/#x", "max": 3}] * 2
    pieces = [workspace.part_html(exercise.id, exercise.parts[0].id, 2, "a number", labels),
              workspace.exercise_html(exercise.id, lang, labels, render.course_parts(),
                                      render.figure_words(exercise, labels, lang)),
              workspace.exercise_html(exercise.id, lang, labels, {}),
              workspace.progress_html(lang, labels, rows, {"x": ["a"]}), workspace.progress_html(lang, labels, [], {}),
              workspace.install_html(labels, "../grader/"), workspace.work_html(labels), workspace.work_html(labels, False)]
    for markup in pieces:
        tree = Tree(markup)
        assert (tree.roots, tree.open, tree.outside) == (1, [], ""), markup[:80]


def test_two_exercises_on_one_page_share_no_id_even_with_parts_of_the_same_name():
    labels = LABELS["en"]
    page = "".join(workspace.part_html(exercise, "a", 1, "a number", labels)
                   + workspace.exercise_html(exercise, "en", labels, {}) for exercise in ("one", "two"))
    elements = Elements(page).found
    ids = [a["id"] for _, a in elements if "id" in a]
    assert len(ids) == len(set(ids)) and all(a["for"] in ids for t, a in elements if t == "label")
    assert {i for i in ids if "one" in i} and {i for i in ids if "two" in i}
    assert page.count(f'">{labels["checker.answer"].format(part="a")}</label>') == 2   # the box named by its part


def test_an_attributes_json_is_compact_unescaped_text_with_only_what_html_needs_escaped():
    """data-words='…' and its kin: the JSON the page parses, with no spaces and no \\u escapes (the page is lighter), and
    &, ' and < written as HTML reads them back inside single quotes."""
    value = {"a": ["é", "l'<b>&"], "n": 1}
    written = workspace._json(value)
    assert written == """'{"a":["é","l&#39;&lt;b>&amp;"],"n":1}'"""

    class Attribute(HTMLParser):
        def handle_starttag(self, tag, attrs):
            self.read = dict(attrs)["data-x"]

    parser = Attribute()
    parser.feed(f"<p data-x={written}>")
    assert json.loads(parser.read) == value


def test_a_parts_box_verdict_and_reading_are_named_after_the_exercise_and_the_part():
    html_text = workspace.part_html("terrain-warmup", "lr-at-step", 1, "real", LABELS["en"])
    ids = set(re.findall(r'\bid="([^"]+)"', html_text))
    assert {"answer-terrain-warmup-lr-at-step", "answer-terrain-warmup-lr-at-step-verdict"} <= ids, ids


def buttons(markup: str) -> dict[str, bool]:
    """Each button's name (its course-checker__ class) and whether it starts hidden."""
    return {a["class"].split()[0].removeprefix("course-checker__"): "hidden" in a
            for tag, a in Elements(markup).found if tag == "button"}


@pytest.mark.parametrize("lang", ("en", "fr"))
def test_only_the_way_back_to_the_lesson_starts_hidden_and_the_data_is_the_graders(lang):
    """The buttons checker.js shows and hides, as the page first shows them (only "back to the lesson's data" waits
    for a variant); the seed box named by its label; the timeout's words the grader's; a figure's words only with it."""
    labels, exercise = LABELS[lang], bank.get("attention-weights")
    figure = render.figure_words(exercise, labels, lang)
    markup = workspace.exercise_html(exercise.id, lang, labels, {}, figure)
    assert buttons(markup) == {"check-all": False, "use-seed": False, "new-seed": False, "lesson": True,
                               "download": False, "load": False, "clear": False, "clear-all": False}
    assert buttons(workspace.part_html(exercise.id, "weights", 1, "a vector", labels)) == {"check": False}
    assert "clear" not in buttons(workspace.progress_html(lang, labels, [], {}))        # no one exercise there
    found = Elements(markup).found
    seed = next(a for tag, a in found if tag == "input" and "course-checker__seed" in a["class"])
    assert seed["id"] == f"answer-{exercise.id}-seed" and ("label", {"class": "course-checker__label",
                                                                     "for": seed["id"]}) in found
    data = next(a for tag, a in found if "data-timeout" in a)
    assert json.loads(data["data-timeout"]) == web.timeout_verdict(lang)
    assert (data["data-figure"], json.loads(data["data-figure-words"])) == (figure[0], figure[1])
    bare = next(a for tag, a in Elements(workspace.exercise_html(exercise.id, lang, labels, {})).found
                if "data-timeout" in a)
    assert "data-figure" not in bare and "data-figure-words" not in bare
    assert all(name in ("class", "hidden") or name.startswith("data-") for name in bare), bare
