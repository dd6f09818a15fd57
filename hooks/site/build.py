"""One build of the site, as the hook sees it: its state, and the work it answers from the disk cache.

`Build` holds what the hook learns before the pages (every chapter's findings, the labels, the
settings) and what it gathers while rendering them (the problems that fail the build at its end). The
hook starts a new one with every build and every `mkdocs serve` rebuild, so nothing carries over.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import astuple, dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from grader import files
from hooks.chapters import cache, sanitize
from hooks.chapters.labels import figure_labels
from hooks.chapters.pages import SOURCE
from hooks.checker import publish as checker
from hooks.site.settings import Settings
from hooks.translations import report as translations
from hooks.translations.docs import relative
from hooks.translations.pagechecks import known_ids

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Build:
    docs: Path
    findings: dict[str, list[translations.Finding]]  # every locale's, informational ones included
    labels: dict[str, dict[str, str]]  # every locale's labels.toml, flattened
    settings: Settings = field(default_factory=Settings)
    page: str = ""  # the page being rendered, as findings name it
    site_dir: str = ""  # the default language's site folder: the site's root, where the checker is published
    checker: "checker.Checker | None" = None  # the in-page checker: on, or off and why
    problems: list[str] = field(default_factory=list)  # found while rendering: they fail the build at its end

    @property
    def project(self) -> Path:
        """The project being built (the folder of its docs/): findings name its files relative to it, as the
        translators' report run there does, whether or not it is this checkout."""
        return self.docs.resolve().parent

    def name(self, path: Path | str) -> str:
        """A file of the project, as findings name it."""
        return relative(Path(path), self.project)

    @cached_property
    def stale(self) -> frozenset[str]:
        """The translated pages whose English page changed since they were stamped."""
        return frozenset(f.path for rows in self.findings.values() for f in rows if f.kind == "stale")

    def page_problems(self, page: str) -> list[str]:
        """What the translators' report finds on a page that fails the strict build (and a draft's warnings)."""
        return [f"line {f.line}: {f.kind}{' (draft)' if f.draft else ''}: {f.message}"
                for rows in self.findings.values() for f in rows
                if f.path == page and (f.error or f.draft) and f.kind not in translations.INFO_KINDS]

    def progress_html(self, lang: str, page, files) -> str:
        """The home page's progress (hooks/checker/workspace.py): every exercise, its lesson, title and maximum from the
        bank (answered from the disk cache), linked to the locale's page that holds it."""
        from hooks.checker import workspace

        def compute():
            from grader import bank
            from hooks.chapters.render import course_parts

            rows = [{"id": e.id, "lesson": e.lesson, "title": e.title_in(lang), "max": e.max_score}
                    for e in bank.EXERCISES.values()]
            return {"rows": rows, "course": course_parts()}

        found = cache.cached("progress", [lang], compute)
        chapters = exercise_chapters(self.docs)
        hrefs = {row["id"]: workspace.page_url(files, chapters.get(row["id"], ""), page) for row in found["rows"]}
        rows = [{**row, "href": f'{hrefs[row["id"]]}#exercise-{row["id"]}'} for row in found["rows"] if hrefs[row["id"]]]
        return workspace.progress_html(lang, self.labels[lang], rows, found["course"])

    @cached_property
    def status(self) -> str:
        """The status page's tables (every locale built shows the page: made once per build)."""
        from hooks.translations import review

        return (translations.progress_html(translations.progress(self.docs, self.findings))
                + review.review_html(self.docs, self.project))

    def status_html(self) -> str:
        return self.status


def exercise_chapters(docs: Path) -> dict[str, str]:
    """{exercise id: the chapter that holds it ('02-attention-projection.md')}, from the source language's
    chapters (every locale's pages hold the same blocks: the translation checks see to it)."""
    from hooks.chapters.blockspec import scan_blocks
    from hooks.chapters.pages import SOURCE

    found = {}
    for path in sorted((docs / SOURCE).glob("*.md")):
        uses, _ = scan_blocks(path.read_text(encoding="utf-8"), str(path))
        found.update({use.argument: path.name for use in uses if use.name == "exercise"})
    return found


def check_translations(docs: Path, root: Path, only: tuple[str, ...] = ()):
    """(findings by locale, problems) of every locale (or of English and ``only``), English included; problems
    are the findings that fail the build (every one but missing and stale pages), malformed blocks included.

    Each locale's are answered from the disk cache when none of its inputs changed since the last build: its
    folder, English's, its catalog and English's, and the checks' code. Its two halves are kept apart: a page
    saved checks its locale's pages again, not its labels, catalogs and figures (an English page: every locale's
    pages; a catalog or labels.toml: both halves)."""
    ids = lru_cache(maxsize=1)(known_ids)
    # the exercise modules too: the catalog check asks them which keys they need
    checks = files.fingerprint(sorted((ROOT / "hooks").rglob("*.py")) + sorted((ROOT / "grader").rglob("*.py")), ROOT)
    found = {}
    for locale in translations.locales(docs):
        if only and locale not in (SOURCE, *only):
            continue
        folders = dict.fromkeys((SOURCE, locale))
        words = [path for folder in folders for path in sorted((docs / folder).rglob("*.toml"))]
        words += [ROOT / "grader" / "locale" / folder / "LC_MESSAGES" / "grader.po" for folder in folders]
        pages = [path for folder in folders for path in sorted((docs / folder).rglob("*.md"))]
        halves = {}
        for half, inputs in ((translations.PAGES, pages + words), (translations.WORDS, words)):
            key = [files.fingerprint(inputs, ROOT), checks, str(root), locale, half]
            halves[half] = [translations.Finding(*row) for row in cache.cached(
                "checks", key, lambda: [astuple(f) for f in translations.check_locale(docs, locale, root, ids(), (half,))],
                locale=locale)]
        found[locale] = read_together(halves[translations.PAGES], halves[translations.WORDS])
    # markup the allow-list does not hold is reported by the build once it is removed, so the page is still written
    problems = [f for rows in found.values() for f in rows if f.error and f.kind not in translations.RENDER_KINDS]
    return found, problems


