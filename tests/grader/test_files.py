"""The shared file rules: an atomic write, a content fingerprint, the line of a text."""
import os
import threading

from grader import files


def test_fingerprint_follows_contents_not_only_names(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("x = 1\n")
    before = files.fingerprint([a], tmp_path)
    a.write_text("x = 2\n")           # same name, same size, other contents
    assert files.fingerprint([a], tmp_path) != before
    a.write_text("x = 1\n")
    assert files.fingerprint([a], tmp_path) == before


def test_fingerprint_follows_names_and_order(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("same")
    b.write_text("same")
    assert files.fingerprint([a], tmp_path) != files.fingerprint([b], tmp_path)
    assert files.fingerprint([a, b], tmp_path) != files.fingerprint([b, a], tmp_path)
    # the boundary between two files counts: ('ab', 'c') is not ('a', 'bc')
    a.write_text("ab"), b.write_text("c")
    one = files.fingerprint([a, b], tmp_path)
    a.write_text("a"), b.write_text("bc")
    assert files.fingerprint([a, b], tmp_path) != one


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "grades.csv"
    target.write_text("old")
    files.write_atomic(target, "new\n")
    assert target.read_text() == "new\n"
    assert os.listdir(tmp_path) == ["grades.csv"]


def test_two_writers_at_once_never_share_a_temporary_name(tmp_path):
    target = tmp_path / "out.json"
    errors = []

    def write(n):
        try:
            for _ in range(50):
                files.write_atomic(target, str(n) * 1000, sync=False)
        except OSError as exc:      # a shared fixed name makes one writer's rename fail
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text() in {str(n) * 1000 for n in range(4)}
    assert os.listdir(tmp_path) == ["out.json"]


def test_a_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "keep.txt"
    target.write_text("old")
    try:
        files.write_atomic(target, object())     # not text: fails before the rename
    except TypeError:
        pass
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["keep.txt"]


def test_line_of_tries_each_needle_in_turn():
    text = "one\ntwo <script>\nthree\n"
    assert files.line_of(["<SCRIPT>", "three"], text) == 3
    assert files.line_of(["<SCRIPT>"], text, casefold=True) == 2
    assert files.line_of(["absent"], text) == 1


def test_atomic_write_keeps_the_permissions_a_file_would_have(tmp_path):
    fresh = tmp_path / "grades.csv"
    files.write_atomic(fresh, "x")
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask        # not mkstemp's 0600
    os.chmod(fresh, 0o640)
    files.write_atomic(fresh, "y")
    assert fresh.stat().st_mode & 0o777 == 0o640                   # an existing file keeps its own
