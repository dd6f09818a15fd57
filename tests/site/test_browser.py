"""A real browser (Debian's chromium, driven by Playwright) on the built site, served on localhost."""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def base_url(built_site):
    handler = functools.partial(QuietHandler, directory=str(built_site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context()
    # the site must work with no network: anything not on localhost is refused
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base_url) else route.abort())
    page = context.new_page()
    yield page
    context.close()


def test_language_switcher_keeps_the_reader_on_the_lesson(page, base_url):
    page.goto(f"{base_url}/ja/02-attention-projection/")
    page.hover(".md-header__option .md-select")
    page.click('a.md-select__link[hreflang="ko"]')
    page.wait_for_url(f"{base_url}/ko/02-attention-projection/")
    assert page.locator("html").get_attribute("lang") == "ko"


def test_math_is_laid_out_by_the_browser(page, base_url):
    page.goto(f"{base_url}/02-attention-projection/")
    formula = page.locator("article math[display=block]").first
    box = formula.bounding_box()
    assert box is not None and box["height"] > 15 and box["width"] > 60


def test_fallback_page_shows_the_notice(page, base_url):
    page.goto(f"{base_url}/fr/01-semantic-distance/")
    assert "pas encore traduite" in page.locator(".course-fallback").inner_text()


@pytest.mark.parametrize(
    "locale, query",
    [("ja", "射影"), ("zh", "投影"), ("ko", "어텐션"), ("fr", "simplexe"), ("id", "simpleks"), ("en", "simplex")],
)
def test_search_finds_pages_in_the_locale(page, base_url, locale, query):
    prefix = "" if locale == "en" else f"/{locale}"
    page.goto(f"{base_url}{prefix}/")
    page.click("label.md-search__icon, .md-search__input", timeout=5000)
    page.fill("input.md-search__input", query)
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(f"{prefix}/0" in href for href in hrefs), hrefs
