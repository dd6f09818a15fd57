"""Text the grader writes out, made safe for where it goes: a terminal, a JSON line, a CSV cell.

What a student or a file name puts in front of a terminal is escaped first (:func:`printable`): an
answer ``\x1b[1A\x1b[2Kfake: 3/3 Correct.`` is shown as those characters, it cannot move the cursor
or rewrite the screen. JSON goes out through :func:`json_text`, always valid UTF-8.

A CSV cell is shown as text by a spreadsheet, never run as a formula (CSV injection). The one home
of the rule, for grades.csv and the class report's tables. OWASP's rule
(https://owasp.org/www-community/attacks/CSV_Injection): a cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return (and NUL, ASVS 1.2.10) is read as a formula by
Excel, LibreOffice and Google Sheets, so it gets a leading single quote, which they show as text.
The same quote goes after a ``;``, tab or line break inside a cell, where a spreadsheet that
splits on ``;`` (French Excel's default) would start a cell. Quotes and commas are the ``csv``
module's job. Numbers the grader computes pass untouched (``-0.12`` stays a number).
"""
from __future__ import annotations

import json
import re
import unicodedata

# Characters that act on a terminal or do not show: control (C0, DEL, C1), format (bidi
# overrides, zero-width, tags), surrogates, line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
SHORT_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape(ch: str) -> str:
    """One character as a terminal shows it safely: itself, or a Python-style escape."""
    if " " <= ch <= "~" or unicodedata.category(ch) not in UNSAFE_CATEGORIES:
        return ch
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:              # a byte that was not UTF-8 (a file name, argv)
        return f"\\x{code - 0xDC00:02x}"
    if ch in SHORT_ESCAPES:
        return SHORT_ESCAPES[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with every character that could act on a terminal escaped (``lines``:
    keep line breaks, for text of several lines)."""
    if text.isprintable():
        return text
    return "".join(ch if lines and ch == "\n" else escape(ch) for ch in text)


def json_text(data, indent: int | None = None) -> str:
    """JSON of ``data``, readable (not ASCII-only) and always valid UTF-8: what
    :func:`printable` escapes is written as ``\\uXXXX`` (a lone surrogate too)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent,
                      separators=None if indent else (",", ":"))
    if text.isascii() and "\x7f" not in text:
        return text
    return "".join(ch if ch == "\n" or escape(ch) == ch else
                   json.dumps(ch, ensure_ascii=True)[1:-1] for ch in text)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\0")
_INNER_START = re.compile(r'(?<=[;\t\r\n])(["\s]*)(?=[=+\-@\0])')


def csv_cell(value: object) -> object:
    """``value`` made safe for a CSV cell: text a spreadsheet would run as a formula gets a
    ``'`` where the formula would start, and control and bidirectional characters are escaped (``\\x1b``,
    ``\\u202e``); anything else (numbers, None) is returned as it is."""
    if not isinstance(value, str):
        return value
    text = value.encode("utf-8", "backslashreplace").decode("utf-8")   # a lone surrogate, escaped
    # what would act on a terminal or reorder the line (ESC, U+202E) escaped; tab, CR and LF stay and are guarded
    text = "".join(ch if ch in "\t\r\n" else escape(ch) for ch in text)
    text = _INNER_START.sub(r"\1'", text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
