"""axe-core (from PyPI's axe-playwright-python) on a page the browser has open, and what its findings mean here.

A finding's node is the project's own markup when it lies in the page's content (`.md-content`: the
chapter, its blocks, math, figures, notices, copy blocks, the status table); anything else is the
theme's furniture (header, navigation, search, footer).

    python -m tests.site.axe SITE_DIR [--details]   # every page, both themes, both widths: counts by rule
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from axe_playwright_python.base import AXE_SCRIPT
from playwright.sync_api import TimeoutError

from tests.conftest import wait_ms

OWN = ".md-content"
SERIOUS = frozenset({"serious", "critical"})
THEMES = ("light", "dark")
WIDTHS = (1280, 375)

# axe's violations, each node marked as the project's own markup or the theme's
RUN = """async own => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => {
      const el = n.target.length === 1 ? document.querySelector(n.target[0]) : null;
      return {target: n.target.join(' '), html: n.html.slice(0, 200), own: !!(el && el.closest(own)),
              why: n.failureSummary.replace(/\\s+/g, ' ').slice(0, 240)};
    }),
  }));
}"""

OPEN_EVERYTHING = "() => document.querySelectorAll('article details').forEach(d => { d.open = true; })"


def audit(page) -> list[dict]:
    """axe-core's violations on the page as it is now (axe is injected once per document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate(RUN, OWN)


# the theme keeps the palette a page was shown in (localStorage), and the next page shows that one; cleared
# before any of a page's scripts runs, each page follows the reader's system preference
FORGET_PALETTE = "try { localStorage.clear(); } catch (error) {}"
SCHEME = {"light": "default", "dark": "slate"}  # mkdocs.yml's palette for each system preference


def following_the_system_theme(page):
    """The tab, made to forget the palette of the last page it showed at every load; `every_state` needs it."""
    page.add_init_script(FORGET_PALETTE)
    return page


# two frames: the layout after the details opened, then the ResizeObserver callbacks that follow it (reader.js
# makes what now scrolls a tab stop there), whatever the machine's load
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


# the transitions a resize starts (the theme's drawer slides out of the way on a phone), run to their end: axe
# measures the colours of a settled page, not of one mid-fade (a spinner's endless animation is not waited for)
TRANSITIONS_ENDED = """() => Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.getComputedTiming().endTime < Infinity).map(a => a.finished.catch(() => {})))"""


# each state of a page, in order: the theme (the reader's system preference), the width, and how it is reached:
# loaded afresh, the window resized (as a reader turns a phone), or the theme's toggle in the header pressed (to the
# other theme) and the window resized
EVERY = (("light", 1280, "load"), ("light", 375, "resize"), ("dark", 375, "load"), ("dark", 1280, "resize"))
TWO = (("light", 1280, "load"), ("dark", 375, "toggle"))
TOGGLE = '[data-md-component="palette"] label:visible'
SHOWN = "(scheme) => document.body.getAttribute('data-md-color-scheme') === scheme"


def every_state(page, url: str, open_page, every: bool = True):
    """Yields (theme, width, violations) for the page in the light and the dark theme, at each width, with every
    hint and solution open. `open_page(url)` loads it in `page` (`following_the_system_theme`); the theme is the
    reader's system preference. `every`: one load per theme, then the window is resized: the light theme's load is
    at 1280 px and the dark theme's at 375 px, so each width is met both freshly loaded and after a resize. Not
    `every`: each theme and each width once, in one load: light at 1280 px, then the header's toggle pressed to the
    dark theme and the window resized to 375 px."""
    for theme, width, how in EVERY if every else TWO:
        if how == "toggle":
            page.click(TOGGLE)
        else:
            page.emulate_media(color_scheme=theme)
        page.set_viewport_size({"width": width, "height": 900})
        if how == "load":
            open_page(url)
            page.evaluate(OPEN_EVERYTHING)
        try:
            page.wait_for_function(SHOWN, arg=SCHEME[theme], timeout=wait_ms(5))
        except TimeoutError:
            shown = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
            raise AssertionError(f"{url} is shown in the {shown!r} palette, not the {theme} theme's ({how})") from None
        if how != "load":
            page.evaluate(NEXT_FRAMES)
            page.evaluate(TRANSITIONS_ENDED)
        page.evaluate(NEXT_FRAMES)
        yield theme, width, audit(page)


def main(site: Path, details: bool = False) -> None:
    """Counts of violations by rule (nodes, in the project's markup / the theme's) over every page; with
    `details`, each node as it is found."""
    from playwright.sync_api import sync_playwright

    from tests.site.browsing import launch, new_context, serve

    pages = sorted(p.relative_to(site).as_posix().removesuffix("index.html")
                   for p in site.rglob("*.html") if "assets" not in p.parts)
    counts: Counter = Counter()
    with serve(site) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        page = following_the_system_theme(new_context(browser).new_page())

        def open_page(url):
            page.goto(url, wait_until="load")
            page.wait_for_load_state("networkidle")

        for path in pages:
            for theme, width, violations in every_state(page, f"{base}/{path}", open_page):
                for v in violations:
                    for node in v["nodes"]:
                        counts[(v["id"], v["impact"], "own" if node["own"] else "theme")] += 1
                        if details:
                            print(f"{path} {theme} {width}: {v['id']} ({v['impact']}) {node['target']}: {node['why'][:160]}")
        browser.close()
    print(f"{len(pages)} pages x {len(THEMES)} themes x {len(WIDTHS)} widths; nodes in violation, by rule:")
    for rule, impact in sorted({(r, i) for r, i, _ in counts}):
        print(f"  {rule:<32}{impact:<10} project {counts[(rule, impact, 'own')]:>5}   theme {counts[(rule, impact, 'theme')]:>5}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), details="--details" in sys.argv[2:])
