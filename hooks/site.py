"""Site-level helpers for the hook: labels, settings, renderers, checking all chapters, fallback notices."""

from __future__ import annotations

import hashlib
import re
import string
import tomllib
from dataclasses import astuple, dataclass
from pathlib import Path

from hooks import cache
from hooks.translations import relative  # noqa: F401 - the one way pages are named in messages

SOURCE_LANGUAGE = "en"
ROOT = Path(__file__).resolve().parent.parent


def load_labels(docs: Path) -> dict[str, dict[str, str]]:
    """Every locale's labels.toml, flattened ('parts.distance'), checked against English's keys and placeholders."""
    labels = {}
    for path in sorted(docs.glob("*/labels.toml")):
        with path.open("rb") as handle:
            labels[path.parent.name] = _flatten(tomllib.load(handle))
    english = labels.get(SOURCE_LANGUAGE, {})
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


@dataclass(frozen=True)
class Settings:
    solutions: bool = True

    @classmethod
    def from_config(cls, extra: dict, environ) -> "Settings":
        solutions = bool(extra.get("solutions", True))
        override = environ.get("COURSE_SOLUTIONS", "").strip().lower()
        if override in {"off", "0", "false", "no"}:
            solutions = False
        elif override in {"on", "1", "true", "yes"}:
            solutions = True
        return cls(solutions=solutions)


def known_ids() -> dict[str, frozenset]:
    """The ids an exercise or figure block may name."""

    def compute():
        from hooks import render

        return {"exercise": list(render.exercise_ids()), "figure": list(render.figure_ids())}

    return {kind: frozenset(ids) for kind, ids in cache.cached("ids", [], compute).items()}


def renderers(settings: Settings, labels: dict):
    """(exercise, figure) renderers for blocks, answered from the disk cache when nothing changed."""

    def exercise(exercise_id: str, locale: str) -> tuple[str, str]:
        def compute():
            from hooks import render

            return render.render_exercise(exercise_id, locale, labels[locale], settings.solutions)

        key = [exercise_id, locale, sorted(labels[locale].items()), settings.solutions]
        return tuple(cache.cached("exercise", key, compute))

    def figure(figure_id: str, locale: str) -> str:
        table = {k.removeprefix("figures."): v for k, v in labels[locale].items() if k.startswith("figures.")}

        def compute():
            from hooks import figures

            return figures.draw(figure_id, table, locale)

        return cache.cached("figure", [figure_id, locale, sorted(table.items())], compute)

    return exercise, figure


def check_translations(docs: Path, root: Path):
    """(notes, problems) of every locale, English included: notes are informational (missing, stale pages);
    problems include every malformed block.

    Answered from the disk cache when neither the chapters nor the checks changed since the last build."""
    from hooks import translations

    def compute():
        ids = known_ids()
        return [
            astuple(f)
            for locale in translations.locales(docs)
            for f in translations.check_locale(docs, locale, root, ids)
        ]

    key = [content_hash(sorted(docs.rglob("*.md")) + sorted(docs.rglob("*.toml"))),
           content_hash([Path(translations.__file__), ROOT / "hooks" / "blockspec.py"]), str(root)]
    findings = [translations.Finding(*row) for row in cache.cached("checks", key, compute)]
    notes = [f for f in findings if f.kind in translations.INFO_KINDS]
    return notes, [f for f in findings if f.kind not in translations.INFO_KINDS]


def content_hash(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def with_fallback_notice(markdown: str, notice: str, lang: str) -> str:
    """Put the notice, in the reader's language, right under the page's title (or first, if it has none)."""
    block = f'<p class="course-fallback" role="note" lang="{lang}" markdown>{_escape(notice)}</p>\n\n'
    title = re.search(r"(?m)^# .*\n", markdown)
    if title is None:
        return block + markdown
    return markdown[: title.end()] + "\n" + block + markdown[title.end():]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def locate(tex: str, source: str) -> int:
    """The line where a formula starts in a chapter, or 1."""
    needle = tex.strip().splitlines()[0][:40] if tex.strip() else ""
    for number, line in enumerate(source.splitlines(), 1):
        if needle and needle in line:
            return number
    return 1
