"""A new tab whose page grader starts as on a reader's second page: from the snapshot the first start kept.

The page's grader starts in a Web Worker (Pyodide, the grader, then SymPy imported in the background); once it is
warmed up the worker keeps a memory snapshot of it in the Cache Storage, and a page opened anew starts from that
(hooks/checker/assets/worker.js): about 1.6 CPU-seconds instead of 5. Each test's tab is a new browser context, whose
storage starts empty, so each would start the grader the first time's way, a hundred times a run. The tests whose
subject is not how the grader starts (its verdicts, what the page keeps, how its boxes look) open their tab with
`started_tab`: the snapshot one first start made is put in the new tab's Cache Storage under the key the worker
looks for, before the tab's first page. The first start itself, its warm-up and its snapshot keep tabs of their
own (tests/site/test_checker.py's `fresh_reader`, test_checker_network.py).

The snapshot is made once per run for each site (shared_builds: whichever worker asks first), read out of the
browser, and served beside the site under /__tests__/ (browsing.SERVED_BESIDE).
"""

from __future__ import annotations

import base64
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import wait_seconds
from tests.site import browsing

# what the worker keeps (its store's name in worker.js), and the snapshot's entry in it
STORE = "course-checker"
SNAPSHOT_KEPT = f"""async () => {{
  const store = await caches.open('{STORE}');
  return (await store.keys()).filter((request) => request.url.endsWith('.snapshot')).map((request) => request.url);
}}"""
READ = f"""async (url) => {{
  const blob = await (await (await caches.open('{STORE}')).match(url)).blob();
  return await new Promise((done, failed) => {{
    const reader = new FileReader();
    reader.onload = () => done(reader.result.slice(reader.result.indexOf(',') + 1));
    reader.onerror = () => failed(reader.error);
    reader.readAsDataURL(blob);
  }});
}}"""
PUT = f"""async ([from, key]) => {{
  const got = await fetch(from);
  if (!got.ok) throw new Error(`${{from}}: ${{got.status}}`);
  const store = await caches.open('{STORE}');
  await store.put(key, new Response(await got.blob(), {{headers: {{'Content-Type': 'application/octet-stream'}}}}));
}}"""
BLANK = "<!doctype html><meta charset=utf-8><title>a new tab</title>"
# a verdict (or a variant's status) is in: its box's state, given as [selector], is set and no longer 'checking'
SETTLED = "([sel]) => { const s = document.querySelector(sel).dataset.state; return !!s && s !== 'checking'; }"
# seconds the first start may take on an idle machine, to its snapshot (Pyodide, SymPy's warm-up, the snapshot)
FIRST_START = 90


def first_lesson(site: Path) -> str:
    """The URL path of the default locale's first page with an exercise."""
    for path in sorted(site.glob("*/index.html")):
        if 'class="course-checker-exercise"' in path.read_text(encoding="utf-8"):
            return "/" + path.parent.relative_to(site).as_posix() + "/"
    raise AssertionError(f"{site}: no page with an exercise")


def kept_snapshot(page, idle: float) -> list[str]:
    """The snapshot's entry in the tab's Cache Storage, once the worker has put it there (after the warm-up),
    asked every 200 ms for up to ``idle`` seconds on an idle machine (scaled); [] if it never comes."""
    for _ in range(int(wait_seconds(idle) * 5)):
        kept = page.evaluate(SNAPSHOT_KEPT)
        if kept:
            return kept
        page.wait_for_timeout(200)
    return []


def keep_first_start(browser, base_url: str, site: Path, folder: Path) -> Path:
    """Start the grader on the site's first lesson in a new tab, as a reader's first visit does, and keep the
    snapshot it makes (its bytes, its key's path, and a blank page to put it from) in ``folder``."""
    from tests.site.test_browser import new_reader

    reader = new_reader(browser, base_url)
    try:
        page = reader.page
        reader.open(base_url + first_lesson(site))
        page.locator(".course-checker__answer").first.fill("0")
        page.locator(".course-checker__check").first.click()
        page.wait_for_function(SETTLED, arg=[".course-checker__verdict"], timeout=wait_seconds(FIRST_START) * 1000)
        kept = kept_snapshot(page, FIRST_START)
        assert kept, "the first start kept no snapshot of the grader"
        (folder / "grader.snapshot").write_bytes(base64.b64decode(page.evaluate(READ, kept[0])))
        (folder / "key").write_text(urlsplit(kept[0]).path, encoding="utf-8")
        (folder / "blank.html").write_text(BLANK, encoding="utf-8")
        reader.assert_clean("the first start")
    finally:
        reader.context.close()
    return folder


def kept_first_start(shared_builds, browser, base_url: str, site: Path) -> Path:
    """The folder of the site's kept first start, made once per run (the site's build's name, then -grader)."""
    name = f"{site.parent.name}-grader"
    folder = shared_builds.get(name, lambda folder: keep_first_start(browser, base_url, site, folder))
    for file in ("grader.snapshot", "blank.html"):
        browsing.SERVED_BESIDE[f"/__tests__/{name}/{file}"] = folder / file
    return folder


def give_started_grader(page, base_url: str, kept: Path) -> None:
    """Put the kept snapshot in the tab's Cache Storage where its worker looks, from a blank page of the site's
    origin (the Cache Storage is the origin's); the tab's next page starts its grader from it."""
    beside = f"{base_url}/__tests__/{kept.name}"
    page.goto(f"{beside}/blank.html", wait_until="load")
    page.evaluate(PUT, [f"{beside}/grader.snapshot", base_url + (kept / "key").read_text(encoding="utf-8")])


def started_tab(browser, base_url: str, kept: Path, **options):
    """A Reader (test_browser.new_reader's options) whose grader starts from ``kept``."""
    from tests.site.test_browser import new_reader

    reader = new_reader(browser, base_url, **options)
    give_started_grader(reader.page, base_url, kept)
    return reader

