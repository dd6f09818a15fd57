"""Turn results into text, JSON-ready dicts and CSV rows. Pure: strings in, strings out.

What a student or a file name puts in front of a terminal is escaped first
(:func:`printable`): an answer ``\x1b[1A\x1b[2Kfake: 3/3 Correct.`` is shown as
those characters, it cannot move the cursor or rewrite the screen. JSON goes out
through :func:`json_text`, always valid UTF-8.
"""
from __future__ import annotations

import json
import unicodedata
from typing import TYPE_CHECKING

from .messages import DECIMAL_COMMA, message
from .outcome import PartResult

if TYPE_CHECKING:   # the bank and checking import SymPy: a plain-number check needs neither
    from .bank import Exercise
    from .check import SubmissionResult


class Style:
    """ANSI colour when wanted (a TTY and NO_COLOR unset), else plain text."""

    def __init__(self, colour: bool):
        self.colour = colour

    def _wrap(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text

    def good(self, text: str) -> str:
        return self._wrap("32", text)

    def bad(self, text: str) -> str:
        return self._wrap("31", text)

    def bold(self, text: str) -> str:
        return self._wrap("1", text)


def number(x: float) -> str:
    return f"{x:g}"


# Characters that act on a terminal or do not show: control (C0, DEL, C1), format (bidi
# overrides, zero-width, tags), surrogates, line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
SHORT_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape(ch: str) -> str:
    """One character as a terminal shows it safely: itself, or a Python-style escape."""
    if " " <= ch <= "~" or unicodedata.category(ch) not in UNSAFE_CATEGORIES:
        return ch
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:              # a byte that was not UTF-8 (a file name, argv)
        return f"\\x{code - 0xDC00:02x}"
    if ch in SHORT_ESCAPES:
        return SHORT_ESCAPES[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` with every character that could act on a terminal escaped (``lines``:
    keep line breaks, for text of several lines)."""
    if text.isprintable():
        return text
    return "".join(ch if lines and ch == "\n" else escape(ch) for ch in text)


def json_text(data, indent: int | None = None) -> str:
    """JSON of ``data``, readable (not ASCII-only) and always valid UTF-8: what
    :func:`printable` escapes is written as ``\\uXXXX`` (a lone surrogate too)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent,
                      separators=None if indent else (",", ":"))
    if text.isascii() and "\x7f" not in text:
        return text
    return "".join(ch if ch == "\n" or escape(ch) == ch else
                   json.dumps(ch, ensure_ascii=True)[1:-1] for ch in text)


CARET_WINDOW = 60  # characters of a long answer shown around the caret


def caret(answer: str, column: int, indent: str = "  ") -> str:
    """The answer (a window of it, when long) and a caret under ``column`` (past the end: after
    it). Escaped characters take the width of their escape; wide ones, an ideographic space."""
    typed = answer.replace("\n", " ").replace("\t", " ").replace("\r", " ")   # as the parser reads them
    start = max(0, min(column - CARET_WINDOW // 2, len(typed) - CARET_WINDOW))
    before = "\u2026" if start > 0 else ""
    after = "\u2026" if start + CARET_WINDOW < len(typed) else ""
    window = typed[start:start + CARET_WINDOW]
    pad = " " * len(before) + "".join(_pad(ch) for ch in window[:column - start])
    return f"{indent}{before}{printable(window)}{after}\n{indent}{pad}^"


def _pad(ch: str) -> str:
    """Blank of the width ``ch`` takes on a terminal, once escaped."""
    shown = escape(ch)
    if shown != ch:
        return " " * len(shown)
    if unicodedata.combining(ch):
        return ""
    return "\u3000" if unicodedata.east_asian_width(ch) in ("W", "F") else " "


def part_line(result: PartResult, style: Style, width: int = 22) -> str:
    mark = style.good("\u2713") if result.correct else style.bad("\u2717")
    score = f"{number(result.score)}/{result.max_score}"
    note = "" if result.correct else f"[{result.note}] "
    return f"  {mark} {printable(result.id):<{width}} {score:>6}  {note}{printable(result.feedback)}"


def check_text(result: PartResult, lang: str, style: Style) -> str:
    if result.column is not None and result.answer is not None:
        return "\n".join([message("error-answer", lang), caret(result.answer, result.column),
                          f"[{result.note}] {printable(result.feedback)}"])
    return part_line(result, style, width=len(result.id))


def submission_text(result: SubmissionResult, lang: str, style: Style) -> str:
    from .bank import EXERCISES
    lines = [] if result.seed is None else [printable(message("label-variant", lang, seed=result.seed))]
    for ex in result.exercises:
        lesson = EXERCISES[ex.id].lesson
        header = f"{ex.id} ({message('label-lesson', lang)} {lesson})"
        lines.append(style.bold(f"{header}  {number(ex.score)}/{ex.max_score}"))
        lines += [part_line(p, style) for p in ex.parts]
    lines.append(style.bold(f"{message('label-score', lang)}: "
                            f"{number(result.score)}/{result.max_score}"))
    return "\n".join(lines)


def _value(v) -> str:
    from .feedback import show
    return show(v)


def data_text(value) -> str:
    if hasattr(value, "items"):
        return ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        return ", ".join(value)
    return _value(value)


def _data_json(value):
    if hasattr(value, "items"):
        return {k: _value(v) for k, v in value.items()}
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        return list(value)
    return _value(value)


def heading(ex: Exercise, lang: str) -> str:
    """'id: Title (Lesson 4)', with ', variant s1' for a variant."""
    where = f"{message('label-lesson', lang)} {ex.lesson}"
    if ex.seed is not None:
        where += ", " + printable(message("label-variant", lang, seed=ex.seed))
    return f"{ex.id}: {ex.title_in(lang)} ({where})"


def exercise_text(ex: Exercise, lang: str) -> str:
    import shlex
    lines = [heading(ex, lang), f"{message('label-data', lang)}:"]
    lines += [f"  {ex.label_in(name, lang)}: {data_text(value)}" for name, value in ex.data.items()]
    lines.append(f"{message('label-parts', lang)}:")
    for p in ex.parts:
        lines.append(f"  {p.id} ({p.points}): {p.prompt_in(lang)}")
        lines.append(f"      {message('label-form', lang)}: {p.form_in(lang)}")
    example = ex.parts[0]
    seed = "" if ex.seed is None else f" --seed {shlex.quote(ex.seed)}"
    lines.append(f"{message('label-check-with', lang)}:")
    lines.append(f"  grader check {ex.id} {example.id} {shlex.quote(example.example)}{seed}")
    lines.append(message("tolerance-rule", lang))
    if lang in DECIMAL_COMMA:
        lines.append(message("decimal-comma-rule", lang))
    return "\n".join(lines)


def exercise_dict(ex: Exercise, lang: str) -> dict:
    """``grader show --format json``: ids and data as in the bank, words in ``lang``."""
    return {"id": ex.id, "lesson": ex.lesson, "title": ex.title_in(lang), "seed": ex.seed,
            "data": {k: _data_json(v) for k, v in ex.data.items()},
            "data_labels": {k: ex.label_in(k, lang) for k in ex.data},
            "parts": [{"id": p.id, "points": p.points, "kind": p.kind,
                       "entries": p.entries if p.kind in ("vector", "set") else None, "form": p.form_in(lang),
                       "example": p.example, "prompt": p.prompt_in(lang)} for p in ex.parts]}


def gradescope(result: SubmissionResult, lang: str) -> dict:
    """Gradescope's autograder ``results.json``: a test per part, the total as ``score``.

    Specification: https://gradescope-autograders.readthedocs.io/en/latest/specs/"""
    tests = []
    for lesson, ex in enumerate(result.exercises, 1):
        for sub, part in enumerate(ex.parts, 1):
            tests.append({"name": f"{ex.id}: {part.id}", "number": f"{lesson}.{sub}",
                          "score": part.score, "max_score": part.max_score,
                          "status": "passed" if part.correct else "failed",
                          "output": part.feedback if part.correct
                          else f"[{part.note}] {part.feedback}"})
    return {"score": result.score,
            "output": f"{message('label-score', lang)}: {number(result.score)}/{result.max_score}",
            "tests": tests}


def gradescope_error(text: str) -> dict:
    """``results.json`` for a file that cannot be graded: no tests, score 0, the reason."""
    return {"score": 0, "output": text, "tests": []}


def batch_text(summary: dict, lang: str, style: Style) -> str:
    """The end of a ``grader grade`` run: what was graded, kept, and unreadable (and why)."""
    lines = [message("batch-summary", lang, students=summary["students"], graded=summary["graded"],
                     unreadable=len(summary["unreadable"]), now=summary["graded_now"],
                     kept=summary["kept"]),
             printable(message("batch-results", lang, path=summary["results"])),
             printable(message("batch-grades", lang, path=summary["grades"]))]
    if summary["unreadable"]:
        lines.append(style.bad(message("batch-unreadable", lang, count=len(summary["unreadable"]))))
        lines += [f"  {printable(u['file'])}: {printable(u['error'])}" for u in summary["unreadable"]]
    return "\n".join(lines)
