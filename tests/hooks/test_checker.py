"""hooks/checker/publish.py without a browser: when the checker is on, the page's two tags, the zip (its markup:
test_workspace.py)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from hooks.chapters.labels import load_labels
from hooks.checker import pack as checker_pack
from hooks.checker import publish as checker

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


def test_the_switch_turns_it_off_whatever_is_installed(tmp_path, monkeypatch):
    runtime = fake_runtime(tmp_path / "pyodide", checker.pinned_version())
    monkeypatch.setattr(checker, "site_files", lambda runtime: ({}, ("checker-0.js", "checker-1.css", "worker-2.js")))
    assert checker.Checker.decide(True, {checker.RUNTIME_ENV: str(runtime)}).on
    off = checker.Checker.decide(False, {checker.RUNTIME_ENV: str(runtime)})
    assert not off.on and "check_in_browser" in off.message()


@pytest.mark.parametrize("url, base", [("fr/02-attention-projection/", "../../assets/checker"),
                                       ("02-attention-projection/", "../assets/checker"),
                                       ("", "assets/checker")])
def test_every_page_loads_the_two_small_files_the_theme_keeps_across_pages(url, base):
    """Every page, with an exercise or not: instant navigation keeps the first page's scripts."""
    state = checker.Checker(True, runtime=Path("."), given=({}, ("checker-0123.js", "checker-4567.css", "worker-89ab.js")))
    page = '<html><head><title>t</title></head><body><div class="course-checker-exercise" hidden></div></body></html>'
    tagged = checker.page_tags(page, url, state)
    assert re.findall(r'(?:href|src)="([^"?]+)', tagged) == [f"{base}/checker-4567.css", f"{base}/checker-0123.js"]
    assert 'data-worker="worker-89ab.js"' in tagged and "defer" in tagged
    plain = checker.page_tags("<html><head></head><body>no exercise</body></html>", url, state)
    assert re.findall(r'<script [^>]*>', plain) == re.findall(r'<script [^>]*>', tagged)   # the same tag: the theme keeps it
    assert checker.page_tags(page, url, checker.Checker(False)) == page


def test_deciding_packs_nothing_the_first_page_packs_once(monkeypatch):
    """A build's configuration (and a hook's test that only configures one) never traces the grader: the
    files are packed when the first page with an exercise, or the publish step, asks for their names."""
    packed = []
    monkeypatch.setattr(checker, "runtime_problem", lambda runtime: "")
    monkeypatch.setattr(checker, "site_files", lambda runtime, wait: packed.append(runtime) or ({}, ("c.js", "c.css", "w.js")))
    state = checker.Checker.decide(True, {checker.RUNTIME_ENV: "/nowhere"})
    assert state.on and not packed
    page = '<html><head></head><body><div class="course-checker-exercise" hidden></div></body></html>'
    assert "c.js" in checker.page_tags(page, "x/", state) and "c.css" in checker.page_tags(page, "y/", state)
    assert packed == [Path("/nowhere")]


def test_the_worker_is_told_its_files_and_every_served_name_holds_its_contents_hash():
    manifest = {"runtime": "pyodide-0/", "grader": "grader-1.zip", "sizes": {"grader-1.zip": 10}}
    served = checker.assets(manifest)
    assert set(served) == {"checker.js", "checker.css", "worker.js", "work.js"}
    # the script imports the student's work (work.js) by its content's name, written in by the build
    work = re.search(r'const WORK="(work-[0-9a-f]{16}\.js)";', served["checker.js"]).group(1)
    assert work == checker_pack.content_name("work", served["work.js"].encode("utf-8"), ".js")
    assert json.loads(re.search(r"const FILES=(\{.*?\});", served["worker.js"]).group(1)) == manifest
    script = served["checker.js"]
    assert script.count("checkerRunner") >= 2 and "IntersectionObserver" in script   # loader.js, then checker.js


@pytest.mark.slow
def test_the_site_serves_the_runtime_the_zips_and_the_three_files_each_named_by_its_content(tmp_path):
    runtime = checker.runtime_dir({})
    if checker.runtime_problem(runtime):
        pytest.skip("no runtime to publish")
    state = checker.Checker.decide(True, {})
    site = tmp_path / "site"
    checker.publish(site, state)
    published = sorted(p.relative_to(site / checker.PUBLISHED).as_posix() for p in site.rglob("*") if p.is_file())
    assert published == sorted(state.served)
    folders = {name.split("/")[0] for name in published if "/" in name}
    assert len(folders) == 1 and re.fullmatch(r"pyodide-[0-9a-f]{16}", folders.pop())
    assert sorted(name.rsplit("/", 1)[1] for name in published if "/" in name) == sorted(checker.SERVED_RUNTIME)
    for name in published:
        if "/" in name:
            continue
        stem, digest = re.fullmatch(r"([a-z]+)-([0-9a-f]{16})\.(?:zip|js|css)", name).groups()
        assert digest == hashlib.sha256((site / checker.PUBLISHED / name).read_bytes()).hexdigest()[:16], name
    assert {state.script, state.style, state.worker} <= set(published)
    worker = (site / checker.PUBLISHED / state.worker).read_text(encoding="utf-8")
    files = json.loads(re.search(r"const FILES=(\{.*?\});", worker).group(1))
    work = re.search(r'const WORK="([^"]+)";', (site / checker.PUBLISHED / state.script).read_text(encoding="utf-8")).group(1)
    assert work in published   # the student's work, which the script imports (not the worker's)
    assert set(files["sizes"]) == {name for name in published if name not in (state.script, state.style, state.worker, work)}
    assert files["lock"]["packages"] == {} and files["lock"]["info"]["abi_version"]
    shutil.rmtree(site)
