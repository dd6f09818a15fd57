"""Wrong answers, counted as values: ``(0.5, 0.5, 0)`` and ``[1/2, 1/2, 0]`` are one answer.

Each distinct answer text is read once, by the grader's own parser
(:func:`grader.reading.parse.read`: nothing a student typed is evaluated), and written
back in one exact form: decimals become fractions (``0.5`` is ``1/2``), a vector is
``(a, b, c)``, a set of points lists its points sorted (``{(0, 1, 0), (1, 0, 0)}``). Plain
numbers (arithmetic on integers and decimals) are read exactly as fractions, without SymPy.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

TOP = 10   # wrong answers listed per part


def normal_form(text: str, *, entries: bool, convention: str) -> str | None:
    """The exact value of an answer, as text; None when the grader refuses it.

    ``entries``: the part expects a vector or a set; ``convention``: how the answer was read when it
    was graded (0,5 in fr). Plain numbers are read without SymPy."""
    from grader.reading import parse
    try:
        reading = parse.read(text, convention=convention, shape=(None,) if entries else ())
        if reading.kind == "scalar":
            return _exact(parse.value(reading.tree))
        if reading.kind == "vector":
            return _tuple(parse.value(n) for n in reading.tree)
        return "{" + ", ".join(sorted(_tuple(parse.value(n) for n in point) for point in reading.tree)) + "}"
    except parse.AnswerSyntaxError:
        return None


HARD = object()


def plain_form(text: str, entries: bool, convention: str):
    """:func:`normal_form` of an answer of plain numbers (read without SymPy), None for one the
    grader refuses, :data:`HARD` for anything that needs SymPy (a pool's worker reads it)."""
    from grader.reading import parse
    try:
        reading = parse.read(text, convention=convention, shape=(None,) if entries else ())
    except parse.AnswerSyntaxError:
        return None
    if any(parse.plain(n) is None for n in reading.entries()):
        return HARD
    return normal_form(text, entries=entries, convention=convention)


def _tuple(values) -> str:
    return "(" + ", ".join(_exact(v) for v in values) + ")"


def _exact(value) -> str:
    """A parsed number (the parser reads decimals exactly: 0.1 is 1/10), as text. Numbers are
    written directly (SymPy's printer costs ~40 µs a call: a class has thousands)."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if value.is_Integer:
        return str(value.p)
    if value.is_Rational:
        return f"{value.p}/{value.q}"
    from grader.reading.show import show
    return show(value)


def normal_forms(keys) -> list[str | None]:
    """:func:`normal_form` of each ``(text, entries, convention)`` (a task for a pool worker)."""
    return [normal_form(text, entries=entries, convention=convention) for text, entries, convention in keys]


CHUNK = 250   # answers read per task of a pool worker


class WrongAnswers:
    """The wrong answers of one class, part by part, then grouped by value.

    :meth:`add` counts an answer text (with the note it got and how it was read: whether
    the part takes entries, whether the class wrote decimal commas); :meth:`read` reads
    each distinct text once, in a pool's workers when given one; :meth:`top` groups a
    part's texts by value."""

    def __init__(self):
        self.texts: dict[tuple[str, str], Counter] = {}
        self.forms: dict[tuple[str, bool, bool], str] = {}

    def add(self, where: tuple[str, str], text: str, entries: bool, convention: str,
            note: str, count: int = 1) -> None:
        counter = self.texts.get(where)
        if counter is None:
            counter = self.texts[where] = Counter()
        counter[(text, entries, convention, note)] += count

    def read(self, pool=None) -> None:
        """The normal form of every distinct text not read yet; plain numbers here, the
        rest in ``pool``'s workers when given one."""
        keys = {key[:3] for counter in self.texts.values() for key in counter} - self.forms.keys()
        hard = []
        for key in keys:
            form = plain_form(*key)
            if form is HARD:
                hard.append(key)
            else:
                self.forms[key] = form or " ".join(key[0].split())     # a refused answer: grouped by its text
        chunks = [tuple(hard[i:i + CHUNK]) for i in range(0, len(hard), CHUNK)]
        if pool is not None and len(chunks) > 1:
            done = pool.run((i, ("normal_forms", chunk)) for i, chunk in enumerate(chunks))
        else:
            done = ((i, normal_forms(chunk)) for i, chunk in enumerate(chunks))
        for i, forms in done:
            if not isinstance(forms, list):   # a limit was hit: these are grouped by their text
                forms = [None] * len(chunks[i])
            for key, form in zip(chunks[i], forms):
                self.forms[key] = form or " ".join(key[0].split())

    def top(self, where: tuple[str, str], students: int, limit: int = TOP) -> list[dict]:
        """The ``limit`` most common values (most students first, then by value): each with
        the way most students typed it, how many ways it was typed, the count, the share
        of the part's ``students`` and its most common note (call :meth:`read` first)."""
        groups: dict[str, tuple[Counter, Counter]] = {}
        for (text, entries, comma, note), count in self.texts.get(where, Counter()).items():
            typed, notes = groups.setdefault(self.forms[(text, entries, comma)], (Counter(), Counter()))
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
