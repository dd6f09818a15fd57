"""Malformed blocks fail the strict build with `path:line: what is wrong`; block text can never inject markup."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from mkdocs.utils.yaml import yaml_load

from tests.conftest import ROOT, run_mkdocs_build
from tests.hooks.test_blockspec import MALFORMED


def make_fixture_site(tmp_path: Path, chapter: str, course: dict | None = None) -> Path:
    """A one-locale copy of the real configuration whose docs hold `chapter` (and `course`: its extra.course)."""
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    (docs / "en").mkdir(parents=True)
    shutil.copy(ROOT / "docs/en/labels.toml", docs / "en/labels.toml")
    (docs / "en/index.md").write_text(chapter, encoding="utf-8")
    config["docs_dir"] = str(docs)
    config["hooks"] = [str(ROOT / "hooks/course.py")]
    config.pop("extra_css", None)
    config.pop("nav", None)  # the real navigation names the real pages
    if course is not None:
        config["extra"]["course"] = course
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "i18n" in plugin:
            plugin["i18n"]["languages"] = plugin["i18n"]["languages"][:1]
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("source, line, words", MALFORMED, ids=[m[2].split(":")[0][:40] for m in MALFORMED])
def test_strict_build_fails_with_file_and_line(tmp_path, source, line, words):
    config = make_fixture_site(tmp_path, source)
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert f"docs/en/index.md:{line}: " in result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_every_problem_is_listed_at_once(tmp_path):
    config = make_fixture_site(tmp_path, "# T\n\n/// sidebar\nx\n///\n\n/// step\ny\n///\n")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "index.md:3: " in result.stderr and "index.md:7: " in result.stderr


def test_block_arguments_are_escaped(tmp_path):
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    config = make_fixture_site(tmp_path, f"# T\n\n/// step | {hostile}\nbody\n///\n")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert" in html


@pytest.mark.parametrize(
    "formula, words",
    [(r"$x^$", "MissingSuperScriptOrSubscriptError"), (r"$\nosuchcommand{x}$", r"unknown command \nosuchcommand")],
)
def test_a_formula_that_cannot_render_fails_with_file_and_line(tmp_path, formula, words):
    config = make_fixture_site(tmp_path, f"# T\n\nSome text.\n\nA formula: {formula} here.\n")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "docs/en/index.md:5: math: cannot render the formula" in result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_the_open_option_unfolds_the_hints(tmp_path):
    chapter = (
        "# T\n\n/// exercise | attention-weights\n    open: true\n\nCompute.\n\n"
        "/// hint\nDivide first.\n///\n\n///\n"
    )
    result = run_mkdocs_build(make_fixture_site(tmp_path, chapter), tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert re.search(r'<details class="course-hint"[^>]*\bopen="open"', html), "the hint is not unfolded"


def test_a_code_sample_of_markdown_builds_as_code(tmp_path):
    """What a chapter's code holds is not the chapter: no heading, no formula, no markup, no block."""
    chapter = (
        "# T\n\nHow a chapter writes code:\n\n````markdown\n```python\n# $y$\n$x^$ <script>alert(1)</script>\n```\n"
        "/// sidebar\n````\n\nAfter.\n"
    )
    result = run_mkdocs_build(make_fixture_site(tmp_path, chapter), tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    sample = html.split("How a chapter writes code")[1].split("After.")[0]
    assert "<h1" not in sample and "<math" not in sample and "<script" not in sample
    shown = re.sub(r"<[^>]+>", "", sample)
    assert "# $y$" in shown and "$x^$ &lt;script&gt;alert(1)&lt;/script&gt;" in shown and "/// sidebar" in shown


def test_a_wrong_course_setting_fails_the_build(tmp_path):
    config = make_fixture_site(tmp_path, "# T\n\nText.\n", course={"solutions": "false", "colour": "red"})
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "extra.course.solutions: 'false' is a string, not true or false: write it without quotes" in result.stderr
    assert "extra.course.colour: no such setting" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_page_not_saved_as_utf8_fails_the_build_with_its_line(tmp_path):
    config = make_fixture_site(tmp_path, "# T\n\nPlain.\n\nDéjà vu.\n")
    page = tmp_path / "docs/en/index.md"
    page.write_bytes(page.read_text(encoding="utf-8").encode("latin-1"))
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    assert "docs/en/index.md:5: file: the file is not UTF-8" in result.stderr, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
