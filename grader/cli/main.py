"""The ``grader`` command: list, show, check, submit, grade, report, autograder.

Every sentence it prints comes from :mod:`grader.languages.messages`, in the language
:func:`grader.languages.messages.detect_lang` picks. ``--seed`` (show, check, submit)
works on a variant of the exercises (:func:`grader.bank.variant`).

Exit codes: 0 everything correct; 1 something not correct; 2 unusable input
(unknown exercise or part, unreadable or malformed file, an answer that
cannot be read, an unusable seed, a GRADER_TIMEOUT that is no number of seconds in (0, 600]);
3 an internal error (a bug: please report it); 4 not
decided (a check ran past the time limit: try again). Set
``GRADER_DEBUG=1`` to see the traceback of an internal error.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from grader.cli import argtext
from grader.cli import output as report
from grader.cli.exits import INTERNAL, NOT_CORRECT, OK, UNDECIDED, UNUSABLE  # noqa: F401  (the codes the commands return)
from grader.cli.gradescope import SEED_FIELDS, VISIBILITY
from grader.files import write_atomic
from grader.languages.messages import LOCALES, UnknownLanguage, detect_lang, message
from grader.model.seeds import seed_text

# The bank, checking and submissions import SymPy (about half a second): each
# command imports what it needs, so a plain-number `check` answers without it.

# A word argparse must take as an argument, not an option: an answer such as -1/2, -sqrt(2),
# -(1, 1, 0) or --1 (every option of the grader is '--' and letters; '-h' is matched first).
ANSWER_LIKE = re.compile(r"-(?!-)|--(?![A-Za-z])")


class Parser(argparse.ArgumentParser):
    """argparse, with an answer that begins with '-' read as an answer (no '--' needed), its
    help in ``lang`` (looked up only when the help is shown), and what it prints of the command
    line escaped for the terminal."""

    lang: str | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse's own hook: a word this matches is never an option (it was meant for -1)
        self._negative_number_matcher = ANSWER_LIKE

    def format_help(self) -> str:
        if not self.lang:
            return super().format_help()
        argtext.localize(self, self.lang)
        return argtext.headings(super().format_help(), self.lang)

    def speaking(self, lang: str) -> Parser:
        """This parser and its commands', with their help in ``lang``."""
        for parser in argtext.parsers(self):
            parser.lang = lang
        return self

    def _print_message(self, message, file=None):
        super()._print_message(message and report.printable(message, lines=True), file)


def _common(formats: tuple[str, ...] = ("text", "json")) -> argparse.ArgumentParser:
    """--lang and --format, before the command or after it. Their defaults are the top parser's alone
    (:func:`build_parser`): a command's parser that set them too would undo ``grader --lang fr check``."""
    common = Parser(add_help=False)
    common.add_argument("--lang", default=argparse.SUPPRESS, help="language: en, ja, zh, ko, fr, id (default: "
                        "$GRADER_LANG, then $LC_ALL, $LC_MESSAGES, $LANG, then en)")
    common.add_argument("--format", choices=formats, default=argparse.SUPPRESS,
                        help="output format (default: text)")
    return common


