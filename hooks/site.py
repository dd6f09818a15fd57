"""Site-level helpers for the hook: labels, settings, renderers, checking all chapters, fallback notices."""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import astuple, dataclass
from pathlib import Path

from grader import files
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


def renderers(settings: Settings, labels: dict, checker=None):
    """(exercise, figure) renderers for blocks, answered from the disk cache when nothing changed.
    ``checker`` (hooks.checker.Checker): whether exercises get the in-page checker."""
    in_browser = bool(checker and checker.on)

    def exercise(exercise_id: str, locale: str) -> tuple[str, str]:
        def compute():
            from hooks import render

            return render.render_exercise(exercise_id, locale, labels[locale], settings.solutions, in_browser)

        key = [exercise_id, locale, sorted(labels[locale].items()), settings.solutions,
               checker.cache_key() if checker else None]
        return tuple(cache.cached("exercise", key, compute))

    def figure(figure_id: str, locale: str) -> str:
        table = {k.removeprefix("figures."): v for k, v in labels[locale].items() if k.startswith("figures.")}

        def compute():
            from hooks import figures

            return figures.draw(figure_id, table, locale)

        return cache.cached("figure", [figure_id, locale, sorted(table.items())], compute)

    return exercise, figure


def check_translations(docs: Path, root: Path):
    """(findings by locale, problems) of every locale, English included; problems are the findings that
    fail the build (every one but missing and stale pages), malformed blocks included.

    Answered from the disk cache when neither the chapters nor the checks changed since the last build."""
    from hooks import translations

    def compute():
        ids = known_ids()
        return {locale: [astuple(f) for f in translations.check_locale(docs, locale, root, ids)]
                for locale in translations.locales(docs)}

    checks = [ROOT / "hooks" / name for name in ("translations.py", "pagechecks.py", "pages.py", "blockspec.py",
                                                 "sanitize.py")]
    checks += sorted((ROOT / "grader" / "messages").glob("*.py"))  # the grader catalogs' own checks
    catalogs = sorted((ROOT / "grader" / "locale").glob("*/LC_MESSAGES/*.po"))
    key = [content_hash(sorted(docs.rglob("*.md")) + sorted(docs.rglob("*.toml")) + catalogs),
           content_hash(checks), str(root)]
    found = {locale: [translations.Finding(*row) for row in rows]
             for locale, rows in cache.cached("checks", key, compute).items()}
    # markup that could run script is reported by the build once it is escaped, so the page is still written
    problems = [f for rows in found.values() for f in rows
                if f.kind not in translations.INFO_KINDS | translations.RENDER_KINDS]
    return found, problems


def status_html(rows) -> str:
    """The translation status table (`translations.progress`), as the command prints it, and each
    locale's pages to bring up to date."""
    from hooks import translations

    head = "".join(f"<th>{_escape(c)}</th>" for c in translations.PROGRESS_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{_escape(c)}</td>" for c in cells) + "</tr>"
                   for cells in translations.progress_rows(rows))
    todo = "".join(
        f"<li><strong>{p.locale}</strong>: " + ", ".join(
            [f"<code>{_escape(name)}</code> (missing)" for name in p.missing]
            + [f"<code>{_escape(name)}</code> (stale)" for name in p.stale]) + "</li>"
        for p in rows if p.missing or p.stale)
    todo = f'<ul class="course-status__todo">{todo}</ul>' if todo else ""
    return f'<table class="course-status"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{todo}'



def content_hash(paths: list[Path]) -> str:
    return files.fingerprint(paths, ROOT)


def with_notice(markdown: str, notice: str, lang: str, kind: str) -> str:
    """Put a notice (`kind`: fallback, stale), in the reader's language, right under the page's title
    (or first, if it has none). The notice may hold a Markdown link."""
    block = f'<p class="course-{kind}" role="note" lang="{lang}" markdown>{_escape(notice)}</p>\n\n'
    title = re.search(r"(?m)^# .*\n", markdown)
    if title is None:
        return block + markdown
    return markdown[: title.end()] + "\n" + block + markdown[title.end():]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def locate(tex: str, source: str) -> int:
    """The line where a formula starts in a chapter, or 1."""
    return files.line_of([tex.strip()[:40]], source)
