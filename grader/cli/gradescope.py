"""What a Gradescope autograder runs for each submission: ``python -m grader.cli.gradescope [ROOT]``.

``ROOT`` (default ``$AUTOGRADER_ROOT``, else ``/autograder``) is laid out as Gradescope lays it out:
``source/autograder.json`` (the configuration ``grader autograder`` wrote: :class:`Config`),
``submission/`` (what the student uploaded), ``submission_metadata.json`` (who they are) and
``results/``, where ``results/results.json`` is written in every case: a graded file, no file, a file
that cannot be read, a variant that cannot be drawn, a bug (the judge makes a failing check that part's
``internal-error`` note; anything else here is said in the output, with score 0).

Which file is graded (:func:`choose`): ``answers.toml``, the name the site downloads, at the top of the
upload or the only one by that name, else ``answers.json`` the same way, else the only ``.toml`` or
``.json`` file; the output says which file was graded and names the others, not graded. Several answer
files and none of those names: refused, with every name and the fix (upload one, named answers.toml);
no answer file: refused, naming what was uploaded (``answers.toml.txt``: rename it to answers.toml).
Never a hidden file, a symbolic link or what a Mac's archive adds (``__MACOSX``).

Variants (``variants`` in the configuration): each student is graded on the variant drawn from their
Gradescope identity, the ``seed_from`` field of the submission's user (of a group, the value that sorts
first): ``email`` by default, which Gradescope always sends (``users[{email, id, name}]``), in lower
case, so that a student types it as their seed on the site; ``sid``, the student id, which Gradescope
sends only where the instructor set one in the roster; ``id``, Gradescope's own number. A user without
the field is refused with what Gradescope sent and what the instructor must do, never graded on another
variant (:func:`identity_seed`). A seed the file names is not
what decides: the same seed is accepted, another one is refused with the student's own (a student who
typed another seed on the page answered another variant). Without variants, every student is graded on
the lessons' own data and a file that names a seed is refused the same way.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

from grader.files import write_atomic
from grader.languages.messages import message
from grader.text import printable

CONFIG = "autograder.json"
PREFERRED = ("answers.toml", "answers.json")     # the name the course asks for, then its JSON twin
SEED_FIELDS = ("email", "sid", "id")             # a Gradescope user's fields a variant can be seeded by (default first)
SKIPPED_FOLDERS = ("__MACOSX",)
NEAR_MISS = re.compile(r"\.(toml|json)|^answers", re.IGNORECASE)   # answers.toml.txt, answers.txt: a rename away
VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")   # Gradescope's, for results and tests
LISTED = 20                                      # the uploaded files a refusal names, at most


@dataclass(frozen=True)
class Config:
    """``autograder.json``: what an assignment grades, and how (written by the same grader that reads it)."""
    lang: str = "en"                              # the feedback's language (a file's `lang` still reads it)
    exercises: list[str] | None = None            # the assignment; None: every exercise
    variants: bool = False                        # each student on the variant of their identity
    seed_from: str = SEED_FIELDS[0]               # which of the user's fields seeds it
    version: str = ""                             # the grader that wrote the zip (grader --version)
    engine: str = ""
    wheel: str = ""                               # the package inside the zip
    visibility: str | None = None                 # when students see the results and each test (VISIBILITY);
                                                  # None: Gradescope's default
    feedback_format: str = "text"                 # each test's feedback: "text", or "md" (Markdown)
    tests_visibility: str | None = None           # when students see each part's test, apart from the score
                                                  # (VISIBILITY); None: as ``visibility``

    @classmethod
    def read(cls, path: Path) -> Config:
        return cls(**json.loads(path.read_text(encoding="utf-8")))

    def text(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n"


def uploaded(folder: Path) -> list[Path]:
    """Every file of the upload that is read at all: no hidden file or folder, no ``__MACOSX``, no link;
    by depth, then name in code-point order."""
    found = []
    for where, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED_FOLDERS)
        for name in files:
            path = Path(where, name)
            if not name.startswith(".") and not path.is_symlink() and path.is_file():
                found.append(path.relative_to(folder))
    return sorted(found, key=lambda p: (len(p.parts), p.as_posix()))


def candidates(folder: Path) -> list[Path]:
    """The upload's files that could be the student's answers, the preferred names first."""
    from grader.grading.folder import is_submission
    found = [p for p in uploaded(folder) if is_submission(p.name)]
    return sorted(found, key=lambda p: (PREFERRED.index(p.as_posix()) if p.as_posix() in PREFERRED else 2,
                                        len(p.parts), p.as_posix()))


def names(paths: list[Path]) -> str:
    """Files as the messages name them, the first :data:`LISTED`."""
    from grader.grading.submission import display
    shown = [display(p.as_posix()) for p in paths[:LISTED]]
    return ", ".join(shown + ([f"… (+{len(paths) - LISTED})"] if len(paths) > LISTED else []))


def choose(folder: Path) -> tuple[Path, list[Path]]:
    """The file to grade and the other answer files, not graded (module docstring); :class:`Refused`
    where there is none, or several and no name decides."""
    from grader.grading.submission import display
    found = candidates(folder)
    for name in PREFERRED:
        named = [p for p in found if p.name == name]
        if named and (len(named) == 1 or named[0].as_posix() == name):
            return named[0], [p for p in found if p != named[0]]
    if len(found) == 1:
        return found[0], []
    if found:
        raise Refused("autograder-several-files", files=names(found), file=PREFERRED[0])
    seen = uploaded(folder)
    also = [("autograder-rename", {"found": display(p.as_posix()),
                                   "file": PREFERRED[1] if ".json" in p.name.lower() and ".toml" not in p.name.lower()
                                   else PREFERRED[0]})
            for p in seen if NEAR_MISS.search(p.name)][:LISTED]
    if seen:
        also.append(("autograder-uploaded", {"files": names(seen)}))
    raise Refused("autograder-no-file", also=also, file=PREFERRED[0])


class Refused(Exception):
    """The submission cannot be graded, for a reason the student can act on: the words of a message."""

    def __init__(self, key: str, also: list[tuple[str, dict]] = (), **params):
        super().__init__(key)
        self.key, self.params, self.also = key, params, list(also)

    def text(self, lang: str) -> str:
        return "\n".join(message(key, lang, **params) for key, params in [(self.key, self.params), *self.also])


def seed_value(field: str, value) -> str:
    """The seed a user's ``field`` gives: its text, trimmed; an email in lower case (the site's seed box
    and the file's ``seed`` are compared exactly, and an email is the same address in any case)."""
    text = str(value).strip()
    return text.lower() if field == "email" else text


