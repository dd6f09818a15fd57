"""Long-lived worker processes that check many answers under the same limits as one.

:func:`grader.judging.limits.run_limited` forks a child per check; a class of thousands
of answers cannot afford that. A :class:`Pool` forks ``jobs`` workers once (they
inherit the parent's warm state: SymPy imported, the bank and its mistake
tables built) and sends them tasks, alone or in groups (one message for several tasks
that belong together, such as a student's answers to their variant). Each worker:

* caps its address space (``RLIMIT_AS``) at its size at start plus
  :data:`grader.judging.limits.MEMORY_MB`;
* arms ``SIGALRM`` (``setitimer``) for ``timeout`` seconds around each task (in a
  group too), so a runaway check raises inside the worker and is answered ``timeout``;
* answers ``memory`` for ``MemoryError``/``RecursionError``;
* exits after any limit was hit, so the next task starts in a clean process (the
  rest of a group goes back to the queue);
* exits when its parent is gone (killed, ``kill -9`` included): a forked worker
  holds copies of the pipes, so it cannot count on seeing them close.

The parent also keeps a hard deadline (``timeout`` per task plus a grace) per
message: a worker stuck in C code past it is killed and replaced, and a worker
that dies without answering (the kernel's OOM killer, a crash) is replaced and
its task answered ``memory`` (a group is tried again task by task first, to find
which task it was). A task that raises anything else is a bug: it is re-raised
in the parent, never hidden.
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import time
from collections import deque
from multiprocessing import connection, get_context
from typing import Callable, Hashable, Iterable, Iterator

from grader.judging.limits import MEMORY_MB, LimitExceeded, _address_space, time_limit

GRACE = 2.0   # seconds the parent waits past the worker's own alarm before killing it
ORPHAN_CHECK = 0.5   # seconds between a waiting worker's checks that its parent is alive


class _Alarm(BaseException):
    """Raised by SIGALRM inside a worker; a BaseException so no ``except Exception`` eats it."""


def _on_alarm(signum, frame):
    raise _Alarm()


def _run(fn: Callable, args: tuple, timeout: float) -> tuple[object, bool]:
    """``fn(*args)`` under the alarm: (its value or the LimitExceeded, whether a limit was hit)."""
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return fn(*args), False
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Alarm:
        return LimitExceeded("timeout"), True
    except (MemoryError, RecursionError):
        return LimitExceeded("memory"), True


def _serve(conn, fn: Callable, timeout: float) -> None:
    try:
        import resource
        limit = _address_space() + MEMORY_MB * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        pass
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when to stop
    gc.freeze()          # what the parent built (SymPy, the bank) is never garbage: don't scan it again
    parent = os.getppid()
    while True:
        try:
            while not conn.poll(ORPHAN_CHECK):
                if os.getppid() != parent:        # the parent was killed: nobody to answer
                    return
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        values, limited = [], False
        try:
            for args in job:                      # each task under its own limits
                value, limited = _run(fn, args, timeout)
                values.append(value)
                if limited:                       # the rest goes to a fresh worker
                    break
            reply = ("ok", values)
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
        self.queue: deque = deque()      # jobs sent, oldest first: each a list of (key, args)
        self.deadline = 0.0              # for the oldest job in the queue

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

    :meth:`submit` queues a task and :meth:`submit_group` several that go to one worker together
    (one message each way: a student's answers, which share a variant); both return at once, and
    :meth:`collect` hands back the results that are ready, so the caller can prepare more work
    meanwhile. Every task has its own limits, in a group too. Each worker has up to ``depth``
    jobs sent ahead, so it never waits for the parent; the time limit of a task starts when the
    worker reaches it."""

    def __init__(self, fn: Callable, jobs: int, timeout: float | None = None, depth: int = 4):
        self.fn, self.jobs, self.depth = fn, max(1, jobs), depth
        self.timeout = time_limit() if timeout is None else timeout
        self.ctx = get_context("fork")
        self.workers = [self._spawn() for _ in range(self.jobs)]
        self.pending: deque = deque()    # jobs not sent yet

    def _spawn(self) -> _Worker:
        return _Worker(self.ctx, self.fn, self.timeout)

    def _replace(self, worker: _Worker, kill: bool) -> None:
        """A fresh worker in its place; the jobs it had not reached go back to the queue."""
        self.pending.extendleft(reversed(worker.queue))
        worker.queue.clear()
        worker.stop(kill=kill)
        self.workers[self.workers.index(worker)] = self._spawn()

    def _allowed(self, job: list) -> float:
        return self.timeout * len(job) + GRACE

    def _feed(self) -> None:
        now = time.monotonic()
        for worker in self.workers:
            while self.pending and len(worker.queue) < self.depth:
                job = self.pending.popleft()
                if not worker.queue:
                    worker.deadline = now + self._allowed(job)
                worker.queue.append(job)
                worker.conn.send([args for _, args in job])

    @property
    def busy(self) -> bool:
        return bool(self.pending) or any(w.queue for w in self.workers)

    def submit(self, key: Hashable, args: tuple) -> None:
        self.submit_group([(key, args)])

    def submit_group(self, tasks: Iterable[tuple[Hashable, tuple]]) -> None:
        """Several ``(key, args)`` tasks for one worker, sent and answered in one message."""
        job = list(tasks)
        if job:
            self.pending.append(job)
            self._feed()

    def _lost(self, worker: _Worker, reason: str, done: list) -> None:
        """The oldest job got no answer (the worker died, or is stuck past its deadline): a task
        alone is answered ``reason``; a group is tried again task by task, to find the one."""
        job = worker.queue.popleft()
        if len(job) == 1:
            done.append((job[0][0], LimitExceeded(reason)))
        else:
            self.pending.extendleft(reversed([[task] for task in job]))
        self._replace(worker, kill=True)

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
            if worker.conn in ready:
                try:
                    status, values = pickle.loads(worker.conn.recv_bytes())
                except (EOFError, OSError):          # died without a word: out of memory
                    self._lost(worker, "memory", done)
                    continue
                if status == "error":
                    raise RuntimeError(values)
                job = worker.queue.popleft()
                done.extend((key, value) for (key, _), value in zip(job, values))
                if len(values) < len(job) or isinstance(values[-1], LimitExceeded):   # it exits after a limit
                    if len(values) < len(job):
                        self.pending.appendleft(job[len(values):])
                    self._replace(worker, kill=False)
                elif worker.queue:
                    worker.deadline = now + self._allowed(worker.queue[0])
            elif now >= worker.deadline:                 # stuck in C code: kill it
                self._lost(worker, "timeout", done)
        self._feed()
        return done

    def run(self, tasks: Iterable[tuple[Hashable, tuple]]) -> Iterator[tuple[Hashable, object]]:
        """Yield ``(key, fn(*args) or LimitExceeded)`` for each ``(key, args)``, as they finish."""
        for key, args in tasks:
            self.pending.append([(key, args)])
        while self.busy:
            yield from self.collect()

    def close(self) -> None:
        for worker in self.workers:
            worker.stop(kill=bool(worker.queue))

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
