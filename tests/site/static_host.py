"""A built site served as a static host serves it (GitHub Pages, Netlify, an nginx with gzip on):
HTML, CSS, JavaScript, JSON and WebAssembly gzip-compressed on the fly, zips as they are (already
compressed), an ETag that a revalidation can answer with 304, and ``Cache-Control: max-age=600``
(GitHub Pages' ten minutes) unless told otherwise. The standard library only: shared by
bench/checker_network.py and the browser tests of the checker's caching.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import io
import os
from contextlib import contextmanager
from http import HTTPStatus
from pathlib import Path

from tests.site.browsing import QuietHandler, serve

COMPRESSED = frozenset({".html", ".css", ".js", ".mjs", ".json", ".wasm"})
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}


class StaticHostHandler(QuietHandler):
    cache_control = "max-age=600"
    bodies: dict = {}   # (path, mtime, gzip?) -> bytes: each file compressed once per server

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                self.send_response(HTTPStatus.MOVED_PERMANENTLY)
                self.send_header("Location", self.path.split("?", 1)[0] + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        suffix = Path(path).suffix
        zipped = suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", "")
        mtime = os.stat(path).st_mtime
        body, tag = self._body(path, mtime, zipped)
        if self.headers.get("If-None-Match") == tag:
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self._common(tag, mtime)
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", TYPES.get(suffix) or self.guess_type(path))
        if zipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self._common(tag, mtime)
        self.end_headers()
        return io.BytesIO(body)

    def _common(self, tag: str, mtime: float) -> None:
        self.send_header("ETag", tag)
        self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
        self.send_header("Cache-Control", self.cache_control)
        self.send_header("Vary", "Accept-Encoding")

    def _body(self, path: str, mtime: float, zipped: bool) -> tuple[bytes, str]:
        key = (path, mtime, zipped)
        if key not in self.bodies:
            raw = self.read(path)
            tag = hashlib.sha256(raw).hexdigest()[:20]
            self.bodies[key] = (gzip.compress(raw, 6, mtime=0) if zipped else raw,
                                f'"{tag}{"-gz" if zipped else ""}"')
        return self.bodies[key]


@contextmanager
def serve_as_host(directory: Path, cache_control: str = StaticHostHandler.cache_control):
    """The folder served on 127.0.0.1 as a static host serves it; yields its base URL."""
    handler = type("Host", (StaticHostHandler,), {"cache_control": cache_control, "bodies": {}})
    with serve(directory, handler) as url:
        yield url
