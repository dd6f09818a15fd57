"""Grade a folder of submissions, resumably: ``grader grade SUBMISSIONS_DIR --out OUT_DIR``.

One file per student (the file's stem is the student id). Results go to
``OUT_DIR/results.jsonl``, one line per graded file, appended as each student
is done; ``OUT_DIR/grades.csv`` is rewritten from those results (temporary
file, then ``os.replace``) every few seconds and at the end.

Resuming: the JSONL is read back on start, a torn last line (a run killed in
the middle of a write) is cut off, and a student whose file has the same
content hash, seed, language, grader version and assignment (``--exercises``) as their last line is not
graded again. A line is written with one ``write`` call and flushed at once,
so a killed process (``kill -9`` included) loses nothing it wrote; the file is
``fsync``-ed after every chunk of students and at the end, so a machine crash
can only lose the last chunk, which the next run grades again.

Speed: each distinct answer of the class is checked once (a class repeats
answers heavily), by a :class:`grader.grading.pool.Pool` of long-lived workers under
the same memory and time limits as a single check, plain numbers by
:mod:`grader.judging.table`; the parent reads the next chunk of files while the workers
check the current one, and builds each line from the answers' JSON pieces.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from grader import bank
from grader.files import write_atomic
from grader.grading.folder import BatchError, Entry, discover, read  # noqa: F401  (BatchError: the CLI's)
from grader.grading.pool import Pool
from grader.grading.store import GRADES, RESULTS, Log, csv_text, read_log
from grader.grading.submission import SubmissionError, load_bytes
from grader.judging import check, limits
from grader.judging import table as reference_table
from grader.judging.limits import LimitExceeded
from grader.judging.outcome import Outcome, finding
from grader.judging.table import PartInfo
from grader.languages.messages import message
from grader.model import targets
from grader.model.seeds import seed_text
from grader.text import json_text

CHUNK = int(os.environ.get("GRADER_CHUNK", "200"))   # students graded between two fsyncs
GROUP = 16             # distinct answers (without variants) sent to a worker in one message
CSV_EVERY = 10.0       # seconds between two rewrites of the CSV during a run


# --- grading ----------------------------------------------------------------

@lru_cache(maxsize=None)
def _lesson_parts(exercise_id: str) -> tuple[PartInfo, ...]:
    return tuple(PartInfo(p.id, p.points, p.kind, p.form) for p in bank.get(exercise_id).parts)


@dataclass(frozen=True)
class Failed:
    """A task that failed inside the grader (a bug): its student gets an error, the run goes on."""
    error: str


def evaluate(exercise_id: str, seed, part_id: str | None, text: str | None,
             convention: str | None = None) -> Outcome | tuple[PartInfo, ...] | Failed:
    """One task (run in a worker): the outcome of one answer, read in ``convention`` (the file's
    language, else the run's); with ``part_id`` None, the parts of the variant ``seed`` (their points
    may follow its data). ``seed`` None: the lesson's own data."""
    try:
        if part_id is None:
            return tuple(PartInfo(p.id, p.points, p.kind, p.form) for p in bank.numeric(exercise_id, seed).parts)
        return check.judge(exercise_id, part_id, text, seed=seed, convention=convention, limited=False)
    except Exception as exc:  # noqa: BLE001  (said on the student's line and in the log)
        check.log.error("internal error in %s (seed %r)", exercise_id, seed, exc_info=exc)
        return Failed(f"{type(exc).__name__}: {exc}")


def warm_up() -> None:
    """Build what every check needs once, before the workers are forked: the reference table (here,
    never read from a file: an instructor's grades take no verdict from a cache) and the lessons'
    named mistakes."""
    reference_table.build_here()
    reference_table.table()
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            targets.mistakes(ex, part.id)


@dataclass
class Run:
    folder: Path
    out: Path
    jobs: int
    lang: str = "en"
    variants: bool = False
    timeout: float | None = None
    progress: Callable[[int, int], None] | None = None
    exercises: tuple[str, ...] | None = None   # the assignment: these exercises only (None: every one)
    # filled by run():
    ignored: list[str] = field(default_factory=list)   # entries of the folder that are nobody's file
    graded_now: int = 0
    kept: int = 0
    answers: int = 0
    distinct: int = 0
    internal_errors: int = 0      # parts and students a bug left ungraded (each in the log)
    undecided: list[dict] = field(default_factory=list)   # students with a check past the limit, twice
    final: list[dict] = field(default_factory=list)