class Version(argparse.Action):
    """``--version``: the package's version and the grading engine's (a hash of its code and wording,
    :func:`grader.judging.table.engine_version`), worked out only when asked for."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        parser._print_message(version_text() + "\n", sys.stdout)
        parser.exit()


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from grader.judging.table import engine_version
    try:
        package = version(PACKAGE)
    except PackageNotFoundError:         # run from a folder without installing it
        package = "(not installed)"
    return f"grader ({PACKAGE}) {package}\ngrading engine {engine_version()}"


PACKAGE = "andrea-course"      # the distribution that installs the grader (pyproject.toml)


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    parser = Parser(prog="grader", parents=[_common()],     # its own actions: set_defaults changes them
                                     description="Check answers to the course's exercises.")
    parser.set_defaults(lang=None, format="text")
    parser.add_argument("--version", action=Version,
                        help="print the grader's version and its grading engine's, then exit")
    assigned = Parser(add_help=False)
    assigned.add_argument("--exercises", metavar="ID,ID",
                          help="an assignment: only these exercises count, for the score and the "
                               "columns (default: every exercise)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", parents=[common], help="list the exercises")
    seeded = Parser(add_help=False)
    seeded.add_argument("--seed", help="work on the variant drawn from this seed, e.g. your "
                        "student id (default: the lesson's own data)")
    show = sub.add_parser("show", parents=[common, seeded],
                          help="show an exercise's data and parts")
    show.add_argument("id", nargs="?")
    show.add_argument("--answers", action="store_true",
                      help="the answers, for instructors: each part's reference answer, exact and as a "
                           "decimal to the part's figures (of the variant, with --seed)")
    check = sub.add_parser("check", parents=[common, seeded], help="check one answer to one part")
    check.add_argument("id")
    check.add_argument("part")
    check.add_argument("answer", help="the answer, quoted as one argument, e.g. '(1, 2, 3)'")
    submit = sub.add_parser("submit", parents=[_common(("text", "json", "gradescope")), seeded, assigned],
                            help="check a TOML or JSON submission file")
    submit.add_argument("file")
    submit.add_argument("--output", metavar="PATH",
                        help="write the report to PATH instead of stdout (e.g. "
                             "/autograder/results/results.json with --format gradescope)")
    grade = sub.add_parser("grade", parents=[common, assigned],
                           help="grade a folder of submission files, one per student (resumable)")
    grade.add_argument("folder", metavar="SUBMISSIONS_DIR",
                       help="one TOML or JSON file per student; the file's stem is the student id")
    grade.add_argument("--out", required=True, metavar="OUT_DIR",
                       help="where results.jsonl and grades.csv go (kept across runs)")
    grade.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1,
                       help="worker processes (default: all cores)")
    grade.add_argument("--variants", action="store_true",
                       help="grade each student on the variant seeded by their id")
    grade.add_argument("--report", action="store_true",
                       help="then write the class report into OUT_DIR (as grader report does)")
    report_cmd = sub.add_parser("report", parents=[common, assigned],
                                help="write the class report (HTML, JSON, CSV) from grader grade's results")
    report_cmd.add_argument("results", metavar="OUT_DIR",
                            help="the folder grader grade wrote its results to (its --out)")
    report_cmd.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1,
                            help="worker processes (default: all cores)")
    auto = sub.add_parser("autograder", parents=[_common(("text", "json", "md")), assigned],
                          help="write a Gradescope autograder zip of this grader (feedback in --lang)")
    auto.add_argument("--out", dest="zip_path", default="autograder.zip", metavar="ZIP",
                      help="where the zip goes (default: autograder.zip)")
    auto.add_argument("--variants", dest="by_identity", action="store_true",
                      help="grade each student on the variant seeded by their Gradescope identity")
    auto.add_argument("--seed-from", choices=SEED_FIELDS, default=SEED_FIELDS[0],
                      help="which field of the student's Gradescope account seeds their variant (default: "
                           "email, which Gradescope always sends; sid only where the roster has student ids)")
    auto.add_argument("--visibility", choices=VISIBILITY, default=None,
                      help="when students see their results and each part's test (Gradescope's visibility; "
                           "default: Gradescope's own)")
    auto.add_argument("--tests-visibility", choices=VISIBILITY, default=None,
                      help="when students see each part's test (its score and feedback), apart from the total: e.g. "
                           "after_due_date with --visibility visible (default: as --visibility)")
    author = sub.add_parser("check-exercise", help="an author's check of one exercise on its lesson's data and "
                            "its variants, saying what breaks, one line each (in English, like make translations)",
                            epilog="Checks one exercise of the bank on its lesson's data and on N variants "
                                   "(seeds check-0, check-1, ...): exact references, lesson data within the "
                                   "variants' invariants, named mistakes and other parts kept apart from each "
                                   "answer, no example answer correct. Its words are English: it is an "
                                   "author's tool. Exit 0 with one 'ok' line, 1 with one line per finding.")
    author.add_argument("exercise_id", metavar="ID", help="the exercise's id (grader list shows them)")
    author.add_argument("--variants", dest="count", type=_positive, default=200, metavar="N",
                        help="how many variants to draw (default: 200)")
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(message("cli.processes", argtext.SPEAKING[-1], value=repr(text)))
    return value


def _bank():
    from grader import bank
    return bank


def assignment(text: str | None) -> tuple[str, ...] | None:
    """The exercises ``--exercises ID,ID`` names, in the bank's order (None: every exercise). An id
    the bank does not have raises UnknownExercise (said as unusable input: exit 2)."""
    if text is None:
        return None
    from grader.model.exercise import UnknownExercise
    known = tuple(_bank().EXERCISES)
    wanted = [name.strip() for name in text.split(",") if name.strip()]
    for name in wanted or [text]:
        if name not in known:
            raise UnknownExercise(name, known)
    return tuple(ex_id for ex_id in known if ex_id in wanted)


def _unusable(exc: Exception, lang: str) -> bool:
    """Say what is wrong with the input, if that is what ``exc`` is about."""
    # whatever raised it was imported: no need to import anything here
    submission = sys.modules.get("grader.grading.submission")
    if submission and isinstance(exc, submission.SubmissionError):
        _warn(describe(exc, lang))
        return True
    from grader.judging.check import input_error
    said = input_error(exc, lang)
    if said is not None:
        _warn(said)
    return said is not None


def _warn(text: str) -> None:
    """A line on stderr, escaped: it may hold a file name or an id the student typed."""
    print(report.printable(text, lines=True), file=sys.stderr)


def _style() -> report.Style:
    return report.Style(sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _emit(args, text: str, data) -> None:
    out = report.json_text(data, indent=2) if args.format != "text" else text
    path = getattr(args, "output", None)
    if path is None:
        print(out)
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, out + "\n")


def _list(args, lang) -> int:
    rows = [{"id": ex.id, "lesson": ex.lesson, "title": ex.title_in(lang),
             "parts": [p.id for p in ex.parts], "max_score": ex.max_score}
            for ex in _bank().EXERCISES.values()]
    text = "\n".join(f"{r['lesson']}  {r['id']:<20} {r['title']}  ({', '.join(r['parts'])})"
                     for r in rows)
    _emit(args, text, rows)
    return OK


def _show(args, lang) -> int:
    """One exercise (or every one, no ID), or with ``--answers`` its answer key; JSON: a dict for one, a list
    for every exercise."""
    ids = [args.id] if args.id is not None else list(_bank().EXERCISES)
    shown = [_bank().variant(ex_id, args.seed) for ex_id in ids]
    if args.answers:
        from grader.model.answerkey import key_dict
        data = [key_dict(ex, lang) for ex in shown]
        texts = [report.answer_key_text(ex, key, lang) for ex, key in zip(shown, data)]
    else:
        data = [report.exercise_dict(ex, lang) for ex in shown]
        texts = [report.exercise_text(ex, lang) for ex in shown]
    _emit(args, "\n\n".join(texts), data[0] if args.id is not None else data)
    return OK


def _check(args, lang) -> int:
    from grader.judging.check import check_part  # a plain number against the lesson's data: no SymPy
    seed = seed_text(args.seed) if args.seed is not None else None
    _log_to(_cache_log())
    result = check_part(args.id, args.part, args.answer, lang, seed=seed)
    _emit(args, report.check_text(result, lang, _style()), dict(result.to_dict(), seed=seed))
    if result.note == "internal-error":
        return _internal_said(lang, 1, _cache_log())
    if result.note == "timeout":
        return UNDECIDED
    if result.column is not None or result.note == "too-large":
        return UNUSABLE
    return OK if result.correct else NOT_CORRECT


def _submit(args, lang) -> int:
    from grader.grading.submission import SubmissionError, load, seed_conflict
    from grader.judging.check import grade_submission
    exercises = assignment(args.exercises)
    try:
        submission = load(args.file)
        seed = submission.seed
        if args.seed is not None:
            option = seed_text(args.seed)       # validated, canonical
            if seed is not None and seed != option:
                raise seed_conflict(args.file, seed, option)
            seed = option
    except SubmissionError as exc:
        if args.format != "gradescope":
            raise
        _emit(args, "", report.gradescope_error(describe(exc, lang)))
        _warn(describe(exc, lang))
        return UNUSABLE
    from grader.judging import table
    table.build_here()                 # an instructor's path: no verdict from a cache file
    _log_to(_cache_log())
    answers = submission.answers if exercises is None else \
        {ex_id: given for ex_id, given in submission.answers.items() if ex_id in exercises}
    result = grade_submission(answers, lang, seed=seed, convention=submission.lang or lang, exercises=exercises)
    data = report.gradescope(result, lang) if args.format == "gradescope" else result.to_dict()
    _emit(args, report.submission_text(result, lang, _style()), data)
    if result.internal_errors:
        return _internal_said(lang, result.internal_errors, _cache_log())
    if result.undecided:
        return UNDECIDED
    return OK if result.all_correct else NOT_CORRECT


def _cache_log() -> Path:
    from grader.judging.table import cache_dir
    return cache_dir() / "errors.log"


def _log_to(path: Path) -> None:
    """The details of an internal error (a bug: its traceback) go to ``path``, made when first needed."""
    import logging

    class Later(logging.FileHandler):
        def emit(self, record):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                return
            super().emit(record)
    logger = logging.getLogger("grader")
    for earlier in [h for h in logger.handlers if type(h).__name__ == "Later"]:    # an earlier call's, in-process
        logger.removeHandler(earlier)
        earlier.close()
    logger.addHandler(Later(path, encoding="utf-8", delay=True))
    logger.propagate = False


def _internal_said(lang: str, count: int, log: Path) -> int:
    _warn(message("internal-errors", lang, count=count, log=str(log)))
    return INTERNAL


def describe(exc, lang: str) -> str:
    """The error in words, always starting with the file's name."""
    from grader.grading.submission import describe
    return describe(exc, lang)


