"""The figures: well-formed SVG with a title and a text alternative in every locale, drawn from the bank's data."""

from __future__ import annotations

import re
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tomllib
from sympy import Rational

from grader import bank
from grader.bank import EXERCISES
from grader.languages.numerals import format_number
from grader.model import drawing, geometry
from hooks.chapters.render import figure_ids, render_figure

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
SVG = "{http://www.w3.org/2000/svg}"


def load(locale: str) -> dict[str, str]:
    with (ROOT / "docs" / locale / "labels.toml").open("rb") as handle:
        return tomllib.load(handle)["figures"]


LABELS = {locale: load(locale) for locale in LOCALES}


def texts(root: ET.Element) -> str:
    return " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def draw(figure_id: str, locale: str = "en", solutions: bool = True, narrow: bool = False) -> str:
    return render_figure(figure_id, LABELS[locale], locale, solutions, narrow)


def redraw(figure_id: str, data: dict, solutions: bool = True) -> str:
    """The figure of the same exercise built from other data."""
    definition = bank.figures()[figure_id]
    return definition.figure.draw(definition.build(data), LABELS["en"], "en", solutions)


def test_figure_ids_come_from_the_exercise_modules():
    assert figure_ids() == ("embedding-distances", "attention-weights", "warmup-schedule",
                            "reachable-region", "warmup-subsimplex")


def test_unknown_figure_is_a_key_error():
    with pytest.raises(KeyError):
        draw("no-such-figure")


@pytest.mark.parametrize("locale", LOCALES)
def test_labels_match_english(locale):
    english, table = LABELS["en"], LABELS[locale]
    assert set(table) == set(english)
    for key, template in table.items():
        assert placeholders(template) == placeholders(english[key]), key
        assert template.strip(), key


@pytest.mark.parametrize("solutions", (True, False))
@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("figure_id", figure_ids())
def test_svg_is_accessible_and_self_contained(figure_id, locale, solutions):
    markup = draw(figure_id, locale, solutions)
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("viewBox")
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text.strip() and title.get("id") == f"{figure_id}-title"
    assert desc is not None and len(desc.text) > 40 and desc.get("id") == f"{figure_id}-desc"
    assert root.get("aria-labelledby") == f"{figure_id}-title"     # named by its title,
    assert root.get("aria-describedby") == f"{figure_id}-desc"     # described by its desc
    assert title.text == LABELS[locale][f"title_{figure_id.replace('-', '_')}"]
    for forbidden in ("script", "foreignObject", "image", "style"):
        assert not list(root.iter(f"{SVG}{forbidden}")), forbidden
    assert "<script" not in markup and "href" not in markup and "@import" not in markup
    assert "{" not in texts(root) + desc.text, "a placeholder was left unfilled"


def vertex_set(markup: str) -> set[tuple]:
    root = ET.fromstring(markup)
    found = [el.get("data-vertex") for el in root.iter() if el.get("data-vertex")]
    assert all("," in v and " " not in v for v in found)
    return {tuple(Rational(c) for c in v.split(",")) for v in found}


@pytest.mark.parametrize("locale", LOCALES)
def test_reachable_region_vertices_are_the_bank_reference(locale):
    reference = {tuple(p) for p in EXERCISES["reachable-vertices"].part("vertices").reference}
    markup = draw("reachable-region", locale)
    assert vertex_set(markup) == reference
    desc = ET.fromstring(markup).find(f"{SVG}desc").text
    for vertex in reference:
        assert drawing.point_text(vertex, locale) in desc


def test_point_text_uses_the_locale_number_format():
    point = (Rational(1, 2), Rational(1, 4), Rational(1, 4))
    assert drawing.point_text(point, "en") == "(0.5, 0.25, 0.25)"
    assert drawing.point_text(point, "ja") == "(0.5, 0.25, 0.25)"
    assert drawing.point_text(point, "fr") == "(0,5\u202f; 0,25\u202f; 0,25)"    # narrow no-break space
    assert drawing.point_text(point, "id") == "(0,5; 0,25; 0,25)"


