"""The grader as the site's in-page checker calls it: in the reader's browser, in Pyodide.

A Web Worker (``hooks/assets/checker/worker.js``) unpacks this package, SymPy and mpmath, then
calls :func:`check` and :func:`show`. Both run the command line itself (:func:`grader.cli.main`)
in-process and hand back what it prints, so a verdict on the page is, word for word, the one
``grader check --format json --lang L [--seed S]`` prints: the same dispatch between the fast
path and SymPy, the same messages, the same exit code. Nothing here judges an answer.

The one difference is the time limit: there is no ``fork`` in the browser, so a check runs
in-process and the page enforces the limit by terminating the worker (the page then shows
:func:`timeout_verdict`, which the site's build takes from here).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Callable

from . import cli
from .messages import message

IN_BROWSER = sys.platform == "emscripten"
if IN_BROWSER and hasattr(os, "fork"):
    # Pyodide's os module has fork(), but calling it fails (ENOSYS). Without it,
    # grader.limits.run_limited runs the check in-process, as it does wherever fork is missing.
    del os.fork


def _run(argv: list[str]) -> dict:
    """Run ``grader ARGV``: its exit code and what it printed on stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as exc:   # argparse refusing the arguments
            code = exc.code if isinstance(exc.code, int) else 2
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _options(lang: str, seed: str | None) -> list[str]:
    return ["--lang", lang, "--format", "json", *(["--seed", seed] if seed else [])]


def check(exercise_id: str, part_id: str, answer: str, lang: str, seed: str | None = None) -> str:
    """``grader check ID PART ANSWER --format json --lang LANG [--seed SEED]``, as JSON text:

    ``{"code": exit code, "result": what it prints (a dict) or null, "error": its stderr,
    "text": for an answer it cannot read, what the text format prints (the answer with a caret)}``.
    The answer goes after ``--``, so one that starts with ``-`` is an answer, not an option.
    """
    ran = _run(["check", *_options(lang, seed), "--", exercise_id, part_id, answer])
    result = json.loads(ran["stdout"]) if ran["stdout"].strip() else None
    text = ""
    if result and result.get("column") is not None:
        options = ["--lang", lang, *(["--seed", seed] if seed else [])]
        text = _run(["check", *options, "--", exercise_id, part_id, answer])["stdout"].rstrip("\n")
    return json.dumps({"code": ran["code"], "result": result, "error": ran["stderr"].strip(),
                       "text": text}, ensure_ascii=False)


def show(exercise_id: str, lang: str, seed: str | None = None) -> str:
    """``grader show ID --format json --lang LANG [--seed SEED]``, as JSON text:
    ``{"code": exit code, "result": the exercise's data and parts or null, "error": its stderr}``."""
    ran = _run(["show", *_options(lang, seed), "--", exercise_id])
    result = json.loads(ran["stdout"]) if ran["stdout"].strip() else None
    return json.dumps({"code": ran["code"], "result": result, "error": ran["stderr"].strip()},
                      ensure_ascii=False)


def timeout_verdict(lang: str) -> dict:
    """The note and feedback ``grader check`` gives an answer whose check runs out of time
    (as grader.check.check_part words a LimitExceeded): the page shows them when it has to stop
    the worker, which can then no longer say them itself."""
    return {"note": "too-large", "feedback": message("too-large", lang, reason="timeout")}


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