def _grade(args, lang) -> int:
    from grader.grading import batch
    job = batch.Run(Path(args.folder), Path(args.out), args.jobs, lang, args.variants,
                    progress=batch.progress_line(message("batch-students", lang)),
                    exercises=assignment(args.exercises))
    _log_to(Path(args.out) / "errors.log")
    try:
        batch.run(job, describe)
    except batch.BatchError as exc:
        _warn(message("cli.located", lang, where="grader grade", what=message(exc.key, lang, **exc.params)))
        return UNUSABLE
    except OSError as exc:   # an output folder that is a file, a full disk...: what is written stays
        return _os_error("grader grade", exc, lang)
    bad = [r for r in job.final if r["error"]]
    data = {"students": len(job.final), "graded": len(job.final) - len(bad) - len(job.undecided),
            "graded_now": job.graded_now, "kept": job.kept,
            "answers": job.answers, "distinct_answers": job.distinct,
            "unreadable": [{"student": r["student"], "file": r["file"], "error": r["error"]}
                           for r in bad],
            "undecided": [{"student": r["student"], "file": r["file"], "parts": r["undecided"]}
                          for r in job.undecided],
            "ignored": job.ignored, "exercises": list(job.exercises or _bank().EXERCISES),
            "results": str(Path(args.out) / batch.RESULTS),
            "grades": str(Path(args.out) / batch.GRADES)}
    if args.report:
        try:
            data["report"] = _write_report(Path(args.out), lang, args.jobs, job.exercises)
        except OSError as exc:
            _emit(args, report.batch_text(data, lang, _style()), data)
            return _os_error("grader grade", exc, lang)
    text = report.batch_text(data, lang, _style())
    if args.report:
        text += "\n" + message("report.written", lang, path=data["report"])
    _emit(args, text, data)
    errors = job.internal_errors + sum(r.get("internal_errors", 0) for r in job.final)
    if errors:
        return _internal_said(lang, errors, Path(args.out) / "errors.log")
    if job.undecided:
        return UNDECIDED
    if bad and len(bad) == len(job.final):     # nothing usable: every file unreadable
        return UNUSABLE
    if bad:       # graded, some files unreadable: those students have no score (1, as for a wrong answer)
        return NOT_CORRECT
    return OK if all(r["score"] == r["max_score"] for r in job.final) else NOT_CORRECT


