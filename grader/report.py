"""Turn results into text, JSON-ready dicts and CSV rows. Pure: strings in, strings out."""
from __future__ import annotations

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


CARET_WINDOW = 60  # characters of a long answer shown around the caret


def caret(answer: str, column: int, indent: str = "  ") -> str:
    """The answer (a window of it, when long) and a caret under ``column`` (past the end: after it)."""
    shown = answer.replace("\n", " ").replace("\t", " ")
    start = max(0, min(column - CARET_WINDOW // 2, len(shown) - CARET_WINDOW))
    before = "\u2026" if start > 0 else ""
    after = "\u2026" if start + CARET_WINDOW < len(shown) else ""
    window = before + shown[start:start + CARET_WINDOW]
    pad = "".join("\u3000" if _wide(ch) else " " for ch in window[:len(before) + column - start])
    return f"{indent}{window}{after}\n{indent}{pad}^"


def _wide(ch: str) -> bool:
    import unicodedata
    return unicodedata.east_asian_width(ch) in ("W", "F")


def part_line(result: PartResult, style: Style, width: int = 22) -> str:
    mark = style.good("\u2713") if result.correct else style.bad("\u2717")
    score = f"{number(result.score)}/{result.max_score}"
    note = "" if result.correct else f"[{result.note}] "
    return f"  {mark} {result.id:<{width}} {score:>6}  {note}{result.feedback}"


def check_text(result: PartResult, lang: str, style: Style) -> str:
    if result.column is not None and result.answer is not None:
        return "\n".join([message("error-answer", lang), caret(result.answer, result.column),
                          f"[{result.note}] {result.feedback}"])
    return part_line(result, style, width=len(result.id))


def submission_text(result: SubmissionResult, lang: str, style: Style) -> str:
    from .bank import EXERCISES
    lines = [] if result.seed is None else [message("label-variant", lang, seed=result.seed)]
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
        where += ", " + message("label-variant", lang, seed=ex.seed)
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
            "parts": [{"id": p.id, "points": p.points, "kind": p.kind, "form": p.form_in(lang),
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
             message("batch-results", lang, path=summary["results"]),
             message("batch-grades", lang, path=summary["grades"])]
    if summary["unreadable"]:
        lines.append(style.bad(message("batch-unreadable", lang, count=len(summary["unreadable"]))))
        lines += [f"  {u['file']}: {u['error']}" for u in summary["unreadable"]]
    return "\n".join(lines)
