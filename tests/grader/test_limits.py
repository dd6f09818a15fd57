"""The resource limits: a runaway check ends in time, with a clear note."""
import time

from grader.judging.check import check_part
from grader.judging.limits import LimitExceeded, run_limited


def test_timeout_kills_the_child():
    start = time.monotonic()
    assert run_limited(lambda: time.sleep(30), timeout=0.5) == LimitExceeded("timeout")
    assert time.monotonic() - start < 15     # 0.5 s asked; a loaded 2-core machine may add seconds


def test_memory_cap():
    assert run_limited(lambda: bytearray(4 * 2**30)) == LimitExceeded("memory")


def test_result_comes_back():
    assert run_limited(lambda: {"a": 1}) == {"a": 1}


def test_a_slow_check_is_not_decided_not_too_large(monkeypatch):
    """Past the time limit the answer is not judged (a busy machine gets there too): ``timeout``."""
    import grader.judging.rules
    monkeypatch.setattr(grader.judging.rules, "judge", lambda *a, **k: time.sleep(30))
    result = check_part("attention-weights", "weights", "(exp(1), 1, 1)", timeout=0.5)
    assert (result.correct, result.note, result.score) == (False, "timeout", 0)
    assert "try again" in result.feedback and "too large" not in result.feedback


def test_a_check_out_of_memory_is_too_large(monkeypatch):
    import grader.judging.rules
    monkeypatch.setattr(grader.judging.rules, "judge", lambda *a, **k: bytearray(4 * 2**30))
    result = check_part("attention-weights", "weights", "(exp(1), 1, 1)")
    assert (result.correct, result.note, result.score) == (False, "too-large", 0)


def test_a_tower_of_exponentials_is_too_large_not_unreal():
    from grader.judging.check import check_part

    result = check_part("embedding-distances", "parakeet-monkey", "exp(exp(exp(exp(10))))")
    assert (result.correct, result.note) == (False, "too-large")
