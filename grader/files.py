"""The few file rules every part of the project shares: an atomic write, a content fingerprint, and
the line where a piece of text sits in a file.

Kept here, once, because each had grown copies that disagreed (one atomic write used a fixed
``.tmp`` name, so two builds at once raced on it). Standard library only: the command line, the
site's hook and the browser all import it.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Iterable


def write_atomic(path: Path | str, text: str | bytes, *, sync: bool = True) -> None:
    """Replace ``path`` with ``text`` all at once: readers see the old file or the new, never half.

    The temporary file has a unique name in the same folder (two writers never share it) and is
    removed if anything fails. ``sync``: flush it to disk before the rename (a crash then keeps the
    old file or the whole new one).
    """
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _mode(path))      # mkstemp's is 0600: keep the file's, or what a new file gets
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode(path: Path) -> int:
    """The permissions the file has, or those the umask gives a new file."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fingerprint(paths: Iterable[Path | str], root: Path | str | None = None, *, length: int = 64) -> str:
    """SHA-256 of the files' names and contents, in the order given.

    ``root``: names inside it are taken relative to it (so a fingerprint does not change when the
    project moves), others in full; without it, the name is the file's own name. A file that does
    not exist counts as its name alone.
    """
    digest = hashlib.sha256()
    for path in paths:
        path = Path(path)
        name = path.name
        if root is not None:
            name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        digest.update(name.encode("utf-8") + b"\0")
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            data = b""
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:length]


def text_fingerprint(text: str, length: int = 12) -> str:
    """SHA-256 of one text, shortened: how a translation records the English page it translates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def line_of(needles: Iterable[str], text: str, *, casefold: bool = False) -> int:
    """The 1-based line of ``text`` where the first needle that occurs in it starts, else 1.

    Each needle is tried in turn (the exact markup, then a telling part of it...); a needle that
    spans lines is matched by its first line.
    """
    haystack = text.casefold() if casefold else text
    lines = haystack.splitlines()
    for needle in needles:
        needle = needle.strip()
        if casefold:
            needle = needle.casefold()
        first = needle.splitlines()[0] if needle else ""
        if not first:
            continue
        for number, line in enumerate(lines, 1):
            if first in line:
                return number
    return 1
