"""What the build renders from the bank, checked as drawn: the figures' text and the math of the pages and of the
exercise blocks. Each defect is planted (a drawing or a converter as it once was, a label) and found at its line."""

from __future__ import annotations

import pytest

from grader.model import drawing
from hooks.chapters import mathml, render
from hooks.chapters.labels import figure_labels, load_labels
from hooks.translations import pagechecks, rendered
from hooks.translations import report as translations
from tests.hooks.test_surfaces import ROOT

DOCS = ROOT / "docs"


def glossary(locale: str, docs=DOCS) -> translations.Glossary:
    return translations.load_glossary(docs / locale, translations.load_glossary(docs / "en"))


def draw_all(locale: str, docs=DOCS) -> dict[str, list[str]]:
    """Every figure's texts, drawn now (not from the disk cache: a test changes the drawing under it)."""
    table = figure_labels(load_labels(docs)[locale])
    return {figure: [text for solutions in (False, True)
                     for text in rendered.figure_texts(render.render_figure(figure, table, locale, solutions))]
            for figure in render.figure_ids()}


def figure_findings(locale: str, texts, docs=DOCS, root=ROOT) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.kind) for f in rendered.check_figures(docs, locale, root, glossary(locale, docs), texts)]


def label_line(locale: str, key: str, docs=DOCS) -> int:
    return translations.label_lines(docs / locale / "labels.toml")[key][0]


def test_a_figure_s_words_are_its_title_description_and_texts():
    texts = draw_all("ja")["reachable-region"]
    assert texts[0] == "3 つのソースの単体における到達可能領域" and "フロア H ≥ 0.5" in texts
    assert any(text.startswith("重み (H, G, D) の単体") for text in texts)


@pytest.mark.parametrize("locale", ["ja", "zh", "ko", "fr", "id"])
def test_the_published_figures_read_right(locale):
    assert [str(f) for f in rendered.check_figures(DOCS, locale, ROOT, glossary(locale))] == []


@pytest.mark.parametrize("locale", ["ja", "zh"])
def test_a_figure_that_joins_its_list_the_english_way_is_found(monkeypatch, locale):
    """The reviewers' `フロア H ≥ 0.5, キャップ D ≤ 0.25`: the constraints joined with ASCII ', ' in ja and zh."""
    where = (f"docs/{locale}/labels.toml", label_line(locale, "figures.alt_reachable_region"), "typography")
    assert where not in figure_findings(locale, draw_all(locale))
    monkeypatch.setattr(drawing, "list_text", lambda items, locale: ", ".join(items))
    assert where in figure_findings(locale, draw_all(locale))


def test_a_figure_that_writes_numbers_the_english_way_in_french_is_found(monkeypatch):
    english_way = drawing.format_number
    monkeypatch.setattr(drawing, "format_number", lambda value, locale, digits=4: english_way(value, "en", digits))
    found = figure_findings("fr", draw_all("fr"))
    assert ("docs/fr/labels.toml", label_line("fr", "figures.alt_embedding_distances"), "numbers") in found
    assert ("grader/exercises/embedding_distances.py", render_line("embedding_distances"), "numbers") in found


def render_line(module: str) -> int:
    """The line of the module's `def figure`: where a text no label holds is drawn."""
    lines = (ROOT / "grader" / "exercises" / f"{module}.py").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.startswith("def figure("))


# --- math


def test_a_separator_is_an_operator_with_its_spacing():
    markup = mathml.tex_to_mathml(r"\left(1;0\,;0\right)")
    assert "<mi>;</mi>" not in markup and markup.count("<mo>;</mo>") == 2
    assert mathml.misread_separators(markup) == []
    assert mathml.misread_separators("<mn>1</mn><mi>;</mi><mn>0</mn><mi>&#x0003A;</mi>") == [";", ":"]


@pytest.fixture
def separators_as_identifiers(monkeypatch):
    """The converter as it was: latex2mathml's `;` an identifier, with no space after it."""
    monkeypatch.setattr(mathml, "_separators_as_operators", lambda markup: markup)
    mathml.tex_to_mathml.cache_clear()
    yield
    mathml.tex_to_mathml.cache_clear()


def test_a_page_s_math_that_renders_a_separator_as_an_identifier_is_found(separators_as_identifiers):
    text = "# Titre\n\nUn point $(1 ; 0)$ du plan.\n"
    found = [f for f in pagechecks.broken(text, "docs/fr/p.md", frozenset()) if f.kind == "math"]
    assert [(f.path, f.line) for f in found] == [("docs/fr/p.md", 3)] and "';'" in found[0].message


def test_an_exercise_block_whose_math_renders_a_separator_as_an_identifier_is_found(separators_as_identifiers):
    labels = load_labels(DOCS)["fr"]
    misread = {exercise: mathml.misread_separators("".join(render.render_exercise(exercise, "fr", labels, True)))
               for exercise in render.exercise_ids()}
    page = DOCS / "fr" / "02-attention-projection.md"
    line = next(n for n, text in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("/// exercise | attention-weights"))
    found = rendered.check_exercise_math(DOCS, "fr", ROOT, misread)
    assert ("docs/fr/02-attention-projection.md", line, "math") in [(f.path, f.line, f.kind) for f in found]


@pytest.mark.parametrize("locale", ["fr", "id"])
def test_the_exercise_blocks_write_their_separators_as_operators(locale):
    assert rendered.check_exercise_math(DOCS, locale, ROOT) == []
