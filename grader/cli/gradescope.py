"""What a Gradescope autograder runs for each submission: ``python -m grader.cli.gradescope [ROOT]``.

``ROOT`` (default ``$AUTOGRADER_ROOT``, else ``/autograder``) is laid out as Gradescope lays it out:
``source/autograder.json`` (the configuration ``grader autograder`` wrote: :class:`Config`),
``submission/`` (what the student uploaded), ``submission_metadata.json`` (who they are) and
``results/``, where ``results/results.json`` is written in every case: a graded file, no file, a file
that cannot be read, a variant that cannot be drawn, a bug (the judge makes a failing check that part's
``internal-error`` note; anything else here is said in the output, with score 0).

Which file is graded (:func:`candidates`): ``answers.toml``, else ``answers.json``, at the top of the
upload, else the first other ``.toml`` or ``.json`` file by depth, then name in code-point order; never
a hidden file, a symbolic link or what a Mac's archive adds (``__MACOSX``). The output says which file
was graded and which others were found.

Variants (``variants`` in the configuration): each student is graded on the variant drawn from their
Gradescope identity, the ``seed_from`` field (``sid``: the student id the instructor set; ``email``;
``id``) of the submission's user (of a group, the value that sorts first). A seed the file names is not
what decides: the same seed is accepted, another one is refused with the student's own (a student who
typed another seed on the page answered another variant). Without variants, every student is graded on
the lessons' own data and a file that names a seed is refused the same way.
"""
from __future__ import annotations

import json
import logging
import os
import sys
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

from grader.files import write_atomic
from grader.languages.messages import message

CONFIG = "autograder.json"
PREFERRED = ("answers.toml", "answers.json")     # the name the course asks for, then its JSON twin
SEED_FIELDS = ("sid", "email", "id")             # a Gradescope user's fields a variant can be seeded by
SKIPPED_FOLDERS = ("__MACOSX",)


@dataclass(frozen=True)
class Config:
    """``autograder.json``: what an assignment grades, and how (written by the same grader that reads it)."""
    lang: str = "en"                              # the feedback's language (a file's `lang` still reads it)
    exercises: list[str] | None = None            # the assignment; None: every exercise
    variants: bool = False                        # each student on the variant of their identity
    seed_from: str = "sid"                        # which of the user's fields seeds it
    version: str = ""                             # the grader that wrote the zip (grader --version)
    engine: str = ""
    wheel: str = ""                               # the package inside the zip

    @classmethod
    def read(cls, path: Path) -> Config:
        return cls(**json.loads(path.read_text(encoding="utf-8")))

    def text(self) -> str:
        return json.dumps(asdict(self), indent=2, ensure_ascii=False) + "\n"


def candidates(folder: Path) -> list[Path]:
    """The upload's files that could be the student's answers, the one to grade first (module docstring)."""
    from grader.grading.folder import is_submission
    found = []
    for where, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED_FOLDERS)
        for name in names:
            path = Path(where, name)
            if is_submission(name) and not path.is_symlink() and path.is_file():
                found.append(path.relative_to(folder))
    return sorted(found, key=lambda p: (PREFERRED.index(p.as_posix()) if p.as_posix() in PREFERRED else 2,
                                        len(p.parts), p.as_posix()))


class Refused(Exception):
    """The submission cannot be graded, for a reason the student can act on: the words of a message."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key, self.params = key, params


def identity_seed(metadata_path: Path, seed_from: str) -> str:
    """The variant's seed: the submitter's ``seed_from`` field (of a group, the value that sorts first)."""
    from grader.model.seeds import InvalidSeed, seed_text
    try:
        users = json.loads(metadata_path.read_text(encoding="utf-8"))["users"]
        values = sorted(str(u[seed_from]).strip() for u in users if u.get(seed_from) not in (None, ""))
        return seed_text(values[0])
    except (OSError, ValueError, KeyError, TypeError, IndexError, InvalidSeed):
        raise Refused("autograder-no-identity", field=seed_from) from None


def grade(root: Path, config: Config) -> tuple[dict, int]:
    """``results.json`` for the submission under ``root``, and the exit code ``grader submit`` would give."""
    from grader.cli import output
    from grader.cli.exits import INTERNAL, NOT_CORRECT, OK, UNDECIDED, UNUSABLE
    from grader.grading.submission import SubmissionError, describe, load
    lang = config.lang
    from grader.judging.limits import BadTimeout, time_limit
    try:
        time_limit()
    except BadTimeout as exc:
        return output.gradescope_error(output.timeout_setting(exc, lang)), UNUSABLE
    found = candidates(root / "submission")
    if not found:
        return output.gradescope_error(message("autograder-no-file", lang, file=PREFERRED[0])), UNUSABLE
    chosen, others = found[0], found[1:]
    said = [message("autograder-graded", lang, file=chosen.as_posix())]
    if others:
        said.append(message("autograder-not-graded", lang, files=", ".join(p.as_posix() for p in others)))
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
        return output.gradescope_error("\n".join([*said, message(exc.key, lang, **exc.params)])), UNUSABLE
    from grader.judging import table
    from grader.judging.check import grade_submission
    table.build_here()                  # no verdict from a cache file
    exercises = None if config.exercises is None else tuple(config.exercises)
    answers = {ex_id: given for ex_id, given in submission.answers.items() if exercises is None or ex_id in exercises}
    result = grade_submission(answers, lang, seed=seed, convention=submission.lang or lang, exercises=exercises)
    if seed is not None:
        said.append(message("label-variant", lang, seed=seed))
    data = output.gradescope(result, lang)
    data["output"] = "\n".join([*said, data["output"]])
    code = (INTERNAL if result.internal_errors else UNDECIDED if result.undecided
            else OK if result.all_correct else NOT_CORRECT)
    return data, code


def run(root: Path) -> int:
    """Grade the submission under ``root`` and write ``results/results.json``, whatever happens."""
    results = root / "results" / "results.json"
    lang = "en"
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
    write_atomic(results, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    print(data["output"])
    return code


if __name__ == "__main__":
    sys.exit(run(Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("AUTOGRADER_ROOT") or "/autograder")))
