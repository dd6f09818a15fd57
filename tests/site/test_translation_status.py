"""The command, the strict build and the site's status page tell translators the same thing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
import tomllib
import yaml

from tests.conftest import ROOT, run_mkdocs_build, wait_seconds

PAGE = "04-simplex-walk.md"


class TableCells(HTMLParser):
    """The cells of the first <table class="course-status"> (or of another class), row by row."""

    def __init__(self, css_class: str = "course-status"):
        super().__init__()
        self.rows, self.inside, self.cell, self.css_class = [], False, None, css_class

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", self.css_class) in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def status_table(html: str, css_class: str = "course-status") -> list[list[str]]:
    parser = TableCells(css_class)
    parser.feed(html)
    return parser.rows


def command_table(cwd: Path) -> tuple[int, str, list[list[str]]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # run from the copy's folder, with the project's checks
    result = subprocess.run([sys.executable, "-m", "hooks.translations"], cwd=cwd, capture_output=True, text=True,
                            env=env, timeout=wait_seconds(60))
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("locale "))
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[start:] if line.strip() and "error(s)" not in line]
    return result.returncode, result.stdout, rows


def test_the_status_page_shows_the_commands_table(built_site):
    code, _, rows = command_table(ROOT)
    assert code == 0
    page = (built_site / "translation-status" / "index.html").read_text(encoding="utf-8")
    assert status_table(page) == rows
    assert [row[0] for row in rows[1:]] == ["fr", "id", "ja", "ko", "zh"]


def copy_site(tmp_path: Path) -> Path:
    """A copy of the real project's docs and configuration, to break; built with the project's hooks, all of them."""
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(tmp_path / "docs")
    config["hooks"] = [str(ROOT / hook) for hook in config["hooks"]]
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def test_a_stale_page_shows_the_notice_and_the_status_counts_it(tmp_path):
    config = copy_site(tmp_path)
    english = tmp_path / "docs/en" / PAGE
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    for locale in ("ja", "zh", "ko", "fr", "id"):
        assert f"docs/{locale}/{PAGE}:1: stale:" in result.stderr
    html = (tmp_path / "site/fr/04-simplex-walk/index.html").read_text(encoding="utf-8")
    notice = re.search(r'<p class="course-stale"[^>]*lang="fr"[^>]*>(.*?)</p>', html, re.S)
    assert notice and "L’original anglais" in notice.group(1)
    assert 'href="../../04-simplex-walk/"' in notice.group(1)
    assert "course-stale" not in (tmp_path / "site/fr/03-loss-terrain/index.html").read_text(encoding="utf-8")
    table = status_table((tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8"))
    code, _, rows = command_table(tmp_path)
    assert code == 0 and table == rows
    assert all(row[3] == "1" and int(row[2]) == int(row[1].split("/")[0]) - 1 for row in rows[1:]), rows


def test_a_page_a_locale_lacks_falls_back_to_english_with_a_notice_in_its_language(tmp_path):
    """Every locale translates every lesson; without its lesson 1, a locale shows the English page under a notice
    in the reader's language (its labels.toml), and the status counts the page missing."""
    config = copy_site(tmp_path)
    translations = ("ja", "zh", "ko", "fr", "id")
    for locale in translations:
        (tmp_path / "docs" / locale / "01-semantic-distance.md").unlink()
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    for locale in translations:
        html = (tmp_path / "site" / locale / "01-semantic-distance/index.html").read_text(encoding="utf-8")
        notice = re.search(rf'<[^>]*class="course-fallback"[^>]*\blang="{locale}"[^>]*>(.*?)</', html, re.S)
        label = tomllib.loads((tmp_path / "docs" / locale / "labels.toml").read_text(encoding="utf-8"))
        assert notice and label["fallback_notice"] in unescape(notice.group(1)), locale
        assert '<div lang="en">' in html                     # the English text says it is English
        assert "course-fallback" not in (tmp_path / "site" / locale / "02-attention-projection/index.html"
                                         ).read_text(encoding="utf-8")
    _, _, rows = command_table(tmp_path)
    assert all(row[4] == "1" for row in rows[1:]), rows


@pytest.mark.parametrize(
    "locale, old, new, kind",
    [
        ("fr", "$\\sum_i w_i = 1$", "$\\sum_i w_i = 2$", "math"),
        ("ja", "ANDREA", "[BLOCK_TYPE simplex/simplex_content] ANDREA", "markers"),
        ("id", "`dictionary`", "`kamus`", "glossary"),
    ],
)
def test_the_strict_build_fails_where_the_command_does(tmp_path, locale, old, new, kind):
    config = copy_site(tmp_path)
    page = tmp_path / "docs" / locale / PAGE
    text = page.read_text(encoding="utf-8")
    at = text.index(old)
    page.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    line = text[:at].count("\n") + 1
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0
    where = f"docs/{locale}/{PAGE}:{line}: {kind}:"
    assert where in result.stderr and "Traceback" not in result.stderr
    code, out, _ = command_table(tmp_path)
    assert code == 1 and where in out
