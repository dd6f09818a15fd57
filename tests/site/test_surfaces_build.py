"""A defect in a locale's labels or grader catalog fails the real strict build at its path:line: kind:, and the
status page shows the review record, out of date once English changes."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from mkdocs.utils.yaml import yaml_load

from hooks.chapters.pages import source_hash
from hooks.translations import review
from tests.conftest import ROOT, run_mkdocs_build, wait_seconds
from tests.hooks.test_surfaces import set_label, set_message
from tests.site.test_translation_status import status_table


def copy_project(tmp_path: Path, locales: tuple[str, ...] | None = None) -> Path:
    """A copy of the docs, the hooks and the grader (its catalogs are read from the copy), with its own config;
    `locales`: keep only these besides English."""
    for name in ("docs", "hooks", "grader", ".cache"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")     # the manual's `grader check` examples (README and
    # docs/en, copied above): the checker's corpus
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
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
                          text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=wait_seconds(60))


def test_a_label_or_catalog_defect_fails_the_strict_build_at_its_line(tmp_path):
    config = copy_project(tmp_path)
    before = command(tmp_path).stdout
    wheres = [
        "%s:%d: numbers:" % set_label(tmp_path, "fr", "figures.embedding_note",
                                      "longueur du segment = distance euclidienne, par exemple 0.471"),
        "%s:%d: glossary:" % set_message(tmp_path, "ja", "constraint-floor", "下限 {symbol} >= {bound}"),
        "%s:%d: typography:" % set_message(tmp_path, "fr", "squared-distance",
                                           "C'est la distance au carré : prenez la racine carrée de la somme des carrés."),
        # what shows only once the grader fills the message in: a space before a value that is Chinese text
        "%s:%d: typography: wrong-form, as the grader writes it" % set_message(tmp_path, "zh", "wrong-form",
                                                                               "形式不对：应为 {expected}，但你给出的是{got}。"),
    ]
    assert not any(where in before for where in wheres)
    result = run_mkdocs_build(config, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    for where in wheres:
        assert where in result.stderr, where
    after = command(tmp_path)
    assert after.returncode == 1 and all(where in after.stdout for where in wheres)


def test_the_status_page_shows_what_was_reviewed_against_which_english(tmp_path):
    config = copy_project(tmp_path, locales=("fr", "id"))
    for locale in ("fr", "id"):  # the record is what is shown, whatever the state of the pages
        for page in (tmp_path / "docs" / locale).glob("*.md"):
            page.unlink()
        for record in review.record_files(tmp_path / "docs", locale):
            record.unlink()
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
    table = status_table((tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8"), "course-review")
    rows = {(row[0], row[1]): [" ".join(cell.split()) for cell in row] for row in table[1:]}
    labels_hash = source_hash((tmp_path / "docs/en/labels.toml").read_text(encoding="utf-8"))
    assert rows[("fr", "labels.toml")][2:] == [f"{datetime.date.today()}, <b>fr</b> reviewer", labels_hash, "up to date"]
    assert rows[("id", "grader.po")][2:] == ["2026-11-30, id reviewer", f"{source_hash(english)} (now "
                                             f"{source_hash(catalog.read_text(encoding='utf-8'))})", "out of date"]
    html = (tmp_path / "site/translation-status/index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;fr&lt;/b&gt; reviewer" in html and "<b>fr</b>" not in html
    assert "<code>labels.toml</code>: 0.471 written 0,471" in html
