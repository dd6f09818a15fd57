"""A new exercise is one new module (plus its chapter text and English catalog entries), and no other change.

A copy of the project gets tests/fixtures/new_exercise/dot_product.py in grader/exercises/, its English
catalog entries (no locale translates them) and a chapter; then the real command line lists, shows,
checks, submits and grades it, a real strict build renders it (English text on every locale's page), the
translators' report and the status page list its messages as untranslated (a warning), a translation
added later is used, its English entries missing are an error everywhere but crash nothing, and a running
`mkdocs serve` picks up the module, and a change to it, without a restart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT, wait_seconds

FIXTURE = ROOT / "tests" / "fixtures" / "new_exercise"
LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
ENGLISH = "grader/locale/en/LC_MESSAGES/grader.po"
ANGLE = "acos(8/(sqrt(14)*sqrt(21)))"       # the angle between u and v, as its exact form


def copy_project(copy: Path) -> Path:
    """The project's tracked files, copied."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                             timeout=wait_seconds(15)).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    return copy


def add_exercise(copy: Path, chapter: bool = True) -> None:
    """What a course author adds: the module, its English catalog entries, its chapter (and its place in the nav)."""
    shutil.copy(FIXTURE / "dot_product.py", copy / "grader" / "exercises" / "dot_product.py")
    append(copy / ENGLISH, FIXTURE / "catalogs" / "en.po")
    if chapter:
        shutil.copy(FIXTURE / "chapter.md", copy / "docs" / "en" / "06-dot-product.md")
        config = copy / "mkdocs.yml"
        config.write_text(config.read_text().replace("  - 05-submanifold.md\n", "  - 05-submanifold.md\n  - 06-dot-product.md\n"))


def append(catalog: Path, entries: Path) -> None:
    catalog.write_text(catalog.read_text(encoding="utf-8") + entries.read_text(encoding="utf-8"), encoding="utf-8")


@contextmanager
def edited(path: Path, text: str):
    """``path`` holds ``text`` inside the block, and its own text again after it."""
    original = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        yield
    finally:
        path.write_text(original, encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    copy = copy_project(tmp_path_factory.mktemp("project"))
    add_exercise(copy)
    return copy


def environment(project: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_LANG", "LC_", "LANG"))}
    env.update(PYTHONPATH=str(project), NO_MKDOCS_2_WARNING="1", GRADER_CACHE_DIR=str(project / ".grader-cache"))
    return env


def run(project: Path, *args, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, *args], cwd=project, env=environment(project), capture_output=True,
                          text=True, timeout=wait_seconds(150), **kwargs)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-3000:]
    return proc


def grader(project: Path, *args) -> subprocess.CompletedProcess:
    return run(project, "-m", "grader.cli", *map(str, args))


def test_the_copy_imports_its_own_grader(project):
    proc = run(project, "-c", "import grader; print(grader.__file__)")
    assert Path(proc.stdout.strip()).is_relative_to(project)


def test_it_is_listed_and_shown_in_english_in_every_language(project):
    listed = json.loads(grader(project, "list", "--format", "json").stdout)
    assert [row["id"] for row in listed][-1] == "dot-product"
    assert listed[-1]["parts"] == ["dot", "length-u", "angle"] and listed[-1]["title"] == "The dot product"
    shown = grader(project, "show", "dot-product", "--lang", "fr")
    assert shown.returncode == 0 and shown.stderr == ""
    assert "The dot product (Leçon 6)" in shown.stdout and "the dot product u · v" in shown.stdout
    assert "the angle θ between u and v, in radians" in shown.stdout                 # TeX as the terminal shows it


@pytest.mark.parametrize("part, answer, code, note", [
    ("dot", "8", 0, ""),                                   # 1*4 + 2*(-1) + 3*2
    ("dot", "11", 1, "fixture-sum-not-product"),          # its own named mistake
    ("dot", "9", 1, "incorrect"),
    ("length-u", "sqrt(14)", 0, ""),
    ("angle", ANGLE, 0, ""),                               # an arccos, typed as the exact reference
    ("angle", "arccos(4*sqrt(6)/21)", 0, ""),              # the same angle, simplified
    ("angle", "1.085", 0, ""),
    ("angle", "acos(8/sqrt(294)) + 10^-9", 1, "exact-form-not-equal"),
])
def test_it_is_checked(project, part, answer, code, note):
    proc = grader(project, "check", "dot-product", part, answer, "--format", "json")
    assert proc.returncode == code, proc.stderr
    assert json.loads(proc.stdout)["note"] == note


