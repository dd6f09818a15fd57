"""The guards the fast tests would miss: each statement of a module deleted, one at a time.

mutmut changes operators, constants and returned values but never deletes a statement, and most of
the bugs planted by hand in the grader that the tests missed were deleted guards (a length check, a
sign, a containment check). This pass writes a copy of the module with one ``if``, ``raise``,
``return``, ``continue``, ``break`` or assignment inside a function replaced by ``pass`` (what does not
compile is left out), and runs on it, in a copy of the project, the fast tests that mutmut found
reaching that function (``mutants/mutmut-stats.json``; every test of the module for a function mutmut
does not mutate), with ``pytest -x``. A mutant is killed when a test fails (or cannot even be collected) or the
run exceeds its time, survives when they all pass. Verdicts are kept in ``mutants/deletions.json`` by the module's text, so a
stopped run resumes and a changed module is checked again. Used by bench/mutate.py.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

DELETED = (ast.If, ast.Raise, ast.Return, ast.Continue, ast.Break, ast.Assign, ast.AugAssign, ast.AnnAssign)


MEMORY = 4 << 30     # bytes of address space each process of a mutant's run may take (a mutant can loop and grow)


def limit_memory() -> None:
    """In a child about to run a mutant's tests: a planted bug that makes memory grow without end gets
    a MemoryError (its tests fail: killed), not the machine's whole memory (the kernel's OOM killer then
    picks any process of the machine). The grader's own limited children stay under it."""
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    except (ImportError, OSError, ValueError):
        pass


@dataclass(frozen=True)
class Deletion:
    module: str          # a path relative to the project, grader/judging/rules.py
    line: int
    column: int
    statement: str       # its first line, as written
    function: str        # mutmut's name of the function or method it is in
    source: str          # the module with the statement replaced by ``pass``

    @property
    def key(self) -> str:
        return f"{self.module}:{self.line}:{self.column}"


