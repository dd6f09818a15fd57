"""An exact form on a lesson's data is judged against the fast path's table: it gets exactly the
outcome the lesson in SymPy gives, or it steps aside; a right one is judged without building the
lesson (and, when it holds no sum, without a single SymPy sum)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from grader import bank
from grader.judging import evaluate
from grader.judging import feedback as fb
from grader.judging import table as fast
from grader.judging.check import judge
from grader.judging.evaluate import judge_on, proved_on_table

ROOT = Path(__file__).resolve().parents[2]
PARTS = [(ex, p) for ex in bank.EXERCISES.values() for p in ex.parts if p.kind != "set"]


def show_vector(values) -> str:
    return "(" + ", ".join(fb.show(v) for v in values) + ")"


def exact_forms_for(ex, part) -> list[str]:
    """The reference in exact forms (as printed, rewritten, reordered), other parts' references
    and named mistakes in exact form, near misses, and unreadable text."""
    texts = ["sqrt(", "(1, 2", "1/0", "x"]
    values = [tuple(part.reference) if part.kind == "vector" else part.reference]
    values += [v for _, v in fb.mistakes(ex, part.id)]
    values += [tuple(o.reference) if o.kind == "vector" else o.reference for o in ex.parts if o.kind != "set"]
    for value in values:
        if isinstance(value, tuple):
            texts += [show_vector(value), "[" + show_vector(value)[1:-1] + "]",
                      show_vector(value[::-1]), show_vector([2 * v / 2 for v in value]),
                      show_vector([v * sympy.Rational(1001, 1000) for v in value]),
                      "(" + " ; ".join(f"({fb.show(v)})*1" for v in value) + ")"]
        else:
            texts += [fb.show(value), f"({fb.show(value)})*2/2", f"sqrt(({fb.show(value)})^2)",
                      fb.show(value * sympy.Rational(1001, 1000)), fb.show(value + sympy.Rational(1, 10**40)),
                      f"{fb.show(value)} + 0*pi", f"-({fb.show(value)})"]
    return sorted(set(texts))


CASES = [(ex.id, p.id, text) for ex, p in PARTS for text in exact_forms_for(ex, p)]


@pytest.mark.parametrize("exercise_id, part_id, text", CASES)
def test_same_outcome_as_the_lesson_in_sympy(exercise_id, part_id, text):
    quick = proved_on_table(exercise_id, part_id, text)
    assert quick is None or quick == judge_on(bank.get(exercise_id), part_id, text)


@pytest.mark.parametrize("exercise_id, part_id", [(ex.id, p.id) for ex, p in PARTS])
def test_every_reference_in_its_own_exact_form_is_answered(exercise_id, part_id):
    part = bank.get(exercise_id).part(part_id)
    text = show_vector(part.reference) if part.kind == "vector" else fb.show(part.reference)
    assert proved_on_table(exercise_id, part_id, text).fraction == 1
    # and a wrong one is left to the lesson, which names what is wrong
    wrong = (show_vector([v + 1 for v in part.reference]) if part.kind == "vector"
             else fb.show(part.reference + 1))
    assert proved_on_table(exercise_id, part_id, wrong) is None
    assert judge(exercise_id, part_id, wrong, limited=False).fraction < 1


@pytest.mark.parametrize("text", ["sqrt(", "(1, 2", "0x0f", "1 # 2"])
def test_an_unreadable_answer_gets_its_syntax_error_without_the_lesson(text):
    ex, part = PARTS[0]
    found = proved_on_table(ex.id, part.id, text)
    assert found is not None and found.column is not None
    assert found == judge_on(bank.get(ex.id), part.id, text)


@pytest.mark.parametrize("exercise_id, part_id", [(ex.id, p.id) for ex in bank.EXERCISES.values()
                                                   for p in ex.parts if p.kind == "set"])
def test_sets_are_left_to_the_lesson(exercise_id, part_id):
    """Matching points, duplicates and missing ones need the exercise's rules."""
    points = bank.get(exercise_id).part(part_id).reference
    text = "{" + ", ".join(show_vector(tuple(point)) for point in points) + "}"
    assert proved_on_table(exercise_id, part_id, text) is None
    assert judge(exercise_id, part_id, text, limited=False).fraction == 1


def test_only_forms_that_read_back_to_the_same_value_are_kept():
    assert fast._form(sympy.sqrt(14) / 2) == "sqrt(14)/2"
    assert fast._form(sympy.I) is None                  # not a name an answer may use
    assert fast._form(sympy.Float("0.5", 20)) is None    # reads back as 1/2, not the float


def test_a_reference_without_a_form_steps_aside(monkeypatch):
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "real" and not p.reference.is_Rational)
    table = json.loads(json.dumps(fast.table()))
    for value in table[ex.id][part.id]["reference"]:
        value["form"] = None
    monkeypatch.setattr(fast, "table", lambda: table)
    text = fb.show(part.reference)
    assert proved_on_table(ex.id, part.id, text) is None
    assert judge(ex.id, part.id, text, limited=False).fraction == 1      # the lesson decides


@pytest.mark.slow
def test_a_right_exact_form_builds_no_lesson(tmp_path):
    """From the command line: the lesson is not built; in-process, a rational exact form makes no
    SymPy sum (SymPy's first sum imports sympy.tensor.tensor, about 30 ms)."""
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "real" and p.reference.is_Rational
                    and not p.reference.is_Integer)
    answer = f"sqrt({fb.show(part.reference ** 2)})"
    script = (
        "import json, sys\n"
        "from grader import bank\nfrom grader.cli import main as cli\nfrom grader.judging import check\n"
        f"code = cli.main(['check', {ex.id!r}, {part.id!r}, {answer!r}])\n"
        "lessons = bank._lesson.cache_info().currsize\n"
        f"outcome = check.judge({ex.id!r}, {part.id!r}, {answer!r}, limited=False)\n"
        "print(json.dumps({'code': code, 'lessons': lessons, 'fraction': outcome.fraction,\n"
        "                  'sum': 'sympy.tensor.tensor' in sys.modules}))\n")
    env = {**os.environ, "GRADER_CACHE_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", "from grader.judging import table; table.table()"], cwd=ROOT, env=env, check=True)
    ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout.splitlines()[-1])
    assert found == {"code": 0, "lessons": 0, "fraction": 1.0, "sum": False}
    assert "Correct." in ran.stdout


def test_the_table_reference_is_read_once():
    evaluate._table_reference.cache_clear()
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "vector" and not p.reference[0].is_Rational)
    for _ in range(3):
        proved_on_table(ex.id, part.id, show_vector(part.reference))
    info = evaluate._table_reference.cache_info()
    assert info.misses <= len(part.reference) and info.hits >= 2 * len(part.reference)


@pytest.mark.parametrize("seed", [None, "s0042"])
def test_a_wrong_exact_form_is_read_with_the_decimal_comma_all_the_way(seed):
    """fr and id: 'sqrt(2,5)' is the root of 2.5 on every path (the table, the lesson, a variant)."""
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "real" and not p.reference.is_Rational)
    comma = judge(ex.id, part.id, "sqrt(2,5)", seed=seed, decimal_comma=True, limited=False)
    assert comma.column is None and comma.fraction == 0
    assert comma == judge(ex.id, part.id, "sqrt(2.5)", seed=seed, limited=False)
    assert judge(ex.id, part.id, "sqrt(2,5)", seed=seed, limited=False).column is not None
