"""No chapter runs script in a reader's browser: the known vectors, written in a chapter, fail the strict build
with their lines; and in Debian's Chromium each vector that runs as written runs no more once sanitized."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from hooks.chapters.sanitize import sanitized
from tests.conftest import run_mkdocs_build
from tests.hooks.test_sanitize import VECTORS
from tests.site.browsing import launch, new_context
from tests.site.test_malformed_blocks import make_fixture_site

# What runs by itself once a page is parsed (no click): each sets window.__ran
FIRING = [
    "<img/src/onerror=window.__ran=1>",
    '<svg onload="window.__ran=1"><circle r="1"/></svg>',
    "<script>window.__ran=1</script>",
    '<details open ontoggle="window.__ran=1"><summary>x</summary></details>',
    '<iframe srcdoc="&lt;script&gt;parent.__ran=1&lt;/script&gt;"></iframe>',
    '<math><mtext><img/src/onerror=window.__ran=1></mtext></math>',
    '<svg><animate onbegin="window.__ran=1" attributeName="x" dur="0.01s"/></svg>',
]


@pytest.fixture(scope="module")
def page():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = new_context(browser)
        yield context.new_page()
        browser.close()


def ran(page, markup: str) -> bool:
    page.goto("about:blank")
    page.evaluate("() => { window.__ran = 0; }")
    page.set_content(f"<!doctype html><html><body>{markup}</body></html>", wait_until="load")
    page.wait_for_timeout(100)
    return page.evaluate("() => window.__ran === 1")


@pytest.mark.parametrize("markup", FIRING)
def test_a_vector_that_runs_as_written_runs_no_more_once_sanitized(page, markup):
    assert ran(page, markup), "the vector should run as written: it tests nothing otherwise"
    clean, found = sanitized(markup)
    assert found
    assert not ran(page, clean)


def test_the_vectors_in_a_chapter_fail_the_strict_build_with_their_lines(tmp_path):
    lines = ["# Vectors", ""]
    where = {}
    for markup, _ in VECTORS:
        if "never closed" in _:
            continue   # it would swallow what follows
        where[len(lines) + 1] = markup
        lines += [markup, ""]
    lines += ["A formula: $\\text{<img/src/onerror=alert(1)>}$", ""]
    config = make_fixture_site(tmp_path, "\n".join(lines))
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    for line in where:
        assert f"docs/en/index.md:{line}: " in result.stderr, where[line]
    assert f"docs/en/index.md:{len(lines) - 1}: " in result.stderr, "the formula's line"
