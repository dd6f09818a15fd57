"""The site as published: built by `make publish`'s command (hooks/site/publish.py) for
SITE_URL=http://127.0.0.1:<port>/course/, served under /course/ as GitHub Pages serves a project site (nothing
outside it; a missing address gets the root's 404.html, with status 404), and read in Debian's Chromium: every
page of every locale, search, the in-page checker's first verdict, the 404 page in English and in French, the
theme's words in each locale, the staff pages out of the students' navigation, the sitemap. No request of any
page leaves /course/.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from http import HTTPStatus
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin, urlsplit
from xml.etree import ElementTree

import pytest

from grader.files import tomllib
from hooks.site.publish import HEADERS
from tests.conftest import ROOT, wait_seconds
from tests.site import test_browser as tb
from tests.site.static_host import StaticHostHandler
from tests.site.test_browser import browser  # noqa: F401 - a fixture

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(tb.CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

SUB = "/course/"
LABELS = {locale: tomllib.loads((tb.DOCS / locale / "labels.toml").read_text("utf-8")) for locale in tb.LOCALES}
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


class ProjectSiteHost(StaticHostHandler):
    """GitHub Pages serving a project site: the folder under SUB only, and for an address it does not hold, the
    folder's 404.html with status 404. Every path asked for outside SUB is recorded (`outside`)."""

    outside: list = []

    def translate_path(self, path):
        if not urlsplit(path).path.startswith(SUB):
            self.outside.append(path)
            return os.path.join(self.directory, "outside-the-sub-path")
        return super().translate_path("/" + path[len(SUB):])

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code != HTTPStatus.NOT_FOUND or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """`python -m hooks.site.publish SITE_DIR` (what `make publish` runs) for the served address."""
    site = tmp_path_factory.mktemp("published") / "site"
    site.mkdir()
    host = type("Pages", (ProjectSiteHost,), {"bodies": {}, "outside": []})
    with tb.serve(site, host) as origin:
        address = origin + SUB
        result = subprocess.run([sys.executable, "-m", "hooks.site.publish", str(site)], cwd=ROOT,
                                env={**os.environ, "SITE_URL": address, "NO_MKDOCS_2_WARNING": "1"},
                                capture_output=True, text=True, timeout=wait_seconds(200))
        assert result.returncode == 0, result.stderr[-4000:]
        yield SimpleNamespace(site=site, address=address, origin=origin, host=host, said=result.stdout)


@pytest.fixture(scope="module")
def reader(browser, published):
    reader = tb.new_reader(browser, published.origin)
    yield reader
    reader.context.close()


def spaced(text: str) -> str:
    """Text as compared: every run of white space (a no-break space too) one space."""
    return " ".join(text.split())


def url_of(published, locale: str, name: str) -> str:
    return published.address + tb.path_of(locale, name).lstrip("/")


def assert_under_the_sub_path(reader, published, where: str) -> None:
    outside = [url for url in reader.requested if not url.startswith(published.address)
               and urlsplit(url).scheme not in ("data", "blob", "about")]
    assert not outside, f"{where} asked for what is not under {published.address}: {outside}"


STYLED = """() => ({sheets: [...document.styleSheets].filter(s => s.href).map(s => [s.href, s.cssRules.length]),
                   header: getComputedStyle(document.querySelector('.md-header')).position})"""


def assert_styled(page, published, where: str) -> None:
    """The theme's and the course's stylesheets loaded, from under the site's address, and applied."""
    styled = page.evaluate(STYLED)
    names = [urlsplit(href).path.rsplit("/", 1)[-1] for href, _ in styled["sheets"]]
    assert any(name.startswith("main.") for name in names) and "course.css" in names, f"{where}: {styled}"
    assert all(href.startswith(published.address) and rules for href, rules in styled["sheets"]), f"{where}: {styled}"
    assert styled["header"] == "sticky", f"{where}: the theme's stylesheet is not applied"


def test_make_publish_builds_the_folder_and_its_headers(published):
    assert f"is ready to publish at {published.address}" in published.said
    assert (published.site / "_headers").read_text(encoding="utf-8") == HEADERS
    assert (published.site / "fr" / "404.html").is_file() and (published.site / "404.html").is_file()