def _write_report(out: Path, lang: str, jobs: int, exercises: tuple[str, ...] | None = None) -> str:
    """Write OUT_DIR's class report (``exercises``: those only); its page's path. Damaged result lines
    are said on stderr."""
    from grader.classreport import HTML, write_report
    tables = write_report(out, lang, jobs, exercises)
    damaged = len(tables["source"]["damaged"]) + tables["source"]["torn"]
    if damaged:
        print(message("report.damaged-warning", lang, path=tables["source"]["path"],
                      count=damaged), file=sys.stderr)
    return str(out / HTML)


def _os_error(command: str, exc: OSError, lang: str) -> int:
    """A file the system refused (the system's own words), after the command and the file's name."""
    said = str(exc.strerror or exc)
    if exc.filename:
        said = message("cli.located", lang, where=str(exc.filename), what=said)
    _warn(message("cli.located", lang, where=command, what=said))
    return UNUSABLE


def _report(args, lang) -> int:
    from grader.classreport import NoResults
    exercises = assignment(args.exercises)
    try:
        path = _write_report(Path(args.results), lang, args.jobs, exercises)
    except NoResults as exc:
        print(message("report.no-results", lang, path=exc.path, folder=args.results),
              file=sys.stderr)
        return UNUSABLE
    except OSError as exc:
        return _os_error("grader report", exc, lang)
    _emit(args, message("report.written", lang, path=path), {"report": path})
    return OK


