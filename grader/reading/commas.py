"""Commas and semicolons in an answer: which separate entries and which are in a number.

A comma between two digits can be three things: a decimal comma (``0,5`` in fr and id), a thousands
separator (``1,871`` in en, ja, zh and ko) or a separator of entries (``(1,1,0)``). The answer's shape
says how many entries each bracket holds (a vector's length, a point's dimension, one for a number or a
function's argument), so the comma is read the one way that gives that many, in every language:
``0,3`` is 0.3 everywhere, ``(1,1,0)`` is three entries everywhere, ``(0,5 ; 1)`` two. Where two readings
give as many, the student's convention decides (``1,871`` is 1871 in en and 1.871 in fr); where it does
not, the answer is refused with a message saying how to write it.

``;`` separates entries in every language (``(1 ; 1 ; 0)``); beside it, a comma between digits is a
decimal comma, and any other comma may only separate points (``{(1 ; 0), (0 ; 1)}``).

:func:`separators` returns the text with every comma and semicolon as Python reads it (the same
length, so columns still point into what was typed) and the conventions it used. Standard library
only: nothing here imports SymPy.
"""
from __future__ import annotations

import re
from decimal import Decimal
from itertools import product

from grader.reading.errors import AnswerSyntaxError, fail

DECIMAL_COMMA_LOCALES = frozenset({"fr", "id"})   # the locales whose students write 0,5 (grader.languages.numerals)
RUN = re.compile(r"(?<![0-9.])[0-9]+(?:,[0-9]+)+")    # digits with tight commas: 1,5 / 1,871 / 1,1,0
THOUSANDS = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+")
_AFTER_POINT = re.compile(r"[)\]]\s*$")               # '), (' separates points
MAX_CHOICES = 4096                                     # readings tried for one bracket at most

SEP, DECIMAL, GROUPING = "sep", "decimal", "grouping"


def separators(text: str, convention: str, shape: tuple[int, ...] | None) -> tuple[str, frozenset[str]]:
    """``text`` with ``;`` and commas as Python reads them, and the conventions the reading used
    (``decimal-comma``, ``grouping``, ``separator``).

    ``convention``: the student's locale. ``shape``: how many entries the answer's brackets hold,
    outermost first: ``()`` a number, ``(3,)`` a vector of 3, ``(None, 3)`` a set of points of
    dimension 3; ``None`` when unknown (then a comma between digits separates, as in Python)."""
    if ";" in text:
        return _semicolons(text, convention)
    runs = list(RUN.finditer(text))
    if not runs or shape is None:
        return text, frozenset()
    chars, used = list(text), set()
    for group, members in _groups(text, runs, shape).items():
        choice = _choose(text, members, group, convention)
        for run, reading in zip(members, choice):
            for comma, kind in zip(_commas(run), reading):
                if kind == DECIMAL:
                    chars[comma] = "."
                elif kind == GROUPING:
                    chars[comma] = "_"          # Python's own digit separator: 1_871 is 1871
                used.add({DECIMAL: "decimal-comma", GROUPING: "grouping", SEP: "separator"}[kind])
    out = "".join(chars)
    if "separator" in used and not ({"decimal-comma", "grouping"} & used) and convention not in DECIMAL_COMMA_LOCALES:
        used.discard("separator")            # (1,1,0) in en: what Python reads anyway
    return out, frozenset(used)


def _semicolons(text: str, convention: str) -> tuple[str, frozenset[str]]:
    runs = list(RUN.finditer(text))
    decimal = {_commas(run)[0] for run in runs if run.group().count(",") == 1}    # 1,2,3 is no number
    chars, used = list(text), set()
    for i, ch in enumerate(text):
        if ch == ",":
            if i in decimal:
                chars[i] = "."
                used.add("decimal-comma")
            elif not _AFTER_POINT.search(text[:i]):
                raise fail("decimal-comma-mixed" if convention in DECIMAL_COMMA_LOCALES else "separator-mixed", i)
        elif ch == ";":
            chars[i] = ","
    return "".join(chars), frozenset(used)


def _commas(run: re.Match) -> list[int]:
    return [run.start() + i for i, ch in enumerate(run.group()) if ch == ","]


def _groups(text: str, runs: list[re.Match], shape: tuple[int, ...]) -> dict[tuple[int, int, int | None], list[re.Match]]:
    """The runs by the bracket that holds them: (its start, depth, entries it should hold)."""
    found: dict[tuple[int, int, int | None], list[re.Match]] = {}
    for run in runs:
        start, depth, call = _bracket(text, run.start())
        if call:
            expected = 1                      # a function's one argument
        elif shape == (None,):
            expected = None                   # entries of a shape not known: any bracket may hold several
        elif len(shape) == 1:
            expected = shape[0] if depth <= 1 else 1          # the vector's entries; brackets inside one
        elif len(shape) == 2:
            expected = shape[1] if depth == 0 or _leaf(text, start) else None   # a point's coordinates
        else:
            expected = 1                      # a number, or brackets inside one: (0,5 + 1)
        found.setdefault((start, depth, expected), []).append(run)
    return found


