"""Read a submission file: TOML (one table per exercise id, one string per part) or JSON.

A top-level ``seed`` (text or a whole number) names the variant the answers
are for (:func:`grader.bank.variant`); without it, the lessons' own data.

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

SEED_KEY = "seed"     # the one top-level key that is not an exercise id


@dataclass(frozen=True)
class Submission:
    answers: dict[str, dict[str, str]]     # {exercise id: {part id: answer text}}
    seed: str | None = None                # the variant, as the file names it


@dataclass(frozen=True)
class SubmissionError(Exception):
    path: str
    key: str                     # a message key: error-unreadable, error-malformed, error-not-*, ...
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
    raise _error(path, "error-not-a-string", path=path, exercise=exercise_id, part=part_id)


def seed_conflict(path, file_seed: str, option_seed: str) -> SubmissionError:
    """The file names one seed and the command line another: never pick one."""
    return _error(path, "error-seed-conflict", path=path, file_seed=file_seed,
                  option_seed=option_seed)


def _seed(path, value) -> str:
    from .seeds import InvalidSeed, seed_text
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _error(path, "error-file-seed", path=path)
    try:
        return seed_text(value)
    except InvalidSeed:
        raise _error(path, "error-file-seed", path=path) from None


def read_submission(path, data) -> Submission:
    """Check the shape, ids and seed of loaded data."""
    if not isinstance(data, dict):
        raise _error(path, "error-not-tables", path=path)
    seed = _seed(path, data[SEED_KEY]) if SEED_KEY in data else None
    answers = parse_submission(path, {k: v for k, v in data.items() if k != SEED_KEY})
    return Submission(answers, seed)


def parse_submission(path, data) -> dict[str, dict[str, str]]:
    """Check the shape and ids of loaded data; return {exercise: {part: text}}."""
    if not isinstance(data, dict):
        raise _error(path, "error-not-tables", path=path)
    out: dict[str, dict[str, str]] = {}
    for exercise_id, answers in data.items():
        if exercise_id == SEED_KEY:
            continue
        try:
            ex = get(exercise_id)
        except UnknownExercise:
            raise _error(path, "error-unknown-exercise", path=path, id=exercise_id,
                         known=", ".join(EXERCISES)) from None
        if not isinstance(answers, dict):
            raise _error(path, "error-not-a-table", path=path, exercise=exercise_id)
        for part_id, value in answers.items():
            try:
                ex.part(part_id)
            except UnknownPart:
                raise _error(path, "error-unknown-part", path=path, exercise=exercise_id,
                             part=part_id, known=", ".join(p.id for p in ex.parts)) from None
            out.setdefault(exercise_id, {})[part_id] = _answer_text(path, exercise_id, part_id, value)
    return out


def load(path) -> Submission:
    """Read and validate one submission file (.json is JSON; anything else TOML): its answers and
    its seed, if it names one."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _error(path, "error-no-such-file", path=path) from None
    except OSError as exc:
        raise _error(path, "error-unreadable", path=path, reason=exc.strerror or str(exc)) from None
    return load_bytes(path, data)


def load_submission(path) -> dict[str, dict[str, str]]:
    """Read and validate one submission file: its answers."""
    return load(path).answers


def load_bytes(path, data: bytes) -> Submission:
    """Validate a submission file's content, already read (the batch grader hashes it first)."""
    path = Path(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _error(path, "error-not-utf8", path=path) from None
    if not text.strip():
        raise _error(path, "error-empty", path=path)
    data = _load_json(path, text) if path.suffix.lower() == ".json" else _load_toml(path, text)
    return read_submission(path, data)