@pytest.mark.parametrize("locale", LOCALES)
def test_warmup_subsimplex_shows_the_three_dimensions(locale):
    exercise = EXERCISES["submanifold-dims"]
    root = ET.fromstring(draw("warmup-subsimplex", locale))
    shown, desc = texts(root), root.find(f"{SVG}desc").text
    for part in ("warmup-dim", "full-dim", "polish-dim"):
        k = exercise.part(part).reference
        assert LABELS[locale]["dimension"].format(n=format_number(k, locale)) in shown, part
        assert str(k) in desc
    for source in exercise.data["warmup_sources"] + exercise.data["polish_excluded"]:
        assert source in shown


@pytest.mark.parametrize("locale", ("en", "fr"))
def test_numbers_are_written_in_the_locale_format(locale):
    lr = EXERCISES["terrain-warmup"].part("lr-at-step").reference
    root = ET.fromstring(draw("warmup-schedule", locale))
    assert format_number(lr, locale) in texts(root)
    assert format_number(lr, locale) in root.find(f"{SVG}desc").text
    assert ("0,0001" if locale == "fr" else "0.0001") in texts(root)
    distances = ET.fromstring(draw("embedding-distances", locale))
    assert ("0,3" if locale == "fr" else "0.3") in texts(distances)
    assert ("1,871" if locale == "fr" else "1.871") in texts(distances)


def test_attention_weights_come_from_the_bank():
    weights = EXERCISES["attention-weights"].part("weights").reference
    shown = texts(ET.fromstring(draw("attention-weights")))
    for w in weights:
        assert f"{float(w):.3f}" in shown


def test_changing_the_floor_changes_the_region():
    exercise = EXERCISES["reachable-vertices"]
    data = dict(exercise.data)
    floors = {"H": Rational(1, 3)}
    vertices = geometry.region_vertices(data["symbols"], floors, data["caps"])
    original = draw("reachable-region")
    moved = redraw("reachable-region", {**data, "floors": floors})
    assert vertex_set(moved) == {tuple(v) for v in vertices} != vertex_set(original)
    assert "floor H ≥ 0.3333" not in moved  # not a finite decimal: written rounded, with ≈
    assert "≈ 0.333" in ET.fromstring(moved).find(f"{SVG}desc").text


def test_changing_the_sources_changes_the_cells():
    exercise = EXERCISES["submanifold-dims"]
    data = exercise.data
    fewer = data["warmup_sources"][:4]
    moved = redraw("warmup-subsimplex", {**data, "warmup_sources": fewer})
    shown = texts(ET.fromstring(moved))
    assert "dimension 3" in shown and "gutenberg" not in shown
    original = ET.fromstring(draw("warmup-subsimplex"))

    def filled(root):
        return sum(1 for el in root.iter(f"{SVG}polygon") if el.get("fill-opacity") != "0.0")
    assert filled(original) - filled(ET.fromstring(moved)) == len(data["warmup_sources"]) - len(fewer)


def test_changing_the_schedule_changes_the_figure():
    data = EXERCISES["terrain-warmup"].data
    peak, warm = data["peak_lr"] * 2, data["warmup_steps"] // 2
    lr = geometry.linear_warmup_lr(data["step"], peak, warm)
    moved = redraw("warmup-schedule", {**data, "peak_lr": peak, "warmup_steps": warm})
    assert moved != draw("warmup-schedule")
    assert format_number(lr, "en") in moved and "0.0006" in moved


def _numbers(value):
    """Every number in an exercise's data."""
    if isinstance(value, str):
        return []
    if hasattr(value, "values"):
        return [x for item in value.values() for x in _numbers(item)]
    if isinstance(value, (tuple, list)) or hasattr(value, "tolist"):
        return [x for item in value for x in _numbers(item)]
    return [value]


def _answers_shown(exercise, locale: str) -> set[str]:
    """Every reference answer of the exercise as a figure would write it: rounded, exact, a point."""
    shown = set()
    for part in exercise.parts:
        if part.kind == "set":
            points = [tuple(p) for p in part.reference]
            shown |= {drawing.point_text(p, locale) for p in points}
            values = [x for p in points for x in p]
        else:
            values = list(part.reference) if part.kind == "vector" else [part.reference]
        shown |= {drawing.num(v, locale, digits) for v in values for digits in (3, 4)}
    return shown


