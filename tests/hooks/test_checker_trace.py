"""The build's import trace (hooks/checker/trace.py) without Pyodide: what it asks the tracer to run, how it reads
the answer (the modules of each step), how it fails when the tracer does, and what its cache is kept by. The
tracer is a stand-in program given as ``node`` (the real one runs in tests/hooks/test_checker_pack.py's slow test)."""
from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from grader.judging.limits import time_limit
from grader.languages.messages import LOCALES
from hooks.checker import corpus, manual, trace


def test_the_cases_are_the_first_verdicts_then_the_whole_corpus():
    given = trace.cases(("sympy", "mpmath"))
    assert json.loads(json.dumps(given)) == given   # the tracer reads it as JSON
    assert given["deferred"] == ["sympy", "mpmath"] and given["limit"] == 2 * time_limit()
    first = [args for op, args in given["first"] if op == "check"]
    assert len(first) == len(given["first"]) and {lang for _, _, _, lang, _ in first} == set(LOCALES)
    assert first == [[c.exercise, c.part, c.answer, c.lang, c.seed] for c in corpus.first_cases(LOCALES)]
    checker_corpus = [["check", [c.exercise, c.part, c.answer, c.lang, c.seed]] for c in corpus.corpus()]
    assert given["later"][:len(checker_corpus)] == checker_corpus
    tests = given["later"][len(checker_corpus):]
    kinds = corpus.one_part_of_each_kind()
    assert len(tests) == len(corpus.grader_test_answers()) * len(kinds) > 0
    assert {tuple(args[:2]) for _, args in tests} == set(kinds)
    assert all(op == "check" and args[3:] == ["en", None] for op, args in tests)


def test_the_modules_of_a_trace_leave_its_data_files_out():
    traced = [["/lib", "json/__init__.py"], ["/lib", "json/decoder.pyc"], ["/home", "grader/web.py"],
              ["/home", "sympy/parsing/latex/LaTeX.lark"], ["/lib", "json/__init__.py"]]
    assert trace.modules(traced) == {"json", "json.decoder", "grader.web"}
    assert trace.modules([]) == set()


def test_stopping_terminates_every_trace_under_way(monkeypatch):
    class Process:
        def __init__(self):
            self.terminated = 0

        def terminate(self):
            self.terminated += 1

    running = [Process(), Process()]
    monkeypatch.setattr(trace, "RUNNING", set(running))
    trace.stop_all()
    assert [p.terminated for p in running] == [1, 1]


def tracer(folder: Path, body: str) -> str:
    """A program run as trace() runs node: ``argv`` is [script, runtime, sources, cases, out]."""
    program = folder / "node"
    program.write_text(f"#!{sys.executable}\nimport json, sys\nscript, runtime, sources, cases, out = sys.argv[1:]\n"
                       f"{body}\n", encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program)


def test_a_trace_is_written_and_read_as_the_modules_of_each_step(tmp_path, capfd):
    seen = tmp_path / "seen.json"
    node = tracer(tmp_path, f"""
print("Loading Pyodide...")
json.dump({{"argv": sys.argv[1:], "cases": json.load(open(cases))}}, open({str(seen)!r}, "w"))
json.dump({{"start": [], "first": [["/lib", "json/__init__.py"], ["/home", "grader/web.py"]],
           "later": [["/lib", "json/__init__.py"], ["/home", "sympy/core/add.pyc"], ["/home", "sympy/x.txt"]],
           "stopped": []}}, open(out, "w"))""")
    out = tmp_path / "kept" / "trace.json"
    out.parent.mkdir()
    first, later = trace.trace(node, tmp_path / "runtime", tmp_path / "sources.zip", ["sympy"], out)
    assert first == {"json", "grader.web"} and later == {"json", "sympy.core.add"}
    text = out.read_text(encoding="utf-8")
    written = json.loads(text)
    assert text == json.dumps(written, indent=1, sort_keys=True)     # the same trace, the same bytes (sorted keys)
    assert written["first"] == [["/lib", "json/__init__.py"], ["/home", "grader/web.py"]] and written["stopped"] == []
    ran = json.loads(seen.read_text(encoding="utf-8"))
    assert ran["argv"][:3] == [str(trace.SCRIPT), str(tmp_path / "runtime"), str(tmp_path / "sources.zip")]
    assert ran["cases"] == trace.cases(["sympy"])
    assert not trace.RUNNING
    assert "Loading Pyodide" not in capfd.readouterr().out   # what the tracer prints stays out of the build's output