class _Results:
    """What the workers found, by task key: ``(exercise, seed, part, answer)`` an Outcome,
    ``(exercise, seed, None, None)`` a variant's parts. Each result's score and JSON text is made
    once (a class repeats answers), so lines are assembled from these pieces."""

    def __init__(self, lang: str, exercises: tuple[str, ...]):
        self.lang, self.exercises = lang, exercises
        self.found: dict[object, dict[tuple, object]] = {}       # by seed, then key
        self.pieces: dict[object, dict[tuple, tuple[float, int, str]]] = {}

    def add(self, key: tuple, value) -> None:
        if isinstance(value, LimitExceeded):
            if value.reason != "timeout":      # a timeout is kept as it is: not decided, tried again
                value = Failed(f"drawing the variant hit a limit: {value.reason}") if key[2] is None \
                    else check.limit_outcome(value)
        elif isinstance(value, Failed) and key[2] is not None:
            value = Outcome(0.0, (finding("internal-error", error=value.error.split(":")[0]),))
        self.found.setdefault(key[1], {})[key] = value

    def failure(self, answers, seed, convention) -> str | None:
        """Why a student's variant could not be drawn (a bug), if it could not."""
        for key in self.needs(answers, seed, convention):
            if key[2] is None and isinstance(self.found[key[1]][key], Failed):
                return self.found[key[1]][key].error
        return None

    def timed_out(self, answers, seed, convention) -> list[tuple]:
        """The keys of a student's line whose check ran past the time limit (not decided)."""
        return [key for key in self.needs(answers, seed, convention)
                if isinstance(self.found[key[1]][key], LimitExceeded)]

    def again(self, key: tuple) -> None:
        """Forget what was found for ``key``: it is checked again."""
        self.found[key[1]].pop(key, None)

    def has(self, key: tuple) -> bool:
        return key in self.found.get(key[1], ())

    def needs(self, answers, seed, convention: str) -> list[tuple]:
        """The keys a student's line is made of: ``(exercise, seed, part, answer, convention)``."""
        keys = [(ex_id, seed, None, None, None) for ex_id in self.exercises] if seed is not None else []
        return keys + [(ex_id, seed, part_id, text, convention) for ex_id, given in answers.items()
                       for part_id, text in given.items()]

    def parts(self, exercise_id: str, seed) -> tuple[PartInfo, ...]:
        return _lesson_parts(exercise_id) if seed is None else self.found[seed][(exercise_id, seed, None, None, None)]

    def piece(self, key: tuple, part: PartInfo) -> tuple[float, int, str]:
        pieces = self.pieces.setdefault(key[1], {})
        if key not in pieces:
            text = key[3]
            result = (check.missing_part(part, self.lang) if text is None
                      else check.render(part, self.found[key[1]][key], self.lang, text))
            pieces[key] = (result.score, result.max_score, json_text(result.to_dict()))
        return pieces[key]

    def forget(self, seed) -> None:
        """Drop a variant's results once its student's line is written (nobody else has it)."""
        self.found.pop(seed, None)
        self.pieces.pop(seed, None)


def _head(entry: Entry, seed, job: Run, engine: str, reading: str | None = None) -> dict:
    return {"student": entry.student, "file": ", ".join(entry.names),
            "sha256": entry.sha256, "seed": seed, "variants": job.variants, "lang": job.lang,
            "reading": reading or job.lang, "grader": engine,
            "assignment": _listed(job.exercises)}


def _listed(exercises: tuple[str, ...] | None) -> list[str] | None:
    """The assignment as a result line records it (None: every exercise)."""
    return None if exercises is None else list(exercises)


_dumps = json_text      # one JSON line: compact, always valid UTF-8


