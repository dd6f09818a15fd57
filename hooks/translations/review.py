"""A locale's review record: which English version of each page, of the labels and of the grader's catalog a
reviewer checked the translation against, when, who, and what changed.

The record is docs/<locale>/review.toml (and any docs/<locale>/review-*.toml beside it: one per reviewer or
per pass), a log of entries, newest last:

    [[page]]                        # a page: file = its name; [[labels]]: labels.toml; [[catalog]]: grader.po
    file = "02-attention-projection.md"
    english_hash = "d97cf07e29c1"   # the English text reviewed against (hooks.chapters.pages.source_hash)
    date = "2026-11-30"
    reviewer = "ko reviewer"        # a name or a role
    changes = ["...", "..."]

A surface's latest entry is its review. It is out of date (`review-stale`, shown on the status page) once
the English text changes; a record that cannot be read, or names no such page, is an error (`review`).
`python -m hooks.translations --stamp FILE --reviewer NAME [--change TEXT]` appends an entry (and, for a
page, records `translation_of`); `LOCALE --stamp` stamps only the pages the record shows reviewed against
the current English.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from grader.files import tomllib, write_atomic
from hooks.chapters.pages import FRONT_MATTER, SOURCE, recorded_hash, source_hash
from hooks.translations.docs import locales, relative
from hooks.translations.pagechecks import Finding

RECORD = "review.toml"
TABLES = {"page": "a page", "labels": "labels.toml", "catalog": "grader.po"}
FIELDS = ("english_hash", "date", "reviewer", "changes")


@dataclass(frozen=True)
class Review:
    path: str                  # the record file, as findings name it
    line: int                  # its entry's [[header]]
    surface: str               # a page's file name, "labels.toml" or "grader.po"
    english_hash: str
    date: str
    reviewer: str
    changes: tuple[str, ...]


def record_files(docs: Path, locale: str) -> list[Path]:
    folder = docs / locale
    return sorted(p for p in (folder / RECORD, *folder.glob("review-*.toml")) if p.is_file())


def english_text(docs: Path, surface: str, catalog_root: Path | None = None) -> str | None:
    """The English text a surface translates (None when there is none)."""
    from grader.languages.audit import CATALOG, PACKAGE

    if surface == "grader.po":
        path = (PACKAGE.parent if catalog_root is None else Path(catalog_root)) / CATALOG.as_posix().format(lang=SOURCE)
    else:
        path = docs / SOURCE / surface
    return path.read_text("utf-8") if path.suffix in (".md", ".toml", ".po") and path.is_file() else None


def read_records(docs: Path, locale: str, root: Path) -> tuple[list[Review], list[Finding]]:
    """The locale's review entries, file by file in order, and what is wrong with the record (`review`)."""

    reviews, problems = [], []
    for path in record_files(docs, locale):
        shown, text = relative(path, root), path.read_text("utf-8")
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            at = re.search(r"line (\d+)", str(error))
            problems.append(Finding(shown, int(at.group(1)) if at else 1, "review", f"not valid TOML: {error}"))
            continue
        headers = {name: [n for n, line in enumerate(text.splitlines(), 1)
                          if re.match(rf"^\s*\[\[{name}\]\]\s*$", line)] for name in TABLES}
        for name in sorted(set(table) - set(TABLES)):
            problems.append(Finding(shown, 1, "review", f"unknown table '{name}': entries are [[page]], [[labels]] "
                                                        "or [[catalog]]"))
        for name, surface in TABLES.items():
            entries = table.get(name, [])
            for index, entry in enumerate(entries if isinstance(entries, list) else []):
                line = headers[name][index] if index < len(headers[name]) else 1
                review, problem = _entry(entry, name, surface, docs)
                if problem:
                    problems.append(Finding(shown, line, "review", problem))
                else:
                    reviews.append(Review(shown, line, *review))
    return reviews, problems


def _entry(entry: dict, name: str, surface: str, docs: Path):
    """(surface, english_hash, date, reviewer, changes), or the problem with the entry."""
    if name == "page":
        surface = entry.get("file", "")
        if not (isinstance(surface, str) and surface.endswith(".md") and (docs / SOURCE / surface).is_file()):
            return None, f"[[page]] file = {surface!r}: no English page of this name"
    missing = [field for field in FIELDS if field not in entry]
    if missing:
        return None, f"[[{name}]] {surface}: missing {', '.join(missing)}"
    date, changes = entry["date"], entry["changes"]
    if not re.fullmatch(r"[0-9a-f]{6,64}", str(entry["english_hash"])):
        return None, f"[[{name}]] {surface}: english_hash must be the English text's hash (hex)"
    if not (isinstance(date, datetime.date) or re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(date))):
        return None, f"[[{name}]] {surface}: date must be YYYY-MM-DD"
    if not (isinstance(changes, list) and all(isinstance(c, str) for c in changes)):
        return None, f"[[{name}]] {surface}: changes must be a list of sentences"
    return (surface, str(entry["english_hash"]), str(date), str(entry["reviewer"]), tuple(changes)), None


