"""Plain numbers, and vectors and sets of plain numbers, judged without SymPy.

Most answers in a class are a decimal or a whole number (``0.3837``, ``-2``, ``1.5e-4``), or a
vector of them (``(0.3837, 0.3837, 0.2327)``). Judging one needs only the references, the named
mistakes and the other parts' answers as high-precision decimals, which :func:`table` keeps in a
small JSON file in the user's cache directory (``$GRADER_CACHE_DIR``, else
``$XDG_CACHE_HOME/andrea-grader``, else ``~/.cache/andrea-grader``), named by a hash of the grader's
code (:func:`engine_version`). The values are still computed by the bank with SymPy, once, the first
time (reference answers are computed, never typed); after that ``grader check ID PART 0.3837``
starts and answers without importing SymPy. (A variant's answers go to :mod:`grader.judging.evaluate`,
against its references in plain numbers: :func:`grader.bank.numeric`.)

:func:`outcome` follows :func:`grader.judging.evaluate.evaluate` step for step with exact fractions (a
plain number is read exactly, as the parser reads it) and references at 60 digits: the tolerance
(:mod:`grader.arithmetic.tolerance`), a nearer target, then named mistakes, then ``decimal-imprecise``. Whenever
that path could not decide exactly as the full path does (a number on the boundary at 60 digits, a
wrong vector or set, whose feedback needs the exercise's own rules), or the text is anything but
plain numbers, it returns None and the caller takes the full path.
"""
from __future__ import annotations

import json
import os
import re
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import NamedTuple

from grader.arithmetic import tolerance
from grader.files import fingerprint, write_atomic
from grader.judging.outcome import Outcome, finding

DIGITS = 60
MAX_SIGNIFICANT = 40
RELATIVE, ABSOLUTE, CLOSE = tolerance.RELATIVE, tolerance.ABSOLUTE, tolerance.CLOSE_FACTOR
UNSURE = Decimal("1e-50")      # a margin this small at 60 digits: the full path decides
# What Python's parser (and so grader.reading.parse) reads as one number, with one optional sign.
NUMBER = re.compile(r"[ \t\r\n]*([+-]?)(([0-9]+)(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?[ \t\r\n]*")
VECTOR = re.compile(r"\s*(\(([^()\[\]{}]*)\)|\[([^()\[\]{}]*)\])\s*")
POINTS = re.compile(r"\s*\{(\s*\([^()\[\]{}]*\)\s*(?:,\s*\([^()\[\]{}]*\)\s*)*)\}\s*")


class PartInfo(NamedTuple):
    id: str
    points: int
    kind: str
    form: str


