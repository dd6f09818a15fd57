"""`extra.course`'s settings, in process: every spelling COURSE_SOLUTIONS takes, the solution gate, and the
whole sentence a wrong setting gets (the setting, the value, what to write, what the setting does)."""
import pytest

from hooks.site.settings import GATES, Settings, SettingsError, gate

NAMES = "solutions, check_in_browser, print_solutions, solution_gate"


@pytest.mark.parametrize("switch, solutions", [
    ("on", True), ("1", True), ("true", True), ("yes", True), ("YES", True),
    ("off", False), ("0", False), ("false", False), ("no", False), (" No ", False),
])
def test_course_solutions_reads_every_spelling_of_on_and_off(switch, solutions):
    assert Settings.from_config({"solutions": not solutions}, {"COURSE_SOLUTIONS": switch}).solutions is solutions


def test_the_solution_gate_is_after_an_attempt_unless_always():
    assert Settings().solution_gate == "after-attempt" and GATES == ("after-attempt", "always")
    assert Settings.from_config({"solution_gate": "always"}, {}).solution_gate == "always"
    assert Settings.from_config({"solution_gate": "after-attempt"}, {}).solution_gate == "after-attempt"
    assert gate("always") == "always"
    with pytest.raises(ValueError, match="^'later' is not one of after-attempt, always$"):
        gate("later")


@pytest.mark.parametrize("course, environ, said", [
    ({"solution_gate": "later"}, {}, "extra.course.solution_gate: 'later' is not one of after-attempt, always (in "
     "mkdocs.yml; it sets when a worked solution opens: after an answer to every part was checked (a nudge, not a "
     "lock), or always)"),
    ({"solutions": "no"}, {}, "extra.course.solutions: 'no' is not true or false (in mkdocs.yml; it sets worked "
     "solutions in the built site, its HTML and its search index)"),
    ({"check_in_browser": "no"}, {}, "extra.course.check_in_browser: 'no' is not true or false (in mkdocs.yml; it "
     "sets the answer checker on the exercise pages, run in the browser)"),
    ({"print_solutions": "no"}, {}, "extra.course.print_solutions: 'no' is not true or false (in mkdocs.yml; it "
     "sets worked solutions in the printed pages)"),
    ({"x": 1}, {}, f"extra.course.x: no such setting: remove it, or use one of {NAMES}"),
    ({}, {"COURSE_SOLUTIONS": " Maybe"}, "COURSE_SOLUTIONS=' Maybe': write COURSE_SOLUTIONS=on or COURSE_SOLUTIONS=off"),
    (5, {}, f"extra.course must hold settings as 'name: value' lines (one of {NAMES}), not 5"),
])
def test_a_wrong_setting_gets_the_whole_sentence(course, environ, said):
    with pytest.raises(SettingsError) as raised:
        Settings.from_config(course, environ)
    assert str(raised.value) == said


def test_every_problem_is_listed_in_the_order_written_and_nothing_is_applied():
    with pytest.raises(SettingsError) as raised:
        Settings.from_config({"colour": "red", "solutions": "no", "solution_gate": "later"}, {"COURSE_SOLUTIONS": "x"})
    lines = str(raised.value).split("\n")
    assert [line.split(":")[0].split("=")[0] for line in lines] == [
        "extra.course.colour", "extra.course.solutions", "extra.course.solution_gate", "COURSE_SOLUTIONS"]


def test_a_good_setting_after_an_unknown_one_still_needs_the_unknown_one_gone():
    with pytest.raises(SettingsError):
        Settings.from_config({"colour": "red", "solutions": False}, {})
    assert Settings.from_config({"solutions": False, "print_solutions": True}, {"COURSE_SOLUTIONS": "  "}) == \
        Settings(solutions=False, print_solutions=True)