def latest(reviews: list[Review]) -> dict[str, Review]:
    """Each surface's review: its newest entry (by date; the last written among equals)."""
    found: dict[str, Review] = {}
    for review in reviews:
        if review.surface not in found or review.date >= found[review.surface].date:
            found[review.surface] = review
    return found


def check_record(docs: Path, locale: str, root: Path, catalog_root: Path | None = None) -> list[Finding]:
    """A malformed record (`review`, an error) and each review of the labels or the catalog made against an older
    English (`review-stale`; a page English changed under is already reported `stale`, and the status page shows
    its review out of date)."""
    if locale == SOURCE:
        return []
    reviews, problems = read_records(docs, locale, root)
    for surface, review in sorted(latest(reviews).items()):
        if surface.endswith(".md"):
            continue
        english = english_text(docs, surface, catalog_root)
        if english is not None and source_hash(english) != review.english_hash:
            problems.append(Finding(review.path, review.line, "review-stale", (
                f"{surface} was reviewed against English {review.english_hash}; English is now "
                f"{source_hash(english)}: review what changed, then record it "
                f"(--stamp {translated_path(locale, surface)} --reviewer NAME)")))
    return problems


def translated_path(locale: str, surface: str) -> str:
    """Where a locale's translation of a surface is, as a translator names it."""
    from grader.languages.audit import CATALOG

    return CATALOG.as_posix().format(lang=locale) if surface == "grader.po" else f"docs/{locale}/{surface}"


# --- writing the record: --stamp


def surface_of(path: Path, docs: Path, catalog_root: Path | None = None) -> tuple[str, str] | None:
    """(locale, surface) of a translated file: docs/<locale>/<page>.md or labels.toml, or a locale's grader.po."""
    from grader.languages.audit import CATALOG, PACKAGE

    path = path.resolve()
    if path.parent.parent == docs.resolve() and path.parent.name != SOURCE and path.is_file():
        if path.name == "labels.toml" or (path.suffix == ".md" and (docs / SOURCE / path.name).is_file()):
            return path.parent.name, path.name
    catalogs = (PACKAGE.parent if catalog_root is None else Path(catalog_root)).resolve()
    for locale_dir in (catalogs / CATALOG.parts[0] / CATALOG.parts[1]).glob("*"):
        if locale_dir.name != SOURCE and path == (catalogs / CATALOG.as_posix().format(lang=locale_dir.name)):
            return locale_dir.name, "grader.po"
    return None


def append(docs: Path, locale: str, surface: str, english_hash: str, reviewer: str, changes: list[str],
           today: datetime.date | None = None) -> Path:
    """Add an entry to docs/<locale>/review.toml (created if need be); return the file."""
    path = docs / locale / RECORD
    name = "page" if surface.endswith(".md") else "labels" if surface == "labels.toml" else "catalog"
    lines = [f"[[{name}]]"] + ([f"file = {json.dumps(surface)}"] if name == "page" else [])
    lines += [f"english_hash = {json.dumps(english_hash)}", f"date = {json.dumps((today or datetime.date.today()).isoformat())}",
              f"reviewer = {json.dumps(reviewer, ensure_ascii=False)}",
              "changes = [" + "".join(f"\n  {json.dumps(c, ensure_ascii=False)}," for c in changes) + ("\n]" if changes else "]")]
    old = path.read_text("utf-8") if path.exists() else (
        "# Review record of this locale (hooks/translations/review.py; the translators' guide explains it).\n")
    text = old.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    tomllib.loads(text)                        # never write a record that cannot be read back
    write_atomic(path, text)
    return path


def reviewed_pages(docs: Path, locale: str, root: Path) -> set[str]:
    """The pages whose review (latest entry) was made against the English text as it is now."""
    reviews, _ = read_records(docs, locale, root)
    return {surface for surface, review in latest(reviews).items() if surface.endswith(".md")
            and source_hash((docs / SOURCE / surface).read_text("utf-8")) == review.english_hash}


# --- the status page


