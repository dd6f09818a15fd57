"""Run one check in a forked child under a memory cap and a wall-clock limit.

The child sets ``RLIMIT_AS`` (address space) to its current size plus
``MEMORY_MB`` and sends its pickled result through a pipe; the parent waits at
most ``timeout`` seconds, then kills it. Where ``fork`` is unavailable the
function runs in-process (the parser's size pre-checks still apply).
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

T = TypeVar("T")
DEFAULT_TIMEOUT = 5.0      # seconds a check may take, unless GRADER_TIMEOUT says otherwise
MAX_TIMEOUT = 600.0        # the most GRADER_TIMEOUT may say: a check is never meant to take longer
SETTING = "GRADER_TIMEOUT"
MEMORY_MB = 768


class BadTimeout(ValueError):
    """``GRADER_TIMEOUT`` is no time limit: not a number, not finite, not above 0, above the most."""

    def __init__(self, value: str):
        self.value = value
        super().__init__(f"{SETTING}={value!r}: a number of seconds above 0 and at most {MAX_TIMEOUT:g} is expected")


def time_limit(environ=os.environ) -> float:
    """The seconds a check may take: ``GRADER_TIMEOUT`` (read when asked, never at import), else 5 (unset
    or blank). A value that is no number of seconds in (0, 600] raises :class:`BadTimeout`."""
    text = environ.get(SETTING, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        raise BadTimeout(text) from None
    if not 0 < value <= MAX_TIMEOUT:        # nan compares false, inf is above the most
        raise BadTimeout(text)
    return value


@dataclass(frozen=True)
class LimitExceeded:
    """The check ran out of time ('timeout') or memory ('memory')."""
    reason: str


def _address_space() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child(fn: Callable[[], T], write_fd: int) -> None:
    code = 0
    try:
        try:
            import resource
            limit = _address_space() + MEMORY_MB * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, OSError, ValueError):
            pass
        try:
            payload = pickle.dumps(("ok", fn()))
        except MemoryError:
            payload = pickle.dumps(("limit", LimitExceeded("memory")))
        except RecursionError:
            payload = pickle.dumps(("limit", LimitExceeded("memory")))
        except BaseException as exc:  # re-raised in the parent, never hidden
            payload = pickle.dumps(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
        with os.fdopen(write_fd, "wb") as out:
            out.write(payload)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def run_limited(fn: Callable[[], T], timeout: float | None = None) -> T | LimitExceeded:
    """``fn()`` computed in a limited child; a :class:`LimitExceeded` if it blew a limit."""
    timeout = time_limit() if timeout is None else timeout
    if not hasattr(os, "fork"):
        return fn()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(fn, write_fd)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_fd], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return LimitExceeded("timeout")
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        os.waitpid(pid, 0)
    if not chunks:
        return LimitExceeded("memory")   # the child died without a word: out of memory
    status, value = pickle.loads(b"".join(chunks))
    if status == "error":
        raise value
    return value
