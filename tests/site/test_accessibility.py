"""Every page as readers with a screen reader, a keyboard, a phone or the dark theme meet it, measured with axe-core
(from PyPI's axe-playwright-python) in Debian's Chromium.

Every page of every locale (a page for the staff, English in every locale, in English and one other locale) and the
404 page, in the light and the dark theme, at 1280 and 375 px (an English page in each theme at each width, a
translation light at 1280 and dark at 375 px), with every hint and solution open: no violation of
serious or critical impact whose node is the project's own markup, and in the theme's furniture only violations of
the rules in THEME_ALLOWLIST, each with the reason the project cannot fix it. With each audit, what axe does not
measure: nothing is cut off at the column's edge, what scrolls sideways is a named region the keyboard reaches,
formulas are not clipped, figure labels stay legible on a phone, figures are named by their title and described by
their text alternative, exercises are headings; and on a phone the page is no wider than the screen and every
figure and display formula is whole (phone_problems). One visit of each page in each theme makes every check of
that state (each load costs more than its checks).
"""

from __future__ import annotations

import re

import pytest
import tomllib

from tests.conftest import wait_ms
from tests.site.axe import NEXT_FRAMES, SERIOUS, WIDTHS, audit, every_state, following_the_system_theme
from tests.site.browsing import serve
from tests.site.conftest import SHOT_QUALITY
from tests.site.test_browser import (  # noqa: F401 - fixtures
    DEFAULT_LOCALE,
    DOCS,
    EVERY_PAGE,
    LOCALES,
    PAGES,
    SOLUTIONS,
    STAFF,
    base_url,
    browser,
    count_blocks,
    new_reader,
    path_of,
    sync_api,
    translated,
)
from tests.site.test_translation_status import build_lacking_lesson_1

# rule -> why the theme's markup fails it and the project cannot fix it by configuration, an override or CSS
THEME_ALLOWLIST: dict[str, str] = {}

@pytest.fixture(scope="module")
def reader(browser, base_url):
    """One tab for the module's tests, whose pages follow the system's light or dark theme."""
    reader = new_reader(browser, base_url)
    following_the_system_theme(reader.page)
    yield reader
    reader.context.close()


LABELS = {locale: tomllib.loads((DOCS / locale / "labels.toml").read_text(encoding="utf-8")) for locale in LOCALES}
NOT_FOUND = pytest.param(DEFAULT_LOCALE, "404.html", id="404")
# a page for the course's staff is the English chapter in every locale, in that locale's furniture (which its
# lessons' audits meet): each is audited in English and in one other locale, a different one for each page
OTHER_LOCALES = [locale for locale in LOCALES if locale != DEFAULT_LOCALE]
STAFF_ELSEWHERE = {name: OTHER_LOCALES[i % len(OTHER_LOCALES)] for i, name in enumerate(sorted(STAFF))}
AUDITED = [page for page in EVERY_PAGE if page.values[1] not in STAFF
           or page.values[0] in (DEFAULT_LOCALE, STAFF_ELSEWHERE[page.values[1]])]

# what reaches past the edge of the box it sits in without being inside something that scrolls (cut off): an
# exercise's or a figure's border, else the article's; the theme's code blocks and tables run full width (to the
# content area's edge) on a phone, by design. Measured is what an element draws, line by line: an inline element
# of the text (code, a link, emphasis) draws its own text, each line of it (a Range's client rects: the padding
# that a wrapped fragment repeats at the line's end, box-decoration-break: clone, may hang past the edge as the
# browser lays it out, and draws no text); any other element (a block, an image, a formula, a drawing's shape)
# each of its boxes (getClientRects: one per line or column it is split across), never the box around them all
CUT_OFF = """() => {
  const content = document.querySelector('.md-content').getBoundingClientRect().right + 1;
  const clips = el => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(el).overflowX);
  const edge = el => el.closest('.highlight, .md-typeset__scrollwrap, pre') ? content
    : el.closest('.course-exercise, .course-figure, article').getBoundingClientRect().right + 1;
  const REPLACED = new Set(['img', 'svg', 'video', 'canvas', 'iframe', 'object', 'embed', 'input', 'button', 'select',
                            'textarea', 'math']);
  const ofText = el => el.namespaceURI === 'http://www.w3.org/1999/xhtml' && !REPLACED.has(el.localName)
    && getComputedStyle(el).display === 'inline';
  const lines = node => { const range = document.createRange(); range.selectNodeContents(node); return [...range.getClientRects()]; };
  const drawn = el => ofText(el)
    ? [...el.childNodes].filter(node => node.nodeType === Node.TEXT_NODE && node.data.trim()).flatMap(lines)
    : [...el.getClientRects()];
  return [...document.querySelectorAll('article *')].filter(el => {
    const limit = edge(el);
    if (!drawn(el).some(box => box.width && box.right > limit)) return false;
    for (let up = el.parentElement; up && up.tagName !== 'ARTICLE'; up = up.parentElement) if (clips(up)) return false;
    return true;
  }).map(el => `${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}: ${el.textContent.slice(0, 50)}`);
}"""

