"""The real ``grader`` in French and Indonesian, in a subprocess: no decimal point in a number it writes (data,
feedback, scores, help, the class report), and in French no colon, semicolon, ! or ? without its no-break space.
What the student typed is shown as typed, and the rule about decimal commas shows both conventions on purpose:
those are set aside, and only those."""
import html
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from grader import bank
from grader.languages.messages import catalog, message, placeholders
from hooks.translations import typography
from hooks.translations.pagechecks import decimal_points
from hooks.translations.surfaces import prose
from tests.conftest import wait_seconds
from tests.grader.inprocess import grader

ROOT = Path(__file__).resolve().parents[2]
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"
# answers whose feedback holds numbers the grader writes: a sum, a rounding, figures asked for, a unit, a
# raised dot, a base, a wrong point, another part's prompt (with its grouped step)
CHECKS = [
    ("attention-weights", "weights", "(0,5 ; 0,5 ; 0,1)"),
    ("attention-weights", "weights", "(0.38, 0.38, 0.23)"),
    ("embedding-distances", "monkey-fourier", "1.87"),
    ("terrain-warmup", "lr-at-step", "0,3 m"),
    ("terrain-warmup", "lr-at-step", "0.0000075 steps"),
    ("embedding-distances", "parakeet-monkey", "1·25"),
    ("embedding-distances", "parakeet-monkey", "0x1ffff"),
    ("embedding-distances", "parakeet-monkey", "1_500.5"),
    ("reachable-vertices", "vertices", "{(1,0,0), (0,0,1), (1/2,1/2,0)}"),
    ("reachable-vertices", "vertices", "{(0.5, 0.5, 0), (0.5, 0.5, 0)}"),
    ("submanifold-dims", "warmup-dim", "6"),
    ("submanifold-dims", "warmup-pinned", "10"),
    ("terrain-warmup", "step-at-fraction", "40"),
]


def run(*args, cwd=ROOT) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    proc = subprocess.run([GRADER, *map(str, args)], capture_output=True, text=True, cwd=cwd, env=environ,
                          timeout=wait_seconds(60))
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


def both_conventions(lang: str) -> list[str]:
    """The messages that show a decimal point beside the decimal comma on purpose (how to write a vector)."""
    english = catalog("en")
    return [message(key, lang, **{name: "" for name in placeholders(text)})
            for key, text in english.items() if re.search(r"\d,\d", text)]


def what_the_grader_wrote(output: str, typed: list[str], lang: str) -> list[tuple[int, str]]:
    """The output's lines, less what the student typed (an answer shown back, a caret under it, a command
    to copy) and the messages that show both conventions."""
    lines = []
    for number, line in enumerate(output.splitlines(), 1):
        if line.strip() in typed or set(line.strip()) <= {"^", " "} or line.strip().startswith("grader "):
            continue
        for sentence in both_conventions(lang):
            for piece in filter(None, re.split(r"\s{2,}", sentence)):
                line = line.replace(piece, " ")
        lines.append((number, line))
    return lines


def problems(output: str, typed: list[str], lang: str) -> list[str]:
    found = []
    lines = what_the_grader_wrote(output, typed, lang)
    found += [f"decimal point: {dict(lines)[n]}" for n in decimal_points(lines, lang)]
    if lang == "fr":
        found += [f"{problem}: {text}" for _, text in lines for problem in typography.french(prose(text))]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "id"])
def test_show_check_submit_and_help_write_numbers_the_readers_way(lang):
    typed = [answer for _, _, answer in CHECKS]
    output = "\n".join(run("show", exercise, "--lang", lang) for exercise in bank.EXERCISES)
    output += "\n" + run("show", "submanifold-dims", "--seed", "s0042", "--lang", lang)
    output += "\n" + "\n".join(run("check", *args, "--lang", lang) for args in CHECKS)
    output += "\n" + run("submit", "examples/bob.toml", "--lang", lang)
    output += "\n" + run("--help", "--lang", lang) + run("grade", "--help", "--lang", lang)
    output += "\n" + run("grade", "x", "--out", "y", "--jobs", "0", "--lang", lang)
    assert problems(output, typed, lang) == []
    grouped = {"fr": "20\u202f000", "id": "20.000"}[lang]
    assert grouped in output and ("40\u00a0%" if lang == "fr" else "40%") in output   # data, prompts


def report_text(page: str) -> str:
    """What a reader reads of the report: no style, no markup, no code (answers as typed, ids)."""
    page = re.sub(r"<style>.*?</style>|<code>.*?</code>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "id"])
def test_the_class_report_writes_numbers_the_readers_way(tmp_path, lang):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("alice.toml", "bob.toml"):
        shutil.copy(ROOT / "examples" / name, folder / name)
    (folder / "carol.toml").write_text('[attention-weights]\nweights = "(0.5, 0.5, 0.1)"\n'
                                       '[terrain-warmup]\nlr-at-step = "0.0000075"\n', encoding="utf-8")
    output = run("grade", folder, "--out", tmp_path / "out", "--report", "--lang", lang, "--jobs", "1")
    assert problems(output, [], lang) == [], output
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    text = report_text(page)
    assert problems(text, [], lang) == []
    assert re.search(r"\d,\d", text)            # decimals there are, with the locale's mark



@pytest.mark.parametrize("before, after, lang", [
    (["--lang", "fr"], [], "fr"), ([], ["--lang", "id"], "id"), (["--lang", "ko"], ["--lang", "fr"], "fr"),
])
def test_the_language_is_heard_before_the_command_as_after_it(before, after, lang):
    """`grader --lang fr check ...` speaks French (the command's own --lang, unset, used to undo it)."""
    ran = grader(*before, "check", "reachable-vertices", "vertices", "{(1/2, 1, 0)}", *after)
    said = message("point-outside-region", lang, point=(Fraction(1, 2), 1, 0), constraint="\0")
    assert said.split("\0")[0] in ran.stdout, ran.stdout


def test_the_format_is_heard_before_the_command_as_after_it():
    assert json.loads(grader("--format", "json", "check", "embedding-distances", "parakeet-monkey", "1").stdout)
    assert json.loads(grader("list", "--format", "json").stdout)
    assert not grader("list").stdout.startswith("[")