@pytest.mark.parametrize("locale", ("en", "fr", "ja"))
@pytest.mark.parametrize("figure_id", figure_ids())
def test_with_solutions_off_a_figure_draws_the_data_not_the_answers(figure_id, locale):
    exercise = EXERCISES[bank.figures()[figure_id].id]
    off = ET.fromstring(draw(figure_id, locale, solutions=False))
    words = texts(off) + " " + off.find(f"{SVG}desc").text
    # what only an answer can show: not a number of the data, not a whole number (a dimension, a step:
    # those could be tick labels, and are checked by their label below)
    data = {drawing.num(v, locale, 3) for v in _numbers(exercise.data)}
    answers = {w for w in _answers_shown(exercise, locale) - data if w.startswith("≈") or "." in w or "," in w}
    assert not {w for w in answers if w in words}, figure_id
    on = ET.fromstring(draw(figure_id, locale, solutions=True))
    on_words = texts(on) + " " + on.find(f"{SVG}desc").text
    assert not answers or {w for w in answers if w in on_words}, "with solutions the answers are drawn"
    assert not [el for el in off.iter() if el.get("data-vertex")]
    if figure_id == "warmup-subsimplex":
        for part in ("warmup-dim", "full-dim", "polish-dim"):
            label = LABELS[locale]["dimension"].format(n=format_number(exercise.part(part).reference, locale))
            assert label not in words


@pytest.mark.parametrize("locale", ("en", "fr", "ja"))
@pytest.mark.parametrize("figure_id", figure_ids())
def test_the_page_draws_the_data_and_only_the_opened_solution_draws_the_answers(figure_id, locale, tmp_path,
                                                                               monkeypatch):
    """The figure block, solutions on or off, is the data-only drawing in its two layouts, wide then narrow;
    with solutions on, the worked solution (a closed <details>) holds the drawing with the answers, under ids
    of its own."""
    from hooks.chapters import cache
    from hooks.chapters.labels import load_labels
    from hooks.site.build import renderers
    from hooks.site.settings import Settings

    monkeypatch.setattr(cache, "FOLDER", tmp_path)   # rendered now, not read from an earlier build's cache
    labels = load_labels(ROOT / "docs")
    exercise_id = bank.figures()[figure_id].id
    for solutions in (True, False):
        render_exercise, render_block = renderers(Settings(solutions=solutions), labels)
        wide, narrow = (draw(figure_id, locale, False, narrow) for narrow in (False, True))
        assert render_block(figure_id, locale) == wide + narrow, solutions
        body, solution = render_exercise(exercise_id, locale)
        assert "<svg" not in body
        if not solutions:
            assert solution == ""
            continue
        assert solution.startswith('<details class="course-solution">') and solution.count("<svg") == 2
        for svg, narrow in zip(re.findall(r"<svg.*?</svg>", solution, re.S), (False, True)):
            assert svg == drawing_with_ids(draw(figure_id, locale, True, narrow), "-solution")
            root, name = ET.fromstring(svg), figure_id + ("-narrow" if narrow else "")
            assert root.get("aria-labelledby") == f"{name}-title-solution"
            assert root.find(f"{SVG}title").get("id") == f"{name}-title-solution"


def drawing_with_ids(markup: str, suffix: str) -> str:
    """The drawing with every id, and every reference to one, ending in ``suffix``."""
    root = ET.fromstring(markup)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for name in sorted(ids, key=len, reverse=True):
        markup = re.sub(rf'"{re.escape(name)}"', f'"{name}{suffix}"', markup)
    return markup


@pytest.mark.parametrize("solutions", (False, True))
@pytest.mark.parametrize("figure_id", figure_ids())
def test_the_narrow_layout_is_a_phones_width_with_the_same_words_for_its_reader(figure_id, solutions):
    """Drawn drawing.NARROW wide, its labels 12 units or more (over 11 px in a phone's 343 px column), named
    and described as the wide one, under ids of its own."""
    wide, narrow = (ET.fromstring(draw(figure_id, "fr", solutions, n)) for n in (False, True))
    assert narrow.get("viewBox").split()[2] == str(drawing.NARROW) and "course-svg--narrow" in narrow.get("class")
    assert min(float(t.get("font-size")) for t in narrow.iter(f"{SVG}text")) >= 12
    assert narrow.get("aria-labelledby") == f"{figure_id}-narrow-title"
    assert [narrow.find(f"{SVG}{tag}").text for tag in ("title", "desc")] == [wide.find(f"{SVG}{tag}").text
                                                                            for tag in ("title", "desc")]
