"""MkDocs hook: wires the course's blocks, math, figures and checks to MkDocs events.

Event order, per language build (mkdocs-static-i18n runs one build per locale):
  on_startup       once: `mkdocs build` (strict: every problem fails it) or `mkdocs serve` (the translator's
                   preview: it keeps serving, and shows each problem in the terminal and on its page)
  on_config        every language: read the settings (`extra.course`, checked); in serve, build only English
                   and COURSE_SERVE_LOCALE when it is set (hooks/site/serve.py). First language of a
                   build (or of a `mkdocs serve` rebuild): read again the exercise modules and catalogs
                   that changed since the last build (hooks/chapters/cache.py); start a new `Build`: check every chapter
                   (malformed blocks, math, links, and each translation against English; fail with
                   path:line), load the labels; register the blocks once
  on_page_markdown add a notice to a page shown in place of a missing translation (fallback), to a
                   translation whose English page changed since it was stamped (stale), to a draft (`draft:
                   true` in its front matter); in serve, the page's problems above its text
  on_page_content  keep formulas out of search; link
                   the exercises to the grader's install page; the home page's progress (hooks/checker/workspace.py)
  on_pre_build     the search index reads a page without the insides of what it skips (an SVG's tags...);
                   in serve: the theme's templates compiled and listed, and each page's search entries made,
                   once per process; a page's Markdown converted again only when what it is made from
                   changed (hooks/site/serve.py)
  on_post_page     TeX to MathML in the written page; its content through an allow-list (markup
                   that could run script or load from elsewhere is removed and named, path:line); drop the theme's <head> language alternates
                   (they make it fetch missing sitemaps); the in-page checker's two small files, on every
                   page (instant navigation keeps the first page's scripts)
  on_post_build    the default language's: publish the in-page checker (hooks/checker/publish.py); then fail
                   the build with every problem found, all at once (in serve: say them, and go on)
  on_serve         `mkdocs serve` watches grader/ too (its exercise modules and catalogs), answers every page
                   from the last complete build, and builds again when the checker's trace, made in the
                   background, is ready (hooks/site/serve.py, hooks/checker/pack.py)
  on_shutdown      in serve: stop the trace under way
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import get_plugin_logger  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from grader import files as source_files  # noqa: E402
from hooks.chapters import cache, sanitize  # noqa: E402
from hooks.chapters.blocks import CourseBlocks, PageContext  # noqa: E402
from hooks.chapters.labels import LabelError, exercise_title, load_labels  # noqa: E402
from hooks.chapters.mathml import MathError, out_of_search, render_math  # noqa: E402
from hooks.chapters.readable import Unreadable  # noqa: E402
from hooks.checker import pack, trace, workspace  # noqa: E402
from hooks.checker import publish as checker  # noqa: E402
from hooks.site import build, search, serve  # noqa: E402
from hooks.site.settings import Settings, SettingsError  # noqa: E402
from hooks.theme import page as theme  # noqa: E402
from hooks.theme import templates  # noqa: E402

log = get_plugin_logger("course")

CONTEXT = PageContext()  # what the blocks read of the page being rendered (they are registered once)
BUILD: build.Build | None = None  # the build under way: a new one with every build and rebuild
SERVING = False  # `mkdocs serve`: problems are shown, in the terminal and on their pages, and fail nothing


def on_startup(command, dirty):
    global SERVING
    SERVING = command == "serve"


def current_language(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language", "en")


def on_config(config):
    global BUILD
    if not any(isinstance(ext, CourseBlocks) for ext in config.markdown_extensions):
        config.markdown_extensions.append(CourseBlocks(CONTEXT))
    try:
        settings = Settings.from_config(config.extra.get("course"), os.environ)
        only = serve.serve_only(config, os.environ) if SERVING else None
    except (SettingsError, serve.SettingError) as error:
        raise PluginError(f"the course's settings are wrong:\n{error}") from None
    if BUILD is None or not getattr(config.plugins.get("i18n"), "building", False):
        # the first (default-language) build of a build or a `mkdocs serve` rebuild: the grader as it is now
        if cache.refresh():
            log.info("the grader's exercise modules or catalogs changed: read again")
        BUILD = start(Path(config.docs_dir), (only,) if only else ())
        if SERVING:
            serve.new_renders()
        BUILD.site_dir = config.site_dir
        # the in-page checker: decided, and said when it is off, once per build; in serve, the pages never
        # wait for its trace (made in the background, the previous one used meanwhile)
        BUILD.checker = dataclasses.replace(checker.Checker.decide(settings.check_in_browser, os.environ),
                                            wait=not SERVING)
        if not BUILD.checker.on:
            log.info(BUILD.checker.message())
    BUILD.settings = settings
    CONTEXT.render_exercise, CONTEXT.render_figure = (
        _reporting(render, BUILD) for render in build.renderers(settings, BUILD.labels, BUILD.checker)
    )
    CONTEXT.render_status = BUILD.status_html
    CONTEXT.exercise_title = exercise_title
    CONTEXT.print_solutions = settings.print_solutions
    return config


def on_pre_build(config):
    search.keep_out_skipped(config)   # the search index never reads inside what it skips (hooks/site/search.py)
    templates.keep_theme()   # the theme's templates compiled once per process, not once per locale
    if SERVING:   # what a rebuild would do again for nothing, done once per process (hooks/site/serve.py)
        serve.keep_search(config)
        lang = current_language(config)
        serve.keep_renders(repr((cache.fingerprint(lang), lang, sorted(BUILD.labels[lang].items()), BUILD.settings,
                                 BUILD.checker.cache_key() if BUILD.checker.on else None)), BUILD.problems)


def on_serve(server, config, builder):
    """`mkdocs serve` rebuilds when the grader changes too: an exercise module or a catalog (what changed
    is read again before the next build: hooks/chapters/cache.py); it answers pages from the last complete
    build; the checker's trace, made in the background, asks for a rebuild when it is ready."""
    server.watch(str(ROOT / "grader"))
    serve.start(server, config)
    serve.watch_natively(server)
    serve.warm_renderers()
    pack.on_ready(serve.ask_rebuild)
    return server


