"""A real browser (Debian's chromium, driven by Playwright) on the built site, served on 127.0.0.1.

Every page of every locale (derived from docs/ and mkdocs.yml) is opened as a reader opens it:
no console error, no request to any other host, math laid out, figures drawn, the solution
opens and closes, each copy button copies its own block. A screenshot of each page is kept
(the path is printed at the end of the test run). One browser serves the whole module.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from hooks.site.settings import Settings
from hooks.translations.docs import english_only
from tests.conftest import ROOT, run_mkdocs_build, wait_ms
from tests.site.browsing import CHROMIUM, LOCAL_HOST, InFlight, chromium_args, is_local, launch, new_context, serve  # noqa: F401
from tests.site.conftest import SHOT_QUALITY

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

SWITCHER_LINKS = ".md-header__option a.md-select__link[hreflang]"  # the theme's language switcher

# --- the site's pages, derived from the configuration and the docs folder

DOCS = ROOT / "docs"
CONFIG = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
_I18N = next(p["i18n"] for p in CONFIG["plugins"] if isinstance(p, dict) and "i18n" in p)
LOCALES = [lang["locale"] for lang in _I18N["languages"] if lang.get("build", True)]
DEFAULT_LOCALE = next(lang["locale"] for lang in _I18N["languages"] if lang.get("default"))
SOLUTIONS = Settings.from_config(CONFIG.get("extra", {}).get("course", {}), os.environ).solutions
# every page of the source language, which every locale has (its own or the fallback); 'index' is the home page
PAGES = sorted(path.relative_to(DOCS / DEFAULT_LOCALE).with_suffix("").as_posix()
               for path in (DOCS / DEFAULT_LOCALE).rglob("*.md"))
# pages for the course's staff (the translators' guide, the status page): English only, no notice, no math
STAFF = frozenset(name for name in PAGES if english_only((DOCS / DEFAULT_LOCALE / f"{name}.md").read_text("utf-8")))


def path_of(locale: str, page: str) -> str:
    """The URL path of a page: `/ja/02-attention-projection/`, `/` for the default locale's home."""
    prefix = "" if locale == DEFAULT_LOCALE else f"/{locale}"
    folder = page.removesuffix("index").rstrip("/")
    return f"{prefix}/{folder}/" if folder else f"{prefix}/"


def source_of(locale: str, page: str) -> Path:
    """The chapter a locale's page is built from: its own, or the default locale's in its place."""
    own = DOCS / locale / f"{page}.md"
    return own if own.exists() else DOCS / DEFAULT_LOCALE / f"{page}.md"


def translated(locale: str, page: str) -> bool:
    return (DOCS / locale / f"{page}.md").exists()


def count_blocks(locale: str, page: str, name: str) -> int:
    return len(re.findall(rf"(?m)^/// {name}\b", source_of(locale, page).read_text(encoding="utf-8")))


def hint_openings(locale: str, page: str) -> list[str]:
    """The first words of each hint in the chapter, in source order (up to its first markup or math)."""
    bodies = re.findall(r"(?ms)^/// hint\b[^\n]*\n(?:    \w+:[^\n]*\n)*(.*?)^///",   # after its options (parts:)
                        source_of(locale, page).read_text(encoding="utf-8"))
    return [" ".join(re.split(r"[$`*_\[<\\]", body.strip())[0].split())[:40] for body in bodies]


def in_locale(path: str, locale: str) -> bool:
    """Is this URL path one of the locale's pages?"""
    others = [f"/{other}/" for other in LOCALES if other != DEFAULT_LOCALE]
    if locale == DEFAULT_LOCALE:
        return not path.startswith(tuple(others))
    return path.startswith(f"/{locale}/")


EVERY_PAGE = [pytest.param(locale, page, id=f"{locale}-{page}") for locale in LOCALES for page in PAGES]

# --- a reader who records what a page does


