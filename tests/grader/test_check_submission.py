"""A whole submission graded in process: every exercise of the bank in its order, a part left out is
'missing' in the student's language, and the JSON shape `grader submit --format json` prints
(grader/SCHEMA.md). The CLI tests check the same through the command, in `make test`."""
from grader import bank
from grader.judging.check import grade_submission
from grader.languages.messages import message


def test_a_partial_submission_in_french():
    result = grade_submission({"terrain-warmup": {"lr-at-step": "0.0003*50/2000"}}, "fr")
    assert [e.id for e in result.exercises] == list(bank.EXERCISES)
    warmup = next(e for e in result.exercises if e.id == "terrain-warmup")
    given, *left_out = warmup.parts
    assert (given.id, given.correct, given.score) == ("lr-at-step", True, given.max_score)
    assert all(p.note == "missing" and p.feedback == message("missing", "fr") for p in left_out)
    assert [p.id for p in left_out] == [p.id for p in bank.get("terrain-warmup").parts][1:]
    for exercise in result.exercises:
        if exercise.id != "terrain-warmup":
            assert all(p.note == "missing" and p.feedback == message("missing", "fr") for p in exercise.parts)
    assert result.score == given.max_score and not result.all_correct


def test_an_answered_part_speaks_the_student_s_language():
    def feedback(lang):
        result = grade_submission({"terrain-warmup": {"lr-at-step": "0.0003*50/2000"}}, lang)
        return next(e for e in result.exercises if e.id == "terrain-warmup").parts[0].feedback
    assert feedback("ja") == message("correct", "ja") != feedback("en") == message("correct", "en")


def test_the_default_language_is_english():
    missing = grade_submission({}).exercises[0].parts[0]
    assert missing.feedback == message("missing", "en") != message("missing", "fr")


def test_the_json_shape():
    result = grade_submission({"terrain-warmup": {"lr-at-step": "0.0003*50/2000"}}, seed=None)
    data = result.to_dict()
    assert list(data) == ["score", "max_score", "seed", "exercises"]
    assert (data["score"], data["max_score"], data["seed"]) == (result.score, result.max_score, None)
    assert [list(e) for e in data["exercises"]] == [["id", "score", "max_score", "parts"]] * len(bank.EXERCISES)
    warmup = next(e for e in data["exercises"] if e["id"] == "terrain-warmup")
    assert warmup["score"] == warmup["parts"][0]["score"] > 0
    assert warmup["max_score"] == sum(p.points for p in bank.get("terrain-warmup").parts)
    assert [p["id"] for p in warmup["parts"]] == [p.id for p in bank.get("terrain-warmup").parts]