@pytest.mark.parametrize("locale, name", tb.EVERY_PAGE)
def test_every_page_under_the_sub_path(reader, published, locale, name):
    """Served under /course/, every page of every locale loads its stylesheets and scripts from there, names
    itself by its canonical address, and asks for nothing elsewhere."""
    where = url_of(published, locale, name)
    reader.requested.clear()
    reader.errors.clear()
    response = reader.page.goto(where, wait_until="load")
    reader.settle()
    assert response.status == 200, where
    page = reader.page
    assert page.locator("html").get_attribute("lang") == locale
    assert page.locator("article h1").first.is_visible(), f"{where}: no title"
    assert page.locator("head link[rel=canonical]").get_attribute("href") == where
    assert page.locator("head link[rel=alternate][hreflang]").count() == 0, "the theme would fetch sitemaps there"
    assert_styled(page, published, where)
    assert_under_the_sub_path(reader, published, where)
    reader.assert_clean(where)


@pytest.mark.parametrize("locale, term, lesson", [("en", "submanifold", "05-submanifold"),
                                                  ("fr", "simplexe", "04-simplex-walk")])
def test_search_under_the_sub_path(reader, published, locale, term, lesson):
    found = tb.search(reader, published.origin + SUB.rstrip("/"), locale, term)
    assert SUB.rstrip("/") + tb.path_of(locale, lesson) in found, found
    reader.page.locator(".md-search-result__item a").first.click()
    # instant navigation changes the address first and swaps the content in after it; the header's search results
    # (an article with an h1 each) stay on the page, hidden
    reader.page.wait_for_url(f"{published.address}{tb.path_of(locale, lesson).lstrip('/')}**", timeout=tb.wait_ms(10))
    title = reader.page.locator(".md-content article h1").first
    title.wait_for(state="visible", timeout=tb.wait_ms(10))
    reader.settle()
    assert reader.page.url.startswith(published.address) and title.is_visible()
    assert_under_the_sub_path(reader, published, f"search for {term!r} in {locale}")
    reader.assert_clean(f"search for {term!r} in {locale}")


def test_the_checkers_first_verdict_under_the_sub_path(reader, published):
    from tests.site.test_checker import RUNTIME, Case, cli_verdict, lesson_paths, page_verdict

    if RUNTIME:
        pytest.skip(f"in-page checking is off: {RUNTIME}")
    case = Case("terrain-warmup", "lr-at-step", "0,0000075", "fr", why="the first verdict")
    reader.open(published.address.rstrip("/") + lesson_paths(published.site, "fr")[case.exercise])
    assert page_verdict(reader.page, case) == cli_verdict(case)
    assert_under_the_sub_path(reader, published, "the checker")
    assert any("/assets/checker/" in url and url.endswith(".wasm") for url in reader.requested), reader.requested
    reader.assert_clean("the checker")


MISSING = [("en", "no/such/page/", "404.html"), ("fr", "fr/pas/de/page/", "fr/404.html")]


@pytest.mark.parametrize("locale, missing, shown", MISSING, ids=[m[0] for m in MISSING])
def test_a_missing_page_gets_the_404_page_in_its_locale(reader, published, locale, missing, shown):
    """GitHub Pages answers a missing address with the root's 404 page, which sends a reader in a locale's folder
    to that locale's; it says so in the locale's words, loads its stylesheets and scripts from the site's address,
    and its links lead to the locale's pages."""
    words = LABELS[locale]["frame"]
    reader.requested.clear()
    reader.errors.clear()
    response = reader.page.goto(published.address + missing, wait_until="load")
    assert response.status == 404
    page = reader.page
    page.wait_for_url(published.address + (shown if locale != tb.DEFAULT_LOCALE else missing))
    reader.settle()
    assert page.locator("html").get_attribute("lang") == locale
    assert page.locator("article h1").inner_text().strip() == words["not_found"]
    assert spaced(page.locator("article p").first.inner_text()) == spaced(words["not_found_text"])
    assert_styled(page, published, missing)
    assert page.locator("label.md-header__button[for=__palette_1]").get_attribute("title") == words["to_dark"]
    assert_under_the_sub_path(reader, published, missing)
    failed = [e for e in reader.errors if "404" not in e or missing not in e]   # the address itself is missing
    assert not failed and not reader.foreign, failed or reader.foreign
    lesson = page.locator("nav.md-nav--primary a.md-nav__link[href$='02-attention-projection/']").first
    with page.expect_navigation():
        lesson.click()
    assert page.url == url_of(published, locale, "02-attention-projection")
    assert page.locator("html").get_attribute("lang") == locale
    page.go_back()
    reader.settle()
    with page.expect_navigation():
        page.get_by_role("link", name=words["not_found_home"], exact=True).click()
    assert page.url == url_of(published, locale, "index")
    # instant navigation changes the address first and swaps the content in after it (as test_search_under_the_sub_path says)
    page.locator(".md-content article h1").first.wait_for(state="visible", timeout=tb.wait_ms(10))


