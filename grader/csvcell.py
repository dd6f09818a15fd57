"""A CSV cell that a spreadsheet shows as text, never runs as a formula (CSV injection).

OWASP's rule (https://owasp.org/www-community/attacks/CSV_Injection): a cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read as a formula by Excel,
LibreOffice and Google Sheets, so it gets a leading single quote, which they show as text.
Quotes and commas inside a cell are the ``csv`` module's job. Numbers the grader computes
are passed through untouched (``-0.12`` stays a number); only text is neutralised.
"""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """``value`` made safe for a CSV cell: text that a spreadsheet would run as a formula
    gets a leading ``'``; anything else (numbers, None, other text) is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
