"""The site's words: every locale's `docs/<locale>/labels.toml`, checked against English's."""

from __future__ import annotations

import string
from pathlib import Path

from hooks.chapters.pages import SOURCE
from hooks.chapters.readable import read_toml


def load_labels(docs: Path) -> dict[str, dict[str, str]]:
    """Every locale's labels.toml, flattened ('parts.distance'), checked against English's keys and placeholders.
    A file that cannot be read raises hooks.chapters.readable.Unreadable, with its line."""
    labels = {}
    for path in sorted(docs.glob("*/labels.toml")):
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
