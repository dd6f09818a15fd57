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

import tomllib
import yaml
from mkdocs.utils.yaml import yaml_load

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
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
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


TRANSLATIONS = ("ja", "zh", "ko", "fr", "id")


def build_lacking_lesson_1(folder: Path) -> Path:
    """A copy of the site without lesson 1 in any translation; the accessibility tests serve it too
    (shared_builds: built once per run)."""
    config = copy_site(folder)
    for locale in TRANSLATIONS:
        (folder / "docs" / locale / "01-semantic-distance.md").unlink()
    result = run_mkdocs_build(config, folder / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "site"


def test_a_page_a_locale_lacks_falls_back_to_english_with_a_notice_in_its_language(shared_builds):
    """Every locale translates every lesson; without its lesson 1, a locale shows the English page under a notice
    in the reader's language (its labels.toml), and the status counts the page missing."""
    tmp_path = shared_builds.get("lacking-lesson-1", build_lacking_lesson_1).parent   # the copy the site is built from
    translations = TRANSLATIONS
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


# a slip of each kind, each in another locale's copy of the page: one strict build of the copy meets them all
SLIPS = [
    ("fr", "$\\sum_i w_i = 1$", "$\\sum_i w_i = 2$", "math"),
    ("ja", "ANDREA", "[BLOCK_TYPE simplex/simplex_content] ANDREA", "markers"),
    ("id", "`dictionary`", "`kamus`", "glossary"),
]


def test_the_strict_build_fails_where_the_command_does(tmp_path):
    """Each slip is named by the strict build and by the translators' command at its file and line, with its kind."""
    config = copy_site(tmp_path)
    places = []
    for locale, old, new, kind in SLIPS:
        page = tmp_path / "docs" / locale / PAGE
        text = page.read_text(encoding="utf-8")
        at = text.index(old)
        page.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
        places.append(f"docs/{locale}/{PAGE}:{text[:at].count(chr(10)) + 1}: {kind}:")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert [where for where in places if where not in result.stderr] == [], result.stderr[-3000:]
    code, out, _ = command_table(tmp_path)
    assert code == 1 and [where for where in places if where not in out] == [], out


def draft_of(text: str, sections: int) -> str:
    """The page as a draft in progress: `draft: true`, and only its first `sections` sections."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("## ")]
    body = "\n".join(lines[:starts[sections]]) + "\n"
    return body.replace("---\n", "---\ndraft: true\n", 1) if body.startswith("---\n") else "---\ndraft: true\n---\n\n" + body


def file_rows(html: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(locale, file) -> (errors, warnings) of the status page's table of files."""
    return {(row[0], row[1]): (row[2], row[3]) for row in status_table(html, "course-status__files")[1:]}


def test_a_draft_is_built_with_its_notice_and_counted_as_warnings(tmp_path):
    config = copy_site(tmp_path)
    page = tmp_path / "docs/ko/03-loss-terrain.md"
    page.write_text(draft_of(page.read_text(encoding="utf-8"), 2), encoding="utf-8")
    result = run_mkdocs_build(config, tmp_path / "site")        # strict, and the draft's findings do not fail it
    assert result.returncode == 0, result.stderr[-3000:]
    assert "docs/ko/03-loss-terrain.md:" in result.stderr and "structure (draft): section '## " in result.stderr
    html = (tmp_path / "site/ko/03-loss-terrain/index.html").read_text(encoding="utf-8")
    labels = tomllib.loads((ROOT / "docs/ko/labels.toml").read_text("utf-8"))
    notice = re.search(r'<p class="course-draft"[^>]*lang="ko"[^>]*>(.*?)</p>', html, re.S)
    assert notice and labels["draft_notice"] in notice.group(1)
    assert "course-draft" not in (tmp_path / "site/ko/04-simplex-walk/index.html").read_text(encoding="utf-8")
    status = (tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8")
    code, out, rows = command_table(tmp_path)
    assert code == 0 and status_table(status) == rows
    assert dict(zip(rows[0], next(r for r in rows if r[0] == "ko")))["drafts"] == "1"
    errors, warnings = file_rows(status)[("ko", "docs/ko/03-loss-terrain.md (draft)")]
    assert errors == "0" and int(warnings) == out.count("docs/ko/03-loss-terrain.md:") and int(warnings) >= 4
    assert "<code>03-loss-terrain.md</code> (draft)" in status


def free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_keeps_serving_a_page_with_errors_and_shows_them(tmp_path):
    """`mkdocs serve` (make serve) goes on while a page has errors, says them in the terminal and on the page, and
    its status page counts them as the command does; the strict build of the same copy fails on them."""
    import time
    import urllib.request
    config = copy_site(tmp_path)
    page = tmp_path / "docs/fr" / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("$\\sum_i w_i = 1$", "$\\sum_i w_i = 2$", 1), encoding="utf-8")
    line = text[:text.index("$\\sum_i w_i = 1$")].count("\n") + 1
    port, log = free_port(), tmp_path / "serve.log"
    with log.open("w") as out:
        serve = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--no-strict", "-f", str(config),   # as make serve
                                  "-a", f"127.0.0.1:{port}"],
                                 cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                 env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        try:
            deadline, html = time.monotonic() + wait_seconds(150), None
            while html is None and time.monotonic() < deadline and serve.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/fr/04-simplex-walk/", timeout=5) as reply:
                        html = reply.read().decode("utf-8")
                except OSError:
                    time.sleep(1)
            assert html is not None, log.read_text(encoding="utf-8")[-3000:]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/translation-status/", timeout=5) as reply:
                status = reply.read().decode("utf-8")
        finally:
            serve.terminate()
            serve.wait(timeout=wait_seconds(30))
    problems = re.search(r'<div class="course-problems"[^>]*>(.*?)</div>', html, re.S)
    assert problems and f"line {line}: math: " in problems.group(1)
    # the page keeps its title, and its label in the nav, while it has problems (not its file's name)
    title = re.search(r"(?m)^# (.*)$", text).group(1)
    assert f"<title>{title}" in html and "04 simplex walk" not in html.lower()
    assert html.index('class="course-problems"') > html.index("<h1")
    said = log.read_text(encoding="utf-8")
    assert f"docs/fr/{PAGE}:{line}: math:" in said and "make build fails on it" in said
    errors, _ = file_rows(status)[("fr", f"docs/fr/{PAGE}")]
    code, out, rows = command_table(tmp_path)        # the same count as the translators' report
    assert code == 1 and int(errors) >= 1 and int(errors) == out.count(f"docs/fr/{PAGE}:")
    assert next(r for r in status_table(status) if r[0] == "fr") == next(r for r in rows if r[0] == "fr")
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0 and f"docs/fr/{PAGE}:{line}: math:" in result.stderr
