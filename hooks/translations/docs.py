"""The docs folder: its locales, how a file is named in a finding, the lines of a labels.toml, and the
pages written for the course's staff only. Shared by the translators' checks, the surfaces and the
review record."""
from __future__ import annotations

import re
from pathlib import Path

from grader.files import tomllib
from hooks.chapters import pages
from hooks.chapters.pages import SOURCE


def relative(path: Path, root: Path) -> str:
    """How a page is named in a finding: relative to the project when it is inside it."""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def english_only(text: str) -> bool:
    """A page for the course's staff (`translate: false` in its front matter): not expected in other locales."""
    return pages.front_matter_value(text, "translate") == "false"


def label_lines(path: Path) -> dict[str, tuple[int, str]]:
    """Dotted key -> (line, value) of a labels.toml, read with tomllib and located line by line."""
    values, table, found = tomllib.loads(path.read_text("utf-8")), [], {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        header = re.match(r"^\s*\[([\w.-]+)\]\s*$", line)
        if header:
            table = header.group(1).split(".")
            continue
        key = re.match(r"^\s*([\w-]+)\s*=", line)
        if key:
            value = values
            for part in (*table, key.group(1)):
                value = value.get(part, {}) if isinstance(value, dict) else {}
            if isinstance(value, str):
                found[".".join((*table, key.group(1)))] = (number, value)
    return found


def locales(docs: Path) -> list[str]:
    """Every locale folder, English first: English is checked for what breaks a page, the others against it."""
    found = sorted(p.name for p in docs.iterdir() if p.is_dir() and p.name != SOURCE and (p / "labels.toml").exists())
    return [SOURCE, *found]
