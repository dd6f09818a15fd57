"""`make serve LOCALE=fr` builds English and that locale only; a locale mkdocs.yml lacks is a clear error."""

import pytest
from mkdocs.config import load_config

from hooks.site import serve
from tests.conftest import ROOT


def languages(environ):
    config = load_config(config_file=str(ROOT / "mkdocs.yml"))
    chosen = serve.serve_only(config, environ)
    return chosen, {lang.locale: lang.build for lang in config.plugins["i18n"].config.languages}


def test_one_locale_and_english_are_built_or_every_locale():
    chosen, built = languages({serve.LOCALE_ENV: "fr"})
    assert chosen == "fr" and built == {"en": True, "ja": False, "zh": False, "ko": False, "fr": True, "id": False}
    chosen, built = languages({serve.LOCALE_ENV: ""})
    assert chosen is None and all(built.values())


def test_a_locale_mkdocs_yml_lacks_names_the_setting_and_the_locales():
    with pytest.raises(serve.SettingError) as error:
        languages({serve.LOCALE_ENV: "de"})
    assert "make serve LOCALE=de" in str(error.value) and "en, ja, zh, ko, fr, id" in str(error.value)


def test_the_served_copy_is_made_of_links_and_keeps_every_file(tmp_path):
    site = tmp_path / "site"
    (site / "fr" / "page").mkdir(parents=True)
    (site / "index.html").write_text("home", encoding="utf-8")
    (site / "fr" / "page" / "index.html").write_text("page", encoding="utf-8")
    serve.link_tree(site, tmp_path / "copy")
    assert (tmp_path / "copy" / "fr" / "page" / "index.html").read_text(encoding="utf-8") == "page"
    assert (tmp_path / "copy" / "index.html").stat().st_ino == (site / "index.html").stat().st_ino


def test_a_page_asked_for_during_a_strict_rebuild_is_no_warning_of_the_build():
    """MkDocs' server logs a 404 as a warning; the preview answers during builds, so a strict build counted a
    reader's request for the page it was adding and stopped (tests/site/test_new_exercise.py met it)."""
    import logging

    from mkdocs.livereload import _Handler
    from mkdocs.utils import CountHandler

    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(counter)
    handler = _Handler.__new__(_Handler)
    handler.requestline = "GET /06-dot-product/ HTTP/1.1"
    try:
        handler.log_request(404)
        assert counter.get_counts() == [("WARNING", 1)]     # MkDocs' own: a warning
        serve.REQUESTS_LOG.addFilter(serve.RequestsNotWarnings())
        handler.log_request(404)
        logging.getLogger("mkdocs.commands.build").warning("a page's own problem")
        assert counter.get_counts() == [("WARNING", 2)]     # the request is not counted; a build's warning is
    finally:
        mkdocs_log.removeHandler(counter)
        for kept in [f for f in serve.REQUESTS_LOG.filters if isinstance(f, serve.RequestsNotWarnings)]:
            serve.REQUESTS_LOG.removeFilter(kept)


def test_a_file_watched_rebuilds_on_its_own_saves_only_not_on_a_file_beside_it(tmp_path):
    """The preview hears mkdocs.yml through its folder (the native observer): a log or an editor's swap file
    written beside it is no change of the site; a save of mkdocs.yml is. The folder's events come in the order
    they were made, so once mkdocs.yml's save is heard, the two written before it were heard too: only the
    events that reached MkDocs' handler (it logs each) say whether they asked for a rebuild, with no wait for
    what does not happen."""
    import logging
    import time

    from mkdocs.livereload import LiveReloadServer

    from tests.conftest import timeout_scale

    config, docs = tmp_path / "mkdocs.yml", tmp_path / "docs"
    config.write_text("site_name: x\n", encoding="utf-8")
    docs.mkdir()
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    for path in (docs, config):
        server.watch(str(path))
    serve.watch_natively(server)
    heard: list[str] = []
    listener = logging.Handler(logging.DEBUG)
    listener.emit = lambda record: heard.append(record.getMessage())
    livereload = logging.getLogger("mkdocs.livereload")
    level = livereload.level
    livereload.setLevel(logging.DEBUG)
    livereload.addHandler(listener)
    server.observer.start()

    def wanted_after(write) -> bool:
        server._want_rebuild = False
        write()
        limit = time.monotonic() + 5 * timeout_scale()
        while time.monotonic() < limit and not server._want_rebuild:
            time.sleep(0.02)
        return server._want_rebuild

    try:
        assert type(server.observer).__name__ != "PollingObserver"
        (tmp_path / "serve.log").write_text("GET /\n", encoding="utf-8")
        (tmp_path / ".mkdocs.yml.swp").write_text("x", encoding="utf-8")
        assert wanted_after(lambda: config.write_text("site_name: y\n", encoding="utf-8"))
        saves = [message for message in heard if "Event" in message]
        assert saves and all(str(config) in message for message in saves), saves
        assert wanted_after(lambda: (docs / "page.md").write_text("# A page\n", encoding="utf-8"))
    finally:
        livereload.removeHandler(listener)
        livereload.setLevel(level)
        server.observer.stop()
        server.observer.join()
