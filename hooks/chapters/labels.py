"""The site's words: every locale's `docs/<locale>/labels.toml`, checked against English's."""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

from grader.languages.messages import message
from hooks.chapters.pages import SOURCE
from hooks.chapters.readable import read_toml


def load_labels(docs: Path) -> dict[str, dict[str, str]]:
    """Every locale's labels.toml, flattened ('parts.distance'), checked against English's keys and placeholders.
    A file that cannot be read raises hooks.chapters.readable.Unreadable, with its line. Read again only when a
    file's time or size changed (`mkdocs serve` asks for them at every rebuild, twice)."""
    paths = sorted(docs.glob("*/labels.toml"))
    return _labels(tuple(paths), tuple((info.st_mtime_ns, info.st_size) for info in map(Path.stat, paths)))


@lru_cache(maxsize=4)
def _labels(paths: tuple[Path, ...], stamps: tuple) -> dict[str, dict[str, str]]:
    labels = {}
    for path in paths:
        labels[path.parent.name] = _flatten(read_toml(path, f"docs/{path.parent.name}/labels.toml"))
    english = labels.get(SOURCE, {})
    problems = []
    for lang, table in labels.items():
        where = f"docs/{lang}/labels.toml"
        for key in sorted(set(english) - set(table)):
            problems.append(f"{where}: missing label '{key}' (English: {english[key]!r})")
        for key in sorted(set(table) & set(english)):
            if _placeholders(table[key]) != _placeholders(english[key]):
                problems.append(f"{where}: label '{key}' must use the placeholders {sorted(_placeholders(english[key]))}")
    if problems:
        raise LabelError("\n".join(problems))
    return labels


class LabelError(ValueError):
    """A locale's labels.toml does not match English's."""


def figure_labels(labels: dict[str, str]) -> dict[str, str]:
    """The [figures] table of a locale's flattened labels: the words the exercises' figures draw."""
    return {k.removeprefix("figures."): v for k, v in labels.items() if k.startswith("figures.")}


def _flatten(table: dict, prefix: str = "") -> dict[str, str]:
    flat = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = str(value)
    return flat


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def exercise_title(exercise_id: str, locale: str) -> str:
    """The exercise's title in the locale (the catalog's, English where it lacks one): its heading on the page.
    Here, not with the renderers, so that a build answered from the disk cache never imports SymPy."""
    return message(f"exercise.{exercise_id}.title", locale)