def test_a_tracer_that_fails_fails_the_build_with_what_it_said(tmp_path):
    node = tracer(tmp_path, 'print("x" * 3000 + "the runtime is missing", file=sys.stderr); sys.exit(3)')
    out = tmp_path / "trace.json"
    with pytest.raises(PluginError) as raised:
        trace.trace(node, tmp_path / "runtime", tmp_path / "sources.zip", [], out)
    said, stderr = str(raised.value), "x" * 3000 + "the runtime is missing\n"
    assert f"node {tmp_path / 'runtime'}, exit 3):\n" in said
    assert said.split(":\n", 1)[1] == stderr[-2000:]   # the end of what it said, not all of it
    assert not out.exists() and not trace.RUNNING


def test_answers_stopped_twice_fail_the_trace_naming_the_first(tmp_path):
    node = tracer(tmp_path, 'json.dump({"first": [], "later": [], "stopped": [["check", ["a", "b", "1/0", "en", None]], '
                            '["check", ["c", "d", "2", "fr", None]]]}, open(out, "w"))')
    out = tmp_path / "trace.json"
    with pytest.raises(PluginError) as raised:
        trace.trace(node, tmp_path, tmp_path / "sources.zip", [], out)
    assert "2 answer(s)" in str(raised.value) and "the first: ['check', ['a', 'b', '1/0', 'en', None]]" in str(raised.value)
    assert str(raised.value).endswith("(or take it out of hooks/checker/corpus.py)")
    assert not out.exists()


def test_the_corpus_is_kept_by_the_manual_and_the_graders_tests(tmp_path, monkeypatch):
    root = Path(trace.ROOT)
    for path in [*manual.paths(root), *sorted((root / "tests" / "grader").glob("test_*.py"))]:
        copy = tmp_path / path.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, copy)
    monkeypatch.setattr(trace, "ROOT", tmp_path)
    first = trace.corpus_key()
    assert len(first) == 16
    (tmp_path / "tests" / "grader" / "helpers.py").write_text("ANSWER = '3'\n", encoding="utf-8")
    assert trace.corpus_key() == first   # not a test file: no answer of it is read
    (tmp_path / "tests" / "grader" / "test_new.py").write_text("ANSWER = '3'\n", encoding="utf-8")
    with_test = trace.corpus_key()
    assert with_test != first
    guide = tmp_path / manual.FILES[-1]
    guide.write_text(guide.read_text(encoding="utf-8") + "\n    $ grader check x y 1\n", encoding="utf-8")
    assert trace.corpus_key() not in (first, with_test)


def test_a_trace_under_way_is_stopped_by_stop_all_and_fails(tmp_path):
    """`mkdocs serve` stopping stops the tracer it started (a trace stopped is no trace: it is made again)."""
    import threading
    import time

    node = tracer(tmp_path, "import time; time.sleep(60)")
    out, raised = tmp_path / "trace.json", []

    def run():
        try:
            trace.trace(node, tmp_path / "runtime", tmp_path / "sources.zip", [], out)
        except PluginError as error:
            raised.append(str(error))

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 30
    while not trace.RUNNING and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(trace.RUNNING) == 1
    trace.stop_all()
    thread.join(30)
    assert not thread.is_alive() and not trace.RUNNING and not out.exists()
    assert len(raised) == 1 and "exit -15" in raised[0]
