"""Read a submission file: TOML (one table per exercise id, one string per part) or JSON.

A top-level ``seed`` (text or a whole number) names the variant the answers
are for (:func:`grader.bank.variant`); without it, the lessons' own data.

Errors are :class:`SubmissionError` with the path, the line when the parser
gives one, and a message key with parameters for :mod:`grader.languages.messages`.

What a file can be, and what is refused with its own message (``grader submit``
and ``grader grade`` alike): only a regular file is opened (a FIFO, a device, a
socket or a folder is refused from its type, never opened, so nothing blocks),
of at most :data:`MAX_BYTES`; a UTF-8 byte-order mark is skipped; nesting too
deep for the parser, a number with more digits than Python converts, and a JSON
escape that is half a character (``"\\ud800"``) are refused.
"""
from __future__ import annotations

import json
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from grader.bank import EXERCISES, UnknownExercise, UnknownPart, get
from grader.files import MAX_INT_DIGITS, NotRegular, TooBig, read_regular, tomllib
from grader.languages.parsers import reason as parser_reason

SEED_KEY = "seed"     # the top-level keys that are not exercise ids: the variant,
LANG_KEY = "lang"     # and the language the answers are written in (how 0,5 reads)
MAX_BYTES = 1 << 20   # a submission file larger than this is not read
BOM = "\ufeff"
# what a path that is not a regular file is, by its mode (anything else: a device)
NOT_A_FILE = ((stat.S_ISDIR, "error-is-folder"), (stat.S_ISFIFO, "error-fifo"),
              (stat.S_ISSOCK, "error-socket"))


@dataclass(frozen=True)
class Submission:
    answers: dict[str, dict[str, str]]     # {exercise id: {part id: answer text}}
    seed: str | None = None                # the variant, as the file names it
    lang: str | None = None                # the student's language, as the file names it


@dataclass(frozen=True)
class SubmissionError(Exception):
    path: str
    key: str                     # a message key: error-unreadable, error-malformed, error-not-*, ...
    params: tuple[tuple[str, object], ...] = field(default=())   # numbers stay numbers (a message writes them)
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}: {self.key} {dict(self.params)}"


def describe(exc: SubmissionError, lang: str) -> str:
    """The error in words, in ``lang``, always starting with the file's name (``grader submit``, ``grade``, the page's
    Load answers)."""
    from grader.languages.messages import message
    text = message(exc.key, lang, **dict(exc.params))
    return text if text.startswith(exc.path) else message("cli.located", lang, where=exc.path, what=text)


