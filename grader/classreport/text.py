"""How the report writes text it did not choose (student ids, answers) and numbers.

:func:`visible` shows control characters as escapes (``\\x1b``), so an id like
``\\x1b[2J`` cannot clear a terminal or hide text on a page; HTML escaping and CSV
neutralisation come after it, in the writers. Numbers are written as everywhere else in the grader
(:mod:`grader.languages.numerals`, CLDR's conventions): ``12,5 %``, ``0,89`` and ``\u22120,05`` (a true
minus sign) in French, ``12.5%``, ``0.89`` and ``-0.05`` in English.
"""
from __future__ import annotations

import unicodedata

from grader.languages.numerals import format_percent, format_places, typeset_minus

INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})   # controls, format marks, line/paragraph separators
NONE = "\u2014"     # what stands for a value that does not exist (no students, no spread)


def visible(text: str) -> str:
    """``text`` with every control or invisible format character written as an escape."""
    if text.isprintable():
        return text
    return "".join((f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
                   if unicodedata.category(ch) in INVISIBLE else ch for ch in text)


def number(x: float | None, lang: str, digits: int = 2) -> str:
    """A number in ``lang``'s format, at most ``digits`` decimals: 12.5, 12,5, 20 000."""
    return NONE if x is None else typeset_minus(format_places(x, lang, digits), lang)


def fixed(x: float | None, lang: str, digits: int = 2) -> str:
    """A number with exactly ``digits`` decimals (a correlation: 0.40, -0.05)."""
    return NONE if x is None else typeset_minus(format_places(x, lang, digits, trim=False), lang)


def percent(share: float | None, lang: str) -> str:
    """A share as a percentage with at most one decimal, the locale's way: 12.5%, 12,5 %."""
    return NONE if share is None else typeset_minus(format_percent(share, lang, places=1), lang)
