"""`mkdocs serve` as the translator's and the author's preview: one locale, and never a stalled page.

- ``COURSE_SERVE_LOCALE=fr`` (``make serve LOCALE=fr``): only English and that locale are built (the others'
  ``build: false`` in mkdocs-static-i18n), so a save rebuilds two locales, not six; the strict build always
  builds every locale.
- The server answers every page from the last complete build (a copy made of links, kept beside the
  folder MkDocs builds in), so a request during a rebuild gets the last good page at once; MkDocs' own
  server holds it until the rebuild ends. Its live reload is MkDocs' own.
- A rebuild can be asked from another thread (:meth:`Preview.rebuild`): the in-page checker's trace, made
  in the background, asks for one when it is ready.
- What a rebuild would do again for nothing is done once per process: Jinja compiles the theme's templates
  once, the theme's folders are listed once (:func:`keep_theme`), and the search index reads a page again
  only when its written text changed (:func:`keep_search`).
"""

from __future__ import annotations

import io
import logging
import os
import posixpath
import shutil
import tempfile
import threading
import urllib.parse
import wsgiref.util
from pathlib import Path

import jinja2.bccache

LOCALE_ENV = "COURSE_SERVE_LOCALE"


class SettingError(ValueError):
    """COURSE_SERVE_LOCALE names no locale of mkdocs.yml; the message says which ones there are."""


def serve_only(config, environ) -> str | None:
    """In `mkdocs serve`, with ``COURSE_SERVE_LOCALE`` set: build English and that locale only (the others'
    ``build: false``). The locale, or None when every locale is built."""
    wanted = environ.get(LOCALE_ENV, "").strip()
    i18n = config.plugins.get("i18n")
    if not wanted or i18n is None:
        return None
    known = [lang.locale for lang in i18n.config.languages]
    if wanted not in known:
        raise SettingError(f"{LOCALE_ENV}={wanted!r} (make serve LOCALE={wanted}): mkdocs.yml's i18n languages are "
                           f"{', '.join(known)}: write one of them, or leave it out to build every locale")
    for lang in i18n.config.languages:
        lang.build = lang.locale in (wanted, i18n.default_language)
    return wanted