def read_together(pages: list, words: list) -> list:
    """A locale's findings from its two halves, cached apart: a file that cannot be read is the only finding
    (the pages' half, made from every input, holds each such slip); else both, file by file, line by line."""
    if any(f.kind == "file" for f in pages):
        return pages
    return translations.in_editor_order(pages + words)


def sanitized(content: str) -> tuple[str, list[sanitize.Unsafe]]:
    """The allow-list's (clean content, what it took away) for a page's content, from the disk cache when
    the same content went through the same allow-list before: most of the hook's own time in a build whose
    pages did not change (a page's content is the same from build to build)."""
    def compute():
        clean, unsafe = sanitize.sanitized(content)
        return [clean, [astuple(u) for u in unsafe]]

    key = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
    clean, unsafe = cache.cached("sanitized", key, compute, sources=[Path(sanitize.__file__)])
    return clean, [sanitize.Unsafe(*row) for row in unsafe]


def renderers(settings: Settings, labels: dict, in_page: "checker.Checker | None" = None):
    """(exercise, figure) renderers for blocks, answered from the disk cache when nothing changed.
    ``in_page``: whether exercises get the in-page checker."""
    in_browser = bool(in_page and in_page.on)

    def exercise(exercise_id: str, locale: str) -> tuple[str, str]:
        def compute():
            from hooks.chapters import render

            return render.render_exercise(exercise_id, locale, labels[locale], settings.solutions, in_browser,
                                          settings.solution_gate)

        key = [exercise_id, locale, sorted(labels[locale].items()), settings.solutions, settings.solution_gate,
               in_page.cache_key() if in_page else None]
        return tuple(cache.cached("exercise", key, compute, locale=locale))

    def figure(figure_id: str, locale: str) -> str:
        table = figure_labels(labels[locale])

        def compute():
            from hooks.chapters import render

            return render.both_layouts(figure_id, table, locale)   # the data only: answers are in the solution

        return cache.cached("figure", [figure_id, locale, sorted(table.items())], compute, locale=locale)

    return exercise, figure


def with_problems(markdown: str, problems: list[str]) -> str:
    """`mkdocs serve`'s page with its problems listed under its title (in English, as the translators' report
    says them), so the translator sees them where they work, and the page keeps its title (MkDocs takes it,
    and the nav's label, from a first heading that comes first); a build never shows them: it fails on them."""
    if not problems:
        return markdown
    items = "".join(f"<li>{html.escape(problem, quote=False)}</li>" for problem in problems)
    return under_title(markdown, f'<div class="course-problems" role="alert" lang="en"><p>The strict build (make build) '
                                 f'fails on this page: make translations reports</p><ul>{items}</ul></div>\n\n')


def with_notice(markdown: str, notice: str, lang: str, kind: str) -> str:
    """Put a notice (`kind`: fallback, stale, draft), in the reader's language, right under the page's title
    (or first, if it has none). The notice may hold a Markdown link."""
    return under_title(markdown, f'<p class="course-{kind}" role="note" lang="{lang}" markdown>'
                                 f'{html.escape(notice, quote=False)}</p>\n\n')


ANSWER_KEY_LEFT_OUT = ("This page's examples grade the lessons' own data, so they show the answers: a site built "
                      "with solutions off leaves them out. Read the page in the course's repository "
                      "(`docs/en/{name}`) or on a site built with solutions on.")


def without_answers(markdown: str, name: str) -> str:
    """A staff page whose examples are the answer key (front matter ``answers: true``), as a site built with
    solutions off publishes it: its title and a note saying where the page is."""
    title = re.search(r"(?m)^# .*\n", markdown)
    note = html.escape(ANSWER_KEY_LEFT_OUT.format(name=name), quote=False)
    return (title.group(0) if title else "") + f'\n<p class="course-draft" role="note" lang="en" markdown>{note}</p>\n'


def under_title(markdown: str, block: str) -> str:
    """``block`` right under the page's title (its first level-1 heading), or first if it has none."""
    title = re.search(r"(?m)^# .*\n", markdown)
    if title is None:
        return block + markdown
    return markdown[: title.end()] + "\n" + block + markdown[title.end():]