def on_shutdown():
    trace.stop_all()
    serve.stop()


def start(docs: Path, only: tuple[str, ...] = ()) -> build.Build:
    """A new build: every chapter of every locale (in serve, of English and ``only``) checked at once, and the
    labels loaded. Its problems fail the build; in serve, they are said in the terminal and shown on their pages."""
    findings, problems = build.check_translations(docs, docs.resolve().parent, only)   # named as the report names them
    for note in (f for rows in findings.values() for f in rows if f not in problems):
        log.info(str(note))
    if problems and (not SERVING or any(p.kind == "file" for p in problems)):   # a file nothing can be built from
        raise PluginError(
            "the chapters have problems (`make translations` gives the full report):\n"
            + "\n".join(map(str, problems))
        )
    for problem in problems:      # serve: the preview goes on; the strict build fails on each of these
        log.warning(f"{problem} (make build fails on it)")
    try:
        labels = load_labels(docs)
    except Unreadable as error:
        raise PluginError(f"a labels file cannot be read:\n{error}") from None
    except LabelError as error:
        raise PluginError(f"labels differ from English:\n{error}") from None
    return build.Build(docs, findings, labels)


def _reporting(render, current: build.Build):
    """Turn a renderer's failure into a build problem that names the page and the block."""

    def call(block_id, lang):
        try:
            return render(block_id, lang)
        except Exception as error:  # noqa: BLE001 - reported with its page, then the build fails
            current.problems.append(f"{current.page}: '{block_id}' could not be rendered ({lang}): {error!r}")
            return ("", "") if render.__name__ == "exercise" else ""

    return call


