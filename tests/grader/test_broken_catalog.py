"""A translated message whose braces are broken, in a copy of the grader run as the real commands: the
grader shows that message in English and says so once, the catalog check reports it first, and
`grader autograder` refuses to pack it."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FR = "grader/locale/fr/LC_MESSAGES/grader.po"
BROKEN = "donnez au moins {digits chiffres"          # one closing brace missing
ENGLISH = "Your decimal is close but not precise enough: give at least 4 significant figures"


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("grader")
    shutil.copytree(ROOT / "grader", root / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    catalog = root / FR
    text = catalog.read_text("utf-8")
    assert "donnez au moins {digits} chiffres" in text
    catalog.write_text(text.replace("donnez au moins {digits} chiffres", BROKEN, 1), "utf-8")
    return root


def run(root, *args, module="grader.cli"):
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LANG", "GRADER_DEBUG")}
    env.update(PYTHONPATH=str(root), GRADER_CACHE_DIR=str(root / "cache"))
    proc = subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=root, timeout=300)
    assert "Traceback" not in proc.stderr + proc.stdout
    return proc


def _line(root, needle):
    return next(n for n, line in enumerate((root / FR).read_text("utf-8").splitlines(), 1) if needle in line)


def test_the_copy_is_the_grader_that_runs(copy):
    env = {**os.environ, "PYTHONPATH": str(copy)}
    found = subprocess.run([sys.executable, "-c", "import grader; print(grader.__file__)"], capture_output=True,
                           text=True, env=env, cwd=copy, timeout=60).stdout.strip()
    assert Path(found) == copy / "grader" / "__init__.py"


def test_check_shows_that_message_in_english_and_says_so_once_naming_file_and_key(copy):
    proc = run(copy, "check", "embedding-distances", "parakeet-fourier", "1.9", "--lang", "fr")
    assert proc.returncode == 1, proc.stderr          # not correct, as with a sound catalog: not an internal error
    assert ENGLISH in proc.stdout
    assert "0,5\u00a0%" in proc.stdout                       # the English words, the locale's numbers
    warnings = [line for line in proc.stderr.splitlines() if "decimal-imprecise" in line]
    assert len(warnings) == 1, proc.stderr
    assert str(copy / FR) in warnings[0] and "shown in English" in warnings[0] and "{{" in warnings[0]
    assert "internal" not in proc.stderr and "interne" not in proc.stderr


def test_a_sound_message_of_the_same_catalog_stays_french(copy):
    proc = run(copy, "check", "embedding-distances", "parakeet-fourier", "x", "--lang", "fr")
    assert proc.returncode == 2 and "Nom inconnu" in proc.stdout + proc.stderr
    assert "decimal-imprecise" not in proc.stderr


def test_grade_grades_every_student_with_the_broken_message_in_english(copy, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "bob.toml").write_text('["embedding-distances"]\nparakeet-fourier = "1.9"\n', "utf-8")
    out = tmp_path / "out"
    proc = run(copy, "grade", folder, "--out", out, "--lang", "fr", "--jobs", "1")
    assert proc.returncode == 1, proc.stderr
    assert (out / "grades.csv").is_file()
    results = [json.loads(line) for line in (out / "results.jsonl").read_text("utf-8").splitlines()]
    assert ENGLISH in json.dumps(results, ensure_ascii=False)
    assert "decimal-imprecise" in proc.stderr and str(copy / FR) in proc.stderr


def test_the_page_gives_the_verdict_not_an_internal_error(copy):
    script = ("from grader import web; import json; r = json.loads(web.check('embedding-distances', "
              "'parakeet-fourier', '1.9', 'fr')); print(r['code']); print(json.dumps(r, ensure_ascii=False))")
    env = {**os.environ, "PYTHONPATH": str(copy), "GRADER_CACHE_DIR": str(copy / "cache")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=copy,
                          timeout=300)
    code, reply = proc.stdout.splitlines()
    assert code == "1" and ENGLISH in reply, proc.stdout + proc.stderr


def test_the_catalog_check_reports_it_with_file_line_key_and_fix(copy):
    proc = run(copy, "fr", module="grader.languages")
    assert proc.returncode == 1
    errors = [line for line in proc.stdout.splitlines() if ": format: " in line]
    line = _line(copy, BROKEN)
    assert errors == [errors[0]] and errors[0].startswith(f"{FR}:{line}: format: 'decimal-imprecise': ")
    assert "doubled" in errors[0]


def test_autograder_refuses_to_pack_it_naming_the_finding(copy, tmp_path):
    zip_path = tmp_path / "autograder.zip"
    proc = run(copy, "autograder", "--out", zip_path, "--lang", "fr")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert not zip_path.exists()
    assert f"{FR}:{_line(copy, BROKEN)}: format: 'decimal-imprecise'" in proc.stderr
    assert proc.stderr.startswith("grader autograder") and "doubled" in proc.stderr