def identity_seed(metadata_path: Path, seed_from: str) -> str:
    """The variant's seed: the submitter's ``seed_from`` field (of a group, the value that sorts first).

    Refused (``autograder-no-identity``) where no user has it, naming the fields Gradescope did send."""
    from grader.model.seeds import InvalidSeed, seed_text
    users: list = []
    try:
        users = json.loads(metadata_path.read_text(encoding="utf-8"))["users"]
        values = sorted(seed_value(seed_from, u[seed_from]) for u in users
                        if u.get(seed_from) not in (None, "") and str(u[seed_from]).strip())
        return seed_text(values[0])
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, InvalidSeed):
        sent = sorted({str(key) for u in users if isinstance(u, dict) for key, v in u.items()
                       if v not in (None, "")}) if isinstance(users, list) else []
        raise Refused("autograder-no-identity", field=seed_from, sent=", ".join(sent) or "-") from None


def grade(root: Path, config: Config) -> tuple[dict, int]:
    """``results.json`` for the submission under ``root``, and the exit code ``grader submit`` would give."""
    from grader.cli import output
    from grader.cli.exits import INTERNAL, NOT_CORRECT, OK, UNDECIDED, UNUSABLE
    from grader.grading.submission import SubmissionError, describe, display, load
    from grader.judging.limits import BadTimeout, time_limit
    lang = config.lang
    try:
        time_limit()
    except BadTimeout as exc:
        return output.gradescope_error(output.timeout_setting(exc, lang)), UNUSABLE
    try:
        chosen, others = choose(root / "submission")
    except Refused as exc:
        return output.gradescope_error(exc.text(lang)), UNUSABLE
    said = [message("autograder-graded", lang, file=display(chosen.as_posix()))]
    if others:
        said.append(message("autograder-not-graded", lang, file=chosen.name, files=names(others)))
    try:
        submission = load(root / "submission" / chosen)
        seed = identity_seed(root / "submission_metadata.json", config.seed_from) if config.variants else None
        if submission.seed is not None and submission.seed != seed:
            raise (Refused("autograder-seed-conflict", file_seed=submission.seed, seed=seed) if seed
                   else Refused("autograder-lesson-data", file_seed=submission.seed))
    except SubmissionError as exc:
        return output.gradescope_error("\n".join([*said, describe(exc, lang).replace(
            str(root / "submission") + os.sep, "")])), UNUSABLE
    except Refused as exc:
        why = [exc.text(lang)]
        if exc.key == "autograder-no-identity":       # the instructor's to act on: said to them too
            why.append(message("autograder-no-identity-fix", lang, field=exc.params["field"]))
            print("\n".join(why), file=sys.stderr)
        return output.gradescope_error("\n".join([*said, *why])), UNUSABLE
    from grader.judging import table
    from grader.judging.check import grade_submission
    table.build_here()                  # no verdict from a cache file
    exercises = None if config.exercises is None else tuple(config.exercises)
    answers = {ex_id: given for ex_id, given in submission.answers.items() if exercises is None or ex_id in exercises}
    result = grade_submission(answers, lang, seed=seed, convention=submission.lang or lang, exercises=exercises)
    if seed is not None:
        said.append(message("autograder-variant", lang, seed=seed))
    data = output.gradescope(result, lang, markdown=config.feedback_format == "md")
    data["output"] = "\n".join([*said, data["output"]])
    code = (INTERNAL if result.internal_errors else UNDECIDED if result.undecided
            else OK if result.all_correct else NOT_CORRECT)
    return data, code


