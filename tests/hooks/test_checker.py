"""hooks/checker.py without a browser: when the checker is on, the page's two tags, the zip (its markup:
test_workspace.py)."""
from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from hooks import checker
from hooks.labels import load_labels

ROOT = Path(__file__).resolve().parents[2]
LABELS = load_labels(ROOT / "docs")


def fake_runtime(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True)
    for name in checker.RUNTIME_FILES:
        (folder / name).write_text("", encoding="utf-8")
    (folder / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}), encoding="utf-8")
    return folder


def test_a_missing_runtime_turns_it_off_and_says_how_to_install_it(tmp_path):
    missing = tmp_path / "node_modules" / "pyodide"
    state = checker.Checker.decide(True, {checker.RUNTIME_ENV: str(missing)})
    assert not state.on
    assert str(missing) in state.message() and "npm ci" in state.message()
    assert state.message().startswith("in-page answer checking is off")


def test_only_the_pinned_version_will_do(tmp_path):
    pinned = checker.pinned_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned)
    assert checker.runtime_problem(fake_runtime(tmp_path / "same", pinned)) == ""
    other = checker.runtime_problem(fake_runtime(tmp_path / "other", "0.0.1"))
    assert "0.0.1" in other and pinned in other and "npm ci" in other


def test_the_switch_turns_it_off_whatever_is_installed(tmp_path):
    runtime = fake_runtime(tmp_path / "pyodide", checker.pinned_version())
    assert checker.Checker.decide(True, {checker.RUNTIME_ENV: str(runtime)}).on
    off = checker.Checker.decide(False, {checker.RUNTIME_ENV: str(runtime)})
    assert not off.on and "check_in_browser" in off.message()


@pytest.mark.parametrize("url, base", [("fr/02-attention-projection/", "../../assets/checker"),
                                       ("02-attention-projection/", "../assets/checker"),
                                       ("", "assets/checker")])
def test_the_page_loads_two_small_files_only_where_there_is_a_checker(url, base):
    state = checker.Checker(True, runtime=Path("."), archive="grader-0123.zip")
    page = f'<html><head><title>t</title></head><body><div {checker.MARKERS[0]} hidden></div></body></html>'
    tagged = checker.page_tags(page, url, state)
    assert re.findall(r'(?:href|src)="([^"?]+)', tagged) == [f"{base}/checker.css", f"{base}/checker.js"]
    assert 'data-archive="grader-0123.zip"' in tagged and "defer" in tagged
    assert checker.page_tags("<html><head></head><body>no exercise</body></html>", url, state).count("checker") == 0
    assert checker.page_tags(page, url, checker.Checker(False)) == page


@pytest.mark.slow
def test_the_zip_holds_the_grader_sympy_mpmath_and_the_table_the_grader_looks_for(tmp_path, monkeypatch):
    from grader.judging import table as fast

    monkeypatch.setattr(checker, "CACHE", tmp_path / "cache")
    runtime = checker.runtime_dir({})
    state = checker.Checker(True, runtime=runtime, archive=f"grader-{checker.archive_key(runtime)}.zip")
    path = checker.archive(state)
    assert path.name == state.archive and checker.archive(state) == path   # the second time from the cache
    names = zipfile.ZipFile(path).namelist()
    for name in ("grader/web.py", "grader/judging/table.py", "grader/locale/fr/LC_MESSAGES/grader.po"):
        assert name in names
    compiled = "c" if checker.compiler(runtime) else ""   # Pyodide's bytecode where Node.js compiles it
    assert {f"sympy/__init__.py{compiled}", f"mpmath/__init__.py{compiled}"} <= set(names)
    assert not [n for n in names if "/tests/" in n or "__pycache__" in n]
    assert not [n for n in names if n.startswith("grader/") and n.endswith(".pyc")]
    # the table must carry the name grader.judging.table looks for in the browser, or it would need SymPy there
    assert f"cache/references-{fast.engine_version()}.json" in names
    site = tmp_path / "site"
    if checker.runtime_problem(state.runtime):
        pytest.skip("no runtime to publish")
    checker.publish(site, state)
    published = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert published == sorted([f"{checker.PUBLISHED}/pyodide/{n}" for n in checker.RUNTIME_FILES]
                               + [f"{checker.PUBLISHED}/{p.name}" for p in checker.ASSETS.iterdir()]
                               + [f"{checker.PUBLISHED}/{state.archive}"])
    shutil.rmtree(site)
