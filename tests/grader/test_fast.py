"""The plain-number path gives exactly the full path's outcome, or steps aside; it needs no SymPy."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from grader import bank, fast, feedback as fb
from grader.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]


def numbers_for(part, exercise_id):
    """Answers around the reference and every named mistake, as students type them."""
    values = [part.reference] + [v for _, v in fb.mistakes(exercise_id, part.id)]
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


CASES = [(ex.id, p.id, text) for ex in bank.EXERCISES.values() for p in ex.parts
         for text in (numbers_for(p, ex.id) if p.kind in ("scalar", "integer") else ["0.5", "2"])]


@pytest.mark.parametrize("exercise_id, part_id, text", CASES)
def test_same_outcome_as_the_full_path(exercise_id, part_id, text):
    quick = fast.outcome(exercise_id, part_id, text)
    assert quick is None or quick == evaluate(exercise_id, part_id, text)


def test_it_answers_almost_every_plain_number():
    answered = sum(fast.outcome(*case) is not None for case in CASES)
    assert answered >= 0.9 * len(CASES)
    # a decimal equal to a whole-number part's answer (or mistake) needs the exact proof
    assert fast.outcome("submanifold-dims", "full-dim", "15.0") is None
    assert fast.outcome("submanifold-dims", "full-dim", "15") is not None


@pytest.mark.parametrize("text", ["1_000", "012", "- 1", "1e9999", "0x10", "1j", "\u0663",
                                  "1/2", "sqrt(2)", "1,5", "", "1" * 30, "--1", "1\u3000"])
def test_anything_else_takes_the_full_path(text):
    assert fast.read_number(text) is None


def test_a_numeric_check_does_not_import_sympy(tmp_path):
    env = {**os.environ, "GRADER_CACHE_DIR": str(tmp_path)}
    command = [sys.executable, "-X", "importtime", "-m", "grader.cli", "check",
               "embedding-distances", "parakeet-fourier", "1.87"]
    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert first.returncode == 0 and "Correct." in first.stdout   # computes the cache once
    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
    assert second.returncode == 0 and "Correct." in second.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in second.stderr.splitlines()}
    assert "grader.fast" in imported and "sympy" not in imported
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