def visible(data: dict, visibility: str | None, tests: str | None = None) -> None:
    """The results shown to the student when ``visibility`` says, and each test (a part's score and
    feedback) when ``tests`` says, else as the results (Gradescope's ``visibility`` fields: the whole
    result's and each test's). The usual split: the score visible, the tests ``after_due_date``."""
    if visibility in VISIBILITY:
        data["visibility"] = visibility
    tests = tests if tests in VISIBILITY else visibility
    if tests in VISIBILITY:
        for test in data.get("tests", ()):
            test["visibility"] = tests


def shown(data: dict) -> None:
    """The feedback as Gradescope shows it and the log prints it: what would act on a terminal or reorder a line
    (ESC, U+202E from a file's name or a student's text) escaped, line breaks kept."""
    data["output"] = printable(data["output"], lines=True)
    for test in data.get("tests", ()):
        for field in ("name", "output"):
            if isinstance(test.get(field), str):
                test[field] = printable(test[field], lines=True)


def run(root: Path) -> int:
    """Grade the submission under ``root`` and write ``results/results.json``, whatever happens."""
    results = root / "results" / "results.json"
    lang, config = "en", None
    try:
        config = Config.read(root / "source" / CONFIG)
        lang = config.lang
        logging.basicConfig(stream=sys.stderr)     # a part's internal error: its traceback for the instructor
        data, code = grade(root, config)
    except Exception as exc:  # noqa: BLE001  (a bug or a broken installation: said, never a missing file)
        traceback.print_exc()                       # Gradescope shows it to the instructor
        data, code = {"score": 0, "output": message("error-internal", lang, error=f"{type(exc).__name__}: {exc}"),
                      "tests": []}, 3
    results.parent.mkdir(parents=True, exist_ok=True)
    if config is not None:
        visible(data, config.visibility, config.tests_visibility)
    shown(data)
    write_atomic(results, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    print(data["output"])
    return code


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AUTOGRADER_ROOT") or "/autograder")))
