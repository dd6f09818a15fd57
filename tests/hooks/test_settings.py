"""`extra.course` is checked: each setting's type, no unknown key, COURSE_SOLUTIONS=on|off over `solutions`;
and the hook renders exercises with the settings it read (no site build: one exercise through the hook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.config import load_config

from hooks import course
from hooks.chapters import cache
from hooks.site.settings import Settings, SettingsError
from hooks.translations import pagechecks

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_has_its_default():
    assert Settings.from_config(None, {}) == Settings(solutions=True, check_in_browser=True, print_solutions=False)
    assert Settings.from_config({}, {}) == Settings()


@pytest.mark.parametrize("course, environ, solutions", [
    ({"solutions": False}, {}, False),
    ({"solutions": True}, {}, True),
    ({"solutions": True}, {"COURSE_SOLUTIONS": "off"}, False),
    ({}, {"COURSE_SOLUTIONS": " OFF "}, False),
    ({}, {"COURSE_SOLUTIONS": "0"}, False),
    ({"solutions": False}, {"COURSE_SOLUTIONS": "on"}, True),
    ({"solutions": False}, {"COURSE_SOLUTIONS": ""}, False),
])
def test_course_solutions_overrides_the_setting(course, environ, solutions):
    assert Settings.from_config(course, environ).solutions is solutions


def test_the_other_settings_are_read():
    settings = Settings.from_config({"check_in_browser": False, "print_solutions": True}, {})
    assert (settings.solutions, settings.check_in_browser, settings.print_solutions) == (True, False, True)


@pytest.mark.parametrize("course, environ, words", [
    ({"solutions": "false"}, {}, ["extra.course.solutions: 'false' is a string", "without quotes"]),
    ({"print_solutions": 1}, {}, ["extra.course.print_solutions: '1' is not true or false"]),
    ({"solution": False}, {}, ["extra.course.solution: no such setting", "solutions, check_in_browser, print_solutions"]),
    ({}, {"COURSE_SOLUTIONS": "maybe"}, ["COURSE_SOLUTIONS='maybe'", "COURSE_SOLUTIONS=off"]),
    (["solutions"], {}, ["extra.course must hold settings as 'name: value' lines"]),
])
def test_a_wrong_setting_is_named_with_its_fix(course, environ, words):
    with pytest.raises(SettingsError) as raised:
        Settings.from_config(course, environ)
    assert all(w in str(raised.value) for w in words), str(raised.value)


def test_every_wrong_setting_is_listed_at_once():
    with pytest.raises(SettingsError) as raised:
        Settings.from_config({"solutions": "no", "colour": "red"}, {"COURSE_SOLUTIONS": "x"})
    assert len(str(raised.value).splitlines()) == 3


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory):
    """One cache for the module's builds: a renderer must not answer one setting with the other's page."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def site_config(cache_folder, monkeypatch):
    """The real mkdocs.yml, loaded as MkDocs loads it, with the bank cache in a temporary folder."""
    monkeypatch.setattr(cache, "FOLDER", cache_folder)
    monkeypatch.setattr(course, "BUILD", None)
    return load_config(str(ROOT / "mkdocs.yml"))


@pytest.mark.parametrize("switch, shown", [("off", False), ("on", True)])
def test_the_hook_renders_exercises_with_course_solutions(site_config, monkeypatch, switch, shown):
    monkeypatch.setenv("COURSE_SOLUTIONS", switch)
    course.on_config(site_config)
    exercise = sorted(pagechecks.known_ids()["exercise"])[0]
    assert course.BUILD.settings.solutions is shown
    assert ('class="course-solution"' in "".join(course.CONTEXT.render_exercise(exercise, "en"))) is shown


def test_the_hook_refuses_a_wrong_setting(site_config, monkeypatch):
    from mkdocs.exceptions import PluginError

    site_config.extra["course"] = {"solutions": "false"}
    with pytest.raises(PluginError, match=r"extra\.course\.solutions: 'false' is a string"):
        course.on_config(site_config)
