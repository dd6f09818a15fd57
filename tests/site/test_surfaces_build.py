"""A defect in a locale's labels or grader catalog fails the real strict build at its path:line: kind:, and the
status page shows the review record, out of date once English changes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import yaml

from hooks.pages import source_hash
from hooks.translations import _label_lines
from tests.conftest import ROOT, run_mkdocs_build


def copy_project(tmp_path: Path, locales: tuple[str, ...] | None = None) -> Path:
    """A copy of the docs, the hooks and the grader (its catalogs are read from the copy), with its own config;
    `locales`: keep only these besides English."""
    for name in ("docs", "hooks", "grader", ".cache"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(tmp_path / "docs")
    config["hooks"] = [str(tmp_path / "hooks" / "course.py")]
    if locales is not None:
        i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
        i18n["languages"] = [lang for lang in i18n["languages"] if lang["locale"] in ("en", *locales)]
        for folder in (tmp_path / "docs").iterdir():
            if folder.is_dir() and folder.name not in ("en", "assets", *locales):
                shutil.rmtree(folder)
    path = tmp_path / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def command(root: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m hooks.translations` run in the copy, with the copy's hooks and grader."""
    return subprocess.run([sys.executable, "-m", "hooks.translations", *args], cwd=root, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(root)})


def set_label(root: Path, locale: str, key: str, value: str) -> str:
    path = root / "docs" / locale / "labels.toml"
    line = _label_lines(path)[key][0]
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f"{key.split('.')[-1]} = {json.dumps(value, ensure_ascii=False)}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return f"docs/{locale}/labels.toml:{line}"


def set_message(root: Path, locale: str, key: str, value: str) -> str:
    name = f"grader/locale/{locale}/LC_MESSAGES/grader.po"
    lines = (root / name).read_text(encoding="utf-8").split("\n")
    at = lines.index(f"msgctxt {json.dumps(key)}")
    line = next(n for n in range(at, len(lines)) if lines[n].startswith("msgstr ")) + 1
    lines[line - 1] = f"msgstr {json.dumps(value, ensure_ascii=False)}"
    (root / name).write_text("\n".join(lines), encoding="utf-8")
    return f"{name}:{line}"


def test_a_label_or_catalog_defect_fails_the_strict_build_at_its_line(tmp_path):
    config = copy_project(tmp_path)
    before = command(tmp_path).stdout
    wheres = [
        set_label(tmp_path, "fr", "forms.scalar", "un nombre : exact, comme sqrt(2)/3, ou décimal, comme 0.471")
        + ": numbers:",
        set_message(tmp_path, "ja", "constraint-floor", "下限 {symbol} >= {bound}") + ": glossary:",
        set_message(tmp_path, "fr", "squared-distance",
                    "C'est la distance au carré : prenez la racine carrée de la somme des carrés.") + ": typography:",
    ]
    assert not any(where in before for where in wheres)
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    for where in wheres:
        assert where in result.stderr, where
    after = command(tmp_path)
    assert after.returncode == 1 and all(where in after.stdout for where in wheres)


class ReviewRows(HTMLParser):
    """The rows of <table class="course-review">, as text cells."""

    def __init__(self):
        super().__init__()
        self.rows, self.inside, self.cell = [], False, None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "course-review") in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append(" ".join(self.cell.split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def test_the_status_page_shows_what_was_reviewed_against_which_english(tmp_path):
    config = copy_project(tmp_path, locales=("fr", "id"))
    for locale in ("fr", "id"):  # the record is what is shown, whatever the state of the pages
        for page in (tmp_path / "docs" / locale).glob("*.md"):
            page.unlink()
        (tmp_path / "docs" / locale / "review.toml").unlink(missing_ok=True)
    stamped = command(tmp_path, "--stamp", "docs/fr/labels.toml", "--reviewer", "<b>fr</b> reviewer",
                      "--change", "0.471 written 0,471")
    assert "recorded the review of labels.toml in docs/fr/review.toml" in stamped.stdout, stamped.stderr
    english = (tmp_path / "grader/locale/en/LC_MESSAGES/grader.po").read_text(encoding="utf-8")
    (tmp_path / "docs/id/review.toml").write_text(
        f'[[catalog]]\nenglish_hash = "{source_hash(english)}"\ndate = "2026-11-30"\nreviewer = "id reviewer"\n'
        'changes = ["warmup: pemanasan"]\n', encoding="utf-8")
    catalog = tmp_path / "grader/locale/en/LC_MESSAGES/grader.po"
    catalog.write_text(english.replace('msgid "Correct."', 'msgid "Correct!"'), encoding="utf-8")  # English moves on
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "docs/id/review.toml:1: review-stale: grader.po was reviewed against English" in result.stderr
    parser = ReviewRows()
    parser.feed((tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8"))
    rows = {(row[0], row[1]): row for row in parser.rows if row}  # the header row has no <td>
    labels_hash = source_hash((tmp_path / "docs/en/labels.toml").read_text(encoding="utf-8"))
    assert rows[("fr", "labels.toml")][3:7] == ["<b>fr</b> reviewer", labels_hash, labels_hash, "up to date"]
    assert rows[("id", "grader.po")][4:7] == [source_hash(english), source_hash(catalog.read_text(encoding="utf-8")),
                                              "out of date"]
    assert re.search(r"<td>&lt;b&gt;fr&lt;/b&gt; reviewer</td>",
                     (tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8"))
