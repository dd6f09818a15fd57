"""Long-lived worker processes that check many answers under the same limits as one.

:func:`grader.limits.run_limited` forks a child per check; a class of thousands
of answers cannot afford that. A :class:`Pool` forks ``jobs`` workers once (they
inherit the parent's warm state: SymPy imported, the bank and its mistake
tables built) and sends them one task at a time. Each worker:

* caps its address space (``RLIMIT_AS``) at its size at start plus
  :data:`grader.limits.MEMORY_MB`;
* arms ``SIGALRM`` (``setitimer``) for ``timeout`` seconds around each task, so
  a runaway check raises inside the worker and is answered ``timeout``;
* answers ``memory`` for ``MemoryError``/``RecursionError``;
* exits after any limit was hit, so the next task starts in a clean process;
* exits when its parent is gone (killed, ``kill -9`` included): a forked worker
  holds copies of the pipes, so it cannot count on seeing them close.

The parent also keeps a hard deadline (``timeout`` plus a grace) per task: a
worker stuck in C code past it is killed and replaced, and a worker that dies
without answering (the kernel's OOM killer, a crash) is replaced and its task
answered ``memory``. A task that raises anything else is a bug: it is re-raised
in the parent, never hidden.
"""
from __future__ import annotations

import os
import pickle
import signal
import time
from collections import deque
from multiprocessing import connection, get_context
from typing import Callable, Hashable, Iterable, Iterator

from .limits import DEFAULT_TIMEOUT, MEMORY_MB, LimitExceeded, _address_space

GRACE = 2.0   # seconds the parent waits past the worker's own alarm before killing it
ORPHAN_CHECK = 0.5   # seconds between a waiting worker's checks that its parent is alive


class _Alarm(BaseException):
    """Raised by SIGALRM inside a worker; a BaseException so no ``except Exception`` eats it."""


def _on_alarm(signum, frame):
    raise _Alarm()


def _serve(conn, fn: Callable, timeout: float) -> None:
    try:
        import resource
        limit = _address_space() + MEMORY_MB * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        pass
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    parent = os.getppid()
    while True:
        try:
            while not conn.poll(ORPHAN_CHECK):
                if os.getppid() != parent:        # the parent was killed: nobody to answer
                    return
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        limited = False
        try:
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                reply = ("ok", fn(*task))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Alarm:
            reply, limited = ("ok", LimitExceeded("timeout")), True
        except (MemoryError, RecursionError):
            reply, limited = ("ok", LimitExceeded("memory")), True
        except BaseException as exc:  # noqa: BLE001 - re-raised in the parent
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send_bytes(pickle.dumps(reply))
        except (MemoryError, OSError, pickle.PicklingError):
            return
        if limited:
            return


class _Worker:
    def __init__(self, ctx, fn: Callable, timeout: float):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, fn, timeout), daemon=True)
        self.process.start()
        child.close()
        self.queue: deque = deque()      # (key, args) sent, oldest first
        self.deadline = 0.0              # for the oldest task in the queue

    def stop(self, kill: bool = False) -> None:
        if kill and self.process.is_alive():
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class Pool:
    """``jobs`` forked workers computing ``fn(*args)`` under memory and time limits.

    :meth:`submit` queues tasks and returns at once; :meth:`collect` hands back
    the results that are ready, so the caller can prepare more work meanwhile.
    Each worker has up to ``depth`` tasks sent ahead, so it never waits for the
    parent; the time limit of a task starts when the worker reaches it."""

    def __init__(self, fn: Callable, jobs: int, timeout: float | None = None, depth: int = 4):
        self.fn, self.jobs, self.depth = fn, max(1, jobs), depth
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        self.ctx = get_context("fork")
        self.workers = [self._spawn() for _ in range(self.jobs)]
        self.pending: deque = deque()

    def _spawn(self) -> _Worker:
        return _Worker(self.ctx, self.fn, self.timeout)

    def _replace(self, worker: _Worker, kill: bool) -> None:
        """A fresh worker in its place; the tasks it had not reached go back to the queue."""
        self.pending.extendleft(reversed(worker.queue))
        worker.queue.clear()
        worker.stop(kill=kill)
        self.workers[self.workers.index(worker)] = self._spawn()

    def _feed(self) -> None:
        now = time.monotonic()
        for worker in self.workers:
            while self.pending and len(worker.queue) < self.depth:
                key, args = self.pending.popleft()
                if not worker.queue:
                    worker.deadline = now + self.timeout + GRACE
                worker.queue.append((key, args))
                worker.conn.send(args)

    @property
    def busy(self) -> bool:
        return bool(self.pending) or any(w.queue for w in self.workers)

    def submit(self, key: Hashable, args: tuple) -> None:
        self.pending.append((key, args))
        self._feed()

    def collect(self, timeout: float | None = None) -> list[tuple[Hashable, object]]:
        """Results ready within ``timeout`` seconds (None: wait for at least one)."""
        self._feed()
        busy = [w for w in self.workers if w.queue]
        if not busy:
            return []
        wait = max(0.0, min(w.deadline for w in busy) - time.monotonic())
        ready = connection.wait([w.conn for w in busy],
                                timeout=wait if timeout is None else min(wait, timeout))
        now = time.monotonic()
        done = []
        for worker in busy:
            key, _ = worker.queue[0]
            if worker.conn in ready:
                try:
                    status, value = pickle.loads(worker.conn.recv_bytes())
                except (EOFError, OSError):          # died without a word: out of memory
                    worker.queue.popleft()
                    self._replace(worker, kill=True)
                    done.append((key, LimitExceeded("memory")))
                    continue
                worker.queue.popleft()
                worker.deadline = now + self.timeout + GRACE
                if status == "error":
                    raise RuntimeError(value)
                if isinstance(value, LimitExceeded):   # it exits after a limit
                    self._replace(worker, kill=False)
                done.append((key, value))
            elif now >= worker.deadline:                 # stuck in C code: kill it
                worker.queue.popleft()
                self._replace(worker, kill=True)
                done.append((key, LimitExceeded("timeout")))
        self._feed()
        return done

    def run(self, tasks: Iterable[tuple[Hashable, tuple]]) -> Iterator[tuple[Hashable, object]]:
        """Yield ``(key, fn(*args) or LimitExceeded)`` for each ``(key, args)``, as they finish."""
        for key, args in tasks:
            self.pending.append((key, args))
        while self.busy:
            yield from self.collect()

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(kill=bool(worker.queue))

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