class Reader:
    """One browser tab whose every request to another host is recorded (then refused), with its console errors
    and every URL it asked for."""

    def __init__(self, context):
        self.context = context
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.requested: list[str] = []
        context.route("**/*", self._route)
        context.on("request", self._seen)  # also what a worker asks for
        self.in_flight = InFlight(context)
        self.page = context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        self.page.on("dialog", lambda dialog: (self.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))

    def _seen(self, request):
        self.requested.append(request.url)
        self._refused(request)

    def _refused(self, request):
        if not is_local(request.url) and request.url not in self.foreign:
            self.foreign.append(request.url)

    def _route(self, route):
        if is_local(route.request.url):
            route.continue_()
        else:
            self._refused(route.request)
            route.abort()

    def _console(self, message):
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def open(self, url: str) -> None:
        self.foreign.clear()
        self.errors.clear()
        self.requested.clear()
        self.page.goto(url, wait_until="load")
        self.settle()

    def settle(self) -> None:
        """Until what the page's scripts fetch (the search index, anything late) has come."""
        self.in_flight.settle(self.page)

    def assert_clean(self, where: str) -> None:
        assert not self.foreign, f"{where} made requests to other hosts than {LOCAL_HOST}: {self.foreign}"
        assert not self.errors, f"{where} logged errors: {self.errors}"


