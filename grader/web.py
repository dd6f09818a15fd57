"""The grader as the site's in-page checker calls it: in the reader's browser, in Pyodide.

A Web Worker (``hooks/checker/assets/worker.js``) unpacks this package, then calls :func:`check`,
:func:`read` (the preview of how an answer is read) and :func:`show`. They call the judge (:func:`grader.judging.check.check_part`) and the bank the command
line calls, and hand back the JSON ``grader check --format json`` and ``grader show --format json``
print, with the exit code the command would give, so a verdict on the page is, word for word, the
command line's.
For the student's work on the page it also draws a variant's figure (:func:`figure`) and reads a
submission file back into the answer boxes (:func:`load`).

The one difference is the time limit: there is no ``fork`` in the browser, so a check runs
in-process and the page enforces the limit by terminating the worker (the page then shows
:func:`timeout_verdict`, which the site's build takes from here).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Callable

from grader.judging.outcome import refusal_text
from grader.languages.messages import message
from grader.model.seeds import seed_text
from grader.reading.show import read_as, read_as_mathml

IN_BROWSER = sys.platform == "emscripten"
if IN_BROWSER and hasattr(os, "fork"):
    # Pyodide's os module has fork(), but calling it fails (ENOSYS). Without it,
    # grader.judging.limits.run_limited runs the check in-process, as it does wherever fork is missing.
    del os.fork

OK, NOT_CORRECT, UNUSABLE, INTERNAL, UNDECIDED = 0, 1, 2, 3, 4     # the command line's exit codes (grader.cli.exits)


def _reply(code: int, result=None, error: str = "", **more) -> str:
    return json.dumps({"code": code, "result": result, "error": error, **more}, ensure_ascii=False)


def _failed(exc: Exception, lang: str) -> str:
    """An unknown id or an unusable seed (exit 2, said), or a bug (exit 3), as the command says them."""
    from grader.judging.check import input_error
    said = input_error(exc, lang)
    if said is not None:
        return _reply(UNUSABLE, error=said, text="")
    return _reply(INTERNAL, error=message("error-internal", lang, error=f"{type(exc).__name__}: {exc}"), text="")


def check(exercise_id: str, part_id: str, answer: str, lang: str, seed: str | None = None) -> str:
    """``grader check ID PART ANSWER --format json --lang LANG [--seed SEED]``, as JSON text:

    ``{"code": exit code, "result": what it prints (a dict) or null, "error": what it says on stderr,
    "text": for an answer it cannot read, what the text format prints (the answer with a caret)}``."""
    from grader.judging.check import check_part
    try:
        seed = seed_text(seed) if seed else None
        result = check_part(exercise_id, part_id, answer, lang, seed=seed)
    except Exception as exc:  # noqa: BLE001  (said as the command line says it)
        return _failed(exc, lang)
    unusable = result.column is not None or result.note == "too-large"
    code = (INTERNAL if result.note == "internal-error" else UNDECIDED if result.note == "timeout"
            else UNUSABLE if unusable else OK if result.correct else NOT_CORRECT)
    text = refusal_text(result, lang) if result.column is not None else ""
    mathml = None if result.reading is None else read_as_mathml(*result.reading, lang)
    return _reply(code, dict(result.to_dict(), seed=seed, read_as_mathml=mathml), text=text)


def read(exercise_id: str, part_id: str, answer: str, lang: str, seed: str | None = None) -> str:
    """The answer as the grader reads it, before any check (the page's preview), as JSON text:
    ``{"code": 0, "read_as": text, "read_as_mathml": a math element}``, or the refusal the check would
    give: ``{"code": 2, "note", "feedback", "text": the answer with a caret}``. The reading is the check's
    own (:func:`grader.judging.check.judge` reads the same way), so the two never disagree. Nothing is
    judged; on a lesson's data, SymPy is not imported."""
    from grader.judging import check
    from grader.judging.outcome import PartResult
    from grader.reading import parse
    try:
        seed = seed_text(seed) if seed else None
        info = check.part_info(exercise_id, part_id, seed)
        reading = parse.read(answer, convention=lang, shape=parse.shape_of(info.kind, info.length))
    except parse.AnswerSyntaxError as exc:
        error = exc.error
        feedback = message(error.key, lang, **error.param_dict)
        result = PartResult(part_id, 0.0, 0, False, error.key, feedback, (error.key,), error.column, answer)
        return _reply(UNUSABLE, note=error.key, feedback=feedback, text=refusal_text(result, lang))
    except Exception as exc:  # noqa: BLE001
        return _failed(exc, lang)
    return _reply(OK, read_as=read_as(reading.kind, reading.tree, lang),
                  read_as_mathml=read_as_mathml(reading.kind, reading.tree, lang))


def show(exercise_id: str, lang: str, seed: str | None = None) -> str:
    """``grader show ID --format json --lang LANG [--seed SEED]``, as JSON text:
    ``{"code": exit code, "result": the exercise's data and parts or null, "error": what it says}``."""
    from grader import bank
    from grader.model.display import exercise_dict
    try:
        return _reply(OK, exercise_dict(bank.variant(exercise_id, seed or None), lang))
    except Exception as exc:  # noqa: BLE001
        return _failed(exc, lang)


def figure(exercise_id: str, lang: str, seed: str, labels: str) -> str:
    """The figure of variant ``seed`` of the exercise, its data only, as the page's figure block draws the
    lesson's: ``{"code": 0, "svg": text, "narrow": text}`` (its wide and its narrow layout), or
    ``{"code": 2, "error": why}`` (an unusable seed, a figure whose words ``labels`` lacks). ``labels``: the figure's words from the site (JSON, labels.toml's
    [figures] table or the part of it the figure uses)."""
    from grader import bank
    from grader.model.seeds import InvalidSeed

    try:
        exercise = bank.variant(exercise_id, seed)
        drawn = exercise.definition.figure
        words = json.loads(labels)
        svg, narrow = (drawn.draw(exercise, words, lang, False, narrow=n) if drawn else "" for n in (False, True))
    except (KeyError, InvalidSeed) as exc:
        return json.dumps({"code": 2, "svg": "", "narrow": "", "error": str(exc)}, ensure_ascii=False)
    return json.dumps({"code": 0, "svg": svg, "narrow": narrow, "error": ""}, ensure_ascii=False)


def load(name: str, content: str, lang: str) -> str:
    """A submission file read as ``grader submit NAME`` reads it, without grading it (the page puts its
    answers back in their boxes): ``content`` is the file's bytes in base64. JSON text:
    ``{"code": 0, "result": {"seed": str|null, "lang": str|null, "answers": {exercise: {part: text}}}}``, or
    ``{"code": 2, "result": null, "error": what is wrong, in ``lang``, as grader submit words it}``."""
    import base64
    from pathlib import PurePosixPath

    from grader.grading import submission

    path = PurePosixPath(PurePosixPath(name).name or "answers.toml")
    try:
        data = base64.b64decode(content, validate=True)
        if len(data) > submission.MAX_BYTES:
            raise submission.file_error(path, "error-too-big", path=path, size=len(data),
                                        limit=submission.MAX_BYTES)
        read = submission.load_bytes(path, data)
    except submission.SubmissionError as exc:
        return json.dumps({"code": 2, "result": None, "error": submission.describe(exc, lang)}, ensure_ascii=False)
    result = {"seed": read.seed, "lang": read.lang, "answers": read.answers}
    return json.dumps({"code": 0, "result": result, "error": ""}, ensure_ascii=False)


def timeout_verdict(lang: str) -> dict:
    """The note and feedback ``grader check`` gives an answer whose check runs out of time
    (as grader.judging.check.check_part words a LimitExceeded): the page shows them when it has to stop
    the worker, which can then no longer say them itself."""
    return {"note": "timeout", "feedback": message("timeout", lang)}


def announce_import(module: str, callback: Callable[[], object]) -> None:
    """Call ``callback()`` once, when ``module`` starts to be imported (the page says that SymPy is
    loading, and gives the check the time it takes, which is not the answer's)."""

    class Announcer:
        def find_spec(self, name, path=None, target=None):
            if name == module:
                sys.meta_path.remove(self)
                callback()
            return None   # the usual finders import it

    if module not in sys.modules:
        sys.meta_path.insert(0, Announcer())
