"""The manual's grader examples are real: each command of its `console` blocks (the README and the pages it
links to, hooks/checker/manual.py) is run and its output compared."""
import re
import shlex
from pathlib import Path

import pytest

from hooks.checker import manual
from tests.grader.test_cli import ROOT, run

TEXTS = manual.texts(ROOT)


def examples():
    """(file, command line, expected lines) per example; a line '...' stands for lines left out."""
    found = []
    for name, text in TEXTS.items():
        for block in re.findall(r"```console\n(.*?)```", text, re.S):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command, *lines = chunk.rstrip("\n").split("\n")
                while lines and not lines[-1].strip():
                    lines.pop()
                found.append((name, command, lines))
    return found


def matches(got: list[str], expected: list[str]) -> bool:
    """``got`` is ``expected`` where each '...' line may stand for any number of lines."""
    pattern = "".join("(?:.*\n)*?" if line == "..." else re.escape(line) + "\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in got)) is not None


EXAMPLES = examples()


def test_the_manual_has_examples_of_each_feature():
    commands = " ".join(c for _, c, _ in EXAMPLES)
    for needle in ("--seed", "--lang", "LANG=", "0,3837", "grader show", "grader submit", "grader grade",
                   "grader report"):
        assert needle in commands


def test_the_front_door_and_the_instructors_page_hold_examples():
    """Each has examples of its own, so a move of the README's examples to a page is followed here."""
    assert {name for name, _, _ in EXAMPLES} >= {"README.md", "docs/en/instructors.md"}


def a_class(folder: Path) -> Path:
    """The manual's class: alice and bob (the examples) and carol, whose file is broken at line 3."""
    folder.mkdir()
    for name in ("alice", "bob"):
        (folder / f"{name}.toml").write_text((ROOT / "examples" / f"{name}.toml").read_text())
    (folder / "carol.toml").write_text((ROOT / "tests/grader/data/malformed.toml").read_text())
    return folder


@pytest.mark.parametrize("page, command, expected", EXAMPLES, ids=[f"{p}: {c[:60]}" for p, c, _ in EXAMPLES])
@pytest.mark.slow
def test_the_manual_s_example_is_what_the_grader_prints(page, command, expected, tmp_path):
    words = shlex.split(command, comments=True)
    env = {}
    while "=" in words[0]:
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    if words[:2] in (["grader", "grade"], ["cat", "grades/grades.csv"], ["grader", "report"]):   # a class, in tmp_path
        a_class(tmp_path / "submissions")
        graded = run("grade", "submissions", "--out", "grades", cwd=tmp_path)
        if words[0] == "cat":
            got = (tmp_path / words[1]).read_text()
        else:
            got = graded.stdout if words[1] == "grade" else run(*words[1:], cwd=tmp_path).stdout
        assert matches(got.rstrip("\n").split("\n"), expected), got
        return
    assert words[0] == "grader"
    got = run(*words[1:], env=env).stdout.rstrip("\n").split("\n")
    assert matches(got, expected), "\n".join(got)


def test_matches():
    assert matches(["a", "b", "c"], ["a", "...", "c"]) and matches(["a", "c"], ["a", "...", "c"])
    assert matches(["a", "b"], ["a", "..."]) and not matches(["a", "b"], ["a"])
    assert not matches(["a", "b", "d"], ["a", "...", "c"])


def test_the_rules_the_manual_states_are_the_tolerance_in_the_code():
    from grader.arithmetic import tolerance
    stated = [text for text in TEXTS.values() if "- **The rules**" in text]
    assert len(stated) == 1, "the rules are stated once, in one page of the manual"
    rules = stated[0].split("- **The rules**", 1)[1].split("- **Speed**", 1)[0]
    percent = f"{float(tolerance.RELATIVE * 100):g} %"
    assert f"within {percent} of the exact value" in rules
    assert f"within {float(tolerance.ABSOLUTE):g}" in rules.replace("\n  ", " ")
    assert {"one": 1, "two": 2, "three": 3, "four": 4}[rules.split(" significant")[0].split()[-1].strip("(")] \
        == tolerance.SIGNIFICANT_FIGURES


def test_the_manual_states_the_answers_length_limit_in_the_code():
    from grader.reading.parse import MAX_LENGTH
    stated = " ".join(" ".join(text.split()) for text in TEXTS.values())
    assert f"An answer is at most {MAX_LENGTH} characters (a longer one is refused as `too-long`)" in stated