# the course's boxes that scroll sideways when too wide: whether each scrolls, and what a keyboard user gets
SCROLL_REGIONS = """() => [...document.querySelectorAll(
    'article .course-math, article .course-exercise__data, article .course-solution ul, article .course-figure__drawing')]
  .filter(el => el.getClientRects().length)
  .map(el => ({what: el.className || el.parentElement.className, tag: el.tagName, text: el.textContent.slice(0, 40),
               scrolls: el.scrollWidth > el.clientWidth + 1, clipped: el.scrollHeight > el.clientHeight + 1,
               tabindex: el.getAttribute('tabindex'), role: el.getAttribute('role'),
               name: el.getAttribute('aria-label') ||
                     (document.getElementById(el.getAttribute('aria-labelledby')) || {}).textContent || ''}))"""

# each exercise's title: its tag, the level of the heading before it, its place in the table of contents (by the
# link's fragment: instant navigation makes the theme's links absolute)
EXERCISE_HEADINGS = """() => {
  const headings = [...document.querySelectorAll('article h1, article h2, article h3, article h4, article h5, article h6')];
  return [...document.querySelectorAll('article .course-exercise__title')].map(title => {
    const before = headings[headings.indexOf(title) - 1];
    const entry = [...document.querySelectorAll('.md-nav--secondary a')].find(a => new URL(a.href).hash === `#${title.id}`);
    const parent = entry && entry.closest('ul').closest('li');
    const section = parent && parent.querySelector(':scope > a');
    return {tag: title.tagName.toLowerCase(), before: before ? before.tagName.toLowerCase() : null,
            beforeId: before ? before.id : null, inToc: !!entry,
            tocParent: section ? new URL(section.href).hash.slice(1) : null};
  });
}"""


# each shown figure (the page's and, opened, the worked solution's) and display formula that reaches past the
# article, or scrolls; each figure's text drawn under 10 px (its font size times the drawing's scale)
OUT_OF_THE_COLUMN = """() => {
  const right = document.querySelector('article').getBoundingClientRect().right + 0.5;
  const shown = [...document.querySelectorAll('article .course-figure__drawing svg')].filter(s => s.checkVisibility());
  const figures = shown.map(svg => {
    const box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')];
    return {id: svg.getAttribute('aria-labelledby'), width: Math.round(box.width), natural: svg.viewBox.baseVal.width,
            out: box.right > right || texts.some(t => t.getBoundingClientRect().right > right),
            small: texts.filter(t => parseFloat(getComputedStyle(t).fontSize) * scale < 10).map(t => t.textContent)};
  });
  const formulas = [...document.querySelectorAll('article .course-math')].filter(m => m.checkVisibility())
    .filter(m => m.getBoundingClientRect().right > right || m.scrollWidth > m.clientWidth + 1)
    .map(m => m.textContent.slice(0, 40));
  return {figures, formulas, hidden: [...document.querySelectorAll('article .course-figure__drawing')]
    .map(d => [...d.children].filter(s => s.checkVisibility()).length)};
}"""


