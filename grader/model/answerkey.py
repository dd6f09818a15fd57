"""An exercise's answer key, for its instructor (``grader show --answers``): each part's reference
answer as a student would type it (the exact form), and its decimal to the figures the part asks for.

Never on the site: the pages show a worked solution only where the course keeps them
(``solutions``), and the in-page checker never prints a reference. Pure: an exercise in, text and
JSON-ready dicts out. Every answer it writes is one :func:`grader.judging.check.check_part` marks correct
in that language (tests/grader/test_answer_key.py).
"""
from __future__ import annotations

from decimal import Decimal

from grader.arithmetic.compare import decimal_of
from grader.languages.messages import message
from grader.languages.numerals import list_separator, number_format
from grader.model import targets
from grader.model.exercise import Exercise, Part
from grader.reading.show import show


def rounded(value, figures: int, locale: str) -> str:
    """``value`` to ``figures`` significant figures, trailing zeros kept (they are figures), written
    with ``locale``'s decimal mark and no grouping (a student types 12345.6, never 12,345.6)."""
    exact = decimal_of(value)
    if exact == 0:
        return "0"
    text = format(exact.quantize(Decimal(1).scaleb(exact.adjusted() - figures + 1)), "f")
    return text.replace(".", number_format(locale)[0])


def _points(reference) -> list[tuple]:
    """A set's points, largest first (as the worked solution lists them)."""
    return sorted((tuple(point) for point in reference), key=lambda p: [-float(x) for x in p])


def exact_text(part: Part, locale: str) -> str:
    """The reference as a student types it exactly: ``sqrt(14)/2``, ``(1/2 ; 1/2 ; 0)`` in French."""
    separator = list_separator(locale)
    if part.kind == "set":
        return "{" + separator.join(_tuple(point, separator) for point in _points(part.reference)) + "}"
    if part.kind == "vector":
        return _tuple(tuple(part.reference), separator)
    return show(part.reference)


def _tuple(values, separator: str) -> str:
    return "(" + separator.join(show(v) for v in values) + ")"


def decimal_text(part: Part, figures: int, locale: str) -> str | None:
    """The reference's decimal to ``figures`` significant figures; None where the part is whole numbers
    (their exact form is the answer)."""
    if part.whole:
        return None
    separator = list_separator(locale)
    if part.kind == "set":
        return "{" + separator.join("(" + separator.join(rounded(x, figures, locale) for x in point) + ")"
                                    for point in _points(part.reference)) + "}"
    if part.kind == "vector":
        return "(" + separator.join(rounded(x, figures, locale) for x in part.reference) + ")"
    return rounded(part.reference, figures, locale)


def key_dict(ex: Exercise, lang: str) -> dict:
    """``grader show --answers --format json`` of one exercise: ids as in the bank, words and numbers in ``lang``."""
    parts = []
    for part in ex.parts:
        figures = targets.figures(ex, part.id)
        parts.append({"id": part.id, "points": part.points, "kind": part.kind, "figures": figures,
                      "exact": exact_text(part, lang), "decimal": decimal_text(part, figures, lang)})
    return {"id": ex.id, "lesson": ex.lesson, "title": ex.title_in(lang), "seed": ex.seed, "answers": parts}


def key_lines(key: dict, lang: str) -> list[str]:
    """The answer key's lines under the exercise's heading: one per part."""
    lines = [message("answer-key.heading", lang)]
    for part in key["answers"]:
        if part["decimal"] is None or part["decimal"] == part["exact"]:
            line = message("answer-key.part", lang, part=part["id"], points=part["points"], exact=part["exact"])
        else:
            line = message("answer-key.part-decimal", lang, part=part["id"], points=part["points"],
                           exact=part["exact"], decimal=part["decimal"],
                           figures=message("part-figures", lang, digits=part["figures"]))
        lines.append("  " + line)
    return lines
