"""Serving a built site on 127.0.0.1 and driving Debian's Chromium on it: shared by the browser tests and
bench/page_weight.py. Every wait is scaled to the machine (tests.conftest.wait_ms)."""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
import threading
import time
from contextlib import contextmanager
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import wait_ms, wait_seconds

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# the tests' Chromium runs WebAssembly with V8's baseline compiler alone (Liftoff), without the optimizing tier that
# recompiles Pyodide's hot functions in the background: every test's context starts the grader afresh, and that
# recompiling took a core's worth of the run (tests/site/test_checker.py: 19 % less CPU, 11 % less time). What the
# page does is the same at either tier; the benchmarks (bench/) launch Chromium as readers have it (`reader_like`).
TEST_ENGINE_ARGS = ["--js-flags=--liftoff-only"]
LOCAL_HOST = "127.0.0.1"
PLAYWRIGHT_WAIT = 30  # seconds: Playwright's own default for an action or a navigation, on an idle machine
# seconds on an idle machine with no request in flight after which a loaded page has fetched what its scripts fetch
# (the search index, the sitemap): Playwright's networkidle waits a fixed 500 ms, most of a page's time in these tests
QUIET_FOR = 0.05


SITEMAP_ADDRESS = re.compile(rb"<loc>https?://[^/<]+/")
# what the tests serve beside every site they serve, by URL path (tests/site/started.py: a started grader)
SERVED_BESIDE: dict[str, Path] = {}


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves the folder as the site deployed at this server's address (its `site_url`): a sitemap's addresses
    (which the theme's instant navigation matches links against) start with this server's origin, as they
    do under `mkdocs serve`; every other file as it is."""

    def log_message(self, *args):
        pass

    def translate_path(self, path: str) -> str:
        beside = SERVED_BESIDE.get(urlsplit(path).path)
        return str(beside) if beside else super().translate_path(path)

    def read(self, path: str) -> bytes:
        """The bytes served for the file at ``path``."""
        raw = Path(path).read_bytes()
        if Path(path).name != "sitemap.xml":
            return raw
        return SITEMAP_ADDRESS.sub(f"<loc>http://{self.headers['Host']}/".encode(), raw)

    def send_head(self):
        path = self.translate_path(self.path)
        if Path(path).name != "sitemap.xml" or not os.path.isfile(path):
            return super().send_head()
        body = self.read(path)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # the browser closing a connection early is not the site's problem


@contextmanager
def serve(directory: Path, handler: type = None):
    """The folder served over HTTP on 127.0.0.1 (a free port) by ``handler`` (a SimpleHTTPRequestHandler;
    default QuietHandler); yields its base URL."""
    server = QuietServer((LOCAL_HOST, 0), functools.partial(handler or QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{LOCAL_HOST}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in {"data", "blob", "about"} or parts.hostname == LOCAL_HOST


def launch(playwright, reader_like: bool = False):
    """Debian's Chromium, headless: with the tests' engine settings (TEST_ENGINE_ARGS), or ``reader_like``, as a
    reader's browser runs (the benchmarks)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=chromium_args(reader_like), headless=True,
                                      timeout=wait_ms(PLAYWRIGHT_WAIT))


def chromium_args(reader_like: bool = False) -> list[str]:
    return CHROMIUM_ARGS if reader_like else CHROMIUM_ARGS + TEST_ENGINE_ARGS


def new_context(browser, **options):
    """A browser context (`browser.new_context(**options)`) whose actions, navigations and waits time out after
    Playwright's default scaled to the machine, not after a fixed 30 s."""
    context = browser.new_context(**options)
    context.set_default_timeout(wait_ms(PLAYWRIGHT_WAIT))
    context.set_default_navigation_timeout(wait_ms(PLAYWRIGHT_WAIT))
    return context


class InFlight:
    """The requests a browser context has begun and not yet finished (a worker's too), for ``settle``."""

    def __init__(self, context):
        self.requests: set = set()
        self.changed = time.monotonic()
        context.on("request", self._began)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)

    def _began(self, request):
        self.requests.add(request)
        self.changed = time.monotonic()

    def _ended(self, request):
        self.requests.discard(request)
        self.changed = time.monotonic()

    def settle(self, page) -> None:
        """Playwright's ``wait_for_load_state("networkidle")`` with a shorter window that scales with the machine:
        returns once no request of the context has been in flight for ``wait_seconds(QUIET_FOR)``."""
        quiet, deadline = wait_seconds(QUIET_FOR), time.monotonic() + wait_seconds(PLAYWRIGHT_WAIT)
        while self.requests or time.monotonic() - self.changed < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError(f"still loading after {wait_seconds(PLAYWRIGHT_WAIT):g} s: "
                                   f"{sorted(request.url for request in self.requests)}")
            page.wait_for_timeout(10)


def tab_to(page, target, most: int = 400) -> bool:
    """Press Tab from where the focus is until ``target`` (a locator) has it; False if it never does."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return True
    return False
