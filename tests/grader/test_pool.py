"""The long-lived workers: every limit is answered, a lost worker is replaced, work goes on."""
import os
import time

import pytest

from grader.grading.pool import Pool
from grader.judging.limits import LimitExceeded


def task(kind: str, value: int = 0):
    if kind == "sleep":
        time.sleep(30)
    if kind == "stuck":         # deaf to its alarm, as in a long C call: the parent kills it
        import signal
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(30)
    if kind == "spin":          # pure Python: the worker's own alarm stops it
        while True:
            pass
    if kind == "memory":
        return bytearray(4 * 2**30)
    if kind == "recursion":
        return task("recursion")
    if kind == "die":
        os._exit(9)
    if kind == "bug":
        raise ValueError("a bug")
    return value * 2, os.getpid()


@pytest.mark.slow
def test_every_limit_is_answered_and_the_pool_keeps_working():
    tasks = [("sleep", ("sleep",)), ("stuck", ("stuck",)), ("spin", ("spin",)), ("memory", ("memory",)),
             ("recursion", ("recursion",)), ("die", ("die",))]
    tasks += [(i, ("ok", i)) for i in range(20)]
    with Pool(task, jobs=2, timeout=0.5) as pool:
        results = dict(pool.run(tasks))
    assert results["sleep"] == results["spin"] == results["stuck"] == LimitExceeded("timeout")
    assert results["memory"] == results["recursion"] == results["die"] == LimitExceeded("memory")
    assert [results[i][0] for i in range(20)] == [2 * i for i in range(20)]


def test_workers_are_reused():
    with Pool(task, jobs=2) as pool:
        pids = {value[1] for _, value in pool.run([(i, ("ok", i)) for i in range(50)])}
    assert len(pids) <= 2


def test_a_bug_is_not_hidden():
    with Pool(task, jobs=1) as pool, pytest.raises(RuntimeError, match="ValueError: a bug"):
        list(pool.run([(0, ("bug",))]))
