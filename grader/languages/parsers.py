"""What the TOML and JSON readers (``tomllib``, ``json``) say about a file they cannot read, in the catalog's
words: their messages are English, and a student's submission error is read in the student's language.

:func:`reason` maps a reader's message to a catalog message (``key:reason.<name>``, which the error message
writes in its language); a message it does not know stays as the reader wrote it.
"""
from __future__ import annotations

import re

# (the reader's message, as a pattern) -> the catalog's reason
REASONS = (
    (r"Invalid value|Expecting value", "value"),
    (r"Expected '=' after a key in a key/value pair", "equals"),
    (r"Unterminated string.*|Illegal character '\\n'", "quote"),     # a line ends inside a quoted string
    (r"Cannot declare .* twice|Cannot overwrite a value|Duplicate inline table key .*"
     r"|Cannot (?:mutate|redefine) .*", "twice"),
    (r"Expected newline or end of document after a statement|Extra data", "line-end"),
    (r"Invalid statement|Invalid initial character for a key part", "statement"),
    (r"Expected '\]\]?' at the end of an? (?:table|array) declaration|Unclosed (?:array|inline table)", "bracket"),
    (r"Illegal character .*|Found invalid character .*|Escaped character is not a Unicode scalar value"
     r"|Unescaped '\\' in a string|Invalid hex value|Invalid control character at|Invalid \\(?:escape|uXXXX escape)",
     "character"),
    (r"Expecting ',' delimiter", "comma"),
    (r"Expecting ':' delimiter|Expecting property name enclosed in double quotes", "name"),
    (r"Invalid date or datetime", "date"),
)


def reason(text: str) -> str:
    """``key:reason.<name>`` for a message of the TOML or JSON reader, else the message itself."""
    for pattern, name in REASONS:
        if re.fullmatch(pattern, text.strip()):
            return f"key:reason.{name}"
    return text
