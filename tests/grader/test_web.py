"""grader.web, the entry the site's in-page checker calls (in Pyodide): what it returns is what the
command prints, because it is the command. Here in CPython, against the `grader` command's own entry
(tests.grader.inprocess: its output and exit code as a subprocess would give them)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader import web
from grader.judging.check import check_part
from tests.grader.inprocess import grader


def command(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return grader(*args, cwd=cwd, NO_COLOR="1")


@pytest.mark.parametrize("exercise, part, answer, lang, seed", [
    ("terrain-warmup", "lr-at-step", "0.0000075", "en", None),            # the fast path
    ("terrain-warmup", "lr-at-step", "3/400000", "fr", None),             # SymPy
    ("embedding-distances", "parakeet-monkey", "0,09", "fr", None),       # a decimal comma, a named mistake
    ("attention-weights", "weights", "(0,38, 0,38, 0,23)", "fr", None),   # read as three decimals
    ("attention-weights", "weights", "(0,5,0,5,0)", "fr", None),          # cannot be read: a caret
    ("embedding-distances", "parakeet-monkey", "e^-1/2", "en", None),     # ambiguous: refused
    ("terrain-warmup", "lr-at-step", "-1/2", "ja", None),                 # starts with '-'
    ("reachable-vertices", "vertices", "{(1,0,0), (2/3,0,1/3), (3/5,1/15,1/3), (3/5,2/5,0)}", "en", "s0042"),
    ("terrain-warmup", "nope", "1", "ko", None),                          # unknown part: exit 2, stderr
    ("terrain-warmup", "lr-at-step", "1", "en", " s1"),                   # unusable seed
])
def test_check_returns_what_the_command_prints(exercise, part, answer, lang, seed):
    seeded = ["--seed", seed] if seed else []
    reply = json.loads(web.check(exercise, part, answer, lang, seed))
    ran = command("check", "--lang", lang, "--format", "json", *seeded, "--", exercise, part, answer)
    assert reply["code"] == ran.returncode
    mathml = reply["result"].pop("read_as_mathml") if reply["result"] else None
    assert reply["result"] == (json.loads(ran.stdout) if ran.stdout.strip() else None)
    if reply["result"]:       # the page renders how the answer was read, whenever the command says it
        assert (mathml is None) == (reply["result"]["read_as"] is None)
        assert mathml is None or mathml.startswith("<math")
    assert reply["error"] == ran.stderr.strip()
    if reply["result"] and reply["result"]["column"] is not None:
        text = command("check", "--lang", lang, *seeded, "--", exercise, part, answer).stdout.rstrip("\n")
        assert reply["text"] == text and "^" in text
    else:
        assert reply["text"] == ""


@pytest.mark.parametrize("seed", [None, "s0042", "x" * 200])
def test_show_returns_what_the_command_prints(seed):
    seeded = ["--seed", seed] if seed else []
    reply = json.loads(web.show("terrain-warmup", "id", seed))
    ran = command("show", "--lang", "id", "--format", "json", *seeded, "terrain-warmup")
    assert (reply["code"], reply["error"]) == (ran.returncode, ran.stderr.strip())
    assert reply["result"] == (json.loads(ran.stdout) if ran.returncode == 0 else None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_timeout_verdict_is_the_one_check_part_gives(lang):
    """The page shows it when it stops a worker: it must be what the grader says of a check out of time."""
    result = check_part("terrain-warmup", "lr-at-step", "exp(0)*3/400000", lang, timeout=0.0)
    assert {"note": result.note, "feedback": result.feedback} == web.timeout_verdict(lang)
    assert result.score == 0 and not result.correct


def test_announce_import_calls_back_once_when_the_module_starts_loading(tmp_path, monkeypatch):
    (tmp_path / "course_probe_module.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls = []
    web.announce_import("course_probe_module", lambda: calls.append("loading"))
    import course_probe_module  # noqa: F401
    importlib_again = __import__("course_probe_module")
    assert calls == ["loading"] and importlib_again.VALUE == 1
    assert not any(type(f).__name__ == "Announcer" for f in sys.meta_path)
    sys.modules.pop("course_probe_module", None)


def test_importing_it_loads_no_sympy():
    """The worker imports grader.web before the first plain number, which must not need SymPy."""
    ran = subprocess.run([sys.executable, "-c", "import sys, grader.web; print('sympy' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "False"


@pytest.mark.parametrize("answer, lang, shown", [
    ("0.3837", "en", "0.3837"), ("0,3837", "fr", "0,3837"), ("√14/2", "en", "sqrt(14)/2"),
    ("e^1/2", "en", "(e^1)/2"), ("(1,1,0)", "fr", None)])
def test_read_shows_the_answer_as_the_check_reads_it(answer, lang, shown):
    """The page's preview: the reading the check itself uses, before any check."""
    part = ("attention-weights", "scores") if answer.startswith("(") else ("embedding-distances", "parakeet-monkey")
    reply = json.loads(web.read(*part, answer, lang))
    assert reply["code"] == 0 and reply["read_as_mathml"].startswith("<math")
    checked = json.loads(web.check(*part, answer, lang))["result"]
    assert reply["read_as"] == (shown or checked["read_as"])
    if checked["read_as"] is not None:
        assert checked["read_as"] == reply["read_as"]


