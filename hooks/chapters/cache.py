"""A disk cache for what the hook draws from the grader's bank, and what `mkdocs serve` forgets when
the grader changes under it.

Importing SymPy and building the bank costs more than everything else the hook
does, so a build whose bank and renderers have not changed reads the exercises,
figures and ids it rendered last time and never imports either. The key is the
content of every source file that can change the output, plus the call's own
arguments (locale, labels, settings).

`mkdocs serve` builds again in the same process: :func:`refresh` makes each build see the exercise
modules and catalogs as they are now (a module added or edited, an entry added), not as they were
when the process started.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable

from grader import files

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / ".cache" / "bank"
SOURCES = ("grader/**/*.py", "grader/locale/*/LC_MESSAGES/*.po", "hooks/chapters/render.py", "hooks/checker/workspace.py", "hooks/chapters/mathml.py")


@lru_cache(maxsize=None)
def fingerprint(locale: str | None = None) -> str:
    """The bank's sources; with ``locale``, of its catalogs only that locale's and English (which a message
    missing from it falls back to): a French catalog's save changes no English page's exercises."""
    paths = [path for pattern in SOURCES for path in sorted(ROOT.glob(pattern))]
    if locale is not None:
        paths = [path for path in paths if path.suffix != ".po" or path.parts[-3] in (locale, "en")]
    return files.fingerprint(paths, ROOT)


def code() -> list[Path]:
    """The bank's sources without its catalogs: what a result no words reach (ids, data, names) depends on."""
    return [path for pattern in SOURCES if not pattern.endswith(".po") for path in sorted(ROOT.glob(pattern))]


def cached(kind: str, key: object, compute: Callable[[], object], sources: list[Path] | None = None,
           locale: str | None = None) -> object:
    """`compute()`'s JSON-able result, computed once per fingerprint and key; `sources`: the files it depends on,
    when they are not the bank's (`SOURCES`: a result that no catalog changes is not computed again for one);
    ``locale``: a result in that locale, which no other locale's catalog changes."""
    stamp = fingerprint(locale) if sources is None else files.fingerprint(sources, ROOT)
    name = hashlib.sha256(json.dumps([stamp, kind, key], sort_keys=True, default=str).encode()).hexdigest()
    path = FOLDER / f"{kind}-{name[:24]}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    value = compute()
    FOLDER.mkdir(parents=True, exist_ok=True)
    files.write_atomic(path, json.dumps(value, ensure_ascii=False), sync=False)
    return value


_SEEN: dict[str, tuple[int, int]] = {}    # each grader source file's (mtime, size) at this process's last build


def _grader_sources() -> dict[str, tuple[int, int]]:
    found = {}
    for pattern in SOURCES[:2]:
        for path in ROOT.glob(pattern):
            if "__pycache__" not in path.parts:
                info = path.stat()
                found[str(path)] = (info.st_mtime_ns, info.st_size)
    return found


def refresh() -> bool:
    """Before each build: when the grader's modules or catalogs changed since this process's last build
    (`mkdocs serve`), reload the exercise modules that changed, forget the ones removed, and clear every
    cache of the grader and the hooks (the registry finds new modules again, the catalogs are read again,
    the disk cache's key is recomputed) but, when only catalogs changed, those marked ``catalog_free`` (a pure
    function of values no words reach). Whether anything changed; the first build only takes note."""
    now = _grader_sources()
    first, changed = not _SEEN, {path for path in now.keys() | _SEEN.keys() if now.get(path) != _SEEN.get(path)}
    _SEEN.clear()
    _SEEN.update(now)
    if first or not changed:
        return False
    importlib.invalidate_caches()
    for name, module in list(sys.modules.items()):
        if name.startswith("grader.exercises.") and getattr(module, "__file__", None) in changed:
            if module.__file__ in now:
                importlib.reload(module)
            else:
                del sys.modules[name]
    words_only = all(path.endswith(".po") for path in changed)
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("grader", "hooks"):
            for value in list(vars(module).values()):
                if hasattr(value, "cache_info") and hasattr(value, "cache_clear"):   # functools' caches
                    if not (words_only and getattr(value, "catalog_free", False)):
                        value.cache_clear()
    return True
