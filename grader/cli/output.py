"""Turn results into text, JSON-ready dicts and CSV rows. Pure: strings in, strings out.

What a student or a file name puts in front of a terminal is escaped first
(:func:`printable`): an answer ``\x1b[1A\x1b[2Kfake: 3/3 Correct.`` is shown as
those characters, it cannot move the cursor or rewrite the screen. JSON goes out
through :func:`json_text`, always valid UTF-8.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from grader.judging.outcome import PartResult, caret, refusal_text  # noqa: F401  (caret: the report's too)
from grader.languages.messages import DECIMAL_COMMA, message
from grader.languages.numerals import format_places
from grader.model.display import data_text, exercise_dict, prompt_text  # noqa: F401  (what show prints)
from grader.text import escape, json_text, printable  # noqa: F401  (the CLI prints through them)

if TYPE_CHECKING:   # the bank and checking import SymPy: a plain-number check needs neither
    from grader.bank import Exercise
    from grader.judging.check import SubmissionResult


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


def number(x: float, lang: str) -> str:
    """A score as ``lang`` writes it: 12, 2.5 (2,5 in French), at most three decimals."""
    return format_places(x, lang, 3)


def part_line(result: PartResult, lang: str, style: Style, width: int = 22) -> str:
    """A part's verdict on one line, and under it how the answer was read when that took a convention."""
    mark = (style.good("\u2713") if result.correct else "?" if result.note == "timeout"    # not decided: no verdict
            else style.bad("\u2717"))
    score = f"{number(result.score, lang)}/{result.max_score}"
    note = "" if result.correct else f"[{result.note}] "
    line = f"  {mark} {printable(result.id):<{width}} {score:>6}  {note}{printable(result.feedback)}"
    if result.read_as is None:
        return line
    return line + "\n" + " " * 4 + printable(message("read-as", lang, expression=result.read_as))


def check_text(result: PartResult, lang: str, style: Style) -> str:
    if result.column is not None and result.answer is not None:
        return refusal_text(result, lang)
    return part_line(result, lang, style, width=len(result.id))


def score_text(score: float, max_score: int, lang: str) -> str:
    """'Score: 12/26', in ``lang`` (its colon and spacing are the catalog's)."""
    return message("label-score", lang, score=number(score, lang), max=max_score)


def submission_text(result: SubmissionResult, lang: str, style: Style) -> str:
    from grader.bank import EXERCISES
    lines = [] if result.seed is None else [printable(message("label-variant", lang, seed=result.seed))]
    for ex in result.exercises:
        lesson = message("label-lesson", lang, n=EXERCISES[ex.id].lesson)
        header = message("submit.exercise", lang, id=ex.id, lesson=lesson)
        lines.append(style.bold(f"{header}  {number(ex.score, lang)}/{ex.max_score}"))
        lines += [part_line(p, lang, style) for p in ex.parts]
    lines.append(style.bold(score_text(result.score, result.max_score, lang)))
    return "\n".join(lines)


def heading(ex: Exercise, lang: str) -> str:
    """'id: Title (Lesson 4)', or 'id: Title (Lesson 4, variant s1)' for a variant."""
    lesson = message("label-lesson", lang, n=ex.lesson)
    if ex.seed is None:
        return message("show.heading", lang, id=ex.id, title=ex.title_in(lang), lesson=lesson)
    return message("show.heading-variant", lang, id=ex.id, title=ex.title_in(lang), lesson=lesson,
                   variant=printable(message("label-variant", lang, seed=ex.seed)))


def exercise_text(ex: Exercise, lang: str) -> str:
    import shlex
    lines = [heading(ex, lang), message("label-data", lang)]
    lines += ["  " + message("show.data-item", lang, label=ex.label_in(name, lang), value=data_text(value, lang))
              for name, value in ex.data.items()]
    lines.append(message("label-parts", lang))
    for p in ex.parts:
        lines.append("  " + message("show.part", lang, part=p.id, points=p.points, prompt=prompt_text(ex, p, lang)))
        lines.append("      " + message("label-form", lang, form=p.form_in(lang)))
    example = ex.parts[0]
    seed = "" if ex.seed is None else f" --seed {shlex.quote(ex.seed)}"
    lines.append(message("label-check-with", lang))
    lines.append(f"  grader check {ex.id} {example.id} {shlex.quote(example.example)}{seed}")
    lines.append(message("tolerance-rule", lang))
    if lang in DECIMAL_COMMA:
        lines.append(message("decimal-comma-rule", lang))
    return "\n".join(lines)


