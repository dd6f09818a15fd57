"""One judge, several sources: the reference table (fractions and proven intervals), a variant in plain
numbers, and the exercise in SymPy give the same outcome wherever the cheaper one decides; where it
cannot, it steps aside and the next one decides. A plain number on a lesson needs no SymPy."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from grader import bank
from grader.judging import table
from grader.judging.check import judge
from grader.model import targets
from grader.reading.show import show
from tests.grader.judged import on_lesson, on_numeric_variant, on_table

ROOT = Path(__file__).resolve().parents[2]
PARTS = [(ex, p) for ex in bank.EXERCISES.values() for p in ex.parts]


def numbers_for(part, exercise):
    """Answers around the reference and every named mistake, as students type them."""
    values = [part.reference] + [v[0] for _, v in targets.mistakes(exercise, part.id)]
    texts = ["0", "-0.0", "1", "+3", "-2", ".5", "1.", "1e-3", "1E5", " 7 ", "1e999", "0.0001", "0,3", "1,871"]
    for v in values:
        x = float(sympy.N(v, 30))
        for digits in (1, 2, 3, 4, 6, 12):
            texts.append(f"{x:.{digits}g}")
        texts += [f"{x * 1.004:.6g}", f"{x * 1.006:.6g}", f"{x * 1.05:.6g}", f"{x * 1.2:.6g}",
                  f"{-x:.4g}", f"{x:.3e}"]
        if x == int(x):
            texts += [str(int(x)), f"{int(x)}.0", str(int(x) + 1)]
    return sorted(set(texts))


def vectors_for(part):
    """Vectors and sets of plain numbers: the reference rounded, perturbed, reordered, too short."""
    points = [tuple(p) for p in part.reference] if part.kind == "set" else [tuple(part.reference)]
    texts = ["0.5", "2", "(1, 2)", "[0.5; 0.5; 0]"]
    for digits in (2, 4, 12):
        rounded = ["(" + ", ".join(f"{float(sympy.N(x, 30)):.{digits}g}" for x in point) + ")" for point in points]
        texts += ["{" + ", ".join(rounded) + "}", "[" + ", ".join(rounded) + "]"] if part.kind == "set" else rounded
        texts += ["(" + " ; ".join(f"{float(sympy.N(x, 30)):.{digits}g}" for x in points[0]) + ")"]
    texts.append("(" + ", ".join(f"{float(sympy.N(x, 30)) * 1.004:.6g}" for x in points[0][::-1]) + ")")
    return texts


def exact_forms_for(ex, part) -> list[str]:
    """The reference in exact forms (as printed, rewritten, reordered), other parts' references and
    named mistakes in exact form, near misses."""
    texts = ["1/0"]
    values = [tuple(part.reference) if part.kind == "vector" else part.reference]
    values += [v if part.kind == "vector" else v[0] for _, v in targets.mistakes(ex, part.id)]
    values += [tuple(o.reference) if o.kind == "vector" else o.reference for o in ex.parts if o.kind != "set"]
    for value in values:
        if isinstance(value, tuple):
            texts += [show(value), "[" + show(value)[1:-1] + "]", show(value[::-1]), show(tuple(2 * v / 2 for v in value)),
                      show(tuple(v * sympy.Rational(1001, 1000) for v in value)),
                      "(" + " ; ".join(f"({show(v)})*1" for v in value) + ")"]
        else:
            texts += [show(value), f"({show(value)})*2/2", f"sqrt(({show(value)})^2)",
                      show(value * sympy.Rational(1001, 1000)), show(value + sympy.Rational(1, 10**40)),
                      f"{show(value)} + 0*pi", f"-({show(value)})"]
    return sorted(set(texts))


def readable(exercise_id, part_id, text, seed=None, convention="en") -> bool:
    return judge(exercise_id, part_id, text, seed=seed, convention=convention, limited=False).column is None


PLAIN = [(ex.id, p.id, text) for ex, p in PARTS
         for text in (numbers_for(p, ex) if p.kind in ("real", "integer") else vectors_for(p))]
EXACT = [(ex.id, p.id, text) for ex, p in PARTS if p.kind != "set" for text in exact_forms_for(ex, p)]


@pytest.mark.parametrize("exercise_id, part_id, text", PLAIN)
def test_the_table_decides_a_plain_number_as_the_lesson_does(exercise_id, part_id, text):
    for convention in ("en", "fr"):
        if readable(exercise_id, part_id, text, convention=convention):
            quick = on_table(exercise_id, part_id, text, convention, plain_only=True)
            assert quick is None or quick == on_lesson(exercise_id, part_id, text, convention)


@pytest.mark.parametrize("exercise_id, part_id, text", EXACT)
def test_the_table_decides_an_exact_form_as_the_lesson_does(exercise_id, part_id, text):
    if readable(exercise_id, part_id, text):
        quick = on_table(exercise_id, part_id, text)
        assert quick is None or quick == on_lesson(exercise_id, part_id, text)


def test_the_table_decides_almost_every_plain_number_and_every_right_answer():
    numbers = [case for case in PLAIN if bank.get(case[0]).part(case[1]).kind in ("real", "integer")
               and readable(*case)]
    assert sum(on_table(*case, plain_only=True) is not None for case in numbers) >= 0.9 * len(numbers)
    for ex, part in PARTS:
        value = tuple(tuple(p) for p in part.reference) if part.kind == "set" else part.reference
        text = ("{" + ", ".join(show(p) for p in value) + "}") if part.kind == "set" else show(value)
        assert on_table(ex.id, part.id, text).fraction == 1, (ex.id, part.id, text)
    # decimals are read exactly: a whole number written 15.0 is 15, 15.000...01 is not
    assert on_table("submanifold-dims", "full-dim", "15.0", plain_only=True).fraction == 1
    assert on_table("submanifold-dims", "full-dim", "15.00000000000000000000000000000001", plain_only=True).fraction == 0


@pytest.mark.parametrize("seed", ["s0007", "s0042"])
def test_a_variant_in_plain_numbers_decides_as_in_sympy(seed):
    for exercise_id in bank.EXERCISES:
        ex = bank.variant(exercise_id, seed)
        for part in ex.parts:
            for text in (numbers_for(part, ex) if part.kind in ("real", "integer") else vectors_for(part)):
                if readable(exercise_id, part.id, text, seed):
                    quick = on_numeric_variant(exercise_id, part.id, text, seed)
                    assert quick is None or quick == on_lesson(exercise_id, part.id, text, seed=seed), text


def test_a_wrong_vector_needs_the_exercise_and_gets_its_rules():
    """Why a vector is wrong (weights that do not sum to 1, the wrong order) are the exercise's rules:
    the table steps aside, the lesson names it."""
    assert on_table("attention-weights", "weights", "(0.2327, 0.3837, 0.3837)") is None
    found = judge("attention-weights", "weights", "(0.2327, 0.3837, 0.3837)", limited=False)
    assert "wrong-order" in {f.key for f in found.findings}


@pytest.mark.slow
def test_a_plain_number_does_not_import_sympy_and_an_exact_form_builds_no_lesson(tmp_path):
    env = {**os.environ, "GRADER_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-X", "importtime", "-m", "grader.cli", "check",
               "embedding-distances", "parakeet-fourier", "1.871"]
    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert first.returncode == 0 and "Correct." in first.stdout   # computes the cache once
    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert second.returncode == 0 and "Correct." in second.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines()}
    assert "grader.judging.table" in imported and "sympy" not in imported
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "real" and p.reference.is_Rational
                    and not p.reference.is_Integer)
    answer = f"sqrt({show(part.reference ** 2)})"
    script = ("import json, sys\nfrom grader import bank\nfrom grader.cli import main as cli\n"
              f"code = cli.main(['check', {ex.id!r}, {part.id!r}, {answer!r}])\n"
              "print(json.dumps({'code': code, 'lessons': bank._lesson.cache_info().currsize,"
              " 'sum': 'sympy.tensor.tensor' in sys.modules}))\n")
    ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert __import__("json").loads(ran.stdout.splitlines()[-1]) == {"code": 0, "lessons": 0, "sum": False}


def test_only_forms_that_read_back_to_the_same_value_are_kept():
    assert table._form(sympy.sqrt(14) / 2) == "sqrt(14)/2"
    assert table._form(sympy.I) is None                  # not a name an answer may use
    assert table._form(sympy.Float("0.5", 20)) is None    # reads back as 1/2, not the float


def test_a_fresh_table_keeps_exact_values_and_forms():
    """Rational references as fractions, irrational ones as text that reads back to them."""
    from grader.reading.parse import parse_answer
    fresh = table.build_table()
    for ex, part in PARTS:
        if part.kind == "set":
            continue
        values = tuple(part.reference) if part.kind == "vector" else (part.reference,)
        for value, entry in zip(values, fresh[ex.id][part.id]["reference"], strict=True):
            if value.is_Rational:
                assert entry["exact"] == f"{value.p}/{value.q}" and entry["form"] is None
            else:
                assert entry["exact"] is None and parse_answer(entry["form"]).value == value
            assert abs(sympy.Float(entry["decimal"], 60) - value) < sympy.Float(10) ** -55
        assert fresh[ex.id][part.id]["figures"] == targets.figures(ex, part.id)


@pytest.mark.parametrize("seed", [None, "s0042"])
def test_a_comma_in_a_functions_argument_is_a_decimal_comma_on_every_path(seed):
    """'sqrt(2,5)' is the root of 2.5 in every language (a function takes one argument), on the table,
    the lesson and a variant alike."""
    ex, part = next((ex, p) for ex, p in PARTS if p.kind == "real" and not p.reference.is_Rational)
    for convention in ("fr", "en"):
        comma = judge(ex.id, part.id, "sqrt(2,5)", seed=seed, convention=convention, limited=False)
        point = judge(ex.id, part.id, "sqrt(2.5)", seed=seed, limited=False)
        assert comma.column is None and (comma.fraction, comma.findings) == (point.fraction, point.findings)
        assert comma.reading is not None and point.reading is None
