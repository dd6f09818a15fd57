"""A plain number typed for a number part, judged without SymPy.

Most answers in a class are a decimal or a whole number (``0.3837``, ``-2``,
``1.5e-4``). Judging one needs only the reference and the named mistakes as
high-precision decimals, which :func:`table` keeps in a small JSON file in the
user's cache directory (``$GRADER_CACHE_DIR``, else ``$XDG_CACHE_HOME/andrea-grader``,
else ``~/.cache/andrea-grader``), named by a hash of the grader's code
(:func:`engine_version`). The values are still computed by the bank with SymPy,
once, the first time (reference answers are computed, never typed); after that
``grader check ID PART 0.3837`` starts and answers without importing SymPy.

:func:`outcome` follows :func:`grader.check.evaluate` step for step (tolerance,
then named mistakes, then ``decimal-imprecise``) with :mod:`decimal` arithmetic
at 60 digits, where :mod:`grader.compare` works at 50; whenever that path would
need a symbolic proof, or the text is anything but a plain number, it returns
None and the caller takes the full path.
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

from . import tolerance
from .files import fingerprint, write_atomic
from .outcome import Outcome, finding

DIGITS = 60
MAX_SIGNIFICANT = 20     # the full path reads a decimal at 30 digits: stay well inside
RELATIVE, ABSOLUTE = (Decimal(t.numerator) / Decimal(t.denominator) for t in (tolerance.RELATIVE, tolerance.ABSOLUTE))
CLOSE = tolerance.CLOSE_FACTOR
EXACT_GAP = Decimal("1e-25")
# What Python's parser (and so grader.parse) reads as one number, with one optional sign.
NUMBER = re.compile(r"[ \t\r\n]*([+-]?)(([0-9]+)(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?[ \t\r\n]*")


class PartInfo(NamedTuple):
    id: str
    points: int
    kind: str
    form: str


def engine_version() -> str:
    """A hash of the grader's code and wording: it names the cache, and a batch
    grades everyone again when it changes."""
    root = Path(__file__).parent
    code = sorted(p for p in [*root.rglob("*.py"), *root.glob("messages/*"), *root.glob("locale/*/LC_MESSAGES/*.po")]
                  if p.is_file() and "__pycache__" not in p.parts)
    return fingerprint(code, root, length=16)


def cache_dir() -> Path:
    if os.environ.get("GRADER_CACHE_DIR"):
        return Path(os.environ["GRADER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "andrea-grader"


def _number(value) -> dict:
    import sympy
    exact = f"{value.p}/{value.q}" if value.is_Rational else None
    return {"decimal": str(sympy.N(value, DIGITS)), "exact": exact}


def build_table() -> dict:
    """Every part's kind and points; for number parts, the reference and the named
    mistakes as 60-digit decimals (and exact fractions when they are rational)."""
    from . import bank, feedback as fb
    table = {}
    for ex in bank.EXERCISES.values():
        parts = {}
        for part in ex.parts:
            entry = {"points": part.points, "kind": part.kind, "form": part.form}
            if part.kind in ("scalar", "integer"):
                entry["reference"] = _number(part.reference)
                entry["mistakes"] = [{"key": key, "shown": fb.show(value), **_number(value)}
                                     for key, value in fb.mistakes(ex.id, part.id)]
            parts[part.id] = entry
        table[ex.id] = parts
    return table


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
    try:
        for parts in data.values():
            for entry in parts.values():
                int(entry["points"]), str(entry["kind"]), str(entry["form"])
                if entry["kind"] in ("scalar", "integer"):
                    for target in (entry["reference"], *entry["mistakes"]):
                        Decimal(target["decimal"])
                        if target["exact"] is not None:
                            Fraction(target["exact"])
        return True
    except (AttributeError, KeyError, TypeError, ValueError, ArithmeticError):
        return False


def part_info(exercise_id: str, part_id: str) -> PartInfo | None:
    entry = table().get(exercise_id, {}).get(part_id)
    return None if entry is None else PartInfo(part_id, entry["points"], entry["kind"], entry["form"])


def read_number(text: str) -> tuple[Decimal, bool] | None:
    """(value, is a decimal) for a plain number as the parser reads it, else None."""
    match = NUMBER.fullmatch(text)
    if not match or len(text) > 500:
        return None
    sign, body, whole, point, exponent = match.groups()
    decimal = point is not None or exponent is not None or whole is None
    if not decimal and len(whole) > 1 and whole.startswith("0") and whole.strip("0"):
        return None           # '012' is a syntax error to Python: the full path says so
    digits = body.replace(".", "").lstrip("0")
    if len(digits) > MAX_SIGNIFICANT:
        return None
    return Decimal(sign + body + (exponent or "")), decimal


def _verdict(answer: Decimal, is_decimal: bool, target: dict, exact: bool) -> tuple[bool, str] | None:
    """(equal, note) as grader.compare.compare_scalar would say; None when it would need a proof."""
    if not is_decimal and target["exact"] is not None:
        return Fraction(answer) == Fraction(target["exact"]), ""
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        r = Decimal(target["decimal"])
        diff, scale = abs(answer - r), abs(r)
        if is_decimal and not exact:
            bound = RELATIVE * scale if scale != 0 else ABSOLUTE
            if diff <= bound:
                return True, ""
            return False, "decimal-imprecise" if diff <= CLOSE * bound else ""
        if diff > EXACT_GAP * max(scale, Decimal(1)):
            return False, ""
    return None


_DECIMAL_COMMA = re.compile(r"(?<=[0-9]),(?=[0-9])")


def outcome(exercise_id: str, part_id: str, text: str, decimal_comma: bool = False) -> Outcome | None:
    """The outcome of a plain-number answer, or None to take the full path.

    ``decimal_comma``: one comma between two digits is the decimal mark (``0,3837``), as the
    parser reads it (:func:`grader.parse.decimal_commas`); any other comma takes the full path."""
    if decimal_comma and "," in text:
        if text.count(",") != 1 or not _DECIMAL_COMMA.search(text):
            return None
        text = _DECIMAL_COMMA.sub(".", text)
    number = read_number(text)
    if number is None:
        return None
    entry = table().get(exercise_id, {}).get(part_id)
    if entry is None:
        return None
    if entry["kind"] not in ("scalar", "integer"):
        return Outcome(0.0, (finding("wrong-form", expected=f"key:{entry['form']}", got="key:kind-scalar"),))
    answer, is_decimal = number
    exact = entry["kind"] == "integer"
    verdict = _verdict(answer, is_decimal, entry["reference"], exact)
    if verdict is None:
        return None
    if verdict[0]:
        return Outcome(1.0)
    for mistake in entry["mistakes"]:
        same = _verdict(answer, is_decimal, mistake, exact)
        if same is None:
            return None
        if same[0]:
            return Outcome(0.0, (finding(mistake["key"], value=mistake["shown"]),))
    if verdict[1] == "decimal-imprecise":
        return Outcome(0.0, (finding("decimal-imprecise"),))
    return Outcome(0.0, (finding("incorrect"),))