def phone_problems(page, locale: str, name: str, theme: str, width: int) -> list[str]:
    """What a reader on a phone (375 px) gets whole: the page no wider than the screen, every figure and display
    formula inside the column (no formula scrolls), no figure label under 10 px, one layout of each figure shown,
    the progress table without a sideways scroll. In the light theme at 1280 px the same, and the page's figures
    at their natural size (a solution's is in the exercise's box, a little narrower)."""
    if width != 375 and (theme, width) != ("light", 1280):
        return []
    problems = []
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > width:
        problems.append(f"the page is {wide} px wide")
    seen = page.evaluate(OUT_OF_THE_COLUMN)
    figures = 0 if name == "404.html" else count_blocks(locale, name, "figure")
    if not set(seen["hidden"]) <= {1}:
        problems.append(f"a drawing shows {seen['hidden']} layouts")
    if len(seen["figures"]) < figures:
        problems.append(f"{len(seen['figures'])} figures shown of {figures}")
    problems += [f"a figure reaches past the column or has labels under 10 px: {f}" for f in seen["figures"]
                 if f["out"] or f["small"]]
    problems += [f"a formula does not fit: {formula}" for formula in seen["formulas"]]
    if width == 1280:
        page_figures = [f for f in seen["figures"] if not f["id"].endswith("-solution")]
        if len(page_figures) < figures or not all(f["width"] == f["natural"] == 640 for f in page_figures):
            problems.append(f"the page's figures are not at their natural size: {page_figures}")
    if name == "index" and page.locator(".course-progress").count():
        page.wait_for_selector(".course-progress:not([hidden])")
        wrap = page.locator(".course-progress table").evaluate(
            "t => { const w = t.closest('.md-typeset__scrollwrap') || t; return [w.scrollWidth, w.clientWidth]; }")
        if wrap[0] > wrap[1]:
            problems.append(f"the progress table scrolls sideways {wrap}")
    return problems


def serious_problems(violations: list[dict]) -> list[str]:
    """The serious and critical violations the project answers for: all in its markup, the theme's unless allowed."""
    return [f"{v['id']} ({v['impact']}) at {node['target']}: {node['why']} | {node['html'][:160]}"
            for v in violations if v["impact"] in SERIOUS
            for node in v["nodes"] if node["own"] or v["id"] not in THEME_ALLOWLIST]


def layout_problems(page) -> list[str]:
    problems = [f"cut off at the column's edge: {what}" for what in page.evaluate(CUT_OFF)]
    for region in page.evaluate(SCROLL_REGIONS):
        if region["clipped"]:
            problems.append(f"clipped top or bottom (it scrolls vertically): {region}")
        role = "list" if region["tag"] in ("UL", "OL") else "group"  # a list keeps its role
        if region["scrolls"] and not (region["tabindex"] == "0" and (region["role"] or "list") == role and region["name"].strip()):
            problems.append(f"scrolls sideways but is no named region the keyboard reaches: {region}")
        if not region["scrolls"] and region["tabindex"] is not None:
            problems.append(f"a tab stop that does not scroll: {region}")
    return problems


def structure_problems(page) -> list[str]:
    problems = []
    for title in page.evaluate(EXERCISE_HEADINGS):
        if title["before"] is None or int(title["tag"][1]) != int(title["before"][1]) + 1:
            problems.append(f"an exercise's title is a {title['tag']} after a {title['before']}")
        if not title["inToc"] or title["tocParent"] != title["beforeId"]:
            problems.append(f"an exercise is not listed under its section in the table of contents: {title}")
    figures = page.locator("article figure.course-figure svg[role=img]:visible")   # the layout shown
    for i in range(figures.count()):
        svg = figures.nth(i)
        title, desc = svg.locator("title").text_content(), svg.locator("desc").text_content()
        try:
            sync_api.expect(svg).to_have_accessible_name(title, timeout=wait_ms(1))
            sync_api.expect(svg).to_have_accessible_description(desc, timeout=wait_ms(1))
        except AssertionError as error:
            problems.append(f"figure {i + 1} is not named by its title and described by its text: {error}")
    return problems


@pytest.mark.parametrize("locale, name", [*AUDITED, NOT_FOUND])
def test_every_page_in_both_themes_at_both_widths(reader, base_url, screenshots, locale, name):
    """axe-core's audit and the layout checks in each state; a screenshot of the page on a phone, in the dark theme,
    with everything open, next to the browser tests' others (`<locale>/<page>.phone-dark.jpg`). An English page (and
    the 404) in each theme at each width; a translation, its chapter laid out in the same markup and styles, light at
    1280 px and dark at 375 px: each theme's colours and each width's layout, with its own words."""
    where = "/404.html" if name == "404.html" else path_of(locale, name)
    problems = []
    for theme, width, violations in every_state(reader.page, base_url + where, reader.open,
                                                every=locale == DEFAULT_LOCALE):
        problems += [f"{theme}, {width} px: {p}" for p in serious_problems(violations)]
        problems += [f"{theme}, {width} px: {p}" for p in layout_problems(reader.page)]
        problems += [f"{theme}, {width} px: {p}" for p in phone_problems(reader.page, locale, name, theme, width)]
        if (theme, width) == ("light", 1280):
            problems += structure_problems(reader.page)
        if (theme, width) == ("dark", 375):
            reader.page.screenshot(path=screenshots / locale / f"{name.removesuffix('.html')}.phone-dark.jpg", full_page=True,
                                     quality=SHOT_QUALITY)
        reader.assert_clean(f"{where} ({theme}, {width} px)")
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)


