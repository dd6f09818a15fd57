"""The reference table: what the judge needs of the lessons' exercises, without SymPy.

Most answers in a class are a decimal or a whole number, or a vector or set of them. Judging one needs
each part's references, named mistakes and the other parts' answers as numbers, and how many figures
the part asks for. :func:`build_table` computes them from the bank (in SymPy: reference answers are
computed, never typed) and keeps each number as a 60-digit decimal, its exact fraction when it is
rational, and, when the answer parser reads it back to the very same value, its exact form as text
(``sqrt(14)/2``). :class:`TableSource` hands them to the one judge (:mod:`grader.judging.rules`) as
fractions and proven intervals (:class:`~grader.arithmetic.intervals.Approx`, whose exact form a proof
can still ask for); what the table cannot decide (a wrong vector's feedback needs the exercise's rules)
raises Undecided, and the lesson decides, by the same rules.

Where the table comes from (:func:`table`):

* ``grader check`` keeps it in the user's cache directory (``$GRADER_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/andrea-grader``, else ``~/.cache/andrea-grader``), named by a hash of the grader's
  code (:func:`engine_version`), and reads it back only from a regular file that the user owns, in a
  folder that nobody else may write, of at most :data:`MAX_BYTES`, whose every value is well formed;
  anything else (NaN, a huge number, deep nesting, a link, a pipe) means it is built again.
* ``grader submit`` and ``grader grade`` (the instructors' paths: :func:`build_here`) never read it: they
  build it in their own process (about a second) and take no verdict from a file.
"""
from __future__ import annotations

import json
import os
import re
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import NamedTuple

from grader.arithmetic.intervals import Approx, Undecided
from grader.files import fingerprint, package_files, read_regular, write_atomic
from grader.languages.numerals import Percent, Series, plain_value
from grader.model.exercise import KINDS, Finding, finding
from grader.reading.show import show

DIGITS = 60
MAX_BYTES = 1 << 21                  # a table is about 40 kB
NAME = re.compile(r"references-[0-9a-f]{16}\.json")
DECIMAL = re.compile(r"-?[0-9]{1,40}(?:\.[0-9]{0,80})?(?:[eE][+-]?[0-9]{1,6})?")
EXACT = re.compile(r"-?[0-9]{1,80}/0*[1-9][0-9]{0,79}")      # a fraction: its denominator is not 0
_DOWN = Context(prec=DIGITS + 5, rounding=ROUND_FLOOR)
_UP = Context(prec=DIGITS + 5, rounding=ROUND_CEILING)
_trusted_only = False                 # set by the instructors' commands: build, never read


class PartInfo(NamedTuple):
    id: str
    points: int
    kind: str
    form: str
    length: int | None = None     # a vector's entries, a set's points' coordinates; None for a number


