"""The page's JavaScript for the student's work (hooks/checker/assets/work.js) under Node.js, without a browser:
tests/js/ (Node's test runner) for what it computes, and here the file "Download my answers" writes read back by
the grader's own reader (grader.web.load: grader submit's, which Load answers uses), answer for answer."""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from grader import web
from grader.bank import EXERCISES
from hooks.checker import publish
from tests.conftest import ROOT

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed: the page's JavaScript is not tested "
                                "(install Node.js 18+, as the in-page checker needs)")

COURSE = {exercise_id: [part.id for part in exercise.parts] for exercise_id, exercise in EXERCISES.items()}

# answers a student can type that TOML must escape, or that look like TOML themselves
HOSTILE = [
    'say "hi"', "back\\slash\\", "two\nlines", "tab\there", "crlf\r\nend", '"""', "'''", "'single'",
    "nul\x00del\x7fesc\x1bbell\x07", "\b\f\v", "x² ≤ π · √2", "角度 각도 ", "😀 emoji", "e\u0301 combining",
    "\u202eRTL\u200f", "line\u2028sep\u2029para", "\ufeffbom first", "\u00a0nbsp\u00a0", "  padded  ",
    "# not a comment", "[not.a.table]", "a = 1", "0,5", "1e400", "\\u0041 not an escape", "\\n", "${x}",
]


def download(answers: dict, lang: str = "en", seed: str | None = None, work_js: Path | None = None) -> str:
    """The file the page makes (base64), the student having typed ``answers`` ({exercise: {part: text}});
    ``work_js``: that copy of work.js instead of hooks/checker/assets/work.js."""
    given = json.dumps({"lang": lang, "seed": seed, "course": COURSE, "answers": answers})
    env = {**os.environ, "COURSE_WORK_JS": str(work_js)} if work_js else None
    run = subprocess.run([NODE, str(ROOT / "tests" / "js" / "answers_file.mjs")], input=given, capture_output=True,
                         text=True, encoding="utf-8", timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    return run.stdout


def spread(texts: list[str]) -> dict:
    """The texts as answers, one a part, in the course's order (a part gets none when the texts run out)."""
    slots = [(exercise_id, part) for exercise_id, parts in COURSE.items() for part in parts]
    answers: dict = {}
    for (exercise_id, part), text in zip(slots, texts):
        answers.setdefault(exercise_id, {})[part] = text
    return answers


@needs_node
@pytest.mark.parametrize("lang, seed", [("en", None), ("fr", 'Zoë "O\'Brien" \\ 角')])
def test_every_answer_comes_back_from_the_downloaded_file_as_it_was_typed(lang, seed):
    for start in range(0, len(HOSTILE), sum(map(len, COURSE.values()))):
        answers = spread(HOSTILE[start:])
        read = json.loads(web.load("answers.toml", download(answers, lang, seed), lang))
        assert read["code"] == 0, read["error"]
        assert read["result"] == {"seed": seed, "lang": lang, "answers": answers}


@needs_node
def test_blank_answers_are_left_out_and_no_answer_is_no_file():
    answers = spread(["", "   ", "\n\t", "kept"])
    read = json.loads(web.load("answers.toml", download(answers), "en"))
    assert read["result"]["answers"] == {exercise_id: {part: "kept"} for exercise_id, parts in answers.items()
                                         for part, text in parts.items() if text == "kept"}
    assert download(spread(["", "  "])) == ""


@needs_node
def test_the_file_is_utf8_with_no_byte_order_mark():
    data = base64.b64decode(download(spread(["½"])))
    assert data.startswith(b'lang = "en"\n') and '"½"\n'.encode() in data


@needs_node
def test_the_served_work_js_writes_the_same_file(tmp_path):
    """The page imports work.js minified (rjsmin, hooks/checker/publish.py): it writes the file byte for byte."""
    served = tmp_path / "work-served.js"
    served.write_text(publish.assets({})["work.js"], encoding="utf-8")
    answers = spread(HOSTILE)
    assert download(answers, "fr", "s-1", served) == download(answers, "fr", "s-1")


@needs_node
def test_the_javascript_tests_pass():
    """tests/js/ (node --test): the file, the names the work is kept under, the scores and progress shown, the
    worker's later zips."""
    run = subprocess.run([NODE, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                         timeout=300)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout
