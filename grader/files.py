"""The few file rules every part of the project shares: an atomic write, a content fingerprint, the
line where a piece of text sits in a file, and the TOML reader of every Python the project runs on.

Kept here, once, because each had grown copies that disagreed (one atomic write used a fixed
``.tmp`` name, so two builds at once raced on it). Standard library only: the command line, the
site's hook and the browser all import it.
"""
from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Iterable

# TOML: the standard library's reader from Python 3.11, the same parser from PyPI (tomli) on 3.10
if sys.version_info >= (3, 11):
    import tomllib  # noqa: F401  (what the project imports as grader.files.tomllib)
else:
    import tomli as tomllib  # noqa: F401

# The most digits Python converts to an int (3.11, and 3.10.7 on: CVE-2020-10735); 4300 is its default
MAX_INT_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300  # novermin


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


class NotRegular(OSError):
    """A path that is not a regular file (a folder, a FIFO, a device, a socket, or a link not followed):
    never opened for reading, so nothing blocks. ``mode`` is what it is."""

    def __init__(self, path, mode: int):
        super().__init__(f"{path}: not a regular file")
        self.filename, self.mode = str(path), mode


class TooBig(OSError):
    def __init__(self, path, size: int):
        super().__init__(f"{path}: larger than allowed")
        self.filename, self.size = str(path), size


def read_regular(path: Path | str, limit: int, *, follow: bool = True, private: bool = False) -> bytes:
    """The content of a regular file of at most ``limit`` bytes. Its type is checked before it is
    opened and again once it is open (it may have been replaced): a FIFO, a device or a folder is never
    read. ``follow``: through a symbolic link. ``private``: only a file that the user owns and that
    no one else may write, in such a folder (else PermissionError). Raises :class:`NotRegular`,
    :class:`TooBig` or another OSError."""
    mode = os.stat(path, follow_symlinks=follow).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegular(path, mode)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):          # replaced since: still never read
            raise NotRegular(path, info.st_mode)
        if private and not (_private(info) and _private(os.stat(os.path.dirname(os.path.abspath(path))))):
            raise PermissionError(f"{path}: not the user's own, or writable by others")
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, 1 << 16)):
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise TooBig(path, max(size, info.st_size))
        return b"".join(chunks)
    finally:
        os.close(fd)


def _private(info: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else (where the system has owners)."""
    if not hasattr(os, "geteuid"):
        return True
    return info.st_uid == os.geteuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _mode(path: Path) -> int:
    """The permissions the file has, or those the umask gives a new file."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def package_files(root: Path | str) -> list[Path]:
    """The files of the grader package at ``root`` that make it what it is, sorted: its modules
    (``*.py`` at any depth) and its catalogs (``locale/*/LC_MESSAGES/*.po``); never ``__pycache__``.
    They name the grading engine's version, and they are what ``grader autograder`` packs."""
    found = []
    for folder, subfolders, names in os.walk(root):     # os.walk: a third of pathlib's globs' time
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        inside = os.path.relpath(folder, root).replace(os.sep, "/")
        for name in sorted(names):
            if (name.endswith(".py")
                    or (inside.startswith("locale/") and inside.endswith("/LC_MESSAGES") and name.endswith(".po"))):
                found.append(Path(folder, name))
    return found


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