def engine_version() -> str:
    """A hash of the grader's code and wording: it names the cache, and a batch
    grades everyone again when it changes."""
    return code_fingerprint(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def code_fingerprint(root: str) -> str:
    """The fingerprint of the package at ``root``: its files (:func:`grader.files.package_files`)."""
    return fingerprint(package_files(root), root, length=16)


def cache_dir() -> Path:
    if os.environ.get("GRADER_CACHE_DIR"):
        return Path(os.environ["GRADER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "andrea-grader"


# --- building it --------------------------------------------------------------------------

def _number(value) -> dict:
    """A bank value as a 60-digit decimal, exactly when it is rational, and as the text the answer
    parser reads back to the very same value (None if it does not)."""
    import sympy

    from grader.model.geometry import to_sympy
    value = to_sympy(value)
    exact = f"{value.p}/{value.q}" if value.is_Rational else None
    return {"decimal": str(sympy.N(value, DIGITS)), "exact": exact,
            "form": None if exact is not None else _form(value)}


def _form(value) -> str | None:
    from grader.reading.parse import AnswerSyntaxError, parse_answer
    text = show(value)
    try:
        parsed = parse_answer(text)
    except AnswerSyntaxError:
        return None
    return text if parsed.kind == "scalar" and parsed.value == value else None


# A prompt's parameter in the table: text that says what the value is, so a message written from the table
# formats it as one written from the bank does (20 000, 40 %, a、b)
PARAM_KINDS = {"s": str, "i": int, "f": Fraction, "p": Percent}


def param_text(value) -> str:
    """A prompt's parameter as the table keeps it: 'i:20000', 'p:2/5', 's:parakeet', 'l:s:a|s:b'."""
    if isinstance(value, Series):
        return "l:" + "|".join(param_text(v) for v in value)
    value = plain_value(value)
    kind = next((k for k, t in reversed(PARAM_KINDS.items()) if isinstance(value, t)), "s")
    return f"{kind}:{value}"


def param_value(text: str):
    """The value :func:`param_text` wrote (a damaged one is read as the text it is)."""
    kind, _, rest = text.partition(":")
    if kind == "l":
        return Series(param_value(item) for item in rest.split("|"))
    try:
        return PARAM_KINDS[kind](rest)
    except (KeyError, ValueError, ZeroDivisionError):
        return text


def build_entry(exercise, part) -> dict:
    """One part: its kind, points, figures, the prompt's parameters, its reference (entries, or points
    for a set) and its named mistakes, every number as :func:`_number` writes it."""
    from grader.model import targets
    entry = {"points": part.points, "kind": part.kind, "form": part.form, "whole": part.whole,
             "params": {k: param_text(v) for k, v in part.params}, "figures": targets.figures(exercise, part.id)}
    if part.kind == "set":
        entry["reference"] = [[_number(v) for v in point] for point in part.reference]
        entry["mistakes"] = []
    else:
        entry["reference"] = [_number(v) for v in targets.entries(part.reference)]
        entry["mistakes"] = [{"key": key, "values": [_number(v) for v in value]}
                             for key, value in targets.mistakes(exercise, part.id)]
    return entry


def build_table() -> dict:
    """:func:`build_entry` of every part of every exercise, on the lessons' own data."""
    from grader import bank
    return {ex.id: {part.id: build_entry(ex, part) for part in ex.parts} for ex in bank.EXERCISES.values()}


def build_here() -> None:
    """From now on, in this process and the workers it forks, the table is built here, never read
    from a file (``grader submit`` and ``grader grade``: an instructor's grades cannot come from a
    cache someone edited)."""
    global _trusted_only
    _trusted_only = True
    table.cache_clear()


@cache
def table() -> dict:
    """The table: from the cache file when this grader version wrote one that can be trusted (see
    the module's docstring), else built, and written for next time where the folder is safe."""
    path = cache_dir() / f"references-{engine_version()}.json"
    if not _trusted_only:
        found = _read(path)
        if found is not None:
            return found
    data = build_table()
    _write(path, data)
    return data


def _read(path: Path) -> dict | None:
    """The table in ``path`` if every check passes, else None."""
    try:
        data = json.loads(read_regular(path, MAX_BYTES, follow=False, private=_owned_files()),
                          parse_constant=_refuse, parse_float=_refuse, parse_int=_small_int)
    except (OSError, ValueError, RecursionError, TypeError):
        return None
    return data if well_formed(data) else None


def _owned_files() -> bool:
    return sys.platform != "emscripten"     # the page's table comes with the page's own files


def _refuse(text: str):
    raise ValueError(f"not in a reference table: {text[:20]}")


def _small_int(text: str) -> int:
    if len(text) > 3:
        raise ValueError("a number too large for a reference table")
    return int(text)


def _write(path: Path, data: dict) -> None:
    """Write the table for next time; remove the tables of earlier versions (only files named as this
    grader names them, regular and the user's own). A read-only or shared folder is left alone."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        for old in path.parent.iterdir():
            if NAME.fullmatch(old.name) and old != path and old.is_file() and not old.is_symlink() \
                    and old.stat().st_uid == getattr(os, "geteuid", lambda: old.stat().st_uid)():
                old.unlink(missing_ok=True)
        write_atomic(path, json.dumps(data), sync=False)
    except OSError:
        pass   # a read-only home: computed again next time, nothing else changes


def well_formed(data) -> bool:
    """Every value of a table the shape and size this grader writes: never trusted half-way."""
    def number(value) -> bool:
        return (isinstance(value, dict) and set(value) == {"decimal", "exact", "form"}
                and isinstance(value["decimal"], str) and DECIMAL.fullmatch(value["decimal"]) is not None
                and (value["exact"] is None or isinstance(value["exact"], str) and EXACT.fullmatch(value["exact"]))
                and (value["form"] is None or isinstance(value["form"], str) and 0 < len(value["form"]) <= 300))

    def numbers(values) -> bool:
        return isinstance(values, list) and 0 < len(values) <= 20 and all(number(v) for v in values)

    def entry(e) -> bool:
        if not (isinstance(e, dict) and set(e) == {"points", "kind", "form", "whole", "params", "figures",
                                                   "reference", "mistakes"}):
            return False
        if not (type(e["points"]) is int and 0 < e["points"] <= 100 and e["kind"] in KINDS
                and isinstance(e["form"], str) and type(e["whole"]) is bool and type(e["figures"]) is int
                and 1 <= e["figures"] <= 20 and isinstance(e["params"], dict)
                and all(isinstance(k, str) and isinstance(v, str) and len(v) < 100 for k, v in e["params"].items())):
            return False
        points = e["reference"] if e["kind"] == "set" else [e["reference"]]
        return (isinstance(points, list) and 0 < len(points) <= 50 and all(numbers(p) for p in points)
                and isinstance(e["mistakes"], list) and len(e["mistakes"]) <= 50
                and all(isinstance(m, dict) and set(m) == {"key", "values"} and isinstance(m["key"], str)
                        and numbers(m["values"]) for m in e["mistakes"]))
    return (isinstance(data, dict) and 0 < len(data) <= 100
            and all(isinstance(parts, dict) and 0 < len(parts) <= 50 and all(entry(e) for e in parts.values())
                    for parts in data.values()))


# --- reading it ---------------------------------------------------------------------------

def part_info(exercise_id: str, part_id: str) -> PartInfo | None:
    entry = table().get(exercise_id, {}).get(part_id)
    if entry is None:
        return None
    reference = entry["reference"]
    length = len(reference[0]) if entry["kind"] == "set" else len(reference) if entry["kind"] == "vector" else None
    return PartInfo(part_id, entry["points"], entry["kind"], entry["form"], length)


def value_of(number: dict):
    """A table number for the judge: its Fraction, or an interval a few units wide in its 60th digit
    that can give its exact form to a proof."""
    if number["exact"] is not None:
        return Fraction(number["exact"])
    try:
        d = Decimal(number["decimal"])
    except InvalidOperation:
        raise Undecided("a damaged number") from None
    width = Decimal(1).scaleb(d.adjusted() - DIGITS + 3)
    form = number["form"]
    return Approx(_DOWN.subtract(d, width), _UP.add(d, width), None if form is None else lambda: _exact(form))


@cache
def _exact(form: str):
    """A table number's exact form; a form that does not read as one number (a file edited by hand:
    ``(1, 2)``, ``9**9**9**9``) decides nothing, and the lesson decides."""
    from grader.reading.parse import AnswerSyntaxError, parse_answer
    try:
        parsed = parse_answer(form)
    except AnswerSyntaxError:
        raise Undecided("a damaged exact form") from None
    if parsed.kind != "scalar":
        raise Undecided("a damaged exact form")
    return parsed.value


class TablePart(NamedTuple):
    id: str
    points: int
    kind: str
    form: str
    whole: bool
    params: tuple


def source(exercise_id: str) -> "TableSource":
    """The table's source for one exercise, made once per table (its numbers are read once)."""
    found = _SOURCES.get(exercise_id)
    if found is None or found.parts is not table().get(exercise_id):
        found = _SOURCES[exercise_id] = TableSource(exercise_id)
    return found


_SOURCES: dict[str, "TableSource"] = {}


def _once(method):
    """Keep what a method of :class:`TableSource` gives for each part: the table does not change."""
    def kept(self, part_id: str):
        key = (method.__name__, part_id)
        if key not in self.kept:
            self.kept[key] = method(self, part_id)
        return self.kept[key]
    return kept


class TableSource:
    """The lessons' exercises as the table knows them (see :class:`grader.judging.rules.Source`)."""

    def __init__(self, exercise_id: str):
        self.exercise_id = exercise_id
        self.parts = table().get(exercise_id) or {}      # a table edited by hand may lack it: the lesson decides
        self.kept: dict = {}

    def entry(self, part_id: str) -> dict:
        e = self.parts.get(part_id)
        if e is None:
            raise Undecided("the table lacks this part")
        return e

    @_once
    def part(self, part_id: str) -> TablePart:
        e = self.entry(part_id)
        return TablePart(part_id, e["points"], e["kind"], e["form"], e["whole"],
                         tuple((k, param_value(v)) for k, v in e["params"].items()))

    @_once
    def reference(self, part_id: str) -> tuple:
        e = self.entry(part_id)
        if e["kind"] == "set":
            return tuple(tuple(value_of(v) for v in point) for point in e["reference"])
        return tuple(value_of(v) for v in e["reference"])

    @_once
    def mistakes(self, part_id: str) -> tuple[tuple[str, tuple], ...]:
        return tuple((m["key"], tuple(value_of(v) for v in m["values"])) for m in self.entry(part_id)["mistakes"])

    @_once
    def targets(self, part_id: str) -> tuple[tuple[Finding, tuple], ...]:
        own = self.entry(part_id)
        found = [(finding(key), value) for key, value in self.mistakes(part_id)]
        for other_id, other in self.parts.items():
            if other_id != part_id and _shape(other) == _shape(own):
                found.append((finding("other-part", part=f"key:part.{self.exercise_id}.{other_id}.prompt",
                                      **dict(self.part(other_id).params)), self.reference(other_id)))
        return tuple(found)

    @_once
    def spreads(self, part_id: str) -> tuple:
        from grader.arithmetic.compare import gap_bounds
        reference = self.reference(part_id)
        found = [gap_bounds(value, reference) if len(value) == len(reference) else None
                 for _, value in self.targets(part_id)]
        return tuple(None if bounds is None else bounds[0] for bounds in found)

    def figures(self, part_id: str) -> int:
        return self.entry(part_id)["figures"]

    def rules(self, part_id: str, values: tuple, figures: tuple) -> list[Finding]:
        raise Undecided("a wrong vector's feedback needs the exercise's own rules")

    def point_note(self, point: tuple) -> Finding:
        raise Undecided("a wrong point's feedback needs the exercise's own rules")


def _shape(entry: dict) -> object:
    return len(entry["reference"]) if entry["kind"] == "vector" else entry["kind"] in ("real", "integer") or entry["kind"]
