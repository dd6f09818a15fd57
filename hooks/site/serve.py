"""`mkdocs serve` as the translator's and the author's preview: one locale, and never a stalled page.

- ``COURSE_SERVE_LOCALE=fr`` (``make serve LOCALE=fr``): only English and that locale are built (the others'
  ``build: false`` in mkdocs-static-i18n), so a save rebuilds two locales, not six; the strict build always
  builds every locale.
- The server answers every page from the last complete build (a copy made of links, kept beside the
  folder MkDocs builds in), so a request during a rebuild gets the last good page at once; MkDocs' own
  server holds it until the rebuild ends. Its live reload is MkDocs' own.
- A rebuild can be asked from another thread (:meth:`Preview.rebuild`): the in-page checker's trace, made
  in the background, asks for one when it is ready.
- What a rebuild would do again for nothing is done once per process: the search index reads a page again
  only when its written text changed (:func:`keep_search`); the theme's templates are compiled once in
  every build, served or not (hooks/theme/templates.py).
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
from typing import NamedTuple

from mkdocs.structure.pages import Page

from hooks.site import search

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


_SEARCHED: dict[str, tuple[int, list]] = {}   # what the search index made of a page: by the page and its text


def keep_search(config) -> None:
    """mkdocs-material's search index reads a page's sections again only when the page's text, title or
    contents changed; else it takes the entries it made of it last time."""
    def wrap(read, index):
        def add_entry_from_context(page):
            key = repr((page.url, page.title, page.content, page.meta.get("search"), page.meta.get("tags"),
                        [(item.id, item.title, item.url, len(item.children)) for item in page.toc]))
            start = len(index.entries)
            if key in _SEARCHED:
                index.entries.extend(dict(entry) for entry in _SEARCHED[key])
                return
            read(page)
            _SEARCHED[key] = [dict(entry) for entry in index.entries[start:]]
        return add_entry_from_context

    search.wrap_reader(config, "kept", wrap)


class Rendered(NamedTuple):
    """What rendering a page's Markdown made, and what it said while it did (replayed when it is reused)."""

    content: str
    toc: object
    title: str | None
    anchors: set
    links: dict          # the anchors it links to, by the linked file's src_uri
    records: tuple       # the log records it emitted (a broken link's warning)
    problems: tuple      # the build problems it added (an exercise that could not be rendered)


_RENDERED: dict[tuple, Rendered] = {}   # by everything a page's render is made from; the last rebuild's only
RENDERS = {"inputs": "", "problems": None}   # set before each build: what every page's render also reads


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


def keep_renders(inputs: str, problems: list) -> None:
    """A page's Markdown is converted again only when what it is made from changed: its text (after the
    hook's notices), its address, the site's files (its links), and ``inputs`` (the grader's sources, the
    labels, the settings, the checker: what its blocks render). A page taken from the last rebuild says
    again what its render said (warnings, problems), so the preview shows them as a full render does.
    A save of one page converts that page only; ``make build`` never takes this path."""
    RENDERS.update(inputs=inputs, problems=problems)
    if getattr(Page.render, "kept", False):
        return
    convert = Page.render
    previous: dict[tuple, Rendered] = {}

    def render(page, config, files):
        key = (RENDERS["inputs"], page.file.src_uri, page.file.dest_uri, page.url, page.markdown,
               _site_files(files, config.docs_dir))
        found = _RENDERED.get(key) or previous.get(key)
        if found is None:
            found = _render(convert, page, config, files)
        else:
            page.content, page.toc, page._title_from_render = found.content, found.toc, found.title
            page.present_anchor_ids = set(found.anchors)
            linked = ((files.get_file_from_path(uri), anchors) for uri, anchors in found.links.items())
            page.links_to_anchors = {file: dict(anchors) for file, anchors in linked if file is not None}
            for record in found.records:
                logging.getLogger(record.name).handle(record)
            RENDERS["problems"].extend(found.problems)
        _RENDERED[key] = found

    def new_build():
        """The renders of the build before the last are forgotten (a page edited away never comes back)."""
        previous.clear()
        previous.update(_RENDERED)
        _RENDERED.clear()

    render.kept = True
    render.new_build = new_build
    Page.render = render