@pytest.mark.parametrize("answer, key", [("e^-1/2", "ambiguous-reading"), ("2e+1", "ambiguous-exponent"),
                                         ("sqrt(2", "bracket-not-closed"), ("2e^(1/2)", "implicit-product"),
                                         ("1/2√2", "ambiguous-reading")])
def test_read_refuses_what_the_check_refuses_with_the_same_words(answer, key):
    reply = json.loads(web.read("embedding-distances", "parakeet-monkey", answer, "fr"))
    checked = json.loads(web.check("embedding-distances", "parakeet-monkey", answer, "fr"))
    assert (reply["code"], reply["note"]) == (2, key) == (checked["code"], checked["result"]["note"])
    assert reply["feedback"] == checked["result"]["feedback"] and reply["text"] == checked["text"]


def test_read_needs_no_sympy_on_the_lessons_data():
    script = ("import sys, json, grader.web\n"
              "r = json.loads(grader.web.read('embedding-distances', 'parakeet-monkey', '√2/2', 'en'))\n"
              "print(r['read_as'], 'sympy' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["sqrt(2)/2", "False"]


LOADED = [
    b'seed = "s0042"\n\n[attention-weights]\nscores = "(1, 1, 0)"\nweights = "(0,38 ; 0,38 ; 0,23)"\n',
    b'lang = "fr"\n[embedding-distances]\nparakeet-monkey = "0,3"\n\n[terrain-warmup]\nlr-at-step = "3/400000"\n',
    b'lang = "xx"\n[embedding-distances]\nparakeet-monkey = "0,3"\n',      # a language the grader does not speak
    b"\xef\xbb\xbf[terrain-warmup]\nlr-at-step = 1\n",                 # a byte-order mark, a number
    b'[attention-weights\nscores = "(1, 1, 0)"\n',                       # damaged TOML
    b'[no-such-exercise]\nx = "1"\n',
    b'[attention-weights]\nnope = "1"\n',
    b'seed = " s1"\n[attention-weights]\nscores = "1"\n',                # a seed the grader refuses
    b"\xff\xfe[a]",                                                      # not UTF-8
    b"  \n",
]


@pytest.mark.parametrize("content", LOADED)
def test_load_reads_a_file_as_grader_submit_does(tmp_path, content):
    """What the page's Load answers puts in the boxes, or the refusal it shows, is grader submit's reading."""
    import base64

    import tomllib

    (tmp_path / "answers.toml").write_bytes(content)
    reply = json.loads(web.load("answers.toml", base64.b64encode(content).decode(), "fr"))
    ran = command("submit", "--lang", "fr", "--format", "json", "answers.toml", cwd=tmp_path)
    if ran.returncode == 2:
        assert reply == {"code": 2, "result": None, "error": ran.stderr.strip()}
        return
    data = tomllib.loads(content.decode("utf-8-sig"))
    seed, lang = data.pop("seed", None), data.pop("lang", None)
    assert reply["code"] == 0 and reply["result"]["seed"] == seed and reply["result"]["lang"] == lang
    assert reply["result"]["answers"] == {ex: {part: str(text) for part, text in parts.items()}
                                          for ex, parts in data.items()}
    graded = json.loads(ran.stdout)   # the answers grader submit graded: the ones the page puts back
    assert {ex["id"]: {p["id"]: p["answer"] for p in ex["parts"] if p["answer"] is not None}
            for ex in graded["exercises"] if any(p["answer"] is not None for p in ex["parts"])} == reply["result"]["answers"]


def test_load_refuses_a_file_too_big_to_read():
    import base64

    reply = json.loads(web.load("big.toml", base64.b64encode(b"#" * (2 << 20)).decode(), "en"))
    assert reply["code"] == 2 and reply["error"].startswith("big.toml")
