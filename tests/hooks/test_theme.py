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


# --- the theme's own words: labels.toml's [frame], in each locale

from types import SimpleNamespace  # noqa: E402

import pytest  # noqa: E402

from grader.files import tomllib  # noqa: E402
from hooks.chapters.labels import load_labels  # noqa: E402
from hooks.theme import address, frame, navigation  # noqa: E402
from tests.conftest import ROOT  # noqa: E402

LABELS = load_labels(ROOT / "docs")
FRAME_KEYS = set(tomllib.loads((ROOT / "docs/en/labels.toml").read_text("utf-8"))["frame"])

# the theme's markup each replacement finds, as mkdocs-material 9 writes it (the built site is checked in
# tests/site/test_publish.py)
THEME_PAGE = """<header class="md-header" data-md-component="header">
  <nav class="md-header__inner md-grid" aria-label="Header"></nav></header>
<footer class="md-footer">
      <nav class="md-footer__inner md-grid" aria-label="Footer" >
          <a href="../01/" class="md-footer__link md-footer__link--prev" aria-label="Précédent: Une &amp; deux">
          <a href="../03/" class="md-footer__link md-footer__link--next" aria-label="Suivant: Trois">
      </nav>
  <div class="md-copyright">
    Made with
    <a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">
      Material for MkDocs
    </a>
</div></footer>"""


def test_every_locale_words_the_frame():
    for locale, labels in LABELS.items():
        assert {key.removeprefix("frame.") for key in labels if key.startswith("frame.")} == FRAME_KEYS, locale


def test_the_colour_switch_is_named_after_the_theme_it_switches_to():
    palette = [{"scheme": "default", "toggle": {"icon": "material/weather-night"}},
               {"scheme": "slate", "toggle": {"icon": "material/weather-sunny"}}]
    named = frame.with_palette_names(palette, LABELS["fr"])
    assert [entry["toggle"]["name"] for entry in named] == ["Passer au thème sombre", "Passer au thème clair"]
    assert named[0]["toggle"]["icon"] == "material/weather-night" and "name" not in palette[0]["toggle"]


def test_the_header_footer_their_links_and_the_credit_in_the_locales_words():
    out = frame.framed(THEME_PAGE, LABELS["fr"])
    assert 'class="md-header__inner md-grid" aria-label="En-tête"' in out
    assert 'class="md-footer__inner md-grid" aria-label="Pied de page"' in out
    assert 'aria-label="Précédent\u00a0: Une &amp; deux"' in out and 'aria-label="Suivant\u00a0: Trois"' in out
    assert " ".join(out.split('class="md-copyright">')[1].split()).startswith(
        'Réalisé avec <a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">'
        "Material for MkDocs</a>")
    japanese = frame.framed(THEME_PAGE, LABELS["ja"])
    assert 'aria-label="Précédent：Une &amp; deux"' in japanese and "Material for MkDocs</a> で作成" in japanese
    assert frame.framed("<p>no frame</p>", LABELS["fr"]) == "<p>no frame</p>"


def test_the_404_page_says_it_in_the_locale_and_links_its_home():
    out = frame.not_found('<article><h1>404 - Not found</h1></article>', LABELS["fr"], "/course/fr/")
    assert "<h1>Page introuvable</h1>" in out and "404 - Not found" not in out
    assert '<a href="/course/fr/">Aller à l’accueil du cours</a>' in out


# --- the site's address

@pytest.mark.parametrize("configured, environ, expected", [
    ("http://127.0.0.1:8000/", {}, "http://127.0.0.1:8000/"),
    ("http://127.0.0.1:8000/", {"SITE_URL": "https://org.github.io/course/"}, "https://org.github.io/course/"),
    (None, {"SITE_URL": "https://example.org/"}, "https://example.org/"),
])
def test_the_sites_address(configured, environ, expected):
    assert address.site_address(configured, environ) == expected


@pytest.mark.parametrize("configured, environ, words", [
    ("http://x.org/", {"SITE_URL": "https://org.github.io/course"}, "SITE_URL='https://org.github.io/course': "
     "the site's address is a folder and ends with '/': write https://org.github.io/course/"),
    ("http://x.org/", {"SITE_URL": "org.github.io/course/"}, "SITE_URL='org.github.io/course/': the site's "
     "address starts with https://"),
    ("http://x.org/", {"SITE_URL": ""}, "SITE_URL='': the site's address is empty"),
    (None, {}, "site_url: None in mkdocs.yml: the site's address is empty"),
    ("ftp://x.org/", {}, "site_url: 'ftp://x.org/' in mkdocs.yml: the site's address starts with https://"),
    ("https://x.org/c/?v=1", {}, "no ?query or #fragment: write https://x.org/c/"),
])
def test_a_wrong_address_names_its_setting_and_the_fix(configured, environ, words):
    with pytest.raises(address.AddressError) as error:
        address.site_address(configured, environ)
    assert words in str(error.value)


def test_a_locales_home_and_the_root_404_pages_choice():
    assert address.locale_home("https://org.github.io/course/", "/fr/") == "/course/fr/"
    assert address.locale_home("https://example.org/", "/") == "/"
    page = address.with_locale_choice("<html><head><title>t</title></head><body></body></html>",
                                      ["/course/fr/", "/course/zh-TW/"])
    head = page.split("</head>")[0]
    assert '["/course/zh-TW/", "/course/fr/"]' in head and "location.replace" in head
    assert address.with_locale_choice("<p>x</p>", ["/fr/"]) == "<p>x</p>"


# --- the staff pages out of the students' way

def nav_page(name: str, staff: bool = False):
    return SimpleNamespace(title=name, meta={"translate": False} if staff else {}, is_page=True, is_section=False,
                           previous_page=None, next_page=None)


def course_nav():
    pages = [nav_page("home"), nav_page("lesson"), nav_page("status", True), nav_page("guide", True),
             nav_page("grader")]
    section = SimpleNamespace(title="Course staff", is_page=False, is_section=True, children=pages[2:4])
    return SimpleNamespace(pages=pages, items=[*pages[:2], section, pages[4]])


def neighbours(nav):
    return {p.title: (getattr(p.previous_page, "title", None), getattr(p.next_page, "title", None)) for p in nav.pages}


def test_where_staff_pages_are_listed_each_audience_has_its_own_footer_links():
    nav = course_nav()
    navigation.for_students(nav, staff_listed=True)
    assert neighbours(nav) == {"home": (None, "lesson"), "lesson": ("home", "grader"), "grader": ("lesson", None),
                               "status": (None, "guide"), "guide": ("status", None)}
    assert [item.title for item in nav.items] == ["home", "lesson", "Course staff", "grader"]


def test_elsewhere_staff_pages_leave_the_navigation_and_the_footer():
    nav = course_nav()
    navigation.for_students(nav, staff_listed=False)
    assert [item.title for item in nav.items] == ["home", "lesson", "grader"]
    assert neighbours(nav)["lesson"] == ("home", "grader") and neighbours(nav)["status"] == (None, None)
