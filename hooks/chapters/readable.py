"""Reading what a translator or an author saved: UTF-8 text and TOML, each slip named with its line and the fix.

A page saved in another encoding or a TOML slip in labels.toml or glossary.toml would otherwise stop the
translators' report and the build with a traceback that names no file.
"""

from __future__ import annotations

import re
from pathlib import Path

from grader.files import tomllib

TOML_PLACE = re.compile(r"\(at (?:line (\d+), column \d+|end of document)\)")   # tomllib's two places


class Unreadable(ValueError):
    """A file that cannot be read as it must be: where, and what to do."""

    def __init__(self, shown: str, line: int, what: str):
        super().__init__(f"{shown}:{line}: {what}")
        self.shown, self.line, self.what = shown, line, what


def read_text(path: Path, shown: str | None = None) -> str:
    """The file's text, which must be UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise Unreadable(shown or str(path), line, f"the file is not UTF-8 (byte 0x{data[error.start]:02x} at column "
                         f"{column}): save it as UTF-8 (in your editor: save with encoding, UTF-8)") from None


def read_toml(path: Path, shown: str | None = None) -> dict:
    """The file's TOML table; a slip is named with its line and the usual fix."""
    text = read_text(path, shown)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        place = TOML_PLACE.search(str(error))
        line = int(place.group(1)) if place and place.group(1) else len(text.splitlines()) or 1   # or the end
        reason = TOML_PLACE.sub("", str(error)).strip()
        raise Unreadable(shown or str(path), line, f"not valid TOML ({reason}): each line is `key = \"value\"` or a "
                         "`[table]`; a quote inside a value is written \\\" and a backslash \\\\") from None