# a box of the column's kind (an exercise), 300 px wide, holding what the check must report (a word too long for
# it, a picture wider than it) and what it must not: an inline code wrapped at the line's end, whose repeated
# padding the browser lets hang past the edge while its text stays inside
PROBE = """filler => {
  document.getElementById('probe')?.remove();
  const box = document.createElement('section');
  box.id = 'probe';
  box.className = 'course-exercise';
  box.style.cssText = 'width: 300px; padding: 0; margin: 0; border: 0; font: 16px monospace';
  box.innerHTML = `<p>${'x'.repeat(filler)} <code id="probe-wrapped" style="padding: 0 20px; background: #ccc;
    box-decoration-break: clone; -webkit-box-decoration-break: clone">aaaaa-bbbbb-ccccc</code> tail</p>
    <p><code id="probe-long" style="white-space: nowrap">${'y'.repeat(60)}</code></p>
    <div id="probe-wide" style="width: 340px; height: 4px"></div>`;
  document.querySelector('article').append(box);
  const edge = box.getBoundingClientRect().right + 1;
  return [...document.getElementById('probe-wrapped').getClientRects()].some(r => r.right > edge);
}"""


def test_the_layout_check_reports_what_is_cut_off_not_a_wrapped_lines_padding(reader, base_url):
    """The guard under the layout check: a word or a box past the column's edge is reported; a wrapped inline
    code whose text fits is not, though its box (and its line's fragment) reaches past the edge."""
    reader.open(base_url + path_of(DEFAULT_LOCALE, "index"))
    hangs = [filler for filler in range(40) if reader.page.evaluate(PROBE, filler)]
    reported = reader.page.evaluate(CUT_OFF)
    assert "code.: " + "y" * 50 in reported and "div.: " in reported, reported
    for filler in hangs[:1]:  # Chromium's line breaker leaves the repeated padding out (a browser that does not: no case)
        reader.page.evaluate(PROBE, filler)
        reported = reader.page.evaluate(CUT_OFF)
        assert not [what for what in reported if "aaaaa-bbbbb" in what], reported


# a page shown in English in place of a missing translation: the site's own fallbacks (none while every locale
# translates every page), and always a copy of the site built without LACKED in every translation, in LACKING's
# locales
LACKED, LACKING = "01-semantic-distance", ("fr", "ja")
FALLBACKS = [
    *(pytest.param("base_url", locale, name, id=f"{locale}-{name}") for locale in LOCALES for name in PAGES
      if name not in STAFF | {"index"} and not translated(locale, name)),
    *(pytest.param("url_of_a_site_lacking_a_page", locale, LACKED, id=f"{locale}-{LACKED}-removed")
      for locale in LACKING),
]


@pytest.fixture(scope="module")
def url_of_a_site_lacking_a_page(shared_builds):
    """A copy of the site built without LACKED in any translation (once per run: the translation status tests
    share it), served like the real one."""
    with serve(shared_builds.get("lacking-lesson-1", build_lacking_lesson_1)) as url:
        yield url


# what the page adds around a chapter, in the page's locale, and what the chapter says, in English
FURNITURE = [".course-step__number", ".course-reading > .admonition-title", ".course-exercise__title",
             "details.course-hint > summary", ".course-exercise__heading", ".course-exercise__parts li",
             ".course-exercise__tolerance", ".course-figure__drawing svg title", ".course-figure__drawing svg desc",
             ".course-figure__drawing svg text", ".course-fallback"]
CHAPTER = [".course-step p", ".course-reading > p:not(.admonition-title)", "details.course-hint > p",
           ".course-exercise__statement > p", "figcaption", "h1"]
LANGUAGE_OF = """selector => [...document.querySelectorAll('article ' + selector)]
  .map(el => (el.closest('[lang]') || document.documentElement).getAttribute('lang'))"""


