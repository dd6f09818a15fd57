"""The ``grader`` command run in this process, for the tests whose subject is what it does (its output,
its files, its exit code) rather than the process itself: a subprocess pays for Python and SymPy again
on every call, which kept these tests out of ``make test-fast``.

:func:`grader` returns what :func:`subprocess.run` would (a ``CompletedProcess`` with text output), runs
in ``cwd`` with the environment changed as asked, and restores both. Output goes to strings, so what
the command prints is checked as a pipe would receive it (no terminal: no colour, no progress bar).
What a command changes in the process for good (``submit`` and ``grade`` stop reading the reference
table's cache) is undone when it ends. The tests of the process itself (kill -9, a progress bar on a terminal, the workers a killed grader
leaves) keep their subprocess.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path
from unittest import mock

from grader.cli.main import main
from grader.judging import table

LOCALE_VARIABLES = ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def grader(*args, cwd: Path | str | None = None, clear=LOCALE_VARIABLES, **environ: str) -> subprocess.CompletedProcess:
    """``grader ARGS`` (each turned into text) in ``cwd``, with ``clear``'s variables unset and
    ``environ``'s set: (returncode, stdout, stderr), as a subprocess gives them."""
    words = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]
    ran = in_process(main, words, cwd=cwd, clear=clear, **environ)
    ran.args = words
    return ran


def in_process(command, *args, cwd: Path | str | None = None, clear=LOCALE_VARIABLES,
               **environ: str) -> subprocess.CompletedProcess:
    """``command(*args)`` (a command's entry: its exit code back) as :func:`grader` runs ``main``:
    (returncode, stdout, stderr), with ``args`` as the process's arguments."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.dict(os.environ))
        for name in clear:
            os.environ.pop(name, None)
        os.environ.update(environ)
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        trusted_only = table._trusted_only
        try:
            code = command(*args)
        except SystemExit as stop:        # argparse's own refusals (a missing option, --help)
            code = stop.code if isinstance(stop.code, int) else 2
        finally:
            # submit and grade build the table themselves from then on in their process
            # (table.build_here): a command that ends does not leave that to the next test
            if table._trusted_only != trusted_only:
                table._trusted_only = trusted_only
                table.table.cache_clear()
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