def answer_key_text(ex: Exercise, key: dict, lang: str) -> str:
    """``grader show --answers``: the exercise's heading, then each part's answer (``key``:
    :func:`grader.model.answerkey.key_dict`)."""
    from grader.model.answerkey import key_lines
    return "\n".join([printable(heading(ex, lang)), *(printable(line) for line in key_lines(key, lang))])


def gradescope(result: SubmissionResult, lang: str, markdown: bool = False) -> dict:
    """Gradescope's autograder ``results.json``: a test per part, the total as ``score``; with
    ``markdown``, each test's feedback in Markdown (``test_output_format``), the answer and how it was
    read in code spans.

    Specification: https://gradescope-autograders.readthedocs.io/en/latest/specs/"""
    from grader.bank import EXERCISES
    tests = []
    for ex in result.exercises:
        for sub, part in enumerate(ex.parts, 1):
            said = part.feedback if part.correct else f"[{part.note}] {part.feedback}"
            tests.append({"name": f"{ex.id}: {part.id}", "number": f"{EXERCISES[ex.id].lesson}.{sub}",
                          "score": part.score, "max_score": part.max_score,
                          "status": "passed" if part.correct else "failed",
                          "output": markdown_feedback(part, said, lang) if markdown else plain_feedback(part, said, lang)})
    data = {"score": result.score,
            "output": score_text(result.score, result.max_score, lang),
            "tests": tests}
    if markdown:
        data.update(output_format="text", test_output_format="md")
    return data


MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


def markdown_text(text: str) -> str:
    """Plain text that Markdown shows as it is: its punctuation escaped (CommonMark's backslash escapes)."""
    return MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span: fenced by more backticks than it holds in a row, spaced
    from them (CommonMark), on one line."""
    text = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text} {fence}"


def markdown_feedback(part: PartResult, said: str, lang: str) -> str:
    lines = [markdown_text(said)]
    if part.answer is not None:
        lines.append(message("your-answer", lang, expression=code_span(part.answer)))
    if part.read_as is not None:
        lines.append(message("read-as", lang, expression=code_span(part.read_as)))
    return "\n\n".join(lines)


def plain_feedback(part: PartResult, said: str, lang: str) -> str:
    """A test's feedback as text, and under it how the answer was read when that took a convention (as
    ``grader check`` says it: ``1,87`` read as 1.87 is said so on Gradescope too)."""
    if part.read_as is None:
        return said
    return said + "\n" + message("read-as", lang, expression=part.read_as)


def timeout_setting(exc, lang: str) -> str:
    """What is wrong with ``GRADER_TIMEOUT`` (a :class:`grader.judging.limits.BadTimeout`), and what to write."""
    from grader.judging.limits import MAX_TIMEOUT
    return message("error-timeout-setting", lang, value=repr(exc.value), limit=f"{MAX_TIMEOUT:g}")


def gradescope_error(text: str) -> dict:
    """``results.json`` for a file that cannot be graded: no tests, score 0, the reason."""
    return {"score": 0, "output": text, "tests": []}


def batch_text(summary: dict, lang: str, style: Style) -> str:
    """The end of a ``grader grade`` run: what was graded, kept, unreadable (and why) and not decided."""
    lines = [message("batch-summary", lang, students=summary["students"], graded=summary["graded"],
                     unreadable=len(summary["unreadable"]), undecided=len(summary.get("undecided", ())),
                     now=summary["students"] - summary["kept"], kept=summary["kept"]),
             printable(message("batch-results", lang, path=summary["results"])),
             printable(message("batch-grades", lang, path=summary["grades"]))]
    if summary["unreadable"]:
        lines.append(style.bad(message("batch-unreadable", lang, count=len(summary["unreadable"]))))
        lines += ["  " + message("batch-unreadable-file", lang, file=printable(u["file"]), error=printable(u["error"]))
                  for u in summary["unreadable"]]
    if summary.get("undecided"):
        lines.append(style.bad(message("batch-undecided", lang, count=len(summary["undecided"]))))
        lines += ["  " + message("batch-unreadable-file", lang, file=printable(u["file"]), error=", ".join(u["parts"]))
                  for u in summary["undecided"]]
    if summary.get("ignored"):
        lines.append(message("batch-ignored", lang, count=len(summary["ignored"])))
        lines += [f"  {printable(name)}" for name in summary["ignored"]]
    return "\n".join(lines)
