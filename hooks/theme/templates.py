"""The theme's templates compiled once per process, not once per locale.

A build of the site is six builds, one per locale (mkdocs-static-i18n), and MkDocs makes a new Jinja
environment for each: without this, Jinja parses and compiles mkdocs-material's forty templates six times,
which costs as much as all of the hook's own work. Kept in memory, each compiled template is used again
after Jinja checks it against its source, so a changed template is compiled again and the pages are the same
byte for byte (tests/hooks/test_theme_templates.py)."""

from __future__ import annotations

import jinja2.bccache


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


def keep_theme() -> None:
    """Every theme environment of this process (the pages', and the one the search plugin renders its words
    with while the configuration loads) with its templates compiled once, and the list of the theme's files
    MkDocs copies (it filters thousands of icons out of it at every build) made once."""
    from mkdocs.theme import Theme

    made = Theme.get_env
    if getattr(made, "kept", False):
        return

    def get_env(theme):
        env = made(theme)
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
    Theme.get_env = get_env