@pytest.fixture(scope="module")
def base_url(built_site):
    with serve(built_site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


# a reader who asked the browser to save data (Chrome's Lite mode, a metered connection): the in-page checker starts
# at the first focused answer box, not when an exercise scrolls into view (hooks/checker/assets/loader.js)
SAVES_DATA = "Object.defineProperty(navigator, 'connection', {value: {saveData: true}})"


def new_reader(browser, origin: str, saves_data: bool = False) -> Reader:
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    if saves_data:
        context.add_init_script(SAVES_DATA)
    return Reader(context)


@pytest.fixture(scope="module")
def reader(browser, base_url):
    """One tab for the module's tests (and test_print's): each test starts by opening a page. Its reader saves data:
    these tests read the pages and never check an answer, and a reader who does not would start the grader on every
    lesson page as its exercise scrolls into view (3-4 CPU-seconds each; tests/site/test_checker*.py and
    test_work_kept.py are the checker's)."""
    reader = new_reader(browser, base_url, saves_data=True)
    yield reader
    reader.context.close()


# --- every page of every locale

RAW_TEX = re.compile(r"\$[^$\n]+\$|\\[A-Za-z]+|\\[()\[\]]")

MATH_LAYOUT = """() => [...document.querySelectorAll('article math')]
  .filter(m => !m.closest('details:not([open])'))
  .map(m => {
    const box = m.getBoundingClientRect();
    const fractions = [...m.querySelectorAll('mfrac')].map(f => {
      const [top, bottom] = [...f.children].map(c => c.getBoundingClientRect());
      return top.bottom <= bottom.top + 1;  // the numerator is laid out above the denominator
    });
    return {text: m.textContent.slice(0, 60), display: getComputedStyle(m).display,
            width: box.width, height: box.height, stacked: fractions.every(Boolean)};
  })"""


def assert_math_laid_out(page, where: str) -> int:
    formulas = page.evaluate(MATH_LAYOUT)
    for formula in formulas:
        assert "math" in formula["display"], f"{where}: the browser does not lay out MathML: {formula}"
        assert formula["width"] > 0 and formula["height"] > 0, f"{where}: a formula has no size: {formula}"
        assert formula["stacked"], f"{where}: a fraction is not laid out as a fraction: {formula}"
    return len(formulas)


def assert_figures_drawn(page, locale: str, name: str, where: str) -> None:
    figures = page.locator("article figure.course-figure")
    assert figures.count() == count_blocks(locale, name, "figure"), where
    for i in range(figures.count()):
        drawing = figures.nth(i).locator("svg").first
        drawing.scroll_into_view_if_needed()
        box = drawing.bounding_box()
        assert drawing.is_visible() and box and box["width"] > 50 and box["height"] > 50, f"{where}: figure {i + 1}: {box}"
        assert figures.nth(i).locator("figcaption").inner_text().strip(), f"{where}: figure {i + 1} has no caption"


def assert_solutions_open_and_close(page, locale: str, name: str, where: str) -> None:
    solutions = page.locator("article .course-exercise details.course-solution")  # not the printed copy
    assert solutions.count() == (count_blocks(locale, name, "exercise") if SOLUTIONS else 0), where
    for i in range(solutions.count()):
        solution = solutions.nth(i)
        answers = solution.locator("li").first
        assert not solution.evaluate("d => d.open") and answers.is_hidden(), f"{where}: the solution starts open"
        solution.locator("summary").click()
        if solution.evaluate("d => d.nextElementSibling?.dataset.gate === 'after-attempt'"):
            # no part checked yet: the first click is the nudge (the solution stays closed), the second opens it
            assert not solution.evaluate("d => d.open"), f"{where}: the solution opened before any part was checked"
            solution.locator("summary").click()
        assert solution.evaluate("d => d.open") and answers.is_visible(), f"{where}: the solution does not open"
        box = answers.locator("math").first.bounding_box()
        assert box and box["width"] > 0 and box["height"] > 0, f"{where}: the solution's answer is not laid out"
        solution.locator("summary").click()
        assert not solution.evaluate("d => d.open") and answers.is_hidden(), f"{where}: the solution does not close"


def assert_hints_in_source_order(page, locale: str, name: str, where: str) -> None:
    shown = page.locator("article details.course-hint").evaluate_all(
        "hints => hints.map(h => [...h.childNodes].filter(n => n.nodeName !== 'SUMMARY')"
        ".map(n => n.textContent).join(' ').split(/\\s+/).join(' ').trim())")
    openings = hint_openings(locale, name)
    assert len(shown) == len(openings), f"{where}: {len(shown)} hints shown, {len(openings)} in the chapter"
    for number, (opening, text) in enumerate(zip(openings, shown), 1):
        assert text.startswith(opening), f"{where}: hint {number} should start {opening!r}, shows {text[:80]!r}"


def assert_copy_buttons_copy_their_block(page, locale: str, name: str, where: str) -> None:
    buttons = page.locator("article pre [data-clipboard-target]")
    checks = page.locator("article pre.course-command code").filter(has_text="grader check ")
    assert checks.count() == count_blocks(locale, name, "exercise"), where
    assert buttons.count() == page.locator("article pre > code").count(), f"{where}: a code block with no copy button"
    copied = []
    for i in range(buttons.count()):
        button = buttons.nth(i)
        expected = button.evaluate("b => b.closest('pre').querySelector('code').textContent.trimEnd()")
        page.evaluate("() => navigator.clipboard.writeText('(nothing copied)')")
        button.click()
        text = page.evaluate("() => navigator.clipboard.readText()")
        assert text == expected, f"{where}: copy button {i + 1} copied {text!r}, not its block {expected!r}"
        copied.append(text)
    for i in range(checks.count()):
        assert checks.nth(i).text_content().strip() in copied, f"{where}: no button copies the check command"


@pytest.mark.parametrize("locale, name", EVERY_PAGE)
def test_every_page_as_a_reader_sees_it(reader, base_url, screenshots, locale, name):
    """Loads cleanly; its language switcher leads to the same page in every locale; math laid out, no TeX left;
    the fallback notice exactly where the locale lacks the page; figures drawn; solutions open and close;
    every copy button copies its own block (the check command among them); a screenshot kept."""
    where = path_of(locale, name)
    reader.open(base_url + where)
    page = reader.page
    assert page.locator("html").get_attribute("lang") == locale, where
    assert page.locator("article h1").first.is_visible(), f"{where}: no title"

    # the article's prose: code may hold a backslash of its own (a Windows path: .venv\\Scripts\\)
    text = page.locator("article").evaluate(
        "a => { const s = document.head.appendChild(document.createElement('style'));"
        " s.textContent = 'article code, article pre { display: none !important }';"
        " const text = a.innerText; s.remove(); return text; }")
    assert not RAW_TEX.findall(text), f"{where}: TeX shown as text: {RAW_TEX.findall(text)[:5]}"
    lesson = count_blocks(locale, name, "exercise") > 0
    assert assert_math_laid_out(page, where) > 0 or not lesson, f"{where}: a lesson with no formula"

    switcher = dict(page.locator(SWITCHER_LINKS).evaluate_all("links => links.map(a => [a.hreflang, a.href])"))
    assert switcher == {other: base_url + path_of(other, name) for other in LOCALES}, f"{where}: the language switcher"

    notice = page.locator("article .course-fallback")
    if translated(locale, name) or name in STAFF:
        assert notice.count() == 0, f"{where}: a translated page (or a page for staff) shows the fallback notice"
    else:
        assert notice.is_visible() and notice.get_attribute("lang") == locale, f"{where}: no fallback notice"

    page.screenshot(path=screenshots / locale / f"{name}.jpg", full_page=True, quality=SHOT_QUALITY)

    assert_figures_drawn(page, locale, name, where)
    assert_hints_in_source_order(page, locale, name, where)
    assert_solutions_open_and_close(page, locale, name, where)
    assert_copy_buttons_copy_their_block(page, locale, name, where)
    reader.assert_clean(where)


# --- the language switcher

# every page's switcher names that page in every locale (test_every_page_as_a_reader_sees_it), and every page of
# every locale loads: the walk by the switcher's menu is walked on a page of each kind (the home page, a lesson,
# a page for the staff), where its menu is the same
WALKED = ["index", "02-attention-projection", "instructors"]


@pytest.mark.parametrize("name", WALKED)
def test_language_switcher_keeps_the_reader_on_the_page(reader, base_url, name):
    """From the page in each locale to the same page in the next, round every locale and back."""
    walk = [*LOCALES, LOCALES[0]]
    reader.open(base_url + path_of(walk[0], name))
    for here, there in zip(walk, walk[1:]):
        page = reader.page
        page.hover(".md-header__option .md-select")
        page.click(f'{SWITCHER_LINKS}[hreflang="{there}"]')
        page.wait_for_url(base_url + path_of(there, name))
        assert page.locator("html").get_attribute("lang") == there, f"{here} → {there} on {name}"
        assert page.locator("article h1").first.is_visible()
        reader.assert_clean(f"{path_of(here, name)} → {path_of(there, name)}")


# --- search


SEARCHES = [  # (locale, a term from the lesson, the lesson)
    ("ja", "射影", "02-attention-projection"),
    ("zh", "损失", "03-loss-terrain"),
    ("ko", "임베딩", "01-semantic-distance"),
    ("fr", "simplexe", "04-simplex-walk"),
    ("id", "simpleks", "04-simplex-walk"),
    ("en", "submanifold", "05-submanifold"),
    ("ja", "ユークリッド", "01-semantic-distance"),
    ("fr", "euclidienne", "01-semantic-distance"),
]


def search(reader, base_url: str, locale: str, term: str) -> list[str]:
    """The paths of the results the locale's home page gives for `term`, as a reader types it."""
    reader.open(base_url + path_of(locale, "index"))
    page = reader.page
    page.click("label.md-search__icon, .md-search__input", timeout=wait_ms(5))
    box = page.locator("input.md-search__input")
    box.fill(term)  # as an input method commits a word: the text at once, then the key that ends it
    box.press("End")  # the theme reads the query on keyup
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=wait_ms(15))
    return [urlsplit(href).path for href in results.evaluate_all("links => links.map(a => a.href)")]