def display(name) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as lone surrogates)
    are shown as ``\\xNN``."""
    name = str(name)
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def file_error(where, key, at_line=None, **params) -> SubmissionError:
    params = {k: display(v) if k == "path" else v for k, v in params.items()}
    return SubmissionError(display(where), key, tuple(params.items()), at_line)


def refusal(path, mode: int) -> SubmissionError | None:
    """Why ``path``, of this ``stat`` mode, is not read (None: a regular file)."""
    if stat.S_ISREG(mode):
        return None
    key = next((key for test, key in NOT_A_FILE if test(mode)), "error-device")
    return file_error(path, key, path=path)


def read_bytes(path, *, follow: bool = True) -> bytes:
    """The content of a regular file of at most MAX_BYTES (``follow``: through a symbolic
    link), or a SubmissionError saying why not. Its type is checked before it is opened."""
    try:
        return read_regular(path, MAX_BYTES, follow=follow)
    except NotRegular as exc:
        raise refusal(path, exc.mode) from None
    except TooBig as exc:
        raise file_error(path, "error-too-big", path=path, size=exc.size, limit=MAX_BYTES) from None
    except FileNotFoundError:
        raise file_error(path, "error-no-such-file", path=path) from None
    except OSError as exc:
        raise file_error(path, "error-unreadable", path=path, reason=exc.strerror or str(exc)) from None


_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


class NumberText(str):
    """A number written without quotes in a TOML or JSON file, kept as the text it was written as: the
    grader reads it exactly, as it reads a quoted answer, never rounded to binary first."""


def _number_text(text: str) -> NumberText:
    if len(text) > MAX_INT_DIGITS:
        raise ValueError("Exceeds the limit on the digits of a number")
    return NumberText(text.replace("_", ""))      # TOML's digit separators: 1_000.5


# an integer TOML reads in a base or with separators (0x320, 0o17, 0b11, 1_5), written without quotes after `=`:
# read as a quoted answer it is refused, so it is refused here too rather than read as TOML's 800, 15, 3, 15
_UNQUOTED_INTEGER = re.compile(r"=\s*[+-]?(?:0[xob][0-9A-Fa-f_]*|\d+(?:_\d+)+)\s*(?:[,}#]|$)")


def _load_toml(path: Path, text: str) -> dict:
    try:
        data = tomllib.loads(text, parse_float=_number_text)
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))
        line = int(where.group(1)) if where else None
        reason = parser_reason(_TOML_WHERE.sub("", str(exc)).strip())
        raise file_error(path, "error-malformed" if line else "error-malformed-file", line, path=path, line=line,
                         format="TOML", reason=reason) from None
    for number, line in enumerate(text.splitlines(), 1):
        if _UNQUOTED_INTEGER.search(line):
            raise file_error(path, "error-malformed", number, path=path, line=number, format="TOML",
                             reason="key:reason.integer-form")
    return data


class _NameTwice(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _each_name_once(pairs: list) -> dict:
    """A JSON object whose names are all different (TOML refuses a name given twice; JSON's reader keeps the last)."""
    seen = set()
    for name, _ in pairs:
        if name in seen:
            raise _NameTwice(name)
        seen.add(name)
    return dict(pairs)


def _load_json(path: Path, text: str) -> dict:
    try:
        return json.loads(text, parse_float=_number_text, parse_constant=_number_text, object_pairs_hook=_each_name_once)
    except _NameTwice as twice:
        written = re.compile(re.escape(json.dumps(twice.name, ensure_ascii=False)) + r"\s*:")
        found = list(written.finditer(text))     # the line of its second writing, where it can be told
        line = text.count("\n", 0, found[-1].start()) + 1 if len(found) > 1 else None
        raise file_error(path, "error-malformed" if line else "error-malformed-file", line, path=path, line=line,
                         format="JSON", reason="key:reason.twice") from None
    except json.JSONDecodeError as exc:
        raise file_error(path, "error-malformed", exc.lineno, path=path, line=exc.lineno,
                     format="JSON", reason=parser_reason(exc.msg)) from None


def _answer_text(path, exercise_id, part_id, value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise file_error(path, "error-not-a-string", path=path, exercise=exercise_id, part=part_id)


def seed_conflict(path, file_seed: str, option_seed: str) -> SubmissionError:
    """The file names one seed and the command line another: never pick one."""
    return file_error(path, "error-seed-conflict", path=path, file_seed=file_seed,
                  option_seed=option_seed)


def _seed(path, value) -> str:
    from grader.model.seeds import InvalidSeed, seed_text
    if isinstance(value, (bool, NumberText)) or not isinstance(value, (str, int)):
        raise file_error(path, "error-file-seed", path=path)
    try:
        return seed_text(value)
    except InvalidSeed:
        raise file_error(path, "error-file-seed", path=path) from None


def _lang(path, value) -> str:
    from grader.languages.messages import LOCALES
    if isinstance(value, str) and value.strip().lower() in LOCALES:   # "FR", " fr": the language all the same
        return value.strip().lower()
    if value not in LOCALES:
        raise file_error(path, "error-file-lang", path=path, value=str(value)[:40], known=", ".join(LOCALES))
    return value


def read_submission(path, data) -> Submission:
    """Check the shape, ids, seed and language of loaded data."""
    if not isinstance(data, dict):
        raise file_error(path, "error-not-tables", path=path)
    seed = _seed(path, data[SEED_KEY]) if SEED_KEY in data else None
    lang = _lang(path, data[LANG_KEY]) if LANG_KEY in data else None
    answers = parse_submission(path, {k: v for k, v in data.items() if k not in (SEED_KEY, LANG_KEY)})
    return Submission(answers, seed, lang)


def parse_submission(path, data) -> dict[str, dict[str, str]]:
    """Check the shape and ids of loaded data; return {exercise: {part: text}}."""
    if not isinstance(data, dict):
        raise file_error(path, "error-not-tables", path=path)
    out: dict[str, dict[str, str]] = {}
    for exercise_id, answers in data.items():
        if exercise_id in (SEED_KEY, LANG_KEY):
            continue
        try:
            ex = get(exercise_id)
        except UnknownExercise:
            raise file_error(path, "error-unknown-exercise", path=path, id=exercise_id,
                         known=", ".join(EXERCISES)) from None
        if not isinstance(answers, dict):
            raise file_error(path, "error-not-a-table", path=path, exercise=exercise_id)
        for part_id, value in answers.items():
            try:
                ex.part(part_id)
            except UnknownPart:
                raise file_error(path, "error-unknown-part", path=path, exercise=exercise_id,
                             part=part_id, known=", ".join(p.id for p in ex.parts)) from None
            out.setdefault(exercise_id, {})[part_id] = _answer_text(path, exercise_id, part_id, value)
    return out


def load(path) -> Submission:
    """Read and validate one submission file (.json is JSON; anything else TOML): its answers and
    its seed, if it names one."""
    path = Path(path)
    return load_bytes(path, read_bytes(path))


def load_submission(path) -> dict[str, dict[str, str]]:
    """Read and validate one submission file: its answers."""
    return load(path).answers


def load_bytes(path, data: bytes) -> Submission:
    """Validate a submission file's content, already read (the batch grader hashes it first)."""
    path = Path(path)
    try:
        text = data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError:
        raise file_error(path, "error-not-utf8", path=path) from None
    if not text.strip():
        raise file_error(path, "error-empty", path=path)
    json_file = path.suffix.lower() == ".json"
    try:
        data = _load_json(path, text) if json_file else _load_toml(path, text)
    except RecursionError:
        raise file_error(path, "error-too-deep", path=path) from None
    except ValueError as exc:        # Python's limit on the digits of an int it converts, mostly
        if "digits" in str(exc):
            raise file_error(path, "error-long-number", path=path,
                         limit=MAX_INT_DIGITS) from None
        raise file_error(path, "error-malformed-file", path=path,
                         format="JSON" if json_file else "TOML", reason=str(exc)) from None
    if json_file and not _all_text(data):
        raise file_error(path, "error-lone-surrogate", path=path)
    return read_submission(path, data)


def _all_text(data) -> bool:
    """Whether every string in loaded JSON is text (no '\\ud800', half of a character)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            stack += [*item, *item.values()]
        elif isinstance(item, list):
            stack += item
    return True