def _bracket(text: str, at: int) -> tuple[int, int, bool]:
    """The innermost open bracket before ``at``: its position (-1: none), how deep it is among the
    answer's brackets, and whether it is a function's (a name right before it)."""
    stack = []
    for i, ch in enumerate(text[:at]):
        if ch in "([{":
            stack.append(i)
        elif ch in ")]}" and stack:
            stack.pop()
    if not stack:
        return -1, 0, False
    start = stack[-1]
    call = bool(re.search(r"[A-Za-z_]\s*$", text[:start]))
    brackets = [i for i in stack if not re.search(r"[A-Za-z_]\s*$", text[:i])]
    return start, len(brackets), call


def _leaf(text: str, start: int) -> bool:
    """Does the bracket at ``start`` hold no other bracket (but a function's)?"""
    inner = text[start + 1:_closing(text, start)]
    return not any(ch in "([{" and not re.search(r"[A-Za-z_]\s*$", inner[:i]) for i, ch in enumerate(inner))


def _entries(text: str, group: tuple[int, int, int | None], members: list[re.Match], reading) -> int:
    """How many entries the bracket holds when its runs are read so."""
    start = group[0] + 1
    end = _closing(text, group[0]) if group[0] >= 0 else len(text)
    inner, depth, commas = text[start:end], 0, 0
    for i, ch in enumerate(inner):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            commas += 1
    read_in_numbers = sum(kind != SEP for run_reading in reading for kind in run_reading)
    return commas - read_in_numbers + 1


def _closing(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _run_readings(run: re.Match, convention: str) -> list[tuple[str, ...]]:
    """Every way to read one run: each comma a separator or a decimal comma (a number has one at
    most), or all of them thousands separators (not in a decimal-comma locale)."""
    n = run.group().count(",")
    readings = [r for r in product((SEP, DECIMAL), repeat=n)
                if not any(a == DECIMAL and b == DECIMAL for a, b in zip(r, r[1:]))]
    if convention not in DECIMAL_COMMA_LOCALES and THOUSANDS.fullmatch(run.group()):
        readings.append((GROUPING,) * n)
    return readings


def _default(run: re.Match, convention: str, expected: int | None) -> tuple[str, ...] | None:
    """How the student's convention reads a run when its bracket's count does not decide."""
    n = run.group().count(",")
    if convention in DECIMAL_COMMA_LOCALES:
        return (DECIMAL,) if n == 1 and expected == 1 else None
    if THOUSANDS.fullmatch(run.group()):
        return (GROUPING,) * n
    if expected == 1:
        return (DECIMAL,) if n == 1 else None
    return (SEP,) * n


def _choose(text: str, members: list[re.Match], group, convention: str) -> tuple[tuple[str, ...], ...]:
    expected = group[2]
    options = [_run_readings(run, convention) for run in members]
    count = 1
    for o in options:
        count *= len(o)
    fitting = []
    if expected is not None and count <= MAX_CHOICES:
        fitting = [c for c in product(*options) if _entries(text, group, members, c) == expected]
    default = tuple(_default(run, convention, expected) for run in members)
    if len(fitting) == 1:
        chosen = fitting[0]
    elif None not in default and (default in fitting or not fitting and expected != 1):
        chosen = default
    else:
        raise _refuse(members[0], convention, expected)
    for i, (run, reading) in enumerate(zip(members, chosen)):
        decimal = chosen[:i] + ((DECIMAL,),) + chosen[i + 1:]
        if reading == (GROUPING,) and _decimal_possible(text, run) and (decimal in fitting or not fitting):
            raise _two_readings(run)
    return chosen


def _decimal_possible(text: str, run: re.Match) -> bool:
    """Could this run's one comma be a decimal comma (``1,871``; not ``1,871.5``)?"""
    return not text[run.end():run.end() + 1] == "."


def _two_readings(run: re.Match) -> AnswerSyntaxError:
    """``1,871``: 1.871 with a decimal comma or 1871 with a thousands separator, and the count of entries
    does not tell which: refused, with both (a comma's meaning never hangs on the digits after it)."""
    whole, _, fraction = run.group().partition(",")
    return fail("comma-two-readings", _commas(run)[0], text=run.group(),
                first=Decimal(f"{whole}.{fraction}"), second=whole + fraction)      # 1871 as typed, never regrouped


def _refuse(run: re.Match, convention: str, expected: int | None) -> AnswerSyntaxError:
    commas = _commas(run)
    if expected == 1:      # 1,234,5: the comma that makes it more than one number
        return fail("decimal-comma-ambiguous", commas[-1])
    comma = commas[0]
    key = "decimal-comma-in-vector" if convention in DECIMAL_COMMA_LOCALES else "separator-ambiguous"
    return fail(key, comma, text=re.match(r"[0-9]+,[0-9]+", run.group()).group())    # the first such number