def lunr_packs(locale: str) -> set[str]:
    """The lunr files the theme's search worker loads for the locale's index: its language's pack, the support
    every pack needs, Japanese's segmenter; none for English, which lunr knows (Indonesian is searched as it)."""
    from hooks.theme.page import lunr_languages

    (language,) = lunr_languages(locale)
    if language == "en":
        return set()
    return {"lunr.stemmer.support.min.js", f"lunr.{language}.min.js"} | ({"tinyseg.js"} if language == "ja" else set())


@pytest.mark.parametrize("locale, term, lesson", SEARCHES, ids=[f"{s[0]}-{s[1]}" for s in SEARCHES])
def test_search_finds_the_lesson_in_the_locale_only(reader, base_url, locale, term, lesson):
    """The lesson is found, every result is a page of the reader's locale, and the page loaded its locale's
    index and language packs, nothing of another locale's."""
    assert term in source_of(locale, lesson).read_text(encoding="utf-8"), "the term is not in the lesson any more"
    found = search(reader, base_url, locale, term)
    assert path_of(locale, lesson) in found, found
    assert [path for path in found if not in_locale(path, locale)] == [], f"results from another locale: {found}"
    requested = [urlsplit(url).path for url in reader.requested]
    index = path_of(locale, "index") + "search/search_index.json"
    assert [path for path in requested if path.endswith("/search_index.json")] == [index], requested
    assert {Path(path).name for path in requested if "/lunr/" in path} == lunr_packs(locale), requested
    reader.assert_clean(f"search for {term!r} in {locale}")