class MemoryBytecode(jinja2.bccache.BytecodeCache):
    """The theme's compiled templates, kept in this process (Jinja checks each one against its source)."""

    def __init__(self):
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket):
        self.kept[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = MemoryBytecode()


_LISTED: dict[tuple, list[str]] = {}   # the theme's files MkDocs copies, by its folders and its filter's settings


def keep_theme(config) -> None:
    """The theme's environments, with their templates compiled once per process, and the list of the theme's
    files MkDocs copies (it filters thousands of icons out of it at every build) made once."""
    theme = config.theme
    made = theme.get_env
    if getattr(made, "kept", False):
        return

    def get_env():
        env = made()
        env.bytecode_cache = TEMPLATES
        listed = env.list_templates
        key = (tuple(env.loader.searchpath), tuple(theme.static_templates))

        def list_templates(extensions=None, filter_func=None):
            if extensions is not None or filter_func is None:
                return listed(extensions, filter_func)
            if key not in _LISTED:
                _LISTED[key] = listed(extensions, filter_func)
            return _LISTED[key]

        env.list_templates = list_templates
        return env

    get_env.kept = True
    theme.get_env = get_env


_SEARCHED: dict[str, tuple[int, list]] = {}   # what the search index made of a page: by the page and its text


def keep_search(config) -> None:
    """mkdocs-material's search index reads a page's sections again only when the page's text, title or
    contents changed; else it takes the entries it made of it last time."""
    search = config.plugins.get("material/search")
    index = getattr(search, "search_index", None)
    if index is None or getattr(index, "kept", False):
        return
    read = index.add_entry_from_context

    def add_entry_from_context(page):
        key = repr((page.url, page.title, page.content, page.meta.get("search"), page.meta.get("tags"),
                    [(item.id, item.title, item.url, len(item.children)) for item in page.toc]))
        start = len(index.entries)
        if key in _SEARCHED:
            index.entries.extend(dict(entry) for entry in _SEARCHED[key])
            return
        read(page)
        _SEARCHED[key] = [dict(entry) for entry in index.entries[start:]]

    index.add_entry_from_context = add_entry_from_context
    index.kept = True


def link_tree(source: Path, target: Path) -> None:
    """``target``: ``source``'s folders, and a second name for each of its files (MkDocs empties its folder
    before each build, and writes new files: the linked ones are never written into)."""
    for folder, _, names in os.walk(source):
        here = target / os.path.relpath(folder, source)
        here.mkdir(parents=True, exist_ok=True)
        for name in names:
            try:
                os.link(os.path.join(folder, name), here / name)
            except OSError:
                shutil.copy2(os.path.join(folder, name), here / name)


class RequestsNotWarnings(logging.Filter):
    """MkDocs' server logs each answer but a 200 as a warning ("GET /06-dot-product/" code 404). Its own server
    answers nothing during a build; this one does, and a strict build counts every warning logged while it runs,
    so a reader asking for a page the build is adding stopped it. Answers are logged as information."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and '" code ' in record.getMessage():
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


REQUESTS_LOG = logging.getLogger("mkdocs.livereload")


class Preview:
    """The server's pages from the last complete build, and its builder, which makes a new copy after each."""

    def __init__(self, server, site_dir: str):
        self.server, self.site_dir = server, Path(site_dir)
        self.folder = Path(tempfile.mkdtemp(prefix="course-preview-"))
        self.builds = 0
        self.root: Path | None = None
        self.epoch = server._visible_epoch
        self.keep()
        self.build_once = server.builder
        server.builder = self.build
        self.serve_request = server.serve_request   # MkDocs' own: live reload's long poll, and the rest
        server.set_app(self.app)
        if not any(isinstance(f, RequestsNotWarnings) for f in REQUESTS_LOG.filters):
            REQUESTS_LOG.addFilter(RequestsNotWarnings())

    def keep(self) -> None:
        """A copy of the site as built now; the one before the last removed (a request may still read the last)."""
        self.builds += 1
        copy = self.folder / str(self.builds)
        link_tree(self.site_dir, copy)
        self.root = copy
        shutil.rmtree(self.folder / str(self.builds - 2), ignore_errors=True)

    def build(self, *args, **kwargs) -> None:
        epoch = self.server._wanted_epoch     # the version the server announces once this build is done
        self.build_once(*args, **kwargs)
        self.keep()
        self.epoch = epoch

    def rebuild(self) -> None:
        """Ask the server's build loop for a rebuild, as a saved file does."""
        with self.server._rebuild_cond:
            self.server._want_rebuild = True
            self.server._rebuild_cond.notify_all()

    def app(self, environ, start_response):
        path = environ["PATH_INFO"].encode("latin-1").decode("utf-8", "ignore")
        mount = self.server.mount_path
        if path.startswith("/livereload/") or not (path + "/").startswith(mount) or self.root is None:
            return self.serve_request(environ, start_response)
        relative = path[len(mount):] + ("index.html" if path.endswith("/") else "")
        root, epoch = self.root, self.epoch
        file = root / posixpath.normpath("/" + relative).lstrip("/")
        if not file.is_file():
            if not path.endswith("/") and (file / "index.html").is_file():
                start_response("302 Found", [("Location", urllib.parse.quote(path) + "/")])
                return []
            page = root / "404.html"
            body = page.read_bytes() if page.is_file() else b"404 Not Found"
            start_response("404 Not Found", [("Content-Type", "text/html")])
            return [body]
        content = file.read_bytes()
        if file.suffix == ".html":
            content = self.server._inject_js_into_html(content, epoch)
        start_response("200 OK", [("Content-Type", self.server._guess_type(str(file))),
                                  ("Content-Length", str(len(content)))])
        return wsgiref.util.FileWrapper(io.BytesIO(content))

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


PREVIEW: list[Preview] = []   # the one `mkdocs serve` of this process, once it serves


def start(server, config) -> Preview:
    preview = Preview(server, config.site_dir)
    PREVIEW[:] = [preview]
    return preview


def ask_rebuild() -> None:
    """From any thread: the preview builds again (nothing when not serving)."""
    for preview in PREVIEW:
        threading.Thread(target=preview.rebuild, daemon=True).start()


def stop() -> None:
    for preview in PREVIEW:
        preview.close()
    PREVIEW.clear()
