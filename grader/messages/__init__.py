"""Feedback wording, per locale, looked up by stable key.

``grader/messages/<locale>.toml`` maps each key to a ``str.format`` template.
English (``en.toml``) is the reference set: every locale has exactly its keys
and, per key, the same placeholders (a test checks it). A parameter whose
value starts with ``key:`` names another key; it is rendered first, with the
same parameters (e.g. ``constraint="key:constraint-floor"``).
"""
from __future__ import annotations

import os
import string
import tomllib
from functools import cache
from importlib import resources
from typing import Mapping

LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
DEFAULT = "en"
REF = "key:"   # a parameter value naming another message


@cache
def catalog(lang: str) -> Mapping[str, str]:
    if lang not in LOCALES:
        raise ValueError(f"unknown locale {lang!r}; known: {', '.join(LOCALES)}")
    text = resources.files(__package__).joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def message(key: str, lang: str = DEFAULT, **params: object) -> str:
    """The sentence for ``key`` in ``lang`` (English if the locale lacks it)."""
    lang = lang if lang in LOCALES else DEFAULT
    template = catalog(lang).get(key) or catalog(DEFAULT)[key]
    values = {k: (message(v[4:], lang, **{n: p for n, p in params.items() if n != k})
                  if isinstance(v, str) and v.startswith(REF) else v)
              for k, v in params.items()}
    needed = placeholders(template)
    return template.format(**{name: values.get(name, "?") for name in needed})


def detect_lang(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang``, else ``GRADER_LANG``, else the ``LC_ALL``/``LANG`` prefix, else en."""
    environ = os.environ if environ is None else environ
    for candidate in (option, environ.get("GRADER_LANG"), environ.get("LC_ALL"),
                      environ.get("LANG")):
        if candidate:
            prefix = candidate.split(".")[0].split("_")[0].split("-")[0].lower()
            if prefix in LOCALES:
                return prefix
            if candidate is option:
                raise ValueError(f"unknown language {option!r}; known: {', '.join(LOCALES)}")
    return DEFAULT