@pytest.mark.parametrize("site, locale, name", FALLBACKS)
def test_a_page_shown_in_english_marks_its_own_words_with_the_locale(request, reader, site, locale, name):
    """On a page shown in place of a missing translation the chapter is English and says so; the words the page
    adds around it (badges, titles, summaries, the exercise's furniture, the figure's words) are the locale's.
    axe-core's audit of every page holds for it too, in both themes at both widths."""
    base_url = request.getfixturevalue(site)
    reader.open(base_url + path_of(locale, name))
    solutions = ["details.course-solution > summary"] if reader.page.locator("details.course-solution").count() else []
    for selector, language in [*((s, locale) for s in FURNITURE + solutions), *((s, DEFAULT_LOCALE) for s in CHAPTER)]:
        marked = reader.page.evaluate(LANGUAGE_OF, selector)
        assert marked, f"nothing matches {selector} on {path_of(locale, name)}"
        assert set(marked) == {language}, f"{selector} on {path_of(locale, name)} is marked {set(marked)}, not {language}"
    problems = []
    for theme, width, violations in every_state(reader.page, base_url + path_of(locale, name), reader.open):
        problems += [f"{theme}, {width} px: {p}" for p in serious_problems(violations)]
        reader.assert_clean(f"{path_of(locale, name)} ({theme}, {width} px)")
    assert not problems, f"{path_of(locale, name)}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("locale", LOCALES)
def test_permanent_links_are_titled_in_the_locale(reader, base_url, locale):
    reader.open(base_url + path_of(locale, "index"))
    titles = set(reader.page.locator("article a.headerlink").evaluate_all("links => links.map(a => a.title)"))
    assert titles == {LABELS[locale]["reader"]["permalink"]}


def test_the_404_page_is_the_default_locales(reader, base_url):
    reader.open(base_url + "/404.html")
    page = reader.page
    assert page.locator("html").get_attribute("lang") == DEFAULT_LOCALE
    site_name = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8").split("site_name:", 1)[1].splitlines()[0].strip()
    assert page.title() == site_name
    assert page.locator("head link[rel=alternate][hreflang]").count() == 0
    reader.assert_clean("/404.html")


@pytest.mark.parametrize("locale, name, region", [
    (DEFAULT_LOCALE, "03-loss-terrain", "article .course-exercise__data"),
    ("fr", "04-simplex-walk", "article .course-solution ul"),
])
def test_on_a_phone_the_keyboard_scrolls_what_is_too_wide(reader, base_url, locale, name, region):
    """At 375 px: tab to the region (it is in the tab order), then the arrow keys scroll it sideways."""
    if "course-solution" in region and not SOLUTIONS:
        pytest.skip("solutions are left out of this build")
    page = reader.page
    page.set_viewport_size({"width": 375, "height": 800})
    try:
        reader.open(base_url + path_of(locale, name))
        page.evaluate("() => document.querySelectorAll('article details').forEach(d => { d.open = true; })")
        target = page.locator(region).first
        target.scroll_into_view_if_needed()
        page.wait_for_function("el => el.getAttribute('tabindex') === '0'", arg=target.element_handle())
        target.evaluate(FOCUS_THE_STOP_BEFORE)
        page.keyboard.press("Tab")
        assert target.evaluate("el => document.activeElement === el"), f"Tab does not reach {region}"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("el => el.scrollLeft > 0", arg=target.element_handle(), timeout=wait_ms(3))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


# focus the last tab stop before the element, so that Tab leads to it
FOCUS_THE_STOP_BEFORE = """el => [...document.querySelectorAll('a[href], button, input, summary, [tabindex="0"]')]
  .filter(x => x.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING && x.getClientRects().length)
  .pop().focus()"""


