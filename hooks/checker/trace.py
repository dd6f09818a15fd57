"""Which modules the grader imports in a reader's browser: traced at build time, over the test corpus.

Pyodide runs under Node.js (checker_trace.mjs) with the grader, SymPy and mpmath as sources and the
fast path's table, and answers:

1. a first verdict in every language: every part of every exercise answered right with a plain number,
   a vector or a set of them (:func:`hooks.checker.corpus.first_cases`), SymPy and mpmath out of reach
   as they are on the page before they are fetched (an answer that reaches for them waits for step 2);
2. the whole corpus: the checker's (:func:`hooks.checker.corpus.corpus`, which tests/site/test_checker.py
   proves on the page) and the grader's test answers (every string of tests/grader/ that could be an
   answer, checked as each kind of part).

A case is stopped when it has used twice the command line's time limit of the processor's time (not of
the clock's: a loaded machine makes the clock run, not the processor), and tried again with eight times
as much; a case stopped twice fails the trace, naming it: what the zips hold never depends on the
machine's load.

The modules imported by the end of each step are the trace: the pack (hooks/checker/pack.py) puts the
first step's in the zips a first verdict needs, the second's in the one fetched next, and writes the
trace beside them (trace.json, a build-time file: it is made again whenever an input changes).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path, PurePosixPath

from grader import files
from hooks.checker import manual

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
SCRIPT = HERE.with_name("trace.mjs")
CODE = [HERE, SCRIPT, HERE.with_name("corpus.py")]


def cases(deferred) -> dict:
    """What the trace runs, as checker_trace.mjs reads it."""
    from grader.judging.limits import time_limit
    from grader.languages.messages import LOCALES
    from hooks.checker import corpus

    web = lambda case: ["check", [case.exercise, case.part, case.answer, case.lang, case.seed]]  # noqa: E731
    later = [web(case) for case in corpus.corpus()]
    later += [["check", [exercise, part, answer, "en", None]] for answer in corpus.grader_test_answers()
              for exercise, part in corpus.one_part_of_each_kind()]
    return {"first": [web(case) for case in corpus.first_cases(LOCALES)], "later": later,
            "deferred": list(deferred), "limit": 2 * time_limit()}


def corpus_key() -> str:
    """The fingerprint of what the corpus reads besides the grader: the manual (its examples), the grader's
    tests (their answers). Read as files: nothing is imported (SymPy would cost every build seconds)."""
    return files.fingerprint([*manual.paths(ROOT), *sorted((ROOT / "tests" / "grader").glob("test_*.py"))], ROOT,
                             length=16)


def module_of(path: str) -> str | None:
    """The module a file of a package tree is (``a/b/__init__.pyc`` -> ``a.b``), None for a data file."""
    pure = PurePosixPath(path)
    if pure.suffix not in (".py", ".pyc"):
        return None
    parts = pure.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(paths) -> set[str]:
    """The module names of traced files, each [root, path]."""
    return {module_of(path) for _, path in paths} - {None}


RUNNING: set[subprocess.Popen] = set()   # traces under way (mkdocs serve makes them in the background)


def stop_all() -> None:
    """Stop the traces under way (`mkdocs serve` stopping): a trace stopped is made again next time."""
    for process in list(RUNNING):
        process.terminate()


def trace(node: str, runtime: Path, sources: Path, deferred, out: Path) -> tuple[set[str], set[str]]:
    """(the modules a first verdict imports, those the whole corpus does), traced in ``runtime`` over
    ``sources`` (a zip: the packages and cache/ with the table); the trace written to ``out``."""
    from mkdocs.exceptions import PluginError

    with tempfile.TemporaryDirectory() as tmp:
        given, traced = Path(tmp) / "cases.json", Path(tmp) / "trace.json"
        given.write_text(json.dumps(cases(deferred)), encoding="utf-8")
        process = subprocess.Popen([node, str(SCRIPT), str(runtime), str(sources), str(given), str(traced)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        RUNNING.add(process)
        try:
            _, stderr = process.communicate()
        finally:
            RUNNING.discard(process)
        if process.returncode:
            raise PluginError(f"{SCRIPT.name} could not trace the grader's imports in Pyodide "
                              f"(node {runtime}, exit {process.returncode}):\n{stderr[-2000:]}")
        result = json.loads(traced.read_text(encoding="utf-8"))
    if result["stopped"]:
        raise PluginError(f"{SCRIPT.name}: {len(result['stopped'])} answer(s) of the checker's corpus ran past "
                          f"the time limit twice in Pyodide, so the trace cannot say what they import; the first: "
                          f"{result['stopped'][0]!r}. Make the grader answer it sooner (or take it out of "
                          "hooks/checker/corpus.py)")
    files.write_atomic(out, json.dumps(result, indent=1, sort_keys=True))
    return modules(result["first"]), modules(result["later"])
