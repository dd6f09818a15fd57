"""What the build renders from the bank in a locale, checked as the reader sees it: the figures' text and the
exercise blocks' math.

- A figure's words (its <text>, its <title> and <desc>) are labels.toml's templates filled by the drawing code
  with numbers, names and lists: each text is checked for what those values bring, with the locale's typography
  (a list joined with ASCII `, ` in Japanese and Chinese), English left in and the numbers' format; a finding is
  at the line of the label that wrote it (else the exercise module that draws the figure). A label's own words
  (its terms too) are checked as written, with the other labels (hooks.translations.surfaces).
- An exercise block's MathML (data, derivation, answers: hooks.chapters.render) writes every separator as an
  operator, spaced, never as an identifier (`(1;0;0)`: hooks.chapters.mathml.misread_separators); a finding
  is at the block's line on the locale's page.
"""

from __future__ import annotations

import inspect
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from hooks.chapters import pages
from hooks.chapters.pages import SOURCE
from hooks.translations import typography
from hooks.translations.docs import label_lines, relative
from hooks.translations.pagechecks import (
    CJK,
    Finding,
    Glossary,
    allowed_words,
    decimal_point_numbers,
    english_words,
    grouped_four_digits,
    latin_prose,
)

TEXT_TAGS = ("title", "desc", "text")


def figure_texts(svg: str) -> list[str]:
    """The words of an SVG figure, element by element, in document order."""
    root = ET.fromstring(svg)
    return [re.sub(r"[ \t\r\n]+", " ", "".join(el.itertext())).strip()      # no-break spaces kept: they are typography
            for el in root.iter() if el.tag.split("}")[-1] in TEXT_TAGS]


def drawn(locale: str, labels: dict[str, str]) -> dict[str, list[str]]:
    """{figure id: its texts} in ``locale`` with its flattened labels, with and without the solutions (from the
    bank's disk cache when neither the bank, its renderers nor the labels changed)."""
    from hooks.chapters import cache
    from hooks.chapters.labels import figure_labels

    table = figure_labels(labels)

    def compute():
        from hooks.chapters import render

        return {figure: [text for solutions in (False, True) for narrow in (False, True)
                         for text in figure_texts(render.render_figure(figure, table, locale, solutions, narrow))]
                for figure in render.figure_ids()}

    return cache.cached("figure-texts", [locale, table], compute, locale=locale)


@lru_cache(maxsize=4096)
def _template_pattern(template: str) -> re.Pattern:
    """A label's template as a pattern its filled text matches (each placeholder any text)."""
    parts = re.split(r"\{[A-Za-z_]\w*\}", template.replace("{{", "{").replace("}}", "}"))
    return re.compile("(?s)" + "(.+?)".join(re.escape(part) for part in parts) + r"\Z")


def label_of(text: str, labels: dict[str, tuple[int, str]]) -> tuple[str, int, str] | None:
    """(key, line, template) of the label that wrote ``text`` (the one with the most words of its own), or a line
    of it (a figure wraps a long label over several <text>)."""
    figures = [(key, line, template) for key, (line, template) in labels.items() if key.startswith("figures.")]
    found = [f for f in figures if _template_pattern(f[2]).match(text)] or \
        [f for f in figures if len(text) > 3 and any(text in piece or (len(piece) > 8 and piece in text)
                                                     for piece in re.split(r"\{[A-Za-z_]\w*\}", f[2]))]
    return max(found, key=lambda f: len(re.sub(r"\{[^}]*\}", "", f[2])), default=None)


def data_names() -> frozenset[str]:
    """The names in the exercises' data (words such as `parakeet`, sources such as `gutenberg`, symbols): a figure
    writes them as they are in every locale (through the bank's disk cache: no SymPy import when warm)."""
    from hooks.chapters import cache

    return frozenset(cache.cached("data-names", [], lambda: sorted(_data_names()), cache.code()))


def _data_names() -> frozenset[str]:
    from grader import bank

    def walk(value):
        if isinstance(value, str):
            yield value
        elif hasattr(value, "items"):
            for key, item in value.items():
                yield from walk(key)
                yield from walk(item)
        elif isinstance(value, (tuple, list)):
            for item in value:
                yield from walk(item)

    return frozenset(name for ex in bank.EXERCISES.values() for name in walk(dict(ex.data)))