def test_it_is_submitted_and_graded(project, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.toml").write_text(f'[dot-product]\ndot = "8"\nlength-u = "3.742"\nangle = "{ANGLE}"\n')
    (folder / "bob.toml").write_text('[dot-product]\ndot = "11"\n')
    submitted = json.loads(grader(project, "submit", folder / "ada.toml", "--format", "json",
                                  "--exercises", "dot-product").stdout)
    assert [(e["id"], e["score"]) for e in submitted["exercises"]] == [("dot-product", 4)] and submitted["max_score"] == 4
    out = tmp_path / "grades"
    grader(project, "grade", folder, "--out", out, "--jobs", "1")
    header, *rows = (out / "grades.csv").read_text().splitlines()
    assert "dot-product" in header.split(",")
    column = header.split(",").index("dot-product")
    assert {row.split(",")[0]: row.split(",")[column] for row in rows} == {"ada": "4", "bob": "0"}


def test_a_variant_of_it(project):
    shown = json.loads(grader(project, "show", "dot-product", "--seed", "s0042", "--format", "json").stdout)
    assert shown["seed"] == "s0042" and shown["data"] != json.loads(
        grader(project, "show", "dot-product", "--format", "json").stdout)["data"]


def test_its_messages_are_reported_untranslated_a_warning(project):
    catalogs = run(project, "-m", "grader.languages")
    assert catalogs.returncode == 0, catalogs.stdout
    for locale in LOCALES[1:]:
        assert re.search(rf"grader/locale/{locale}/LC_MESSAGES/grader\.po:1: untranslated: no entry "
                         r"'exercise\.dot-product\.title'", catalogs.stdout)
    report = run(project, "-m", "hooks.translations", "ja")
    assert report.returncode == 0, report.stdout[-3000:]
    assert re.search(r"grader/locale/ja/LC_MESSAGES/grader\.po:1: catalog-untranslated: .*'part\.dot-product\.angle\.prompt'",
                     report.stdout)


def test_it_renders_in_a_strict_build_with_english_text_on_every_page(project, tmp_path):
    site = tmp_path / "site"
    proc = run(project, "-m", "mkdocs", "build", "--strict", "-d", str(site))
    assert proc.returncode == 0, proc.stderr[-4000:]
    page = (site / "06-dot-product" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('id="exercise-dot-product"'):]
    assert "grader check dot-product dot" in section                       # its commands
    assert "[dot-product]" in section and "length-u" in section            # its parts, in the TOML template
    assert re.search(r"<mi>u</mi>\s*<mo>(=|&#x0003D;)</mo>", section)     # its data, as math
    assert 'class="course-solution"' in section and "<msqrt>" in section   # its solution: sqrt(14)
    assert re.search(r"<mi>(θ|&#x003B8;)</mi>", section)                   # the prompt's \theta, as math
    for locale in LOCALES[1:]:
        translated = (site / locale / "06-dot-product" / "index.html").read_text(encoding="utf-8")
        assert "the dot product" in translated and "The dot product" in translated     # English, not a key
        assert "part.dot-product" not in translated
    status = (site / "translation-status" / "index.html").read_text(encoding="utf-8")
    assert "<code>exercise.dot-product.title</code> (untranslated)" in status


def test_a_translation_added_later_is_used(project):
    catalog = project / "grader" / "locale" / "fr" / "LC_MESSAGES" / "grader.po"
    with edited(catalog, catalog.read_text(encoding="utf-8") + (FIXTURE / "catalogs" / "fr.po").read_text(encoding="utf-8")):
        shown = grader(project, "show", "dot-product", "--lang", "fr")
        assert "Le produit scalaire" in shown.stdout and "l’angle θ entre u et v, en radians" in shown.stdout
        report = run(project, "-m", "hooks.translations", "fr")
        assert report.returncode == 0 and not re.search(r"catalog-untranslated: .*dot-product", report.stdout)


def test_without_its_english_entries_it_is_an_error_that_names_them_and_nothing_crashes(project, tmp_path):
    english = project / ENGLISH
    text = english.read_text(encoding="utf-8")
    with edited(english, text.split("\n# --- the fixture exercise dot-product")[0] + "\n"):
        listed = grader(project, "list")
        assert listed.returncode == 0 and "dot-product          exercise.dot-product.title" in listed.stdout
        assert f"{ENGLISH} has no entry for 'exercise.dot-product.title'" in listed.stderr
        catalogs = run(project, "-m", "grader.languages")
        assert catalogs.returncode == 1
        assert (f"{ENGLISH}:1: missing: no entry 'exercise.dot-product.title', which grader/exercises/dot_product.py "
                f"uses: add it to {ENGLISH}") in catalogs.stdout
        report = run(project, "-m", "hooks.translations", "fr")
        assert report.returncode == 1 and "missing: no entry 'part.dot-product.angle.prompt'" in report.stdout
        build = run(project, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site"))
        assert build.returncode != 0 and "no entry 'exercise.dot-product.title'" in build.stderr


# --- `mkdocs serve` picks the exercise up, then a change to it, without a restart


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def page_once(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(url: str, needle: str, server: subprocess.Popen, seconds: float = 150) -> str:
    """The page at ``url`` once it holds ``needle`` (a build of six locales: ``seconds`` on an idle machine)."""
    deadline = time.monotonic() + wait_seconds(seconds)
    while time.monotonic() < deadline:
        assert server.poll() is None, "mkdocs serve stopped"
        text = page_once(url)
        if needle in text:
            return text
        time.sleep(2)
    raise AssertionError(f"{url} never showed {needle!r}")


def test_a_running_mkdocs_serve_picks_up_a_new_exercise_and_a_change_to_it(tmp_path):
    copy = copy_project(tmp_path / "project")
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{port}"],
                              cwd=copy, env=environment(copy), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(f"http://127.0.0.1:{port}/", "ANDREA-120M", server)
        add_exercise(copy)
        page = wait_for(f"http://127.0.0.1:{port}/06-dot-product/", "grader check dot-product dot", server)
        assert "<mn>8</mn>" in page[page.index('id="exercise-dot-product"'):]             # u · v = 8
        module = copy / "grader" / "exercises" / "dot_product.py"
        module.write_text(module.read_text().replace('"v": _vec(4, -1, 2)', '"v": _vec(4, -1, 7)'))
        page = wait_for(f"http://127.0.0.1:{port}/06-dot-product/", "<mn>23</mn>", server)   # u · v = 23 now
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
