"""MkDocs hook: the theme's page (hooks/theme/page.py) wired to MkDocs events.

Event order per locale build: on_config (this locale's permalink title), on_post_page (the page),
on_post_template (the 404 page), on_post_build (this locale's search index and sitemap; after the last
locale, the default locale's index, the root 404.html and the root sitemap). It is a hook of its own, beside hooks/course.py,
because its on_post_build must run after mkdocs-static-i18n's and the course's must not.
"""

from __future__ import annotations

import gzip
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.utils import write_file  # noqa: E402

from hooks.theme.page import (  # noqa: E402
    _search_index,
    default_entries,
    default_sitemap,
    locale_index,
    locale_sitemap,
    page_output,
    with_named_search_dialog,
    without_language_alternates,
)


@dataclass
class Build:
    """What this hook keeps between the events of one build: the labels, and the 404 page to write."""

    labels: dict = field(default_factory=dict)
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
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = _labels(_locale(config))["reader.permalink"]
    return config


def on_post_page(output, page, config):
    locale = _locale(config)
    BUILD.pages.setdefault(locale, []).append(page.url)
    return page_output(output, locale, getattr(_i18n(config), "default_language", locale), _labels(locale))


def on_post_template(output_content, template_name, config):
    i18n = _i18n(config)
    default = getattr(i18n, "default_language", None)
    if template_name == "404.html" and getattr(i18n, "current_language", None) == default:
        BUILD.page_404 = with_named_search_dialog(without_language_alternates(output_content))
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
    sitemap = site / "sitemap.xml"
    if config.site_url and sitemap.is_file():
        text = default_sitemap(sitemap.read_text(encoding="utf-8"), config.site_url, others).encode("utf-8")
        write_file(text, str(sitemap))
        write_file(gzip.compress(text, mtime=0), str(site / "sitemap.xml.gz"))
