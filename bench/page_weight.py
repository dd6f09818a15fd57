"""Benchmark: what one lesson page weighs in each locale, as a reader's browser loads it.

    python bench/page_weight.py [SITE_DIR] [--page 02-attention-projection]

Serves SITE_DIR (by default: builds the site with `mkdocs build --strict` into a temporary
folder) on 127.0.0.1, opens the lesson in each locale in Debian's Chromium with a cold cache
(a new browser context per page), waits until the network is idle (the search index and its
language packs load in the background), and prints per locale the number of requests and the
bytes received (response bodies, as served: no compression), then the search index and the
lunr language packs among them.

Run it on a build of main and on a build of a branch to compare the two.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mkdocs.utils.yaml import yaml_load  # noqa: E402

from tests.site.browsing import launch, serve  # noqa: E402

SEARCH_INDEX = "search_index.json"
LUNR = "/javascripts/lunr/"


def locales() -> tuple[str, list[str]]:
    """(the default locale, every built locale), from mkdocs.yml."""
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    built = [lang for lang in i18n["languages"] if lang.get("build", True)]
    return next(lang["locale"] for lang in built if lang.get("default")), [lang["locale"] for lang in built]


def build(site: Path) -> None:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT, check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def load(browser, url: str) -> list[tuple[str, int]]:
    """(URL, body bytes) of every request the page made, loaded with a cold cache."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    seen = []
    context.on("requestfinished", lambda request: seen.append(request))
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the search worker imports its language packs after the index arrives
    rows = [(request.url, request.sizes()["responseBodySize"]) for request in seen]
    context.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--page", default="02-attention-projection", help="the lesson to load")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    default, every = locales()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        with serve(site) as base, sync_playwright() as playwright:
            browser = launch(playwright, reader_like=True)
            print(f"site: {site}    page: {args.page}/ (cold cache, until the network is idle)")
            print(f"{'locale':<8}{'requests':>9}{'bytes':>11}   {'search index':>12}   lunr packs (bytes)")
            totals = [0, 0]
            for locale in every:
                prefix = "" if locale == default else f"/{locale}"
                rows = load(browser, f"{base}{prefix}/{args.page}/")
                size = sum(n for _, n in rows)
                index = sum(n for url, n in rows if url.endswith(SEARCH_INDEX))
                packs = [(url.rsplit("/", 1)[1], n) for url, n in rows if LUNR in url]
                totals[0] += len(rows)
                totals[1] += size
                pack_text = ", ".join(f"{name} {n}" for name, n in packs) or "none"
                print(f"{locale:<8}{len(rows):>9}{size:>11,}   {index:>12,}   {len(packs)}: {pack_text}")
            print(f"{'mean':<8}{totals[0] / len(every):>9.1f}{totals[1] / len(every):>11,.0f}")
            browser.close()


if __name__ == "__main__":
    main()