# WCAG's contrast of an element's text with what is drawn under it (the first ancestor with an opaque background),
# once the theme's colour transitions have ended
CONTRAST = """el => {
  el.getAnimations({subtree: false}).forEach(a => a.finish());
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let under = el;
  while (under && (rgb(getComputedStyle(under).backgroundColor)[3] ?? 1) === 0) under = under.parentElement;
  const back = under ? rgb(getComputedStyle(under).backgroundColor).slice(0, 3) : [255, 255, 255];
  const [a, b] = [lum(rgb(getComputedStyle(el).color).slice(0, 3)), lum(back)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_state_of_the_checkers_buttons_reads_at_4_5_to_1(reader, base_url, theme):
    """At rest, focused by the keyboard, hovered, and focused after a click: the theme's own focused button (white on
    its accent colour) is 4.25:1."""
    page = reader.page
    page.emulate_media(color_scheme=theme)
    page.goto(base_url + path_of(DEFAULT_LOCALE, "03-loss-terrain"), wait_until="load")
    buttons = page.locator(".course-checker .md-button:visible, .course-checker-exercise .md-button:visible")
    buttons.first.wait_for(state="visible", timeout=wait_ms(120))
    found = {}
    for i in range(min(buttons.count(), 4)):
        button = buttons.nth(i)
        name = (button.get_attribute("class") or "").split()[0]
        found[(name, "rest")] = button.evaluate(CONTRAST)
        button.focus()
        found[(name, "focused")] = button.evaluate(CONTRAST)
        button.hover()
        found[(name, "hovered")] = button.evaluate(CONTRAST)
        page.mouse.move(0, 0)
        found[(name, "focused, not hovered")] = button.evaluate(CONTRAST)
        button.blur()
    assert len(found) >= 8
    low = {state: round(ratio, 2) for state, ratio in found.items() if ratio < 4.5}
    assert not low, f"{theme}: below 4.5:1: {low}"


# --- the checker's new states (issue 30): a variant being drawn, a verdict's badge, answers loaded and not checked
# yet, the note that work in another language is kept there; each in a new tab (storage of its own), both widths

CHECKER_WAIT = 120   # seconds: the grader starting in the page (Pyodide), then a verdict
WORKER = re.compile(r"/worker-[^/]*\.js$")


def own_problems(violations: list[dict]) -> list[str]:
    """Every violation in the project's markup (the page's content), whatever its impact: the theme's furniture,
    the same on every page, is audited page by page above (its links in a state the pointer left them in here)."""
    return [f"{v['id']} ({v['impact']}) at {node['target']}: {node['why']} | {node['html'][:160]}"
            for v in violations for node in v["nodes"] if node["own"]]


def audited(page, state: str) -> list[str]:
    problems = []
    page.mouse.move(0, 0)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAMES)
        problems += [f"{state}, {width} px: {p}" for p in own_problems(audit(page))]
    return problems


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_checkers_new_states_have_no_violation(browser, base_url, theme, tmp_path):
    fresh = new_reader(browser, base_url)
    page = fresh.page
    page.emulate_media(color_scheme=theme)
    problems = []
    lesson = base_url + path_of("fr", "03-loss-terrain")
    try:
        # a variant being drawn: the worker's script never comes, so the page stays drawing it
        page.goto(lesson, wait_until="load")
        page.evaluate("key => localStorage.setItem(key, JSON.stringify('s0042'))", "course-work:/:fr:seed")
        page.route(WORKER, lambda route: None)
        page.reload(wait_until="load")
        page.wait_for_function("() => document.querySelector('.course-checker__variant-data[aria-busy=true]')",
                               timeout=wait_ms(CHECKER_WAIT))
        problems += audited(page, "drawing a variant")
        page.unroute(WORKER)
        page.evaluate("() => localStorage.clear()")
        # a verdict's badge beside its box
        page.goto(lesson, wait_until="load")
        box = page.locator(".course-checker__answer").first
        box.fill("0,0000075")
        page.locator(".course-checker__check").first.click()
        page.wait_for_function("() => ['done', 'timeout'].includes(document.querySelector('.course-checker__verdict').dataset.state)",
                               timeout=wait_ms(CHECKER_WAIT))
        assert page.locator(".course-checker__badge").first.is_visible()
        problems += audited(page, "a verdict")
        # answers loaded, not checked yet
        answers = tmp_path / "answers.toml"
        answers.write_text('lang = "fr"\n\n[terrain-warmup]\nstep-at-fraction = "801"\n', encoding="utf-8")
        page.locator(".course-checker__file").first.set_input_files(str(answers))
        page.locator(".course-checker__badge[data-state='unchecked']").first.wait_for(timeout=wait_ms(CHECKER_WAIT))
        problems += audited(page, "answers loaded")
        # the English page of the same lesson: the French work is kept there
        page.goto(base_url + path_of("en", "03-loss-terrain"), wait_until="load")
        page.locator(".course-checker__elsewhere").first.wait_for(timeout=wait_ms(CHECKER_WAIT))
        problems += audited(page, "work kept in another language")
    finally:
        fresh.context.close()
    assert not problems, "\n  ".join(problems)