def _autograder(args, lang) -> int:
    from dataclasses import asdict
    from importlib.metadata import PackageNotFoundError

    from grader.cli.autograder import autograder_zip
    exercises = assignment(args.exercises)
    broken = _catalog_errors()
    if broken:       # packed, they would reach every student as broken messages
        for path, line, kind, text in broken:     # each says what is wrong and the fix
            _warn(message("cli.located", lang, where="grader autograder", what=f"{path}:{line}: {kind}: {text}"))
        return UNUSABLE
    markdown = args.format == "md"          # the students' feedback in Markdown; this command's own words as text
    if markdown:
        args.format = "text"
    try:
        data, config = autograder_zip(lang, exercises, args.by_identity, args.seed_from, args.visibility,
                                      "md" if markdown else "text", args.tests_visibility)
    except PackageNotFoundError:
        _warn(message("autograder.not-installed", lang, package=PACKAGE))
        return UNUSABLE
    path = Path(args.zip_path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
    except OSError as exc:
        return _os_error("grader autograder", exc, lang)
    ids = config.exercises or list(_bank().EXERCISES)
    text = "\n".join([
        message("autograder.written", lang, path=str(path)),
        "  " + message("autograder.exercises", lang, exercises=", ".join(ids)),
        "  " + message("autograder.feedback", lang, language=config.lang),
        *(["  " + message("autograder.by-identity", lang, field=config.seed_from),
            "  " + message(f"autograder.seed-{config.seed_from}", lang)] if config.variants
          else ["  " + message("autograder.lesson-data", lang)]),
        "  " + f"grader {config.version}, {config.engine}"])
    _emit(args, report.printable(text, lines=True), {"zip": str(path), **asdict(config)})
    return OK


def _check_exercise(args, lang) -> int:
    """An author's check, in English (``lang`` only for the grader's usual errors, such as an unknown id)."""
    from grader.model.checkup import findings
    definition = _bank().definition(args.exercise_id)
    found = findings(definition, args.count)
    for line in found:
        print(report.printable(line, lines=True))
    if found:
        return NOT_CORRECT
    print(f"ok: {definition.id}, its lesson's data and {args.count} variants: nothing breaks")
    return OK


def _catalog_errors() -> list[tuple[str, int, str, str]]:
    """The errors of the catalog check (python -m grader.languages) on this grader's own catalogs."""
    from grader.languages.audit import WARNINGS, check_catalogs
    return [f for f in check_catalogs(needed=_bank().catalog_needs()) if f[2] not in WARNINGS]


COMMANDS = {"list": _list, "show": _show, "check": _check, "submit": _submit, "grade": _grade,
            "report": _report, "autograder": _autograder,
            "check-exercise": _check_exercise}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    early = argtext.early_lang(argv)
    with argtext.speaking(early):        # usage, help and argparse's errors in that language
        args = build_parser().speaking(early).parse_args(argv)
    try:
        lang = detect_lang(args.lang)
    except UnknownLanguage as exc:
        _warn(message("error-unknown-language", early, language=exc.value, where=exc.where,
                      known=", ".join(LOCALES)))
        return UNUSABLE
    from grader.judging.limits import BadTimeout, time_limit
    try:
        time_limit()             # a bad GRADER_TIMEOUT is said before any work, for every command
    except BadTimeout as exc:
        _warn(report.timeout_setting(exc, lang))
        return UNUSABLE
    try:
        return COMMANDS[args.command](args, lang)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK
    except Exception as exc:  # noqa: BLE001
        if _unusable(exc, lang):
            return UNUSABLE
        # a bug: say so briefly, keep the traceback for GRADER_DEBUG
        if os.environ.get("GRADER_DEBUG"):
            raise
        _warn(message("error-internal", lang, error=f"{type(exc).__name__}: {exc}"))
        return INTERNAL
    finally:
        _say_unknown_keys()


def _say_unknown_keys() -> None:
    """An exercise added before its catalog entries shows their keys where its words go: say which
    are missing, and where they belong (for the course's author: in English)."""
    from grader.languages.messages import DEFAULT, unknown_keys
    missing = sorted(unknown_keys())
    if missing:
        from grader.languages.audit import CATALOG
        _warn(f"grader: {CATALOG.as_posix().format(lang=DEFAULT)} has no entry for "
              f"{', '.join(map(repr, missing))}: add them (python -m grader.languages lists every key "
              "the exercises need)")


def run() -> None:
    """The ``grader`` command: :func:`main`, then exit at once, output flushed. Tearing the
    interpreter down after SymPy is loaded takes about 0.1 s and frees nothing the system would not;
    while worker processes are alive (``grade``, ``report``) the exit is the usual one, which stops them."""
    code = main()
    workers = sys.modules.get("multiprocessing")
    if workers is not None and workers.active_children():
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):     # a closed pipe or stream: nothing more can be said
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