def text_problems(text: str, template: str, locale: str, glossary: Glossary,
                  names: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(kind, problem) of one text of a figure that its template alone does not show (`names`: the data's)."""
    from hooks.translations.surfaces import prose

    words, own = prose(text), prose(template)
    for name in sorted({*glossary.identifiers, *names}, key=len, reverse=True):
        words = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])", " ", words)
    known = set(typography.problems(own, locale))
    found = [("typography", p) for p in typography.problems(words, locale) if p not in known]
    if locale in ("ja", "zh"):
        found += [("typography", p) for p in typography.cjk_lists(prose(text, formulas=False))
                  if p not in typography.cjk_lists(prose(template, formulas=False))]
    allowed = allowed_words(glossary)
    if locale in CJK:
        new = [w for w in latin_prose(words, allowed) if w not in latin_prose(own, allowed)]
    else:
        new = [w for w in english_words(words, locale, allowed) if w not in english_words(own, locale, allowed)]
    if new:
        found.append(("untranslated", f"English word(s) {', '.join(new)} in the figure"))
    numbers = [f"{number} has a decimal point where this locale writes a decimal comma"
               for _, number in decimal_point_numbers([(0, words)], locale)] + grouped_four_digits(words, locale)
    known = set(grouped_four_digits(own, locale)) | {f"{number} has a decimal point where this locale writes a "
                                                     f"decimal comma" for _, number in decimal_point_numbers([(0, own)], locale)}
    return found + [("numbers", problem) for problem in numbers if problem not in known]


def check_figures(docs: Path, locale: str, root: Path, glossary: Glossary,
                  texts: dict[str, list[str]] | None = None) -> list[Finding]:
    """Every text of every figure in the locale (`texts`, default: drawn with its labels), checked for what its
    values bring (a label's own words are the label check's: hooks.translations.surfaces); each (place, kind) once."""
    from hooks.chapters.labels import load_labels

    if locale == SOURCE:
        return []
    path = docs / locale / "labels.toml"
    if texts is None:
        texts = drawn(locale, load_labels(docs)[locale])
    lines, shown, names = label_lines(path), relative(path, root), data_names()
    findings, seen = [], set()
    for figure, figure_texts_here in texts.items():
        for index, text in enumerate(figure_texts_here):
            label = label_of(text, lines)
            where = (shown, label[1]) if label else _drawn_by(figure, root)
            for kind, problem in text_problems(text, label[2] if label else "", locale, glossary, names):
                if (where, kind) not in seen:
                    seen.add((where, kind))
                    prefix = f"{label[0]}: " if label else ""
                    findings.append(Finding(*where, kind, f"{prefix}figure {figure} draws '{text}': {problem}"))
    return findings


@lru_cache(maxsize=None)
def _drawn_by(figure: str, root: Path) -> tuple[str, int]:
    """(file, line) of the function that draws ``figure``: what writes a text no label holds."""
    from grader import bank

    draw = bank.figures()[figure].figure.draw
    return relative(Path(inspect.getsourcefile(draw)), root), draw.__code__.co_firstlineno


# --- the exercise blocks' math


def exercise_math(locale: str, labels: dict[str, str]) -> dict[str, list[str]]:
    """{exercise id: the separators its block writes as identifiers} in ``locale`` (solutions shown), from the
    bank's disk cache when neither the bank, its renderers nor the labels changed."""
    from hooks.chapters import cache

    def compute():
        from hooks.chapters import render
        from hooks.chapters.mathml import misread_separators

        return {exercise: misread_separators("".join(render.render_exercise(exercise, locale, labels, True)))
                for exercise in render.exercise_ids()}

    return cache.cached("exercise-separators", [locale, labels], compute, locale=locale)


def check_exercise_math(docs: Path, locale: str, root: Path, misread: dict[str, list[str]] | None = None
                        ) -> list[Finding]:
    """A separator an exercise block's MathML writes as an identifier, at the block's line on the locale's page
    (`misread`: default `exercise_math` with the locale's labels)."""
    from hooks.chapters.labels import load_labels

    if misread is None:
        misread = exercise_math(locale, load_labels(docs)[locale])
    findings = []
    for page in sorted((docs / locale).glob("*.md")):
        for line, item in pages.structure(page.read_text("utf-8"), str(page)):
            exercise = item.removeprefix("exercise:")
            if item.startswith("exercise:") and misread.get(exercise):
                findings.append(Finding(relative(page, root), line, "math", (
                    f"the exercise {exercise}'s math writes {', '.join(repr(s) for s in dict.fromkeys(misread[exercise]))} "
                    "as an identifier (<mi>), with no space after it: a separator is an operator (<mo>), "
                    "hooks/chapters/mathml.py")))
    return findings
