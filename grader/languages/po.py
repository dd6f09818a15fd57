"""A small reader for the grader's gettext catalogs, used when the grader runs.

It reads the subset of the PO format the catalogs use: comments, the
``#, fuzzy`` flag, ``msgctxt``, ``msgid`` and ``msgstr`` with continued
strings, and the escapes ``\\" \\\\ \\n \\t``. No plural forms. Why not
Babel here: importing ``babel.messages.pofile`` alone costs about 25 ms, as much
as the rest of a numeric ``grader check`` may take; this reader costs well
under a millisecond per catalog. Babel stays the reference: the catalog check
(:mod:`grader.languages.audit`) reads every catalog with Babel, and a test
asserts both readers agree entry by entry.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

_KEYWORD = re.compile(r'^(msgctxt|msgid|msgstr)\s+(".*")\s*$')
_CONTINUED = re.compile(r'^(".*")\s*$')


@dataclass(frozen=True)
class Entry:
    context: str | None   # the stable key
    msgid: str            # the English text
    msgstr: str           # this locale's text ('' when untranslated)
    line: int             # 1-based line of the msgid
    fuzzy: bool = False
    msgstr_line: int = 0  # 1-based line of the msgstr: where a translator writes (and a finding about it points)


class PoSyntaxError(ValueError):
    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


def _unquote(token: str, line: int) -> str:
    try:
        value = json.loads(token)
    except ValueError:
        raise PoSyntaxError(line, f"not a quoted string: {token}") from None
    if not isinstance(value, str):
        raise PoSyntaxError(line, f"not a quoted string: {token}")
    return value


def read(text: str) -> list[Entry]:
    """Every entry of a PO text, header (empty msgid) included, in file order."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    field_line: dict[str, int] = {}
    fuzzy = False
    last: str | None = None

    def flush() -> None:
        nonlocal fields, field_line, fuzzy, last
        if fields:
            if "msgid" not in fields or "msgstr" not in fields:
                at = min(field_line.values())
                raise PoSyntaxError(at, "an entry needs both msgid and msgstr")
            entries.append(Entry(fields.get("msgctxt"), fields["msgid"], fields["msgstr"],
                                 field_line["msgid"], fuzzy, field_line["msgstr"]))
        fields, field_line, fuzzy, last = {}, {}, False, None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#~"):
            continue                       # obsolete entry: not part of the catalog
        if line.startswith("#"):
            if "msgstr" in fields:
                flush()                    # a comment starts the next entry
            if line.startswith("#,") and "fuzzy" in (f.strip() for f in line[2:].split(",")):
                fuzzy = True
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            name, token = keyword.groups()
            if "msgstr" in fields and name != "msgstr":
                flush()                    # a keyword starts the next entry
            elif name in fields:
                raise PoSyntaxError(number, f"{name} given twice")
            fields[name] = _unquote(token, number)
            field_line[name] = number
            last = name
            continue
        continued = _CONTINUED.match(line)
        if continued and last is not None:
            fields[last] += _unquote(continued.group(1), number)
            continue
        raise PoSyntaxError(number, f"cannot read: {raw[:40]}")
    flush()
    return entries
