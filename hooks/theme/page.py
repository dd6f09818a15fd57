"""What the course changes in the page mkdocs-material writes around the content.

- Language alternates. mkdocs-static-i18n points the theme's language links at the same page in
  each language, so the switcher keeps a reader on the lesson. The theme also writes them into
  <head> as `<link rel="alternate" hreflang>`, and its script fetches `sitemap.xml` next to each
  one, to map pages between languages; next to a page there is none, so every page load made one
  failed request (and a console error) per language. The switcher's own links already lead to the
  same lesson, so the <head> copies go (`without_language_alternates`, called by hooks/course.py).
  Search engines find each page's languages in the one sitemap.xml, at the site's root
  (mkdocs-static-i18n's: absolute addresses under site_url, each page's hreflang alternates).
- Search per locale. mkdocs-static-i18n merges every locale's pages into the one index the theme
  loads (`search/search_index.json` next to the page's `base`), with the lunr language packs of
  every locale. Each locale gets its own index instead, `<locale>/search/search_index.json`, with
  its pages only and its own lunr language, and its pages' `base` points at their locale's folder:
  the theme resolves the index, the results' links and the sitemap (below) against it (versions are off).
- Words the theme leaves unnamed or in one language: the search dialog gets a name (the one its
  search box already has, in the page's language), a heading's permanent link its title in the
  page's language (`[reader] permalink` in labels.toml), a formula the name a screen reader gives
  it when it scrolls sideways (`[reader] formula`, used by assets/reader.js).
  The theme's other words that are in one language for all, or none, are labels too (frame.py).
- A skip link to the page's first exercise (`[reader] go_to_exercise`), the first thing Tab reaches: next to the
  theme's own skip link, in the part of the page its instant navigation swaps (`with_exercise_skip`).
- The 404 pages: each locale's in its folder, `<locale>/404.html`; the root's is the default locale's
  (every locale's build writes the root's, the last one wins: hook.py writes it again at the end), and
  sends a reader to their locale's (address.py).
- A sitemap per locale. The theme's instant navigation swaps in, without a reload, only the pages listed in
  `sitemap.xml` next to the page's `base`: each other locale's folder (above) gets `<locale>/sitemap.xml`, its
  own pages (its fallbacks too); the default locale's is mkdocs-static-i18n's at the root, which lists every
  locale's pages: assets/reader.js makes a link into another locale's folder load its page anew (with that
  language's theme words and search). The addresses start with `site_url`: instant navigation needs the site
  served there.
- One warning of mkdocs-static-i18n dropped (:class:`SwitcherKeptRight`): assets/reader.js does what it warns of.

The events that call these: hook.py.
"""

from __future__ import annotations

import html
import json
import logging
import re
from pathlib import Path

from hooks.theme.frame import framed

HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
CONFIG_BASE = re.compile(r'(<script id="__config" type="application/json">\{.*?"base": ")([^"]*)(")', re.S)
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_BOX_NAME = re.compile(r'<input type="text" class="md-search__input"[^>]*\baria-label="([^"]*)"')
DISPLAY_MATH = '<div class="course-math">'
SKIP = '<div data-md-component="skip">'
FIRST_EXERCISE = re.compile(r'<section class="course-exercise" id="(exercise-[a-z0-9-]+)"')
SEARCH_PLUGINS = ("material/search", "search")
LUNR_PACKS = Path(__import__("material").__file__).parent / "templates/assets/javascripts/lunr/min"


class SwitcherKeptRight(logging.Filter):
    """mkdocs-static-i18n warns that with the theme's instant navigation the language switcher keeps the links of
    the first page (the theme swaps the page in place, not the header); assets/reader.js points them at each page
    swapped in (tests/site/test_checker.py follows a link, then switches language). Only that warning is dropped:
    it would fail the strict build. Here, not in the hook: every build imports this module, a test's too."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "language switcher contextual link is not compatible" not in record.getMessage()


logging.getLogger("mkdocs.plugins.mkdocs_static_i18n.reconfigure").addFilter(SwitcherKeptRight())


def without_language_alternates(output: str) -> str:
    head, sep, body = output.partition("</head>")
    return HEAD_ALTERNATE.sub("", head) + sep + body if sep else output


# --- the page


def with_locale_search(output: str, locale: str) -> str:
    """The page's `base` (the site's root, relative to the page) made its locale's folder, where its index is."""
    return CONFIG_BASE.sub(lambda m: f"{m.group(1)}{m.group(2).rstrip('/')}/{locale}/{m.group(3)}", output, count=1)


def with_named_search_dialog(output: str) -> str:
    name = SEARCH_BOX_NAME.search(output)
    if not name:
        return output
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name.group(1)}">', 1)


def with_formula_names(output: str, name: str) -> str:
    return output.replace(DISPLAY_MATH, f'<div class="course-math" data-scroll-label="{html.escape(name)}">')


def with_exercise_skip(output: str, labels: dict) -> str:
    """On a page with an exercise, a skip link to the first one, the page's first tab stop (hidden until it has
    the focus, as the theme's own)."""
    exercise = FIRST_EXERCISE.search(output)
    if not exercise or SKIP not in output:
        return output
    link = f'<a href="#{exercise.group(1)}" class="md-skip course-skip">{html.escape(labels["reader.go_to_exercise"])}</a>'
    return output.replace(SKIP, SKIP + link, 1)


def page_output(output: str, locale: str, default_locale: str, labels: dict) -> str:
    """Everything this hook changes in a written page (a 404 page included)."""
    output = with_exercise_skip(output, labels)
    output = framed(with_named_search_dialog(with_formula_names(output, labels["reader.formula"])), labels)
    return output if locale == default_locale else with_locale_search(output, locale)


# --- search, one index per locale


def lunr_languages(locale: str) -> list[str]:
    """The lunr language the theme's search worker loads for a locale: its own pack, else English (built in)."""
    return [locale] if (LUNR_PACKS / f"lunr.{locale}.min.js").exists() else ["en"]


def locale_index(index: dict, locale: str, prefix: str) -> dict:
    """The search index of one locale: its entries, their links relative to the locale's folder (`prefix`)."""
    docs = [{**doc, "location": doc["location"].removeprefix(prefix)} for doc in index["docs"]]
    return {"config": {**index["config"], "lang": lunr_languages(locale)}, "docs": docs}


def default_entries(index: dict, other_locales: list[str]) -> dict:
    """The default locale's entries of a merged index: those under no other locale's folder."""
    others = tuple(f"{locale}/" for locale in other_locales)
    return {**index, "docs": [doc for doc in index["docs"] if not doc["location"].startswith(others)]}


def _search_index(config) -> dict | None:
    plugin = next((config.plugins[name] for name in SEARCH_PLUGINS if name in config.plugins), None)
    if plugin is None or not hasattr(plugin, "search_index"):
        return None
    return json.loads(plugin.search_index.generate_search_index(None))


# --- a sitemap per locale, for instant navigation


def locale_sitemap(site_url: str, urls: list[str]) -> str:
    """A sitemap of the pages at ``urls`` (relative to the site's root), their addresses under ``site_url``."""
    base = site_url.rstrip("/") + "/"
    entries = "".join(f"  <url><loc>{html.escape(base + url)}</loc></url>\n" for url in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}</urlset>\n')