def review_html(docs: Path, root: Path, catalog_root: Path | None = None) -> str:
    """Every locale's reviews, for the translation status page: which English version each file was reviewed
    against, whether English has changed since, and below, what each review changed."""

    rows, changed = [], []
    for locale in locales(docs):
        if locale == SOURCE:
            continue
        reviews, _ = read_records(docs, locale, root)
        items = []
        for surface, review in sorted(latest(reviews).items(), key=lambda item: _surface_order(item[0])):
            english = english_text(docs, surface, catalog_root)
            now = source_hash(english) if english is not None else "?"
            against = f"<code>{escape(review.english_hash)}</code>"
            if now != review.english_hash:
                against += f" (now <code>{escape(now)}</code>)"
            state = "up to date" if now == review.english_hash else "out of date"
            cells = [escape(locale), f"<code>{escape(surface)}</code>", f"{escape(review.date)}, {escape(review.reviewer)}",
                     against, state]
            rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
            items += [f"<li><code>{escape(surface)}</code>: {escape(change)}</li>" for change in review.changes]
        if items:
            changed.append(f"<details><summary>{escape(locale)}: what the reviews changed</summary>"
                           f"<ul>{''.join(items)}</ul></details>")
    if not rows:
        return '<p class="course-review">No review is recorded yet.</p>'
    head = "".join(f"<th>{c}</th>" for c in ("locale", "file", "reviewed", "against English", "review"))
    return ('<table class="course-review"><caption>Reviews: which English version each translation was '
            f'reviewed against</caption><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            + "".join(changed))


def _surface_order(surface: str) -> tuple:
    """Pages in the course's order (the home page first), then the labels, then the catalog."""
    return (surface == "grader.po", surface == "labels.toml", surface != "index.md", surface)


def stamp(docs: Path, root: Path, locales_named: list[str], named: list[str], reviewer: str | None,
          changes: list[str], catalog_root: Path | None = None) -> list[str]:
    """`--stamp`: what was reviewed, and only that, is recorded; the lines to print. ValueError says why not.

    Files named (pages, labels.toml, grader.po) were reviewed by `reviewer`: each gets a record entry, and a
    page its `translation_of`. With no file, each page of the locales named that the record shows reviewed
    against the current English is stamped; the pages English changed under and nobody reviewed are listed."""

    if not named:
        if not locales_named or SOURCE in locales_named:
            raise ValueError("--stamp needs the locale whose reviewed pages to stamp (e.g. `ja --stamp`), or the "
                             "files you reviewed (`--stamp docs/ja/02-attention-projection.md --reviewer NAME`)")
        lines = []
        for locale in locales_named:
            reviewed = reviewed_pages(docs, locale, root)
            pages = [p for p in sorted((docs / locale).glob("*.md")) if (docs / SOURCE / p.name).is_file()]
            lines += [f"stamped {relative(p, root)}" for p in stamp_pages(docs, [p for p in pages if p.name in reviewed])]
            lines += [f"not stamped {relative(p, root)}: its review against the current English is not in the record "
                      f"(docs/{locale}/review*.toml): review it, then `--stamp {relative(p, root)} --reviewer NAME`"
                      for p in pages if p.name not in reviewed
                      and recorded_hash(p.read_text("utf-8")) != source_hash((docs / SOURCE / p.name).read_text("utf-8"))]
        return lines
    if not (reviewer or "").strip():
        raise ValueError("--stamp FILE needs --reviewer NAME (a name or a role): the review record says who checked "
                         "the translation against English")
    targets = []
    for name in named:
        found = surface_of(Path(name), docs, catalog_root)
        if found is None:
            raise ValueError(f"{name}: not a translated file: docs/<locale>/<page>.md (with an English page), "
                             "docs/<locale>/labels.toml or grader/locale/<locale>/LC_MESSAGES/grader.po")
        targets.append((Path(name).resolve(), *found))
    lines = []
    for path, locale, surface in targets:
        if surface.endswith(".md"):
            stamp_pages(docs, [path])
            lines.append(f"stamped {relative(path, root)}")
        record = append(docs, locale, surface, source_hash(english_text(docs, surface, catalog_root)),
                        reviewer.strip(), changes)
        lines.append(f"recorded the review of {surface} in {relative(record, root)}")
    return lines


def stamp_pages(docs: Path, pages_to_stamp: list[Path]) -> list[Path]:
    """Record the current English hash in each translated page given; return those that changed."""
    changed = []
    for path in pages_to_stamp:
        english = docs / SOURCE / path.name
        text, digest = path.read_text("utf-8"), source_hash(english.read_text("utf-8"))
        if recorded_hash(text) == digest:
            continue
        m = FRONT_MATTER.match(text)
        if m:
            meta = re.sub(r"(?m)^translation_of:.*\n?", "", m.group(1) + "\n").rstrip("\n")
            meta = f"{meta}\ntranslation_of: {digest}" if meta else f"translation_of: {digest}"
            text = f"---\n{meta}\n---\n" + text[m.end():]
        else:
            text = f"---\ntranslation_of: {digest}\n---\n\n" + text
        write_atomic(path, text)
        changed.append(path)
    return changed