def dotted(module: str) -> str:
    """grader/judging/rules.py -> grader.judging.rules; a package's __init__.py is the package."""
    return module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _functions(tree: ast.Module, dotted: str):
    """(mutmut's mangled name, the function's node) for each top-level function and method."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{dotted}.x_{node.name}", node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{dotted}.x\u01c1{node.name}\u01c1{item.name}", item


def _offset(lines: list[str], line: int, column: int) -> int:
    """The character offset of (line, UTF-8 byte column) in the text."""
    return sum(len(text) for text in lines[:line - 1]) + len(lines[line - 1].encode()[:column].decode())


def deletions(root: Path, module: str) -> list[Deletion]:
    """Every statement of ``module`` (a path under ``root``) that this pass deletes, as a mutant."""
    text = (root / module).read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    found = []
    for name, function in _functions(tree, dotted(module)):
        for node in ast.walk(function):
            if not isinstance(node, DELETED) or (isinstance(node, ast.AnnAssign) and node.value is None):
                continue
            start = _offset(lines, node.lineno, node.col_offset)
            end = _offset(lines, node.end_lineno, node.end_col_offset)
            source = text[:start] + "pass" + text[end:]
            try:
                compile(source, module, "exec")
            except SyntaxError:         # an elif, which cannot stand as `pass`
                continue
            found.append(Deletion(module, node.lineno, node.col_offset, lines[node.lineno - 1].strip(), name, source))
    return found


def _tests(stats: dict, deletion: Deletion) -> list[str]:
    """The fast tests that reach the function, fastest first; every test of the module's functions
    when mutmut recorded none for it (a function it does not mutate)."""
    by_function = stats.get("tests_by_mangled_function_name", {})
    tests = set(by_function.get(deletion.function, ()))
    if not tests:
        prefix = deletion.function.rsplit(".", 1)[0] + "."
        tests = {t for name, found in by_function.items() if name.startswith(prefix) for t in found}
    duration = stats.get("duration_by_test", {})
    return sorted(tests, key=lambda t: (duration.get(t, 0.0), t))


def _copy(root: Path, into: Path, paths: list[str]) -> None:
    """The project's files the tests need, without any compiled file (a stale one could hide a mutant)."""
    if into.exists():
        shutil.rmtree(into)
    for path in paths:
        source = root / path
        if source.is_dir():
            shutil.copytree(source, into / path, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.exists():
            (into / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / path)


def _run(copy: Path, deletion: Deletion, tests: list[str], timeout: float, pytest_args: list[str]) -> str:
    target = copy / deletion.module
    original = target.read_bytes()
    target.write_text(deletion.source, encoding="utf-8")
    # many tests: name their files (a command line has a limit), else each test
    selection = tests if len(tests) <= 200 else sorted({t.split("::")[0] for t in tests})
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "PYTHONPATH": str(copy)}
    try:
        ran = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", *pytest_args, *selection], cwd=copy, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout,
                             preexec_fn=limit_memory)
        # 4: pytest could not find a test it was given (the stats are older than the tests): not a verdict
        return {0: "survived", 5: "no test", 4: "skipped"}.get(ran.returncode, "killed")
    except subprocess.TimeoutExpired:
        return "timeout"
    finally:
        target.write_bytes(original)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run(root: Path, modules: list[str], copy_paths: list[str], pytest_args: list[str], *, minutes: float | None,
        jobs: int = 2, retry: bool = False) -> dict:
    """Check the deletions not yet checked (``mutants/deletions.json``), ``jobs`` at a time, for at most
    ``minutes``, with pytest's ``pytest_args`` (mutmut's); with ``retry``, the survivors again too; returns the record
    {module: {"digest", "statements": {key: statement}, "verdicts": {key: verdict}}}."""
    record_path = root / "mutants" / "deletions.json"
    record = load(root)
    stats_path = root / "mutants" / "mutmut-stats.json"
    stats = json.loads(stats_path.read_text(encoding="utf-8")) if stats_path.exists() else {}
    if not stats:
        print("deletions: mutmut has not recorded which tests reach which function yet: run mutmut first",
              file=sys.stderr)
        return record
    todo = []
    for module in modules:
        text = (root / module).read_text(encoding="utf-8")
        entry = record.setdefault(module, {"digest": digest(text), "verdicts": {}})
        if entry["digest"] != digest(text):
            entry.update(digest=digest(text), verdicts={})
        if retry:
            entry["verdicts"] = {key: v for key, v in entry["verdicts"].items() if v != "survived"}
        entry["statements"] = {}
        for deletion in deletions(root, module):
            entry["statements"][deletion.key] = deletion.statement
            if deletion.key not in entry["verdicts"]:
                todo.append(deletion)
    copies = [root / "mutants" / f"deletions-{n}" for n in range(jobs)]
    for copy in copies:
        _copy(root, copy, copy_paths)
    durations = stats.get("duration_by_test", {})
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    free = list(copies)
    saving = threading.Lock()

    def check(deletion: Deletion) -> None:
        if deadline is not None and time.monotonic() > deadline:
            return
        copy = free.pop()
        try:
            tests = _tests(stats, deletion)
            timeout = 60 + 10 * sum(durations.get(t, 1.0) for t in tests)
            verdict = _run(copy, deletion, tests, timeout, pytest_args) if tests else "no test"
        finally:
            free.append(copy)
        with saving:
            record[deletion.module]["verdicts"][deletion.key] = verdict
            save(record_path, record)

    print(f"deletions: {len(todo)} statements to delete and test", flush=True)
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(check, todo))
    for copy in copies:
        shutil.rmtree(copy, ignore_errors=True)
    return record


def load(root: Path) -> dict:
    path = root / "mutants" / "deletions.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def save(path: Path, record: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(record, indent=1, sort_keys=True), encoding="utf-8")
    temporary.replace(path)


def survivors(root: Path) -> list[tuple[str, str]]:
    """(key, statement) of each deletion the tests let through."""
    return [(key, entry.get("statements", {}).get(key, "")) for module, entry in sorted(load(root).items())
            for key, verdict in sorted(entry["verdicts"].items()) if verdict == "survived"]
