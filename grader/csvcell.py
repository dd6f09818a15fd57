"""A CSV cell that a spreadsheet shows as text, never runs as a formula (CSV injection).

The one home of the rule, for grades.csv and the class report's tables. OWASP's rule
(https://owasp.org/www-community/attacks/CSV_Injection): a cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return (and NUL, ASVS 1.2.10) is read as a formula by
Excel, LibreOffice and Google Sheets, so it gets a leading single quote, which they show as text.
The same quote goes after a ``;``, tab or line break inside a cell, where a spreadsheet that
splits on ``;`` (French Excel's default) would start a cell. Quotes and commas are the ``csv``
module's job. Numbers the grader computes pass untouched (``-0.12`` stays a number).
"""
from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\0")
_INNER_START = re.compile(r'(?<=[;\t\r\n])(["\s]*)(?=[=+\-@\0])')


def csv_cell(value: object) -> object:
    """``value`` made safe for a CSV cell: text a spreadsheet would run as a formula gets a
    ``'`` where the formula would start; anything else (numbers, None) is returned as it is."""
    if not isinstance(value, str):
        return value
    text = value.encode("utf-8", "backslashreplace").decode("utf-8")   # a lone surrogate, escaped
    text = _INNER_START.sub(r"\1'", text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
