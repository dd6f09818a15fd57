"""The class folder of ``grader grade``: which entries are submissions, whose they are, and
why the others cannot be graded.

Every visible entry of the folder (not recursive; a name starting with '.' is
hidden) whose name ends in ``.toml`` or ``.json`` (:data:`SUBMISSION_SUFFIXES`, in any
case) is one student's submission, the student id being its name without the
extension, in Unicode NFC. Every other entry (``README.txt``, ``.DS_Store``, a folder
``notes/``) is nobody's: it is listed as ignored, never graded as a student. A
submission that is not a readable regular file is listed with its reason, never
skipped silently and never fatal to the run:

- a name that is not UTF-8 (shown with ``\\xNN`` escapes);
- a symbolic link that leaves the folder (not followed), dangling or looping;
- a folder (``x.toml/`` included), a FIFO, a device, a socket: refused from
  their type, never opened;
- what :func:`grader.grading.submission.read_bytes` refuses (too large, unreadable).

Two entries whose ids are the same once normalised and stripped of invisible
characters (:func:`identity`: ``José`` in NFC and NFD, ``alice`` and
``ali\\u200bce``) are a conflict, reported under one id, not two students who look
alike. The output folder, when it lies inside the class folder, is left out.
"""
from __future__ import annotations

import hashlib
import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from grader.grading.store import GRADES, RESULTS
from grader.grading.submission import SubmissionError, display, file_error, read_bytes, refusal
from grader.text import printable

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters that
# render as nothing, so two ids differing only by them look identical.
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
             (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
             (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
             (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
             (0xE0000, 0xE0FFF))
_IGNORED = dict.fromkeys(c for lo, hi in IGNORABLE for c in range(lo, hi + 1))
SUBMISSION_SUFFIXES = (".toml", ".json")    # what a student's file is called; anything else is ignored


class BatchError(Exception):
    """The run cannot start (no such folder...): a message key and its parameters."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


def student_id(name: str) -> str:
    """The student id a file name gives: its stem, in NFC (non-UTF-8 bytes escaped)."""
    return unicodedata.normalize("NFC", display(Path(name).stem))


def identity(student: str) -> str:
    """What two ids must differ in to be two students: NFC, without invisible characters."""
    return unicodedata.normalize("NFC", student.translate(_IGNORED))


@dataclass
class Entry:
    student: str
    files: list[Path]                      # as listed in the folder
    names: list[str]                       # their names, as text
    targets: list[Path | None]             # what to read for each (a link's target), None: refused
    unreadable: SubmissionError | None = None
    conflict: tuple[str, dict] | None = None   # several files for one id: message key, params
    sha256: str = ""
    data: bytes = b""


def _target(path: Path, root: str) -> tuple[Path | None, SubmissionError | None]:
    """The file to read for ``path`` (itself, or a link's target inside the folder), or why not."""
    if display(path.name) != path.name:
        return None, file_error(path, "error-name-not-utf8", path=path)
    target = path
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            try:
                target = Path(os.path.realpath(path, strict=True))
            except OSError:
                return None, file_error(path, "error-link-broken", path=path)
            if os.path.commonpath([target, root]) != root:
                return None, file_error(path, "error-link-outside", path=path)
            mode = os.stat(target).st_mode
    except OSError as exc:
        return None, file_error(path, "error-unreadable", path=path, reason=exc.strerror or str(exc))
    why = refusal(path, mode)
    return (None, why) if why else (target, None)


def is_submission(name: str) -> bool:
    """Whether an entry of the class folder is a student's file, by its name alone."""
    return not name.startswith(".") and name.lower().endswith(SUBMISSION_SUFFIXES)


def discover(folder: Path, out: Path | None = None) -> tuple[list[Entry], list[str]]:
    """The submissions of ``folder``, grouped by student and sorted by id, and the names of the
    other entries (ignored: nobody's), sorted, as text."""
    if not folder.is_dir():
        raise BatchError("error-not-a-folder", folder=display(folder))
    root = os.path.realpath(folder)
    own = set()
    if out is not None:            # the results folder, or its files, among the submissions
        own = {os.path.realpath(p) for p in (out, out / RESULTS, out / GRADES)}
    groups: dict[str, list[tuple[Path, Path | None, SubmissionError | None]]] = {}
    ignored = []
    for name in sorted(os.listdir(folder)):
        path = folder / name
        if os.path.realpath(path) in own:
            continue
        if not is_submission(name):
            ignored.append(display(name))
            continue
        target, why = _target(path, root)
        groups.setdefault(identity(student_id(name)), []).append((path, target, why))
    entries = []
    for key, found in sorted(groups.items()):
        files = [f[0] for f in found]
        names = [display(p.name) for p in files]
        ids = {student_id(p.name) for p in files}
        entry = Entry(ids.pop() if len(ids) == 1 else key, files, names, [f[1] for f in found])
        entry.unreadable = next((f[2] for f in found if f[2]), None)
        if len(files) > 1:
            same = len({display(p.stem) for p in files}) == 1
            entry.conflict = (("error-two-files", {}) if same else
                              ("error-id-conflict", {"files": ", ".join(map(printable, names))}))
        entries.append(entry)
    return entries, ignored


def read(entry: Entry) -> None:
    """Read the entry's files and hash their names and contents (a file that cannot be read:
    the reason is hashed instead, so a later run tries again once it changes)."""
    digest = hashlib.sha256()
    chunks = []
    for path, name, target in zip(entry.files, entry.names, entry.targets):
        data = b""
        if target is not None:
            try:
                data = read_bytes(target, follow=False)
            except SubmissionError as exc:      # said of the entry, not of a link's target
                entry.unreadable = entry.unreadable or file_error(
                    path, exc.key, exc.line, **{**dict(exc.params), "path": path})
        reason = f"{entry.unreadable.key}{entry.unreadable.params}" if entry.unreadable else ""
        digest.update(name.encode() + b"\0" + (data or f"\0{reason}".encode()))
        chunks.append(data)
    entry.sha256, entry.data = digest.hexdigest(), chunks[0]
