"""The course's settings: `extra.course` in mkdocs.yml, checked, as one typed object.

Each setting is declared once, with its default, its validator and what it does. A key the course does
not know, or a value of the wrong type, fails the build with the setting's name and the fix: a typo or a
quoted `"false"` must not quietly leave solutions on.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Mapping

from hooks.chapters.blockspec import boolean

ENVIRONMENT = "COURSE_SOLUTIONS"  # on|off: overrides `solutions`, for one build
SWITCH = {"on": True, "1": True, "true": True, "yes": True, "off": False, "0": False, "false": False, "no": False}


class SettingsError(ValueError):
    """`extra.course` (or COURSE_SOLUTIONS) holds something the course cannot use; the message says the fix."""


GATES = ("after-attempt", "always")


def gate(value: Any) -> str:
    """When the worked solution opens: one of GATES."""
    if value not in GATES:
        raise ValueError(f"{value!r} is not one of {', '.join(GATES)}")
    return value


def setting(default: Any, validator: Callable[[Any], Any], meaning: str):
    """A setting's declaration: (default, validator), and what it does."""
    return field(default=default, metadata={"validator": validator, "meaning": meaning})


@dataclass(frozen=True)
class Settings:
    solutions: bool = setting(True, boolean, "worked solutions in the built site, its HTML and its search index")
    check_in_browser: bool = setting(True, boolean, "the answer checker on the exercise pages, run in the browser")
    print_solutions: bool = setting(False, boolean, "worked solutions in the printed pages")
    solution_gate: str = setting("after-attempt", gate, "when a worked solution opens: after an answer to every "
                                                        "part was checked (a nudge, not a lock), or always")

    @classmethod
    def from_config(cls, course: Any, environ: Mapping[str, str]) -> "Settings":
        """The settings `extra.course` holds (None: every default), `COURSE_SOLUTIONS` applied."""
        declared = {f.name: f for f in fields(cls)}
        if course is None:
            course = {}
        if not isinstance(course, dict):
            raise SettingsError(f"extra.course must hold settings as 'name: value' lines (one of "
                                f"{', '.join(declared)}), not {course!r}")
        values, problems = {}, []
        for key, value in course.items():
            if key not in declared:
                problems.append(f"extra.course.{key}: no such setting: remove it, or use one of {', '.join(declared)}")
                continue
            try:
                values[key] = declared[key].metadata["validator"](value)
            except ValueError as error:
                problems.append(f"extra.course.{key}: {error} (in mkdocs.yml; it sets {declared[key].metadata['meaning']})")
        override = environ.get(ENVIRONMENT, "").strip().lower()
        if override in SWITCH:
            values["solutions"] = SWITCH[override]
        elif override:
            problems.append(f"{ENVIRONMENT}={environ[ENVIRONMENT]!r}: write {ENVIRONMENT}=on or {ENVIRONMENT}=off")
        if problems:
            raise SettingsError("\n".join(problems))
        return cls(**values)
