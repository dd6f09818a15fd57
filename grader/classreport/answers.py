"""Wrong answers, counted as values: ``(0.5, 0.5, 0)`` and ``[1/2, 1/2, 0]`` are one answer.

Each distinct answer text is read once, by the grader's own parser
(:func:`grader.parse.parse_answer`: nothing a student typed is evaluated), and written
back in one exact form: decimals become fractions (``0.5`` is ``1/2``), a vector is
``(a, b, c)``, a set of points lists its points sorted (``{(0, 1, 0), (1, 0, 0)}``). A
plain number (:data:`grader.fast.NUMBER`, the form Python's parser reads as one number)
is read exactly with :class:`fractions.Fraction`, without SymPy, to the same text.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..fast import NUMBER

TOP = 10   # wrong answers listed per part
MAX_EXPONENT = 30   # a decimal beyond 1e±30 stays a decimal (1e999999999 as a fraction has 10^9 digits)


def normal_form(text: str, *, entries: bool, decimal_comma: bool) -> str | None:
    """The exact value of an answer, as text; None when the parser refuses it.

    ``entries``: the part expects a vector or a set; ``decimal_comma``: the class writes
    0,5 (as when it was graded)."""
    plain = NUMBER.fullmatch(text)
    if plain:
        return _decimal(plain.group(1) + plain.group(2) + (plain.group(5) or ""))
    from ..parse import AnswerSyntaxError, parse_answer
    try:
        parsed = parse_answer(text, decimal_comma=decimal_comma, entries=entries)
    except AnswerSyntaxError:
        return None
    if parsed.kind == "scalar":
        return _exact(parsed.value)
    if parsed.kind == "vector":
        return _tuple(parsed.value)
    return "{" + ", ".join(sorted(_tuple(point) for point in parsed.value)) + "}"


def _tuple(values) -> str:
    return "(" + ", ".join(_exact(v) for v in values) + ")"


def _exact(value) -> str:
    """A parsed number with its decimals read exactly: Float('0.1', 30) is 1/10."""
    import sympy
    from ..feedback import show
    if isinstance(value, sympy.Float):
        return _decimal(str(value))
    if value.is_Rational:
        return str(value)
    floats = {f: sympy.Rational(str(f)) for f in value.atoms(sympy.Float) if _small(str(f))}
    return show(value.xreplace(floats) if floats else value)


def _small(decimal: str) -> bool:
    """Whether a decimal's exponent is small enough to read it as a fraction."""
    _, _, exponent = decimal.lower().partition("e")
    return not exponent or abs(int(exponent)) <= MAX_EXPONENT


def _decimal(text: str) -> str:
    """A decimal's exact value as a fraction ('0.50' is '1/2'); a huge or tiny one stays
    a decimal, its mantissa's trailing zeros cut ('1.000e+999' is '1e+999')."""
    if _small(text):
        return str(Fraction(text))
    mantissa, _, exponent = text.lower().partition("e")
    mantissa = str(Fraction(mantissa))
    return f"{mantissa}e{int(exponent):+d}" if "/" not in mantissa else f"({mantissa})e{int(exponent):+d}"


class WrongAnswers:
    """The wrong answers of one class, part by part, then grouped by value.

    ``add`` counts an answer text (with the note it got and whether it was read with a
    decimal comma); ``top`` groups a part's texts by :func:`normal_form`, reading each
    distinct text once for the whole class."""

    def __init__(self):
        self.texts: dict[tuple[str, str], Counter] = {}
        self.forms: dict[tuple[str, bool, bool], str] = {}

    def add(self, exercise: str, part: str, text: str, decimal_comma: bool, note: str) -> None:
        counter = self.texts.get((exercise, part))
        if counter is None:
            counter = self.texts[(exercise, part)] = Counter()
        counter[(text, decimal_comma, note)] += 1

    def _form(self, text: str, entries: bool, decimal_comma: bool) -> str:
        key = (text, entries, decimal_comma)
        form = self.forms.get(key)
        if form is None:
            form = self.forms[key] = (normal_form(text, entries=entries, decimal_comma=decimal_comma)
                                      or " ".join(text.split()))
        return form

    def top(self, exercise: str, part: str, entries: bool, students: int,
            limit: int = TOP) -> list[dict]:
        """The ``limit`` most common values (most students first, then by value): each with
        the way most students typed it, how many ways it was typed, the count, the share
        of the part's ``students`` and its most common note."""
        groups: dict[str, tuple[Counter, Counter]] = {}
        for (text, comma, note), count in self.texts.get((exercise, part), Counter()).items():
            typed, notes = groups.setdefault(self._form(text, entries, comma), (Counter(), Counter()))
            typed[text] += count
            notes[note] += count
        counted = sorted(((sum(typed.values()), value, typed, notes)
                          for value, (typed, notes) in groups.items()),
                         key=lambda row: (-row[0], row[1]))
        return [{"value": value, "answer": _most(typed), "forms": len(typed), "count": count,
                 "share": count / students, "note": _most(notes)}
                for count, value, typed, notes in counted[:limit]]


def _most(counter: Counter) -> str:
    """The most common item; among equals, the first in sort order."""
    return min(counter.items(), key=lambda item: (-item[1], item[0]))[0]
