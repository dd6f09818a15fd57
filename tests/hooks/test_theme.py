"""The page around the content: the <head> lists no language alternates; the switcher's links stay."""

from __future__ import annotations

from hooks.theme.page import without_language_alternates

PAGE = """<html><head>
    <link rel="canonical" href="https://example.org/ja/02/">
      <link rel="alternate" href="../../02/" hreflang="en">
      <link rel="alternate" href="./" hreflang="ja">
    <link rel="icon" href="../../assets/favicon.png">
</head><body>
<a href="../../02/" hreflang="en" class="md-select__link">English</a>
<p>Text about <link rel="alternate" href="x" hreflang="y"> kept in the body.</p>
</body></html>"""


def test_head_alternates_go_and_the_rest_stays():
    out = without_language_alternates(PAGE)
    head, body = out.split("</head>")
    assert 'rel="alternate"' not in head
    assert 'rel="canonical"' in head and 'rel="icon"' in head
    assert body == PAGE.split("</head>")[1]


def test_a_page_with_no_head_is_left_alone():
    assert without_language_alternates("<p>fragment</p>") == "<p>fragment</p>"


# --- search per locale, and names the theme leaves out

from hooks.theme.page import (  # noqa: E402
    default_entries,
    locale_index,
    lunr_languages,
    page_output,
    with_locale_search,
    with_named_search_dialog,
)

CONFIG = '<script id="__config" type="application/json">{"annotate": null, "base": "../..", "features": []}</script>'


def test_a_locales_page_looks_for_search_in_its_locale_folder():
    assert '"base": "../../ja/"' in with_locale_search(CONFIG, "ja")
    assert '"base": "../ja/"' in with_locale_search(CONFIG.replace("../..", ".."), "ja")
    assert with_locale_search("<p>no config</p>", "ja") == "<p>no config</p>"


def test_the_default_locale_keeps_the_root_and_gets_the_dialog_named():
    page = (CONFIG + '<div class="md-search" data-md-component="search" role="dialog">'
            '<input type="text" class="md-search__input" name="query" aria-label="検索" placeholder="検索">'
            '<div class="course-math"><math></math></div>')
    out = page_output(page, "en", "en", {"reader.formula": "Formula"})
    assert '"base": "../.."' in out
    assert '<div class="md-search" data-md-component="search" role="dialog" aria-label="検索">' in out
    assert '<div class="course-math" data-scroll-label="Formula">' in out
    assert with_named_search_dialog("<p>no search</p>") == "<p>no search</p>"


def test_each_locale_index_holds_its_pages_with_links_from_its_folder():
    merged = {"config": {"lang": ["en", "ja", "fr"], "separator": "[\\s]+"},
              "docs": [{"location": "", "title": "Home", "text": ""},
                       {"location": "02/#x", "title": "Two", "text": ""},
                       {"location": "ja/02/", "title": "二", "text": ""},
                       {"location": "fr/", "title": "Accueil", "text": ""}]}
    english = locale_index(default_entries(merged, ["ja", "fr"]), "en", "")
    assert [d["location"] for d in english["docs"]] == ["", "02/#x"]
    assert english["config"] == {"lang": ["en"], "separator": "[\\s]+"}
    japanese = locale_index({**merged, "docs": merged["docs"][2:3]}, "ja", "ja/")
    assert japanese["docs"] == [{"location": "02/", "title": "二", "text": ""}] and japanese["config"]["lang"] == ["ja"]


def test_a_locale_without_a_lunr_pack_is_searched_as_english():
    assert lunr_languages("ja") == ["ja"] and lunr_languages("fr") == ["fr"]
    assert lunr_languages("id") == ["en"] and lunr_languages("en") == ["en"]