def _line(head: dict, answers, seed, results: _Results) -> tuple[str, dict]:
    """The JSON line of a graded file, and its compact record."""
    pieces, per, total, maximum, errors = [], {}, 0.0, 0, 0
    for ex_id in results.exercises:
        given = answers.get(ex_id, {})
        got = [results.piece((ex_id, seed, p.id, given.get(p.id), head["reading"]), p)
               for p in results.parts(ex_id, seed)]
        errors += sum('"note":"internal-error"' in g[2] for g in got)
        score = round(sum(g[0] for g in got), 3)
        top = sum(g[1] for g in got)
        per[ex_id], total, maximum = score, total + score, maximum + top
        pieces.append(f'{{"id":{_dumps(ex_id)},"score":{_dumps(score)},"max_score":{top},'
                      f'"parts":[{",".join(g[2] for g in got)}]}}')
    total = round(total, 3)
    text = (_dumps({**head, "error": None, "score": total, "max_score": maximum})[:-1]
            + f',"exercises":[{",".join(pieces)}]}}\n')
    return text, {**head, "error": None, "score": total, "max_score": maximum, "per": per, "internal_errors": errors}


def _error_line(head: dict, error: str) -> tuple[str, dict]:
    record = {**head, "error": error, "score": None, "max_score": None}
    return _dumps({**record, "exercises": []}) + "\n", record | {"per": {}}


def _after_path(said: str, path: str) -> str:
    """What is said of a file without its name in front, and the separator after it (en ': ', fr's
    no-break space and ':', zh '：'): the summary and the CSV put the file's name before it themselves."""
    return said.removeprefix(path).lstrip().lstrip(":\uff1a").lstrip()


def _undecided(head: dict, keys: list[tuple], lang: str) -> dict:
    """The record of a student not decided: the parts whose check ran past the time limit, twice. It is
    no result line (a resumed run checks them again); the CSV and the summary say it."""
    parts = [f"{key[0]}/{key[2]}" if key[2] is not None else key[0] for key in keys]
    return {**head, "error": None, "score": None, "max_score": None, "per": {}, "internal_errors": 0,
            "undecided": parts, "status": message("batch-undecided-cell", lang, parts=", ".join(parts))}