@pytest.mark.parametrize("locale", tb.LOCALES)
def test_the_theme_speaks_the_locales_words(reader, published, locale):
    """The colour switch, the header and the footer as screen readers name them, the footer's links, the credit."""
    words = LABELS[locale]["frame"]
    reader.open(url_of(published, locale, "02-attention-projection"))
    page = reader.page
    switch = page.locator("form[data-md-component=palette] label.md-header__button:visible")
    assert switch.get_attribute("title") == words["to_dark"]
    switch.click()
    assert page.locator("form[data-md-component=palette] label.md-header__button:visible").get_attribute(
        "title") == words["to_light"]
    for landmark in ("header", "footer"):
        sync_api.expect(page.get_by_role("navigation", name=words[landmark], exact=True)).to_have_count(1)
    links = page.locator("a.md-footer__link")
    assert links.count() == 2
    for i in range(2):
        link = links.nth(i)
        direction = link.locator(".md-footer__direction").inner_text().strip()
        title = link.locator(".md-ellipsis").inner_text().strip()
        sync_api.expect(link).to_have_accessible_name(words["footer_link"].format(direction=direction, title=title))
    credit = page.locator(".md-copyright").inner_text()
    assert spaced(credit) == spaced(words["made_with"].format(theme="Material for MkDocs"))
    page.evaluate("() => localStorage.clear()")   # the palette chosen stays with the site otherwise
    reader.assert_clean(locale)


def footer_targets(page: Path) -> list[Path]:
    html = page.read_text(encoding="utf-8")
    return [(page.parent / href / "index.html").resolve()
            for href in re.findall(r'<a href="([^"]*)" class="md-footer__link', html)]


def test_the_staff_pages_are_out_of_the_students_way(reader, published):
    """Listed in English's navigation only, in a section at its end; built in every locale (their links work);
    no footer link leads from a student's page to a staff page or back."""
    site = published.site
    staff = {(site / ("" if loc == tb.DEFAULT_LOCALE else loc) / name / "index.html").resolve()
             for loc in tb.LOCALES for name in tb.STAFF}
    for page in sorted(site.rglob("index.html")):
        for target in footer_targets(page.resolve()):
            assert target.is_file(), f"{page}: a footer link to {target}"
            assert (target in staff) == (page.resolve() in staff), f"{page}: the footer leads to {target}"
    for locale in tb.LOCALES:
        reader.open(url_of(published, locale, "index"))
        listed = reader.page.locator("nav.md-nav--primary a.md-nav__link").evaluate_all("as => as.map(a => a.href)")
        in_nav = {name for name in tb.STAFF if url_of(published, locale, name) in listed}
        assert in_nav == (set(tb.STAFF) if locale == tb.DEFAULT_LOCALE else set()), (locale, listed)
        for name in tb.STAFF:
            response = reader.page.request.get(url_of(published, locale, name))
            assert response.status == 200, (locale, name)
    reader.open(url_of(published, "fr", "translation-status"))
    guide = reader.page.locator("article a[href$='translators/']").first
    with reader.page.expect_navigation():
        guide.click()
    assert reader.page.url == url_of(published, "fr", "translators")
    reader.assert_clean("the staff pages")


def test_the_sitemap_lists_every_page_at_its_absolute_address_with_its_languages(published):
    with urllib.request.urlopen(published.address + "sitemap.xml", timeout=wait_seconds(10)) as response:
        root = ElementTree.fromstring(response.read())
    entries = root.findall(f"{SITEMAP}url")
    pages = {url_of(published, locale, name) for locale in tb.LOCALES for name in tb.PAGES}
    assert {entry.findtext(f"{SITEMAP}loc") for entry in entries} == pages
    for entry in entries:
        alternates = {link.get("hreflang"): link.get("href") for link in entry.findall(f"{XHTML}link")}
        assert set(alternates) == set(tb.LOCALES) and set(alternates.values()) <= pages, entry.findtext(f"{SITEMAP}loc")
    for url in sorted(pages):   # every address it lists is a page the host serves
        with urllib.request.urlopen(url, timeout=wait_seconds(10)) as response:
            assert response.status == 200, url
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(urljoin(published.address, "no-such-page/"), timeout=wait_seconds(10))
    assert missing.value.code == 404


def test_nothing_was_asked_for_outside_the_sub_path(published):
    """Run last: whatever the pages above asked the host for was under /course/ (the host records the rest)."""
    assert published.host.outside == []
