"""The figures: well-formed SVG with a title and a text alternative in every locale, drawn from the bank's data."""

from __future__ import annotations

import string
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from sympy import Rational

from grader import geometry
from grader.bank import EXERCISES
from hooks import figures
from hooks.numbers import format_number

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


def test_figure_ids():
    assert figures.FIGURES == ("embedding-distances", "attention-weights", "warmup-schedule",
                               "reachable-region", "warmup-subsimplex")


def test_unknown_figure_is_a_key_error():
    with pytest.raises(KeyError):
        figures.draw("no-such-figure", LABELS["en"], "en")


@pytest.mark.parametrize("locale", LOCALES)
def test_labels_match_english(locale):
    english, table = LABELS["en"], LABELS[locale]
    assert set(table) == set(english)
    for key, template in table.items():
        assert placeholders(template) == placeholders(english[key]), key
        assert template.strip(), key


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("figure_id", figures.FIGURES)
def test_svg_is_accessible_and_self_contained(figure_id, locale):
    markup = figures.draw(figure_id, LABELS[locale], locale)
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img" and root.get("viewBox")
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text.strip() and title.get("id") == f"{figure_id}-title"
    assert desc is not None and len(desc.text) > 40 and desc.get("id") == f"{figure_id}-desc"
    # named by its title, described by its desc: a short name, the long text alternative as the description
    assert root.get("aria-labelledby") == f"{figure_id}-title" and root.get("aria-describedby") == f"{figure_id}-desc"
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
    markup = figures.draw("reachable-region", LABELS[locale], locale)
    assert vertex_set(markup) == reference
    desc = ET.fromstring(markup).find(f"{SVG}desc").text
    for vertex in reference:
        assert figures.point_text(vertex, locale) in desc


def test_point_text_uses_the_locale_number_format():
    point = (Rational(1, 2), Rational(1, 4), Rational(1, 4))
    assert figures.point_text(point, "en") == "(0.5, 0.25, 0.25)"
    assert figures.point_text(point, "ja") == "(0.5, 0.25, 0.25)"
    assert figures.point_text(point, "fr") == "(0,5 ; 0,25 ; 0,25)"
    assert figures.point_text(point, "id") == "(0,5; 0,25; 0,25)"


@pytest.mark.parametrize("locale", LOCALES)
def test_warmup_subsimplex_shows_the_three_dimensions(locale):
    exercise = EXERCISES["submanifold-dims"]
    root = ET.fromstring(figures.draw("warmup-subsimplex", LABELS[locale], locale))
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
    root = ET.fromstring(figures.draw("warmup-schedule", LABELS[locale], locale))
    assert format_number(lr, locale) in texts(root)
    assert format_number(lr, locale) in root.find(f"{SVG}desc").text
    assert ("0,0001" if locale == "fr" else "0.0001") in texts(root)
    distances = ET.fromstring(figures.draw("embedding-distances", LABELS[locale], locale))
    assert ("0,3" if locale == "fr" else "0.3") in texts(distances)
    assert ("1,871" if locale == "fr" else "1.871") in texts(distances)


def test_attention_weights_come_from_the_bank():
    weights = EXERCISES["attention-weights"].part("weights").reference
    shown = texts(ET.fromstring(figures.draw("attention-weights", LABELS["en"], "en")))
    for w in weights:
        assert f"{float(w):.3f}" in shown


def test_changing_the_floor_changes_the_region():
    exercise = EXERCISES["reachable-vertices"]
    data = dict(exercise.data)
    floors = {"H": Rational(1, 3)}
    vertices = geometry.region_vertices(data["symbols"], floors, data["caps"])
    original = figures.draw("reachable-region", LABELS["en"], "en")
    moved = figures.reachable_region(data["sources"], data["symbols"], floors, data["caps"], vertices, LABELS["en"], "en")
    assert vertex_set(moved) == {tuple(v) for v in vertices} != vertex_set(original)
    assert "floor H ≥ 0.3333" not in moved  # not a finite decimal: written rounded, with ≈
    assert "≈ 0.333" in ET.fromstring(moved).find(f"{SVG}desc").text


def test_changing_the_sources_changes_the_cells():
    exercise = EXERCISES["submanifold-dims"]
    data = exercise.data
    fewer = data["warmup_sources"][:4]
    moved = figures.warmup_subsimplex(data["n_sources"], fewer, data["warmup_until"], data["polish_from"],
                                      data["polish_excluded"], (3, 15, 13), LABELS["en"], "en")
    shown = texts(ET.fromstring(moved))
    assert "dimension 3" in shown and "gutenberg" not in shown
    original = ET.fromstring(figures.draw("warmup-subsimplex", LABELS["en"], "en"))
    filled = lambda root: sum(1 for el in root.iter(f"{SVG}polygon") if el.get("fill-opacity") != "0.0")
    assert filled(original) - filled(ET.fromstring(moved)) == len(data["warmup_sources"]) - len(fewer)


def test_changing_the_schedule_changes_the_figure():
    data = EXERCISES["terrain-warmup"].data
    peak, warm = data["peak_lr"] * 2, data["warmup_steps"] // 2
    lr = geometry.linear_warmup_lr(data["step"], peak, warm)
    moved = figures.warmup_schedule(peak, warm, data["step"], lr, LABELS["en"], "en")
    assert moved != figures.draw("warmup-schedule", LABELS["en"], "en")
    assert format_number(lr, "en") in moved and "0.0006" in moved
