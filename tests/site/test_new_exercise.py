"""A new exercise is one new module (plus its chapter text and catalog entries), and no other change.

A copy of the project gets tests/fixtures/new_exercise/dot_product.py in grader/exercises/, its
catalog entries and a chapter; then the real command line lists, shows, checks, submits and grades
it, a real strict build renders it, and the translators' report sees its catalog keys.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, wait_seconds

FIXTURE = ROOT / "tests" / "fixtures" / "new_exercise"
LOCALES = ("en", "ja", "zh", "ko", "fr", "id")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the project's tracked files with the fixture exercise added: one module, its catalog
    entries, its chapter (and the chapter in the navigation)."""
    copy = tmp_path_factory.mktemp("project")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                             timeout=wait_seconds(15)).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    shutil.copy(FIXTURE / "dot_product.py", copy / "grader" / "exercises" / "dot_product.py")
    for locale in LOCALES:
        catalog = copy / "grader" / "locale" / locale / "LC_MESSAGES" / "grader.po"
        catalog.write_text(catalog.read_text(encoding="utf-8") + (FIXTURE / "catalogs" / f"{locale}.po").read_text(
            encoding="utf-8"), encoding="utf-8")
    shutil.copy(FIXTURE / "chapter.md", copy / "docs" / "en" / "06-dot-product.md")
    config = copy / "mkdocs.yml"
    config.write_text(config.read_text().replace("  - 05-submanifold.md\n", "  - 05-submanifold.md\n  - 06-dot-product.md\n"))
    return copy


def run(project: Path, *args, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_LANG", "LC_", "LANG"))}
    env.update(PYTHONPATH=str(project), NO_MKDOCS_2_WARNING="1", GRADER_CACHE_DIR=str(project / ".grader-cache"))
    proc = subprocess.run([sys.executable, *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=wait_seconds(150), **kwargs)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-3000:]
    return proc


def grader(project: Path, *args) -> subprocess.CompletedProcess:
    return run(project, "-m", "grader.cli", *map(str, args))


def test_the_copy_imports_its_own_grader(project):
    proc = run(project, "-c", "import grader; print(grader.__file__)")
    assert Path(proc.stdout.strip()).is_relative_to(project)


def test_it_is_listed_and_shown(project):
    listed = json.loads(grader(project, "list", "--format", "json").stdout)
    assert [row["id"] for row in listed][-1] == "dot-product"
    assert listed[-1]["parts"] == ["dot", "length-u"] and listed[-1]["title"] == "The dot product"
    shown = grader(project, "show", "dot-product", "--lang", "fr")
    assert shown.returncode == 0
    assert "Le produit scalaire" in shown.stdout and "le produit scalaire u · v" in shown.stdout


@pytest.mark.parametrize("answer, code, note", [
    ("8", 0, ""),                                   # 1*4 + 2*(-1) + 3*2
    ("11", 1, "fixture-sum-not-product"),          # its own named mistake
    ("9", 1, "incorrect"),
])
def test_it_is_checked(project, answer, code, note):
    proc = grader(project, "check", "dot-product", "dot", answer, "--format", "json")
    assert proc.returncode == code, proc.stderr
    assert json.loads(proc.stdout)["note"] == note
    assert grader(project, "check", "dot-product", "length-u", "sqrt(14)").returncode == 0


def test_it_is_submitted_and_graded(project, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.toml").write_text('[dot-product]\ndot = "8"\nlength-u = "3.742"\n')
    (folder / "bob.toml").write_text('[dot-product]\ndot = "11"\n')
    submitted = json.loads(grader(project, "submit", folder / "ada.toml", "--format", "json").stdout)
    assert [e for e in submitted["exercises"] if e["id"] == "dot-product"][0]["score"] == 3
    out = tmp_path / "grades"
    grader(project, "grade", folder, "--out", out, "--jobs", "1")
    header, *rows = (out / "grades.csv").read_text().splitlines()
    assert "dot-product" in header.split(",")
    column = header.split(",").index("dot-product")
    assert {row.split(",")[0]: row.split(",")[column] for row in rows} == {"ada": "3", "bob": "0"}


def test_a_variant_of_it(project):
    shown = json.loads(grader(project, "show", "dot-product", "--seed", "s0042", "--format", "json").stdout)
    assert shown["seed"] == "s0042" and shown["data"] != json.loads(
        grader(project, "show", "dot-product", "--format", "json").stdout)["data"]


def test_it_renders_in_a_strict_build(project, tmp_path):
    site = tmp_path / "site"
    proc = run(project, "-m", "mkdocs", "build", "--strict", "-d", str(site))
    assert proc.returncode == 0, proc.stderr[-4000:]
    page = (site / "06-dot-product" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('id="exercise-dot-product"'):]
    assert "grader check dot-product dot" in section                       # its commands
    assert "[dot-product]" in section and "length-u" in section            # its parts, in the TOML template
    assert re.search(r"<mi>u</mi>\s*<mo>(=|&#x0003D;)</mo>", section)     # its data, as math
    assert 'class="course-solution"' in section and "<msqrt>" in section   # its solution: sqrt(14)
    french = (site / "fr" / "06-dot-product" / "index.html").read_text(encoding="utf-8")
    assert "le produit scalaire" in french                                 # the fallback page speaks French


def test_the_translators_report_sees_its_catalog_keys(project):
    catalog = project / "grader" / "locale" / "ja" / "LC_MESSAGES" / "grader.po"
    original = catalog.read_text(encoding="utf-8")
    try:
        catalog.write_text(original.split("\n# --- the fixture exercise dot-product")[0] + "\n", encoding="utf-8")
        proc = run(project, "-m", "hooks.translations", "ja")
        assert proc.returncode == 1
        assert re.search(r"grader/locale/ja/LC_MESSAGES/grader\.po:\d+: catalog: .*'exercise\.dot-product\.title'",
                         proc.stdout)
    finally:
        catalog.write_text(original, encoding="utf-8")
