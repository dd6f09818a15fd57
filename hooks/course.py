"""MkDocs hook: wires the course's blocks, math, figures and checks to MkDocs events.

Event order, per language build (mkdocs-static-i18n runs one build per locale):
  on_config        first language of a build (or of a `mkdocs serve` rebuild): check every chapter
                   (malformed blocks, math, links, and each translation against English; fail
                   with path:line), load the labels; register the blocks once
  on_page_markdown add a notice to a page shown in place of a missing translation (fallback), or
                   to a translation whose English page changed since it was stamped (stale)
  on_page_content  neutralise markup that could run script (path:line); keep formulas out of search
  on_post_page     TeX to MathML in the written page; drop the theme's <head> language alternates
                   (they make it fetch missing sitemaps)
  on_post_build    fail the build with every problem found, all at once
"""

from __future__ import annotations

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

from hooks import checker, sanitize, site, theme  # noqa: E402
from hooks.blocks import CourseBlocks, PageContext  # noqa: E402
from hooks.mathml import MathError, out_of_search, render_math  # noqa: E402

log = get_plugin_logger("course")

CONTEXT = PageContext()
STATE = {"labels": {}, "problems": [], "settings": None, "findings": {}, "docs": None, "stale": set(),
         "checker": checker.Checker(False), "site_dir": None}


def current_language(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or config.theme.get("language", "en")


def on_config(config):
    if not any(isinstance(ext, CourseBlocks) for ext in config.markdown_extensions):
        config.markdown_extensions.append(CourseBlocks(CONTEXT))
    docs = Path(config.docs_dir)
    if not getattr(config.plugins.get("i18n"), "building", False):
        # the first (default-language) build of a build or a `mkdocs serve` rebuild:
        # check every chapter of every locale at once
        STATE["problems"].clear()
        findings, problems = site.check_translations(docs, ROOT)
        STATE["findings"], STATE["docs"] = findings, docs
        STATE["stale"] = {f.path for rows in findings.values() for f in rows if f.kind == "stale"}
        for note in (f for rows in findings.values() for f in rows if f not in problems):
            log.info(str(note))
        if problems:
            raise PluginError(
                "the chapters have problems (`make translations` gives the full report):\n"
                + "\n".join(map(str, problems))
            )
        try:
            STATE["labels"] = site.load_labels(docs)
        except site.LabelError as error:
            raise PluginError(f"labels differ from English:\n{error}") from None
        # the in-page checker: decided, and said when it is off, once per build
        STATE["checker"] = checker.Checker.from_config(config.extra.get("course", {}), os.environ)
        STATE["site_dir"] = config.site_dir
        if not STATE["checker"].on:
            log.info(STATE["checker"].message())
    STATE["settings"] = site.Settings.from_config(config.extra.get("course", {}), os.environ)
    CONTEXT.render_exercise, CONTEXT.render_figure = (
        _reporting(render) for render in site.renderers(STATE["settings"], STATE["labels"], STATE["checker"])
    )
    CONTEXT.render_status = render_status
    return config


def render_status() -> str:
    from hooks import translations

    return site.status_html(translations.progress(STATE["docs"], STATE["findings"]))


def _reporting(render):
    """Turn a renderer's failure into a build problem that names the page and the block."""

    def call(block_id, lang):
        try:
            return render(block_id, lang)
        except Exception as error:  # noqa: BLE001 - reported with its page, then the build fails
            STATE["problems"].append(f"{STATE['page']}: '{block_id}' could not be rendered ({lang}): {error!r}")
            return ("", "") if render.__name__ == "exercise" else ""

    return call


def on_page_markdown(markdown, page, config, files):
    STATE["page"] = site.relative(Path(page.file.abs_src_path), ROOT)
    lang = current_language(config)
    CONTEXT.lang = lang
    CONTEXT.labels = STATE["labels"][lang]
    if is_fallback(page, lang):
        if page.meta.get("translate") is not False:  # a page for the course's staff is English only
            markdown = site.with_notice(markdown, CONTEXT.label("fallback_notice"), lang, "fallback")
    elif STATE["page"] in STATE["stale"]:
        english_url = page.url.removeprefix(f"{lang}/")
        url = get_relative_url(english_url or ".", page.url or ".")
        markdown = site.with_notice(markdown, CONTEXT.label("stale_notice", url=url), lang, "stale")
    return markdown



def is_fallback(page, lang: str) -> bool:
    """Is this page the English one, shown in place of a translation the locale lacks?"""
    return getattr(page.file, "locale", lang) != lang


UNRENDERED_BLOCK = re.compile(r"<p>\s*/{3,}[^<\n]*")


def on_page_content(html, page, config, files):
    html, unsafe = sanitize.neutralise(html)
    STATE["problems"] += sanitize.report(unsafe, STATE["page"], Path(page.file.abs_src_path))
    leftover = UNRENDERED_BLOCK.search(html)
    if leftover:  # a safety net under the linter: Blocks turned something into a paragraph
        STATE["problems"].append(f"{STATE['page']}: a block was not rendered: {leftover.group(0)[3:].strip()!r}")
    if is_fallback(page, CONTEXT.lang):  # the text is English: say so to browsers and screen readers
        html = f'<div lang="{page.file.locale}">{html}</div>'
    return out_of_search(html)


def on_post_page(output, page, config):
    try:
        output = render_math(output)
    except MathError as error:
        source_path = Path(page.file.abs_src_path)
        where = site.locate(error.tex, source_path.read_text(encoding="utf-8"))
        STATE["problems"].append(f"{site.relative(source_path, ROOT)}:{where}: {error}")
    output = checker.page_tags(output, page.url, STATE["checker"])
    return theme.without_language_alternates(output)


def on_post_build(config):
    if config.site_dir == STATE["site_dir"]:   # the default language's build: the site's root
        checker.publish(Path(config.site_dir), STATE["checker"])
    problems = list(dict.fromkeys(str(p) for p in STATE["problems"]))
    if problems:
        STATE["problems"].clear()
        raise PluginError("the chapters have problems:\n" + "\n".join(problems))