def engine_version() -> str:
    """A hash of the grader's code and wording: it names the cache, and a batch
    grades everyone again when it changes."""
    return code_fingerprint(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def code_fingerprint(root: str) -> str:
    """The fingerprint of the package at ``root``: its modules (``*.py`` at any depth) and the
    catalogs ``locale/*/LC_MESSAGES/*.po``; never ``__pycache__``."""
    code = []
    for folder, subfolders, names in os.walk(root):     # os.walk: a third of pathlib's globs' time
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        inside = os.path.relpath(folder, root).replace(os.sep, "/")
        for name in sorted(names):
            if (name.endswith(".py")
                    or (inside.startswith("locale/") and inside.endswith("/LC_MESSAGES") and name.endswith(".po"))):
                code.append(Path(folder, name))
    return fingerprint(code, root, length=16)


def cache_dir() -> Path:
    if os.environ.get("GRADER_CACHE_DIR"):
        return Path(os.environ["GRADER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "andrea-grader"


def _number(value, exact_form: bool = False) -> dict:
    """A bank value (SymPy, or an int) as a 60-digit decimal, and exactly when it is rational;
    ``exact_form``: an irrational one also as the text the answer parser reads back to the very
    same SymPy value (None if it does not), so that :func:`grader.judging.evaluate.proved_on_table` can
    prove an exact form against it without building the lesson."""
    import sympy

    from grader.model.geometry import to_sympy
    value = to_sympy(value)
    exact = f"{value.p}/{value.q}" if value.is_Rational else None
    number = {"decimal": str(sympy.N(value, DIGITS)), "exact": exact}
    if exact_form:
        number["form"] = None if exact is not None else _form(value)
    return number


def _form(value) -> str | None:
    from grader.reading.parse import AnswerSyntaxError, parse_answer
    from grader.reading.show import show
    text = show(value)
    try:
        parsed = parse_answer(text)
    except AnswerSyntaxError:
        return None
    return text if parsed.kind == "scalar" and parsed.value == value else None


def _values(value, exact_form: bool = False) -> list[dict]:
    values = value if isinstance(value, tuple) else (value,)
    return [_number(v, exact_form) for v in values]


def build_entry(exercise, part) -> dict:
    """One part's kind, entries and points; for number and vector parts the reference, and each
    target an answer within the tolerance may be nearer to (named mistakes, other parts' answers),
    as 60-digit decimals (and exact fractions when they are rational); for sets, the points."""
    from grader.judging import feedback as fb
    entry = {"points": part.points, "kind": part.kind, "form": part.form, "whole": part.whole}
    if part.kind == "set":
        entry["reference"] = [_values(tuple(point)) for point in part.reference]
    else:
        reference = tuple(part.reference) if part.kind == "vector" else part.reference
        entry["reference"] = _values(reference, exact_form=True)
        entry["targets"] = [{"key": note.key, "params": dict(note.params), "values": _values(value),
                             "mistake": note.key != "other-part"}
                            for note, value in fb.targets(exercise, part.id)]
    return entry


def build_table() -> dict:
    """:func:`build_entry` of every part of every exercise, on the lessons' own data."""
    from grader import bank
    return {ex.id: {part.id: build_entry(ex, part) for part in ex.parts} for ex in bank.EXERCISES.values()}


@cache
def table() -> dict:
    """The table, from the cache file when this grader version wrote one."""
    path = cache_dir() / f"references-{engine_version()}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if _well_formed(data):
            return data
    except (OSError, ValueError):
        pass
    data = build_table()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob("references-*.json"):   # earlier versions of the grader
            old.unlink(missing_ok=True)
        write_atomic(path, json.dumps(data), sync=False)
    except OSError:
        pass   # a read-only home: computed again next time, nothing else changes
    return data


def _well_formed(data) -> bool:
    """A damaged cache file is computed again, never trusted half-way."""
    def number(value):
        Decimal(value["decimal"])
        if value["exact"] is not None:
            Fraction(value["exact"])
        if value.get("form") is not None:
            str.strip(value["form"])
    try:
        for parts in data.values():
            for entry in parts.values():
                int(entry["points"]), str(entry["kind"]), str(entry["form"]), bool(entry["whole"])
                references = entry["reference"] if entry["kind"] == "set" else [entry["reference"]]
                for values in references:
                    for value in values:
                        number(value)
                for target in entry.get("targets", ()):
                    str(target["key"]), dict(target["params"]), bool(target["mistake"])
                    for value in target["values"]:
                        number(value)
        return True
    except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError):
        return False


def part_info(exercise_id: str, part_id: str) -> PartInfo | None:
    entry = table().get(exercise_id, {}).get(part_id)
    return None if entry is None else PartInfo(part_id, entry["points"], entry["kind"], entry["form"])


def read_number(text: str) -> Fraction | None:
    """The exact value of a plain number as the parser reads it, else None."""
    match = NUMBER.fullmatch(text)
    if not match or len(text) > 500:
        return None
    sign, body, whole, point, exponent = match.groups()
    decimal = point is not None or exponent is not None or whole is None
    if not decimal and len(whole) > 1 and whole.startswith("0") and whole.strip("0"):
        return None           # '012' is a syntax error to Python: the full path says so
    if len(body.replace(".", "").lstrip("0")) > MAX_SIGNIFICANT:
        return None
    return Fraction(Decimal(sign + body + (exponent or "")))


def _entries(inner: str, decimal_comma: bool) -> list[Fraction] | None:
    """The plain numbers between a vector's brackets, separated as the parser separates them."""
    if ";" in inner:
        items = inner.split(";")
        if decimal_comma:
            items = [_DECIMAL_COMMA.sub(".", item) if item.count(",") <= 1 else "x" for item in items]
    else:
        if decimal_comma and _DECIMAL_COMMA.search(inner):
            return None           # '0,5' could be a number or two entries: the full path says so
        items = inner.split(",")
    values = [read_number(item) for item in items]
    return None if not values or any(v is None for v in values) else values


def read_answer(text: str, decimal_comma: bool) -> tuple[str, object] | None:
    """('scalar', n), ('vector', [n...]) or ('set', [[n...]...]) of plain numbers, else None."""
    if decimal_comma and "," in text and not any(ch in text for ch in "()[]{}"):
        if text.count(",") != 1 or not _DECIMAL_COMMA.search(text):
            return None
        text = _DECIMAL_COMMA.sub(".", text)
    number = read_number(text)
    if number is not None:
        return "scalar", number
    vector = VECTOR.fullmatch(text)
    if vector:
        values = _entries(vector.group(2) if vector.group(2) is not None else vector.group(3), decimal_comma)
        return None if values is None else ("vector", values)
    points = POINTS.fullmatch(text)
    if points and not decimal_comma:
        found = [_entries(inner, False) for inner in re.findall(r"\(([^()]*)\)", points.group(1))]
        return None if any(p is None for p in found) else ("set", found)
    return None


# --- the rules, as grader.arithmetic.compare states them, on exact fractions and 60-digit references

def _within(answer: Fraction, target: dict, factor: int) -> bool | None:
    """|answer - target| <= factor * tolerance; None when 60 digits cannot tell."""
    if target["exact"] is not None:
        r = Fraction(target["exact"])
        return abs(answer - r) <= factor * (ABSOLUTE if r == 0 else RELATIVE * abs(r))
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        r = Decimal(target["decimal"])
        a = Decimal(answer.numerator) / Decimal(answer.denominator)
        limit = factor * (Decimal(RELATIVE.numerator) / Decimal(RELATIVE.denominator)) * abs(r)
        margin = limit - abs(a - r)
        if abs(margin) <= UNSURE * (abs(r) + 1):
            return None
        return margin > 0


def _equal(answer: Fraction, target: dict, whole: bool) -> bool | None:
    """The verdict of one number against one value: exact for a whole-number entry, else the tolerance."""
    if not whole:
        return _within(answer, target, 1)
    if target["exact"] is not None:
        return answer == Fraction(target["exact"])
    with localcontext() as ctx:                 # a rational never equals an irrational value
        ctx.prec = DIGITS + 10
        a = Decimal(answer.numerator) / Decimal(answer.denominator)
        return False if abs(a - Decimal(target["decimal"])) > UNSURE else None


def _gap(answers: list[Fraction], values: list[dict]) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        return max(abs(Decimal(a.numerator) / Decimal(a.denominator) - Decimal(v["decimal"]))
                   for a, v in zip(answers, values))


def _nearer(answers: list[Fraction], entry: dict) -> Outcome | None | bool:
    """The note of a target nearer than the reference (an Outcome), False if none, None if unsure."""
    own = _gap(answers, entry["reference"])
    if own == 0:
        return False
    for target in entry["targets"]:
        if len(target["values"]) == len(answers):
            gap = _gap(answers, target["values"])
            if abs(gap - own) <= UNSURE:
                return None
            if gap < own:
                return Outcome(0.0, (finding(target["key"], **target["params"]),))
    return False


def _scalar(answer: Fraction, entry: dict) -> Outcome | None:
    reference, whole = entry["reference"][0], entry["whole"]
    equal = _equal(answer, reference, whole)
    if equal is None:
        return None
    if equal:
        nearer = _nearer([answer], entry)
        return None if nearer is None else nearer or Outcome(1.0)
    for target in entry["targets"]:
        if target["mistake"] and len(target["values"]) == 1:
            same = _equal(answer, target["values"][0], whole)
            if same is None:
                return None
            if same:
                return Outcome(0.0, (finding(target["key"], **target["params"]),))
    close = False if whole else _within(answer, reference, CLOSE)
    if close is None:
        return None
    imprecise = "decimal-imprecise-zero" if Decimal(reference["decimal"]) == 0 else "decimal-imprecise"
    return Outcome(0.0, (finding(imprecise if close else "incorrect"),))


def _vector(answers: list[Fraction], entry: dict) -> Outcome | None:
    reference = entry["reference"]
    if len(answers) != len(reference):
        return None
    if not all(_equal(a, r, entry["whole"]) for a, r in zip(answers, reference)):
        return None              # a wrong vector: its feedback needs the exercise's rules
    nearer = _nearer(answers, entry)
    return None if nearer is None else nearer or Outcome(1.0)


def _set(points: list[list[Fraction]], entry: dict) -> Outcome | None:
    free = list(entry["reference"])
    for point in points:
        hit = next((r for r in free if len(r) == len(point)
                    and all(_equal(a, v, entry["whole"]) for a, v in zip(point, r))), None)
        if hit is None:
            return None          # a wrong set: its feedback needs the exercise's rules
        free.remove(hit)
    return None if free else Outcome(1.0)


_DECIMAL_COMMA = re.compile(r"(?<=[0-9]),(?=[0-9])")
WRONG_FORM = {("real", "vector"), ("real", "set"), ("integer", "vector"), ("integer", "set")}


def outcome(exercise_id: str, part_id: str, text: str, decimal_comma: bool = False) -> Outcome | None:
    """The outcome of an answer of plain numbers to a part on its lesson's data, or None to take
    the full path.

    ``decimal_comma``: the student's language writes 0,5; a comma is read as the parser reads it
    (:func:`grader.reading.notation.separators`), and anything it would refuse takes the full path."""
    answer = read_answer(text, decimal_comma)
    if answer is None:
        return None
    entry = table().get(exercise_id, {}).get(part_id)
    if entry is None:
        return None
    shape, value = answer
    kind = entry["kind"]
    if kind in ("real", "integer"):
        if shape != "scalar":
            return None
        return _scalar(value, entry)
    if shape == "scalar":
        return Outcome(0.0, (finding("wrong-form", expected=f"key:{entry['form']}", got="key:kind-scalar"),))
    if kind == "vector":
        return _vector(value, entry) if shape == "vector" else None
    return _set(value if shape == "set" else [value], entry) if shape in ("set", "vector") else None
