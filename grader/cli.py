"""The ``grader`` command: list, show, check, submit, grade.

Every sentence it prints comes from :mod:`grader.messages`, in the language
:func:`grader.messages.detect_lang` picks. ``--seed`` (show, check, submit)
works on a variant of the exercises (:func:`grader.bank.variant`).

Exit codes: 0 everything correct; 1 something not correct; 2 unusable input
(unknown exercise or part, unreadable or malformed file, an answer that
cannot be read, an unusable seed); 3 an internal error (a bug: please report it). Set
``GRADER_DEBUG=1`` to see the traceback of an internal error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from . import argtext, report
from .bank import EXERCISES, UnknownExercise, UnknownPart, get, variant
from .check import check_part, grade_submission
from .messages import LOCALES, UnknownLanguage, detect_lang, message
from .submission import SubmissionError, load, seed_conflict
from .seeds import MAX_SEED_LENGTH, InvalidSeed, seed_text

OK, NOT_CORRECT, UNUSABLE, INTERNAL = 0, 1, 2, 3


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", help="language: en, ja, zh, ko, fr, id (default: "
                        "$GRADER_LANG, then $LC_ALL, $LC_MESSAGES, $LANG, then en)")
    common.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default: text)")
    parser = argparse.ArgumentParser(prog="grader", parents=[common],
                                     description="Check answers to the course's exercises.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", parents=[common], help="list the exercises")
    seeded = argparse.ArgumentParser(add_help=False)
    seeded.add_argument("--seed", help="work on the variant drawn from this seed, e.g. your "
                        "student id (default: the lesson's own data)")
    show = sub.add_parser("show", parents=[common, seeded],
                          help="show an exercise's data and parts")
    show.add_argument("id")
    check = sub.add_parser("check", parents=[common, seeded], help="check one answer to one part")
    check.add_argument("id")
    check.add_argument("part")
    check.add_argument("answer", help="the answer, quoted as one argument, e.g. '(1, 2, 3)'")
    submit = sub.add_parser("submit", parents=[common, seeded],
                            help="check a TOML or JSON submission file")
    submit.add_argument("file")
    grade = sub.add_parser("grade", parents=[common], help="grade many submission files")
    grade.add_argument("files", nargs="+", metavar="FILE")
    grade.add_argument("--csv", metavar="PATH", help="also write one CSV row per file")
    grade.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                       help="parallel processes (default: up to 4)")
    return parser


def _style() -> report.Style:
    return report.Style(sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _emit(args, text: str, data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2) if args.format == "json" else text)


def _list(args, lang) -> int:
    rows = [{"id": ex.id, "lesson": ex.lesson, "title": ex.title_in(lang),
             "parts": [p.id for p in ex.parts], "max_score": ex.max_score}
            for ex in EXERCISES.values()]
    text = "\n".join(f"{r['lesson']}  {r['id']:<20} {r['title']}  ({', '.join(r['parts'])})"
                     for r in rows)
    _emit(args, text, rows)
    return OK


def _show(args, lang) -> int:
    ex = variant(args.id, args.seed)
    _emit(args, report.exercise_text(ex, lang), report.exercise_dict(ex, lang))
    return OK


def _check(args, lang) -> int:
    result = check_part(args.id, args.part, args.answer, lang, seed=args.seed)
    seed = variant(args.id, args.seed).seed
    _emit(args, report.check_text(result, lang, _style()), dict(result.to_dict(), seed=seed))
    if result.column is not None or result.note == "too-large":
        return UNUSABLE
    return OK if result.correct else NOT_CORRECT


def _submit(args, lang) -> int:
    submission = load(args.file)
    seed = submission.seed
    if args.seed is not None:
        option = seed_text(args.seed)       # validated, canonical
        if seed is not None and seed != option:
            raise seed_conflict(args.file, seed, option)
        seed = option
    result = grade_submission(submission.answers, lang, seed=seed)
    _emit(args, report.submission_text(result, lang, _style()), result.to_dict())
    return OK if result.all_correct else NOT_CORRECT


def describe(exc: SubmissionError, lang: str) -> str:
    """The error in words, always starting with the file's name."""
    text = message(exc.key, lang, **dict(exc.params))
    return text if text.startswith(exc.path) else f"{exc.path}: {text}"


def _grade_one(path: str, lang: str):
    """(path, result or None, error text); never raises for a bad file."""
    try:
        submission = load(path)
        return path, grade_submission(submission.answers, lang, seed=submission.seed), ""
    except SubmissionError as exc:
        return path, None, describe(exc, lang)


def _grade(args, lang) -> int:
    if args.jobs > 1 and len(args.files) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            graded = list(pool.map(_grade_one, args.files, [lang] * len(args.files)))
    else:
        graded = [_grade_one(path, lang) for path in args.files]
    if args.csv:
        Path(args.csv).write_text(report.grade_csv(graded), encoding="utf-8")
    data = {"files": [dict(file=p, error=e or None, **(r.to_dict() if r else {}))
                      for p, r, e in graded]}
    _emit(args, report.grade_text(graded, lang, _style()), data)
    if any(r is None for _, r, _ in graded):
        return UNUSABLE
    return OK if all(r.all_correct for _, r, _ in graded) else NOT_CORRECT


COMMANDS = {"list": _list, "show": _show, "check": _check, "submit": _submit, "grade": _grade}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    early = argtext.early_lang(argv)
    with argtext.speaking(early):        # usage, help and argparse's errors in that language
        args = argtext.localize(build_parser(), early).parse_args(argv)
    try:
        lang = detect_lang(args.lang)
    except UnknownLanguage as exc:
        print(message("error-unknown-language", early, language=exc.value, where=exc.where,
                      known=", ".join(LOCALES)), file=sys.stderr)
        return UNUSABLE
    try:
        return COMMANDS[args.command](args, lang)
    except UnknownExercise as exc:
        print(message("error-unknown-exercise", lang, id=exc.exercise_id,
                      known=", ".join(EXERCISES)), file=sys.stderr)
    except UnknownPart as exc:
        print(message("error-unknown-part", lang, exercise=exc.exercise_id, part=exc.part_id,
                      known=", ".join(p.id for p in get(exc.exercise_id).parts)), file=sys.stderr)
    except SubmissionError as exc:
        print(describe(exc, lang), file=sys.stderr)
    except InvalidSeed as exc:
        print(message("error-seed", lang, seed=exc.seed, limit=MAX_SEED_LENGTH), file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK
    except Exception as exc:  # a bug: say so briefly, keep the traceback for GRADER_DEBUG
        if os.environ.get("GRADER_DEBUG"):
            raise
        print(message("error-internal", lang, error=f"{type(exc).__name__}: {exc}"),
              file=sys.stderr)
        return INTERNAL
    return UNUSABLE


if __name__ == "__main__":
    sys.exit(main())