def new_renders() -> None:
    """Before each serve build: keep only the last build's renders."""
    getattr(Page.render, "new_build", lambda: None)()


def _render(convert, page, config, files) -> Rendered:
    problems, start = RENDERS["problems"], len(RENDERS["problems"])
    said, mkdocs_log = _Records(), logging.getLogger("mkdocs")
    mkdocs_log.addHandler(said)
    try:
        convert(page, config, files)
    finally:
        mkdocs_log.removeHandler(said)
    links = {file.src_uri: dict(anchors) for file, anchors in (page.links_to_anchors or {}).items()}
    return Rendered(page.content, page.toc, page._title_from_render, set(page.present_anchor_ids or ()), links,
                    tuple(said.records), tuple(problems[start:]))


def _site_files(files, docs_dir: str) -> tuple:
    """The chapters' files (not the theme's) and where each is written: what a page's links resolve against
    (made once per build's files)."""
    if getattr(files, "course_site_files", None) is None:
        files.course_site_files = tuple(sorted((f.src_uri, f.dest_uri) for f in files
                                               if os.path.normpath(f.src_dir or "") == os.path.normpath(docs_dir)))
    return files.course_site_files


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
        old = self.folder / str(self.builds - 2)
        threading.Thread(target=shutil.rmtree, args=(old,), kwargs={"ignore_errors": True}, daemon=True).start()

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


def watch_natively(server) -> None:
    """MkDocs' server polls every watched tree twice a second (a stat of each of the theme's files, and up to half
    a second before a save is seen); where the system tells of changes (inotify), each watch moves to its native
    observer, with the same handler and only the events a save makes (never the reads of a build). Any failure
    leaves the polling as it was."""
    from watchdog.events import FileClosedEvent, FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent
    from watchdog.observers import Observer
    from watchdog.observers.polling import PollingObserver

    polling = server.observer
    if Observer is PollingObserver or not isinstance(polling, PollingObserver):
        return
    native = Observer()
    saves = [FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileMovedEvent, FileClosedEvent]
    refs = {}
    try:
        for path, watch in server._watch_refs.items():
            for handler in polling._handlers[watch]:
                if os.path.isfile(path):   # a file (mkdocs.yml) is watched through its folder: its own saves only
                    handler = only_of(handler, path)
                refs[path] = native.schedule(handler, watch.path, recursive=watch.is_recursive, event_filter=saves)
    except (OSError, RuntimeError) as error:
        logging.getLogger("mkdocs.livereload").info(f"the preview polls for saves ({error})")
        return
    server.observer, server._watch_refs = native, refs


def only_of(handler, path: str):
    """``handler`` for the events of the one file ``path`` (a save of a file beside it, a log or an editor's
    swap file in the project's folder, is not a change of the site)."""
    from watchdog.events import FileSystemEventHandler

    def on_any_event(event):
        if path in (os.fsdecode(event.src_path), os.fsdecode(getattr(event, "dest_path", "") or "")):
            handler.dispatch(event)

    mine = FileSystemEventHandler()
    mine.on_any_event = on_any_event
    return mine


def warm_renderers() -> None:
    """In the background, once the preview serves: import what renders an exercise (SymPy, the bank), which a
    build answered from the disk cache never needed, so the first catalog or exercise module saved renders
    at once instead of paying for the import."""
    def load():
        from grader import bank
        from hooks.chapters import render  # noqa: F401

        len(bank.EXERCISES)   # the registry is built on first use

    threading.Thread(target=load, daemon=True, name="course-warm-renderers").start()


def ask_rebuild() -> None:
    """From any thread: the preview builds again (nothing when not serving)."""
    for preview in PREVIEW:
        threading.Thread(target=preview.rebuild, daemon=True).start()


def stop() -> None:
    for preview in PREVIEW:
        preview.close()
    PREVIEW.clear()
