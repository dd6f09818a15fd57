"""Read a submission file: TOML (one table per exercise id, one string per part) or JSON.

Errors are :class:`SubmissionError` with the path, the line when the parser
gives one, and a message key with parameters for :mod:`grader.messages`.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .bank import EXERCISES, UnknownExercise, UnknownPart, get


@dataclass(frozen=True)
class SubmissionError(Exception):
    path: str
    key: str                     # error-unreadable | error-malformed | error-shape | error-unknown-*
    params: tuple[tuple[str, str], ...] = field(default=())
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}: {self.key} {dict(self.params)}"


def _error(where, key, at_line=None, **params) -> SubmissionError:
    return SubmissionError(str(where), key, tuple((k, str(v)) for k, v in params.items()), at_line)


_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


def _load_toml(path: Path, text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))
        line = int(where.group(1)) if where else None
        reason = _TOML_WHERE.sub("", str(exc)).strip()
        raise _error(path, "error-malformed", line, path=path, line=line or "?",
                     format="TOML", reason=reason) from None


def _load_json(path: Path, text: str) -> dict:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(path, "error-malformed", exc.lineno, path=path, line=exc.lineno,
                     format="JSON", reason=exc.msg) from None


def _answer_text(path, exercise_id, part_id, value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    raise _error(path, "error-shape", path=path,
                 reason=f"[{exercise_id}] {part_id}: the answer must be a string, "
                        f'e.g. {part_id} = "(1, 2, 3)"')


def parse_submission(path, data) -> dict[str, dict[str, str]]:
    """Check the shape and ids of loaded data; return {exercise: {part: text}}."""
    if not isinstance(data, dict):
        raise _error(path, "error-shape", path=path, reason="expected one table per exercise id")
    out: dict[str, dict[str, str]] = {}
    for exercise_id, answers in data.items():
        try:
            ex = get(exercise_id)
        except UnknownExercise:
            raise _error(path, "error-unknown-exercise", path=path, id=exercise_id,
                         known=", ".join(EXERCISES)) from None
        if not isinstance(answers, dict):
            raise _error(path, "error-shape", path=path,
                         reason=f"'{exercise_id}' must be a table of part = \"answer\"")
        for part_id, value in answers.items():
            try:
                ex.part(part_id)
            except UnknownPart:
                raise _error(path, "error-unknown-part", path=path, exercise=exercise_id,
                             part=part_id, known=", ".join(p.id for p in ex.parts)) from None
            out.setdefault(exercise_id, {})[part_id] = _answer_text(path, exercise_id, part_id, value)
    return out


def load_submission(path) -> dict[str, dict[str, str]]:
    """Read and validate one submission file (.json is JSON; anything else TOML)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _error(path, "error-unreadable", path=path, reason=exc.strerror or str(exc)) from None
    return load_bytes(path, data)


def load_bytes(path, data: bytes) -> dict[str, dict[str, str]]:
    """Validate a submission file's content, already read (the batch grader hashes it first)."""
    path = Path(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(path, "error-unreadable", path=path, reason=str(exc)) from None
    if not text.strip():
        raise _error(path, "error-shape", path=path, reason="the file is empty")
    data = _load_json(path, text) if path.suffix.lower() == ".json" else _load_toml(path, text)
    return parse_submission(path, data)
