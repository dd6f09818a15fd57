"""A disk cache for what the hook draws from the grader's bank.

Importing SymPy and building the bank costs more than everything else the hook
does, so a build whose bank and renderers have not changed reads the exercises,
figures and ids it rendered last time and never imports either. The key is the
content of every source file that can change the output, plus the call's own
arguments (locale, labels, settings).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Callable

from grader import files

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / ".cache" / "bank"
SOURCES = ("grader/**/*.py", "grader/locale/*/LC_MESSAGES/*.po", "hooks/render.py", "hooks/workspace.py", "hooks/mathml.py")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    return files.fingerprint([path for pattern in SOURCES for path in sorted(ROOT.glob(pattern))], ROOT)


def cached(kind: str, key: object, compute: Callable[[], object]) -> object:
    """`compute()`'s JSON-able result, computed once per fingerprint and key."""
    name = hashlib.sha256(json.dumps([fingerprint(), kind, key], sort_keys=True, default=str).encode()).hexdigest()
    path = FOLDER / f"{kind}-{name[:24]}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    value = compute()
    FOLDER.mkdir(parents=True, exist_ok=True)
    files.write_atomic(path, json.dumps(value, ensure_ascii=False), sync=False)
    return value
