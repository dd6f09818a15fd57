"""Translation checks: what a translator needs to know about a locale, each finding with file and line.

    python -m hooks.translations [LOCALE ...] [--stamp [PAGE ...]]

Compares every page of a locale folder with its English source page (kinds in `KINDS`), and checks,
in every locale, English included, what would break a page: malformed blocks, math that cannot
render, links to no page, exercise data written by hand instead of rendered from the grader's bank.
The strict build runs the same checks and fails on every finding but the informational ones
(`INFO_KINDS`: missing and stale pages). The command ends with each locale's progress, the table
the site's translation status page shows.

A translated page records the English text it translates in its front matter
(`translation_of: <hash>`). `--stamp FILE --reviewer NAME` records that FILE (a page, labels.toml or
grader.po) was reviewed against the current English, in the locale's review record (hooks.translations.review), and
writes a page's hash; `LOCALE --stamp` stamps the pages the record shows reviewed against the current English.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from hooks.chapters.pages import SOURCE, is_draft
from hooks.chapters.readable import Unreadable, read_text, read_toml
from hooks.translations import pagechecks
from hooks.translations.docs import english_only, label_lines, locales, relative  # noqa: F401  (the command's vocabulary)
from hooks.translations.pagechecks import (  # noqa: F401 - Finding, KINDS and INFO_KINDS are the command's vocabulary too
    BREAKING_KINDS,
    CJK,
    INFO_KINDS,
    KINDS,
    RENDER_KINDS,
    Finding,
    Glossary,
    allowed_words,
    bank_values,
    broken,
    check_page,
    latin_prose,
    restated,
)

# --- a locale folder


def load_glossary(folder: Path, english: Glossary | None = None) -> Glossary:
    """The folder's glossary.toml; identifiers and allowed words also come from English's (`english`)."""
    path = folder / "glossary.toml"
    table = read_toml(path) if path.exists() else {}
    base = english or Glossary()
    return Glossary(
        terms=tuple(table.get("term", [])),
        identifiers=tuple(dict.fromkeys([*base.identifiers, *table.get("identifiers", [])])),
        allow=base.allow | frozenset(table.get("allow", [])),
    )


def check_labels(docs: Path, locale: str, root: Path, glossary: Glossary) -> list[Finding]:
    """Labels (the site's and the figures' words) left identical to English, and labels English does not have."""
    english, path = docs / SOURCE / "labels.toml", docs / locale / "labels.toml"
    if locale == SOURCE or not path.exists() or not english.exists():
        return []
    source, shown = label_lines(english), relative(path, root)
    allowed, least = allowed_words(glossary), 1 if locale in CJK else 2  # "Figure" is French too
    return [
        Finding(shown, line, "untranslated", f"label '{key}' is the English '{value}': translate it")
        for key, (line, value) in label_lines(path).items()
        if key in source and value == source[key][1] and len(latin_prose(re.sub(r"\{[^}]*\}", " ", value), allowed)) >= least
    ] + [
        Finding(shown, line, "orphan", f"label '{key}' is not in English's labels.toml: nothing shows it; delete it "
                "(or rename it to the key English uses)")
        for key, (line, _) in label_lines(path).items() if key not in source
    ]


PAGES, WORDS = "pages", "words"   # the two halves of a locale's checks: what reads its pages, and what does not


def check_locale(docs: Path, locale: str, root: Path, known_ids: dict | None = None,
                 halves: tuple[str, ...] = (PAGES, WORDS)) -> list[Finding]:
    """Every finding for one locale folder, informational ones included, sorted by file and line.

    `known_ids` maps a block name to the ids it may take (the bank's exercises, the figures). A file that
    cannot be read (not UTF-8, TOML that does not parse) is the only finding until it is fixed: every other
    check reads it. ``halves`` leaves one out: PAGES, the checks that read the pages (a page saved changes
    only these), WORDS, those of the labels, the catalogs and the figures (the build caches each apart)."""
    english_dir, folder = docs / SOURCE, docs / locale
    slips = unreadable_files(docs, locale, root)
    if slips:
        return slips
    english_glossary = load_glossary(english_dir)
    glossary = load_glossary(folder, english_glossary)
    findings: list[Finding] = []
    drafts = set()
    if PAGES in halves:
        findings, drafts = check_pages(docs, locale, root, glossary, known_ids)
    if WORDS in halves:
        from hooks.translations.composed import check_composed
        from hooks.translations.rendered import check_figures
        from hooks.translations.surfaces import check_words

        findings += check_labels(docs, locale, root, glossary) + check_grader_catalog(locale) + \
            check_words(docs, locale, root, glossary) + check_composed(locale, glossary) + \
            check_figures(docs, locale, root, glossary)
    findings = [replace(f, draft=True) if f.path in drafts and f.kind not in BREAKING_KINDS else f for f in findings]
    return in_editor_order(findings)


def in_editor_order(findings: list[Finding]) -> list[Finding]:
    """File by file, line by line, as an editor goes."""
    return sorted(findings, key=lambda f: (f.path, f.line))


def check_pages(docs: Path, locale: str, root: Path, glossary: Glossary,
                known_ids: dict | None) -> tuple[list[Finding], set[str]]:
    """(the findings of what reads the locale's pages, the pages that are drafts)."""
    from hooks.translations.rendered import check_exercise_math
    from hooks.translations.surfaces import check_surfaces

    english_dir, folder = docs / SOURCE, docs / locale
    known_pages = frozenset(p.name for d in (english_dir, folder) for p in d.glob("*.md"))
    bank = bank_values()
    reviewed = reviewed_hashes(docs, locale, root)
    findings: list[Finding] = []
    drafts = set()
    for english_path in sorted(english_dir.glob("*.md")):
        path, english = folder / english_path.name, english_path.read_text("utf-8")
        shown = relative(path, root)
        if not path.exists():
            if not english_only(english):
                findings.append(Finding(shown, 1, "missing", "not translated yet: readers see the English page with a notice"))
            continue
        text = path.read_text("utf-8")
        findings.extend(broken(text, shown, known_pages, known_ids))
        findings.extend(restated(text, shown, locale, bank))
        if locale != SOURCE:
            findings.extend(check_page(english, text, locale, shown, glossary, reviewed.get(path.name)))
            if is_draft(text):
                drafts.add(shown)
    for path in sorted(folder.glob("*.md")):
        if not (english_dir / path.name).exists():
            findings.append(Finding(relative(path, root), 1, "orphan", "no English page of this name"))
    findings += check_surfaces(docs, locale, root, glossary) + check_exercise_math(docs, locale, root)
    return findings, drafts


def unreadable_files(docs: Path, locale: str, root: Path) -> list[Finding]:
    """The locale's pages and TOML files, and English's (every check reads them), that cannot be read."""
    found = []
    for folder in dict.fromkeys((docs / SOURCE, docs / locale)):
        for path in sorted([*folder.glob("*.md"), *folder.glob("*.toml")]):
            try:
                (read_toml if path.suffix == ".toml" else read_text)(path)
            except Unreadable as slip:
                found.append(Finding(relative(path, root), slip.line, "file", slip.what))
    return found


def reviewed_hashes(docs: Path, locale: str, root: Path) -> dict[str, str]:
    """Page name -> the English version its last review was made against (docs/<locale>/review*.toml)."""
    from hooks.translations import review

    if locale == SOURCE:
        return {}
    reviews, _ = review.read_records(docs, locale, root)
    return {surface: r.english_hash for surface, r in review.latest(reviews).items() if surface.endswith(".md")}


CATALOG_KINDS = {"untranslated": "catalog-untranslated", "fuzzy": "catalog-stale", "stale": "catalog-stale"}


def check_grader_catalog(locale: str, root: Path | None = None) -> list[Finding]:
    """The grader's messages in the locale (its gettext catalog), checked against English by the grader,
    and English's against the keys the exercises need (in every locale's report: an exercise added without
    its entries is an error everywhere); `root` holds `grader/locale/` (default: this project's)."""
    from grader.bank import catalog_needs
    from grader.languages.audit import check_catalogs
    from grader.languages.messages import LOCALES

    if locale not in LOCALES:
        return []
    return [Finding(path, line, CATALOG_KINDS.get(kind, "catalog"), f"{kind}: {message}")
            for path, line, kind, message in check_catalogs(root, locales=(locale,), needed=catalog_needs())]


# --- progress: the summary the command prints and the status page shows


STATES = frozenset({"missing", "stale"})   # what a page is, shown in the table's columns: not a warning


@dataclass(frozen=True)
class Progress:
    locale: str
    pages: int                # English pages to translate
    missing: tuple[str, ...]  # their names
    stale: tuple[str, ...]
    errors: int
    warnings: int = 0         # reported, not failing the build: a draft's findings, reviews and messages to redo
    drafts: tuple[str, ...] = ()
    files: tuple[tuple[str, int, int], ...] = ()   # (file, errors, warnings) of every file translated
    untranslated: tuple[str, ...] = ()   # the grader's messages shown in English (a warning), by key

    @property
    def translated(self) -> int:
        return self.pages - len(self.missing)

    @property
    def up_to_date(self) -> int:
        return self.translated - len(self.stale)


PROGRESS_COLUMNS = ("locale", "translated", "up to date", "stale", "missing", "drafts", "errors", "warnings")
UNTRANSLATED = "catalog-untranslated"


def progress(docs: Path, findings: dict[str, list[Finding]]) -> list[Progress]:
    """Each translated locale's progress, from its findings (`check_locale`): what the command prints and the
    status page shows, file by file."""
    text = lambda p: p.read_bytes().decode("utf-8", "replace")  # noqa: E731 - an unreadable page is a finding already
    english = [p for p in sorted((docs / SOURCE).glob("*.md")) if not english_only(text(p))]
    name = lambda f: Path(f.path).name  # noqa: E731
    rows = []
    for locale, found in findings.items():
        if locale == SOURCE:
            continue
        folder = docs / locale
        pages = [folder / p.name for p in english if (folder / p.name).exists()]
        shown = [f"docs/{locale}/{p.name}" for p in pages] + [f"docs/{locale}/labels.toml",
                                                              f"grader/locale/{locale}/LC_MESSAGES/grader.po"]
        shown += sorted({f.path for f in found} - set(shown) - {f.path for f in found if f.kind == "missing"})
        files = tuple((path, sum(f.error for f in found if f.path == path),
                       sum(not f.error and f.kind not in STATES for f in found if f.path == path)) for path in shown)
        rows.append(Progress(locale, len(english),
                             tuple(name(f) for f in found if f.kind == "missing"),
                             tuple(name(f) for f in found if f.kind == "stale"),
                             sum(f.error for f in found), sum(w for _, _, w in files),
                             tuple(p.name for p in pages if is_draft(text(p))), files,
                             tuple(re.findall(r"'([^']+)'", f.message)[0] if "'" in f.message else f.path
                                   for f in found if f.kind == UNTRANSLATED)))
    return rows


def progress_rows(rows: list[Progress]) -> list[tuple[str, ...]]:
    """The table's cells, as the command prints them and the status page shows them."""
    return [(p.locale, f"{p.translated}/{p.pages}", str(p.up_to_date), str(len(p.stale)), str(len(p.missing)),
             str(len(p.drafts)), str(p.errors), str(p.warnings)) for p in rows]


def progress_text(rows: list[Progress]) -> str:
    cells = [PROGRESS_COLUMNS, *progress_rows(rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(PROGRESS_COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells)


def progress_html(rows: list[Progress]) -> str:
    """The table as the site's translation status page shows it, each locale's pages to bring up to date (the
    missing, the stale, the drafts), and every file's errors and warnings as the translators' report counts them."""
    escape = lambda text: html.escape(text, quote=False)  # noqa: E731
    head = "".join(f"<th>{escape(c)}</th>" for c in PROGRESS_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in cells) + "</tr>" for cells in progress_rows(rows))
    todo = "".join(
        f"<li><strong>{p.locale}</strong>: " + ", ".join(
            [f"<code>{escape(name)}</code> (missing)" for name in p.missing]
            + [f"<code>{escape(name)}</code> (stale)" for name in p.stale]
            + [f"<code>{escape(name)}</code> (draft)" for name in p.drafts]
            + [f"<code>{escape(key)}</code> (untranslated)" for key in p.untranslated]) + "</li>"
        for p in rows if p.missing or p.stale or p.drafts or p.untranslated)
    todo = f'<ul class="course-status__todo">{todo}</ul>' if todo else ""
    cells = "".join(
        f"<tr><td>{escape(p.locale)}</td><td><code>{escape(path)}</code>{_state(p, path)}</td>"
        f"<td>{errors}</td><td>{warnings}</td></tr>"
        for p in rows for path, errors, warnings in p.files)
    files = ('<table class="course-status__files"><caption>Errors and warnings, file by file, as '
             '<code>make translations</code> reports them</caption><thead><tr><th>locale</th><th>file</th>'
             f'<th>errors</th><th>warnings</th></tr></thead><tbody>{cells}</tbody></table>')
    return (scrolling(f'<table class="course-status"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>',
                      "Translation status by locale")
            + todo + scrolling(files, "Errors and warnings by file"))


def scrolling(table: str, name: str) -> str:
    """A table in the theme's own scrolling wrapper (the theme wraps only tables without a class): on a phone it
    scrolls sideways instead of leaving the column, and it is in the tab order so the keyboard can scroll it."""
    return (f'<div class="md-typeset__scrollwrap" tabindex="0" role="region" aria-label="{html.escape(name)}">'
            f'<div class="md-typeset__table">{table}</div></div>')


def _state(p: Progress, path: str) -> str:
    name = Path(path).name
    states = [state for state, names in (("draft", p.drafts), ("stale", p.stale)) if name in names and path.endswith(".md")]
    return f" ({', '.join(states)})" if states else ""


# --- the command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hooks.translations", description=__doc__.splitlines()[0])
    parser.add_argument("locales", nargs="*", metavar="LOCALE", help="the locales to check (default: all)")
    parser.add_argument("--stamp", nargs="*", metavar="FILE", help="record that you reviewed these files (pages, "
                        "labels.toml, grader.po) against English (default: stamp the pages of the LOCALEs named that "
                        "their review record shows reviewed), then check")
    parser.add_argument("--reviewer", metavar="NAME", help="who reviewed the files given to --stamp (a name or a role)")
    parser.add_argument("--change", action="append", default=[], metavar="TEXT",
                        help="what the review changed, for the record (repeat it for each change)")
    args = parser.parse_args(argv)
    root = Path.cwd()
    docs = root / "docs"
    if not docs.is_dir():
        print(f"no docs/ folder in {root}: run this from the project's root", file=sys.stderr)
        return 2
    known = locales(docs)
    unknown = [a for a in args.locales if a not in known]
    if unknown:
        print(f"unknown locale {', '.join(unknown)}: choose from {', '.join(known)}", file=sys.stderr)
        return 2
    if args.stamp is not None:
        try:
            from hooks.translations import review

            for line in review.stamp(docs, root, args.locales, args.stamp, args.reviewer, args.change):
                print(line)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
    ids = pagechecks.known_ids()
    by_locale = {}
    for locale in args.locales or known:
        by_locale[locale] = check_locale(docs, locale, root, ids)
        for finding in by_locale[locale]:
            print(finding)
    print()
    rows = progress(docs, by_locale)
    if rows:
        print(progress_text(rows))
    errors = sum(f.error for found in by_locale.values() for f in found)
    print(f"{errors} error(s)" + (": the strict build fails until they are fixed" if errors else ""))
    return 1 if errors else 0