def on_page_markdown(markdown, page, config, files):
    BUILD.page = BUILD.name(page.file.abs_src_path)
    lang = current_language(config)
    CONTEXT.lang = lang
    CONTEXT.labels = BUILD.labels[lang]
    if is_fallback(page, lang):
        if page.meta.get("translate") is not False:  # a page for the course's staff is English only
            markdown = build.with_notice(markdown, CONTEXT.label("fallback_notice"), lang, "fallback")
    elif BUILD.page in BUILD.stale:
        english_url = page.url.removeprefix(f"{lang}/")
        url = get_relative_url(english_url or ".", page.url or ".")
        markdown = build.with_notice(markdown, CONTEXT.label("stale_notice", url=url), lang, "stale")
    if not is_fallback(page, lang) and page.meta.get("draft") is True:
        markdown = build.with_notice(markdown, CONTEXT.label("draft_notice"), lang, "draft")
    if page.meta.get("answers") is True and not BUILD.settings.solutions:   # a staff page's answer key
        markdown = build.without_answers(markdown, page.file.src_uri.split("/")[-1])
    if SERVING and not is_fallback(page, lang):
        markdown = build.with_problems(markdown, BUILD.page_problems(BUILD.page))
    return markdown


def is_fallback(page, lang: str) -> bool:
    """Is this page the English one, shown in place of a translation the locale lacks?"""
    return getattr(page.file, "locale", lang) != lang


UNRENDERED_BLOCK = re.compile(r"<p>\s*/{3,}[^<\n]*")


def on_page_content(html, page, config, files):
    leftover = UNRENDERED_BLOCK.search(html)
    if leftover:  # a safety net under the linter: Blocks turned something into a paragraph
        BUILD.problems.append(f"{BUILD.page}: a block was not rendered: {leftover.group(0)[3:].strip()!r}")
    html = workspace.with_install_link(html, files, page)   # under each exercise: how to get the grader command
    if is_fallback(page, CONTEXT.lang):  # the text is English: say so to browsers and screen readers
        html = f'<div lang="{page.file.locale}">{html}</div>'
    if BUILD.checker.on and page.url in ("", f"{CONTEXT.lang}/"):  # a locale's home page: the student's progress
        html += BUILD.progress_html(CONTEXT.lang, page, files)
    return out_of_search(html)


def on_post_page(output, page, config):
    source_path = Path(page.file.abs_src_path)
    written = page.content or ""
    try:
        output, written = render_math(output), render_math(written)
    except MathError as error:
        # the formula's start finds its line: the written page may break a long one differently
        where = source_files.line_of([error.tex.strip()[:40]], source_path.read_text(encoding="utf-8"))
        BUILD.problems.append(f"{BUILD.name(source_path)}:{where}: {error}")
    sanitized = with_sanitized_content(output, written)
    if sanitized is None:   # never, unless the theme stops writing the content as it is: fail, say where
        BUILD.problems.append(f"{BUILD.page}: the page's content is not in the page the theme wrote, so it could "
                              "not be sanitized (hooks/course.py: with_sanitized_content)")
    else:
        output, unsafe = sanitized
        BUILD.problems += sanitize.report(unsafe, BUILD.page, source_path)
    output = checker.page_tags(output, page.url, BUILD.checker)
    return theme.without_language_alternates(output)


def with_sanitized_content(output: str, written: str) -> tuple[str, list] | None:
    """The written page with its content as written (the chapter, its blocks, math and figures) through the
    allow-list (hooks/chapters/sanitize.py), and what it took away. The theme writes the content once, as
    it is."""
    if not written:
        return output, []
    at = output.find(written)
    if at < 0:
        return None
    clean, unsafe = build.sanitized(written)
    return output[:at] + clean + output[at + len(written):], unsafe


def on_post_build(config):
    if config.site_dir == BUILD.site_dir:  # the default language's build: the site's root
        checker.publish(Path(config.site_dir), BUILD.checker)
        if BUILD.checker.on and not BUILD.checker.ready:
            log.info("the in-page checker is being prepared in the background (its first trace takes a minute or "
                     "two): the exercises show the command-line route until then, and the pages reload with it")
    problems = list(dict.fromkeys(str(p) for p in BUILD.problems))
    BUILD.problems.clear()
    if problems and (not SERVING or any(p.kind == "file" for p in problems)):   # a file nothing can be built from
        raise PluginError("the chapters have problems:\n" + "\n".join(problems))
    for problem in problems:
        log.warning(f"{problem} (make build fails on it)")