@pytest.mark.parametrize("locale", [other for other in LOCALES if other != DEFAULT_LOCALE])
def test_another_locales_words_find_none_of_its_pages(reader, base_url, locale):
    """A lesson's word in another locale's language, searched on the default locale's pages: none of that
    locale's pages comes up (one index for every locale gave them)."""
    term = next(t for loc, t, _ in SEARCHES if loc == locale)
    reader.open(base_url + path_of(DEFAULT_LOCALE, "index"))
    page = reader.page
    page.click("label.md-search__icon, .md-search__input", timeout=wait_ms(5))
    meta = page.locator(".md-search-result__meta")
    placeholder = page.evaluate("() => JSON.parse(document.getElementById('__config').textContent)"
                                ".translations['search.result.placeholder']")
    said = "([el, placeholder]) => (el.textContent.trim() === placeholder) === %s"
    page.wait_for_function(said % "true", arg=[meta.element_handle(), placeholder])  # the index is loaded
    page.locator("input.md-search__input").fill(term)
    page.locator("input.md-search__input").press("End")
    page.wait_for_function(said % "false", arg=[meta.element_handle(), placeholder])  # the search is done
    page.wait_for_timeout(wait_ms(0.2))  # the theme says how many it found, then lists them
    found = [urlsplit(a).path for a in page.locator(".md-search-result__item a").evaluate_all("ls => ls.map(a => a.href)")]
    assert [path for path in found if not in_locale(path, DEFAULT_LOCALE)] == [], found
    reader.assert_clean(f"search for {term!r} in {DEFAULT_LOCALE}")


# --- no request leaves 127.0.0.1


def test_the_recorder_catches_a_request_to_another_host(reader, base_url):
    """The guard under every test above: a request elsewhere is recorded and refused, not silently lost."""
    reader.open(base_url + path_of(DEFAULT_LOCALE, "index"))
    reader.page.evaluate("() => fetch('http://example.com/font.woff2').catch(() => null)")
    reader.page.evaluate("() => new Promise(done => { const s = document.createElement('script');"
                         " s.src = 'https://cdn.example.org/x.js'; s.onerror = done; document.head.append(s); })")
    assert reader.foreign == ["http://example.com/font.woff2", "https://cdn.example.org/x.js"]
    with pytest.raises(AssertionError, match="example.com"):
        reader.assert_clean("the test page")


# --- markup in a chapter never runs as script

HOSTILE = """\
# Hostile chapter

Prose with a script: <script>window.__pwned = 1</script> and more prose.

An image: <img src="x" onerror="window.__pwned = 2"> and a link: [click me](javascript:window.__pwned=3).

/// step | <img src=x onerror="window.__pwned = 4">
A step whose title carries markup.
///

/// exercise | attention-weights
A statement with <b onmouseover="window.__pwned = 5">hover me</b>.

/// hint
A hint with <iframe srcdoc="<script>parent.__pwned = 6</script>"></iframe>.
///

///
"""
# (line, what the message names); a step's title is never markup (the block escapes it), so it is no problem
HOSTILE_PROBLEMS = [(3, "<script>"), (5, "'onerror'"), (5, "javascript: URL in 'href'"), (12, "'onmouseover'"), (15, "<iframe>")]


def test_markup_in_a_chapter_does_not_run_as_script(browser, tmp_path):
    from tests.site.test_malformed_blocks import make_fixture_site

    result = run_mkdocs_build(make_fixture_site(tmp_path, HOSTILE), tmp_path / "site")
    assert result.returncode != 0, "a chapter with script-capable markup must fail the build"
    for line, words in HOSTILE_PROBLEMS:
        assert re.search(rf"docs/en/index\.md:{line}: (?:markup: )?markup the page may not carry[^\n]*{re.escape(words)}", result.stderr), (
            line, result.stderr[-3000:])
    assert "Traceback" not in result.stderr

    # what was written anyway (what `mkdocs serve` would show while the author fixes it) is inert: what the
    # allow-list does not hold is gone, the prose around it stays
    with serve(tmp_path / "site") as url:
        reader = new_reader(browser, url)
        try:
            reader.open(url + "/")
            page = reader.page
            for target in page.locator("article b, article img, article a").all():
                target.hover()
            page.get_by_text("click me").first.click()
            page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")
            page.wait_for_timeout(wait_ms(0.2))
            assert page.evaluate("() => window.__pwned") is None
            assert page.locator("article script, article iframe, article [onerror], article [onmouseover]").count() == 0
            text = page.locator("article").inner_text()
            for shown in ("Prose with a script:", "and more prose.", "An image:", '<img src=x onerror="window.__pwned = 4">',
                          "A statement with hover me", "A hint with"):
                assert shown in text, f"{shown!r} is not shown to the reader"   # a step's title is text, escaped
            assert "window.__pwned = 1" not in text
            assert not reader.foreign, reader.foreign
        finally:
            reader.context.close()
