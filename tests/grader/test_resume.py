"""What a rerun of `grader grade` trusts from its results log: the latest record of each student,
and only records this version of the grader wrote."""
import json
import shutil

from grader.cli.main import describe
from grader.grading import batch, store
from tests.grader.test_batch import ROOT


def record(student: str, score: float, grader: str = "v1") -> str:
    return json.dumps({"student": student, "file": f"{student}.toml", "sha256": "x", "seed": None, "lang": "en",
                       "grader": grader, "error": None, "score": score, "max_score": 26, "exercises": []}) + "\n"


def test_the_latest_record_of_a_student_wins(tmp_path):
    log = tmp_path / "results.jsonl"
    log.write_text(record("ada", 1) + record("bob", 2) + record("ada", 3))
    latest = store.read_log(log)
    assert latest["ada"]["score"] == 3 and latest["bob"]["score"] == 2


def run(folder, out) -> batch.Run:
    return batch.run(batch.Run(folder, out, jobs=1), describe)


def test_records_of_another_grader_version_are_graded_again(tmp_path):
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(ROOT / "examples" / f"{name}.toml", folder / f"{name}.toml")
    first = run(folder, out)
    assert (first.graded_now, first.kept) == (2, 0)
    assert (run(folder, out).graded_now, run(folder, out).kept) == (0, 2)    # same version: kept
    log = out / "results.jsonl"
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    for row in rows:
        if row["student"] == "bob":
            row["grader"] = "an-older-grader"         # what an earlier version of the grader wrote
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    again = run(folder, out)
    assert (again.graded_now, again.kept) == (1, 1)
    assert {r["student"]: r["grader"] for r in again.final}["bob"] != "an-older-grader"