def run(job: Run, describe: Callable[[SubmissionError, str], str]) -> Run:
    """Grade what is new or changed in ``job.folder``; write the JSONL and CSV."""
    entries, job.ignored = discover(job.folder, job.out)
    assignment = tuple(bank.EXERCISES) if job.exercises is None else job.exercises
    job.out.mkdir(parents=True, exist_ok=True)
    log_path = job.out / RESULTS
    latest = read_log(log_path)
    engine = reference_table.engine_version()
    todo = []
    for entry in entries:
        read(entry)
        old = latest.get(entry.student)
        if old and (old["sha256"], old.get("variants", False), old["lang"], old["grader"], old.get("assignment")) \
                == (entry.sha256, job.variants, job.lang, engine, _listed(job.exercises)):
            job.kept += 1
        else:
            todo.append(entry)
    present = [e.student for e in entries]

    def write_csv():
        write_atomic(job.out / GRADES, csv_text((latest[s] for s in present if s in latest), assignment))

    results = _Results(job.lang, assignment)
    submitted: set[tuple] = set()
    group: list[tuple] = []       # distinct answers on the lessons' data, sent GROUP at a time
    pool = None

    def send(keys: list[tuple]) -> None:
        nonlocal pool
        if pool is None:
            warm_up()
            pool = Pool(evaluate, job.jobs, job.timeout)
        pool.submit_group((key, key) for key in keys)

    def load(chunk: list[Entry]) -> list[tuple]:
        """Read a chunk's files and send its new answers to the workers."""
        loaded = []
        for entry in chunk:
            seed = entry.student if job.variants else None
            head = _head(entry, seed, job, engine)
            if entry.conflict:
                key, params = entry.conflict
                loaded.append((head, seed, None, message(key, job.lang, **params)))
                continue
            try:
                if entry.unreadable:
                    raise entry.unreadable
                submission = load_bytes(entry.files[0], entry.data)
                if not job.variants and submission.seed is not None:   # the file names its variant
                    seed = seed_text(submission.seed)
                head = _head(entry, seed, job, engine, submission.lang)
                answers = {ex_id: given for ex_id, given in submission.answers.items() if ex_id in assignment}
            except SubmissionError as exc:
                error = _after_path(describe(exc, job.lang), exc.path)
                loaded.append((head, seed, None, error))
                continue
            loaded.append((head, seed, answers, None))
            job.answers += sum(len(given) for given in answers.values())
            new = [key for key in results.needs(answers, seed, head["reading"]) if key not in submitted]
            submitted.update(new)
            if seed is None:      # answers shared across the class: each checked once
                group.extend(new)
                while len(group) >= GROUP:
                    send(group[:GROUP])
                    del group[:GROUP]
            elif new:             # a variant: the student's answers to one worker, which draws it once
                send(new)
        if group:
            send(group)
            group.clear()
        return loaded

    def receive(block: bool) -> None:
        for key, value in pool.collect(None if block else 0):
            results.add(key, value)

    log = Log(log_path)
    last_csv = time.monotonic()
    done = job.kept
    held: list[tuple] = []       # students with a check past the time limit: tried again at the end

    def written(head: dict, line: str | None, record: dict) -> None:
        nonlocal done
        if line is not None:      # a student not decided is no result: the next run checks them again
            log.append_text(line)
            job.graded_now += 1
        latest[head["student"]] = record
        done += 1
        if job.progress:
            job.progress(done, len(entries))

    def decided(head: dict, seed, answers) -> tuple[str, dict]:
        failure = results.failure(answers, seed, head["reading"])
        if failure is None:
            return _line(head, answers, seed, results)
        job.internal_errors += 1
        return _error_line(head, message("error-internal", job.lang, error=failure))

    def wait_for(head: dict, seed, answers) -> None:
        for key in results.needs(answers, seed, head["reading"]):
            while not results.has(key):
                receive(block=True)

    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    try:
        if job.progress:
            job.progress(done, len(entries))
        ahead = load(chunks[0]) if chunks else []
        for k in range(len(chunks)):
            current = ahead
            ahead = load(chunks[k + 1]) if k + 1 < len(chunks) else []   # while workers work
            for head, seed, answers, error in current:
                if error is None:
                    wait_for(head, seed, answers)
                    if results.timed_out(answers, seed, head["reading"]):
                        held.append((head, seed, answers))
                        continue
                    line, record = decided(head, seed, answers)
                    if job.variants:
                        results.forget(seed)
                else:
                    line, record = _error_line(head, error)
                written(head, line, record)
                if pool is not None:
                    receive(block=False)
            log.sync()
            if time.monotonic() - last_csv > CSV_EVERY:
                write_csv()
                last_csv = time.monotonic()
        if held:      # once more, with twice the time: a busy machine's timeout is no verdict
            first, pool = pool, None
            first.close()
            pool = Pool(evaluate, job.jobs, 2 * (limits.time_limit() if job.timeout is None else job.timeout))
            again = {key for head, seed, answers in held for key in results.timed_out(answers, seed, head["reading"])}
            for key in again:
                results.again(key)
                pool.submit(key, key)
            for head, seed, answers in held:
                wait_for(head, seed, answers)
                late = results.timed_out(answers, seed, head["reading"])
                if late:
                    record = _undecided(head, late, job.lang)
                    job.undecided.append(record)
                    written(head, None, record)
                else:
                    written(head, *decided(head, seed, answers))
                if job.variants:
                    results.forget(seed)
            log.sync()
    finally:
        if pool is not None:
            pool.close()
        log.close()
    job.distinct = sum(1 for key in submitted if key[2] is not None)
    write_csv()
    job.final = [latest[s] for s in present]
    return job


def progress_line(label: str = "students", stream=sys.stderr) -> Callable[[int, int], None] | None:
    """A one-line progress display on a terminal; None when stderr is not one."""
    if not stream.isatty():
        return None
    started = time.monotonic()
    shown, first = [0.0], []

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        first[:] = first or [done]        # students kept from an earlier run do not count
        if done < total and now - shown[0] < 0.2:
            return
        shown[0] = now
        width = 30
        filled = width * done // total if total else width
        rate = (done - first[0]) / (now - started) if now > started else 0
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     f"{label}  {rate:.0f}/s ")
        if done >= total:
            stream.write("\n")
        stream.flush()
    return show
