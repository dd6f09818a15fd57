"""The plain-number path gives exactly the full path's outcome, or steps aside; it needs no SymPy."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from grader import bank
from grader.judging import feedback as fb
from grader.judging import table as fast
from grader.judging.check import judge
from grader.judging.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]


def numbers_for(part, exercise_id, seed=None):
    """Answers around the reference and every named mistake, as students type them."""
    values = [part.reference] + [v for _, v in fb.mistakes(bank.variant(exercise_id, seed), part.id)]
    texts = ["0", "-0.0", "1", "+3", "-2", ".5", "1.", "1e-3", "1E5", " 7 ", "1e999", "0.0001"]
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


CASES = [(ex.id, p.id, text) for ex in bank.EXERCISES.values() for p in ex.parts
         for text in (numbers_for(p, ex.id) if p.kind in ("real", "integer") else vectors_for(p))]


@pytest.mark.parametrize("exercise_id, part_id, text", CASES)
def test_same_outcome_as_the_full_path(exercise_id, part_id, text):
    quick = fast.outcome(exercise_id, part_id, text)
    assert quick is None or quick == evaluate(exercise_id, part_id, text)


def test_it_answers_almost_every_plain_number():
    numbers = [case for case in CASES if bank.get(case[0]).part(case[1]).kind in ("real", "integer")]
    answered = sum(fast.outcome(*case) is not None for case in numbers)
    assert answered >= 0.9 * len(numbers)
    # decimals are read exactly: a whole number written 15.0 is 15, 15.000...01 is not
    assert fast.outcome("submanifold-dims", "full-dim", "15.0").fraction == 1
    assert fast.outcome("submanifold-dims", "full-dim", "15.00000000000000000000000000000001").fraction == 0


def test_right_vectors_and_sets_of_plain_numbers_are_answered():
    assert fast.outcome("attention-weights", "weights", "(0.3837, 0.3837, 0.2327)").fraction == 1
    assert fast.outcome("attention-weights", "weights", "(0,3837 ; 0,3837 ; 0,2327)", decimal_comma=True).fraction == 1
    assert fast.outcome("reachable-vertices", "vertices",
                        "{(1, 0, 0), (0.75, 0, 0.25), (0.5, 0.25, 0.25), (0.5, 0.5, 0)}").fraction == 1
    assert fast.outcome("attention-weights", "weights", "(0,38, 0,38, 0,23)", decimal_comma=True) is None


@pytest.mark.parametrize("text", ["1_000", "012", "- 1", "1e9999", "0x10", "1j", "\u0663",
                                  "1/2", "sqrt(2)", "1,5", "", "1" * 50, "--1", "1\u3000"])
def test_anything_else_takes_the_full_path(text):
    assert fast.read_number(text) is None


@pytest.mark.slow
def test_a_numeric_check_does_not_import_sympy(tmp_path):
    env = {**os.environ, "GRADER_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-X", "importtime", "-m", "grader.cli.main", "check",
               "embedding-distances", "parakeet-fourier", "1.87"]
    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert first.returncode == 0 and "Correct." in first.stdout   # computes the cache once
    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert second.returncode == 0 and "Correct." in second.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines()}
    assert "grader.judging.table" in imported and "sympy" not in imported
    exact = subprocess.run(command[:-1] + ["sqrt(14)/2"], capture_output=True, text=True,
                           cwd=ROOT, env=env)
    assert "Correct." in exact.stdout and "| sympy" in exact.stderr.replace("|     ", "| ")


def test_a_damaged_cache_is_computed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path))
    fast.table.cache_clear()
    try:
        path = tmp_path / f"references-{fast.engine_version()}.json"
        path.write_text('{"embedding-distances": {"parakeet-fourier": {"kind": "scalar"}}}')
        (tmp_path / "references-0000000000000000.json").write_text("{}")   # an older grader's
        assert fast.outcome("embedding-distances", "parakeet-fourier", "1.87") == evaluate(
            "embedding-distances", "parakeet-fourier", "1.87")
        assert [p.name for p in tmp_path.glob("references-*.json")] == [path.name]
        assert fast._well_formed(__import__("json").loads(path.read_text()))
    finally:
        fast.table.cache_clear()


def numbers_for_variant(part, exercise):
    return numbers_for(part, exercise.id, exercise.seed)


VARIANT_CASES = [(ex.id, p.id, text, seed) for seed in ("s0007", "s0042")
                 for ex in (bank.variant(i, seed) for i in bank.EXERCISES) for p in ex.parts
                 for text in (numbers_for_variant(p, ex) if p.kind in ("real", "integer") else vectors_for(p))]


@pytest.mark.parametrize("exercise_id, part_id, text, seed", VARIANT_CASES)
def test_a_variant_in_plain_numbers_gets_the_full_paths_outcome_too(exercise_id, part_id, text, seed):
    """A variant is judged against its references in plain numbers (grader.bank.numeric), and
    in SymPy only where those cannot decide: the outcome is SymPy's either way."""
    assert judge(exercise_id, part_id, text, seed=seed, limited=False) == evaluate(
        exercise_id, part_id, text, seed=seed)


def test_the_engine_version_follows_the_code_and_the_wording_only(tmp_path):
    """The cache and a class's results are renamed whenever a module, a message or a catalog
    changes, and only then."""
    files = {"__init__.py": "", "check.py": "x = 1", "classreport/tables.py": "y = 2",
             "languages/messages.py": "", "languages/notes.toml": "a = 1",
             "locale/fr/LC_MESSAGES/grader.po": 'msgid ""', "locale/fr/LC_MESSAGES/grader.mo": "bin",
             "locale/fr/README.txt": "notes", "__pycache__/check.cpython-311.pyc": "bytecode",
             "classreport/__pycache__/tables.cpython-311.pyc": "bytecode", "SCHEMA.md": "# schema",
             "exercises/data.json": "{}"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = fast.code_fingerprint(str(tmp_path))
    assert len(before) == 16 and before == fast.code_fingerprint(str(tmp_path))
    counted = {"__init__.py", "check.py", "classreport/tables.py", "languages/messages.py",
               "locale/fr/LC_MESSAGES/grader.po"}
    for name in files:
        path = tmp_path / name
        path.write_text(files[name] + " changed")
        assert (fast.code_fingerprint(str(tmp_path)) != before) == (name in counted), name
        path.write_text(files[name])
    (tmp_path / "check.py").rename(tmp_path / "checks.py")          # a module renamed
    assert fast.code_fingerprint(str(tmp_path)) != before


def test_a_fresh_table_keeps_exact_values_and_forms():
    """Rational references as fractions, irrational ones as text that reads back to them."""
    from grader.reading.parse import parse_answer
    table = fast.build_table()
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            if part.kind == "set":
                continue
            values = tuple(part.reference) if part.kind == "vector" else (part.reference,)
            for value, entry in zip(values, table[ex.id][part.id]["reference"], strict=True):
                if value.is_Rational:
                    assert entry["exact"] == f"{value.p}/{value.q}" and entry["form"] is None
                else:
                    assert entry["exact"] is None and parse_answer(entry["form"]).value == value
                assert abs(sympy.Float(entry["decimal"], 60) - value) < sympy.Float(10) ** -55
