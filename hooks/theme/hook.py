"""MkDocs hook: the theme's page (hooks/theme/page.py) wired to MkDocs events.

Event order per locale build: on_config (the site's address, checked; this locale's permalink title and
colour switch names), on_nav (the locale's navigation, kept), on_env (every page read: the staff pages out
of the students' navigation and footer), on_post_page (the page, its address kept for the locale's sitemap),
on_post_template (the locale's 404 page: `<locale>/404.html`, or the root's, kept), on_post_build (this
locale's search index and sitemap; after the last locale, the default locale's index and the root
404.html). It is a hook of its own, beside hooks/course.py, because its on_post_build must run after
mkdocs-static-i18n's and the course's must not.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.utils import write_file  # noqa: E402

from hooks.theme import address, frame, navigation  # noqa: E402
from hooks.theme.page import (  # noqa: E402
    _search_index,
    default_entries,
    locale_index,
    locale_sitemap,
    page_output,
    without_language_alternates,
)


@dataclass
class Build:
    """What this hook keeps between the events of one build: the labels, the locale's navigation, the root
    404 page to write."""

    labels: dict = field(default_factory=dict)
    nav: object = None
    page_404: str | None = None
    pages: dict = field(default_factory=dict)   # locale -> the URLs of its pages, for its sitemap


BUILD = Build()


def _i18n(config):
    return config.plugins.get("i18n")


def _locale(config) -> str:
    """The locale being built (mkdocs-static-i18n builds one after the other)."""
    return getattr(_i18n(config), "current_language", None) or config.theme.get("language", "en")


def _labels(locale: str) -> dict:
    return BUILD.labels.get(locale) or BUILD.labels["en"]


def on_config(config):
    from hooks.chapters.labels import load_labels

    global BUILD
    if not BUILD.labels or not getattr(_i18n(config), "building", False):   # a new build or rebuild
        BUILD = Build(load_labels(Path(config.docs_dir)))  # hooks/course.py reports a malformed labels.toml first
        try:
            address.site_address(config.site_url, os.environ)
        except address.AddressError as error:
            raise PluginError(f"the site's address is wrong: {error}") from None
    labels = _labels(_locale(config))
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = labels["reader.permalink"]
    if isinstance(config.theme.get("palette"), list):
        config.theme["palette"] = frame.with_palette_names(config.theme["palette"], labels)
    return config


@event_priority(-200)  # after mkdocs-static-i18n's (-100), which gives the locale its navigation
def on_nav(nav, config, files):
    BUILD.nav = nav
    return nav


def on_env(env, config, files):
    locale = _locale(config)
    navigation.for_students(BUILD.nav, staff_listed=locale == getattr(_i18n(config), "default_language", locale))
    return env


def on_post_page(output, page, config):
    locale = _locale(config)
    BUILD.pages.setdefault(locale, []).append(page.url)
    return page_output(output, locale, getattr(_i18n(config), "default_language", locale), _labels(locale))


def on_post_template(output_content, template_name, config):
    """The locale's 404 page, in its words, its search its locale's: the default locale's is kept for the root
    (every locale's build writes the root's), another's written to its folder."""
    i18n = _i18n(config)
    if template_name != "404.html" or i18n is None:
        return output_content
    locale, default = _locale(config), i18n.default_language
    link = i18n.get_language_config(locale).link
    page = frame.not_found(without_language_alternates(output_content), _labels(locale),
                           address.locale_home(config.site_url or "/", link))
    page = page_output(page, locale, default, _labels(locale))
    if locale == default:
        homes = [address.locale_home(config.site_url or "/", lang.link) for lang in i18n.config.languages
                 if lang.build and lang.locale != default]
        BUILD.page_404 = address.with_locale_choice(page, homes)
    else:
        write_file(page.encode("utf-8"), str(Path(config.site_dir) / link.strip("/") / "404.html"))
    return output_content


@event_priority(-200)  # after mkdocs-static-i18n (-100), which builds the other locales and merges their indexes
def on_post_build(config):
    i18n, site = _i18n(config), Path(config.site_dir)
    index = _search_index(config)
    if i18n is None or index is None:
        return
    if i18n.building:  # one other locale's build: the search plugin holds this locale's entries only
        locale = i18n.current_language
        write_file(json.dumps(locale_index(index, locale, f"{locale}/"), ensure_ascii=False, separators=(",", ":"))
                   .encode("utf-8"), str(site / locale / "search" / "search_index.json"))
        if config.site_url:
            write_file(locale_sitemap(config.site_url, BUILD.pages.get(locale, [])).encode("utf-8"),
                       str(site / locale / "sitemap.xml"))
        return
    default = i18n.default_language
    others = [locale for locale in i18n.build_languages if locale != default]
    english = locale_index(default_entries(index, others), default, "")
    write_file(json.dumps(english, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
               str(site / "search" / "search_index.json"))
    if BUILD.page_404:
        write_file(BUILD.page_404.encode("utf-8"), str(site / "404.html"))

