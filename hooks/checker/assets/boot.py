"""The in-page checker's import hook, in the reader's browser (Pyodide): packed as checker_boot.py.

The grader's zip holds the grader, its table and ``index.json``: for each module that is in neither
that zip nor the standard library's first part, the later zip that holds it (SymPy's, or the rest:
hooks/checker/pack.py). A finder first in ``sys.meta_path`` imports those modules from their zip once
the worker has written it into the folder of later zips; until then it raises :class:`Missing`, which
stops the call in hand (an import, a check). :func:`call` turns that into a reply the worker reads:
it fetches the zip and makes the call again. A check is a function of its arguments only, so made again
it gives the verdict it would have given; a module the trace did not foresee is a wait, never an error.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import zipimport
from typing import Callable


class Missing(BaseException):
    """A module is in a zip not fetched yet. A BaseException: no ``except Exception`` on the way (the
    grader's, the standard library's) takes it for an error of its own."""

    def __init__(self, archive: str):
        super().__init__(archive)
        self.archive = archive


class LaterZips:
    """The finder for the modules of the later zips (``index``: module -> zip file name in ``folder``);
    ``opened(zip)`` is called when a zip's first module is imported (the page says SymPy is loading)."""

    def __init__(self, index: dict[str, str], folder: str, opened: Callable[[str], object] | None = None):
        self.index = index
        self.folder = folder
        self.opened = opened
        self.importers: dict[tuple[str, str], zipimport.zipimporter] = {}

    def find_spec(self, name, path=None, target=None):
        archive = self.index.get(name)
        if archive is None:
            return None
        location = os.path.join(self.folder, archive)
        if not os.path.exists(location):
            raise Missing(archive)
        if self.opened and not any(key[0] == archive for key in self.importers):
            self.opened(archive)
        package = name.rpartition(".")[0]
        if (archive, package) not in self.importers:   # the zip, inside the folder of the module's package
            inside = os.path.join(location, *package.split(".")) if package else location
            self.importers[archive, package] = zipimport.zipimporter(inside)
        return self.importers[archive, package].find_spec(name)


FINDER: LaterZips | None = None


def start(home: str, folder: str, opened: Callable[[str], object] | None = None) -> LaterZips:
    """Put the finder first, with the index the grader's zip (unpacked in ``home``) holds."""
    global FINDER
    with open(os.path.join(home, "index.json"), encoding="utf-8") as handle:
        FINDER = LaterZips(json.load(handle), folder, opened)
    sys.meta_path.insert(0, FINDER)
    return FINDER


def warm_list(archive: str) -> str:
    """The modules of ``archive`` (SymPy's zip: those the trace saw an answer import), a package before its
    modules, as a JSON list: what :func:`warm` imports, one at a time, before an exact form asks for them."""
    return json.dumps(sorted(name for name, where in FINDER.index.items() if where == archive))


def warm(name: str) -> None:
    """Import ``name`` now, as a check would; one that cannot be imported here (it needs a zip not fetched, or
    fails on its own) is left to the check that needs it, which meets the same as it would have."""
    try:
        importlib.import_module(name)
    except (Exception, Missing):
        pass


def call(op: str, args: str) -> str:
    """``grader.web.<op>(*args)`` (``args``: a JSON list), its JSON reply; ``{"missing": zip}`` when a module
    it needs is in a zip not fetched yet. ``op`` empty: only import grader.web, reply ``{}``."""
    try:
        import grader.web

        return getattr(grader.web, op)(*json.loads(args)) if op else "{}"
    except Missing as missing:
        return json.dumps({"missing": missing.archive})
