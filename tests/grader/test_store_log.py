"""The results log read back in process: the latest record per student, a torn last line cut off,
a damaged line passed over, whole lines by byte range, and the file a new log is created as.
(The class-folder tests check the same through `grader grade` in a subprocess, in `make test`.)"""
import json
import os

from grader.grading import store


def line(student: str, score: int, **extra) -> bytes:
    record = {"student": student, "file": f"{student}.toml", "sha256": "ab", "seed": "s1", "lang": "fr",
              "grader": "v2", "error": None, "score": score, "max_score": 26,
              "exercises": [{"id": "terrain-warmup", "score": score}], **extra}
    return (json.dumps(record) + "\n").encode()


def test_a_record_is_compacted_to_what_a_run_keeps():
    record = json.loads(line("ada", 3, parts=["left out"]))
    assert store.compact(record) == {"student": "ada", "file": "ada.toml", "sha256": "ab", "seed": "s1", "lang": "fr",
                                     "variants": None, "reading": None, "assignment": None,
                                     "grader": "v2", "error": None, "score": 3, "max_score": 26,
                                     "per": {"terrain-warmup": 3}, "internal_errors": 0}
    record["exercises"][0]["parts"] = [{"id": "lr", "note": "internal-error"}, {"id": "x", "note": ""}]
    assert store.compact(record)["internal_errors"] == 1
    assert store.compact({"student": "bob", "error": "unreadable"})["per"] == {}


def test_a_torn_last_line_is_cut_off_and_a_damaged_one_passed_over(tmp_path):
    log = tmp_path / "results.jsonl"
    whole = line("ada", 1) + b"{not json\n" + line("bob", 2) + b'{"no": "student"}\n' + line("ada", 3)
    log.write_bytes(whole + line("cy", 4)[:20])               # killed while writing cy's line
    latest = store.read_log(log)
    assert {s: r["score"] for s, r in latest.items()} == {"ada": 3, "bob": 2}
    assert log.read_bytes() == whole                          # the torn line is gone, the damaged ones stay
    assert store.read_log(log).keys() == {"ada", "bob"} and log.read_bytes() == whole


def test_a_log_of_whole_lines_is_left_as_it_is(tmp_path):
    log = tmp_path / "results.jsonl"
    log.write_bytes(line("ada", 1))
    before = os.stat(log).st_mtime_ns
    assert store.read_log(log)["ada"]["score"] == 1
    assert log.read_bytes() == line("ada", 1) and os.stat(log).st_mtime_ns == before


def test_no_log_is_no_records_and_no_file(tmp_path):
    assert store.read_log(tmp_path / "results.jsonl") == {}
    assert not (tmp_path / "results.jsonl").exists()
    assert list(store.whole_lines(tmp_path / "results.jsonl")) == []


def test_whole_lines_between_two_offsets(tmp_path):
    log = tmp_path / "results.jsonl"
    lines = [line("ada", 1), line("bob", 2), line("cy", 3)]
    log.write_bytes(b"".join(lines) + b'{"torn"')
    assert list(store.whole_lines(log)) == lines
    second = len(lines[0])
    assert list(store.whole_lines(log, second)) == lines[1:]
    assert list(store.whole_lines(log, 0, second)) == lines[:1]                     # lines that start before end
    assert list(store.whole_lines(log, 0, second + 1)) == lines[:2]
    assert list(store.whole_lines(log, second, second + len(lines[1]))) == lines[1:2]


def test_a_new_log_is_appended_and_readable_by_all(tmp_path):
    old = os.umask(0o022)
    try:
        log = store.Log(tmp_path / "results.jsonl")
        log.append_text(line("ada", 1).decode())
        log.append_text(line("bob", 2).decode())
        log.close()
    finally:
        os.umask(old)
    assert (tmp_path / "results.jsonl").read_bytes() == line("ada", 1) + line("bob", 2)
    assert (tmp_path / "results.jsonl").stat().st_mode & 0o777 == 0o644


def test_the_csv_is_what_grader_schema_describes():
    """Columns student, one per exercise in lesson order, total, max_score, error (grader/SCHEMA.md);
    an unreadable file: empty scores and the reason; scores in their shortest form; CRLF line ends."""
    ids = list(store.EXERCISES)
    first, last = ids[0], ids[-1]
    records = [
        {"student": "ada", "error": "unreadable: line 2", "per": {}, "score": None, "max_score": None},
        {"student": "bob", "error": "=not a formula", "per": {}, "score": None, "max_score": None},
        {"student": "cy", "error": None, "per": {first: 2.5, last: 2 / 3}, "score": 3.1666666, "max_score": 26},
    ]
    rows = store.csv_text(records).split("\r\n")
    blanks = [""] * (len(ids) - 2)
    assert rows == [
        ",".join(["student", *ids, "total", "max_score", "error"]),
        ",".join(["ada", *[""] * len(ids), "", "", "unreadable: line 2"]),
        ",".join(["bob", *[""] * len(ids), "", "", "'=not a formula"]),
        ",".join(["cy", "2.5", *blanks, "0.666667", "3.16667", "26", ""]),
        "",
    ]
