"""The translator's loop: findings in file and line order, messages with the actual value and its fix, a partial
page reported section by section, drafts as warnings, a page without `translation_of` stale by its review, and the
progress (the command's table and the status page's) counting errors and warnings file by file."""

from __future__ import annotations

import re
import shutil

import pytest

from hooks.chapters.pages import FRONT_MATTER, source_hash
from hooks.translations import report as translations
from hooks.translations import review
from tests.hooks.test_translations import ROOT, copy_locale_pair, glossary, real, run_command

PAGE = "03-loss-terrain.md"


def cut_after_sections(text: str, sections: int) -> str:
    """The page up to (not including) its `sections`-th level-2 heading: a translation in progress."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("## ")]
    return "\n".join(lines[:starts[sections]]) + "\n"


def english_headings(after: int) -> list[tuple[int, str]]:
    lines = real("en", PAGE).splitlines()
    return [(n, line) for n, line in enumerate(lines, 1) if line.startswith("## ")][after:]


@pytest.mark.parametrize("locale", ["ja", "ko"])
def test_a_partial_page_gets_one_finding_per_missing_section(locale):
    partial = cut_after_sections(real(locale, PAGE), 2)
    found = translations.check_page(real("en", PAGE), partial, locale, f"docs/{locale}/{PAGE}", glossary(locale))
    missing = english_headings(2)
    assert [(f.kind, f.line) for f in found] == [("structure", len(partial.splitlines()))] * len(missing)
    for finding, (line, heading) in zip(found, missing):
        assert f"'{heading}' (English line {line})" in finding.message
    assert found[0].message.startswith(f"section '{missing[0][1]}'")      # the first missing heading, first


def test_a_page_with_another_structure_is_still_a_structure_error():
    text = real("ja", PAGE)
    swapped = text.replace("## ", "### ", 1)
    found = translations.check_page(real("en", PAGE), swapped, "ja", f"docs/ja/{PAGE}", glossary("ja"))
    assert [f.kind for f in found] == ["structure"] and "found 'h3' where English has 'h2'" in found[0].message


def test_a_decimal_point_is_named_with_its_fix():
    lines = real("fr", "04-simplex-walk.md").splitlines()
    at = next(n for n, line in enumerate(lines) if line and not line.startswith(("#", "/", "-", "$", " ")) and n > 3)
    lines.insert(at + 1, "\nLa valeur 0.13 et 12345.5 sont écrites à l’anglaise.\n")
    found = translations.check_page(real("en", "04-simplex-walk.md"), "\n".join(lines) + "\n", "fr",
                                    "docs/fr/04-simplex-walk.md", glossary("fr"))
    messages = [f.message for f in found if f.kind == "numbers" and "decimal point" in f.message]
    assert any(m.endswith("write 0,13") for m in messages)
    assert any(m.endswith("write 12\u202f345,5") for m in messages)


def test_findings_come_in_file_and_line_order(tmp_path):
    docs = copy_locale_pair(tmp_path, "ja")
    for name in ("02-attention-projection.md", PAGE):           # two pages, each with defects at two places
        page = docs / "ja" / name
        lines = page.read_text(encoding="utf-8").splitlines()
        lines.insert(len(lines) - 1, "\nThis is the English sentence left in the page at its end.\n")
        lines.insert(12, "\nAnother English sentence is left in the page, near its start.\n")
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = translations.check_locale(docs, "ja", tmp_path)
    assert len({f.path for f in found if f.kind == "untranslated"}) == 2
    assert [(f.path, f.line) for f in found] == sorted((f.path, f.line) for f in found)


def draft(text: str) -> str:
    m = FRONT_MATTER.match(text)
    return f"---\n{m.group(1)}\ndraft: true\n---\n{text[m.end():]}" if m else f"---\ndraft: true\n---\n\n{text}"


def test_a_drafts_findings_are_warnings_but_what_breaks_it_is_not(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    page = docs / "ko" / PAGE
    partial = cut_after_sections(page.read_text(encoding="utf-8"), 2)
    page.write_text(partial, encoding="utf-8")
    errors = [f for f in translations.check_locale(docs, "ko", tmp_path) if f.error]
    assert errors and {f.kind for f in errors} == {"structure"}
    page.write_text(draft(partial) + "\n[링크](nowhere.md).\n", encoding="utf-8")
    found = translations.check_locale(docs, "ko", tmp_path)
    assert [f.kind for f in found if f.error] == ["link"]                 # it would break the page: an error
    drafted = [f for f in found if f.draft]
    assert {f.kind for f in drafted} == {"structure"} and all(f.path == f"docs/ko/{PAGE}" for f in drafted)
    assert all(" structure (draft): " in str(f) for f in drafted)
    row = translations.progress(docs, {"ko": found})[0]
    assert row.drafts == (PAGE,) and row.errors == 1 and row.warnings >= len(drafted)
    assert (f"docs/ko/{PAGE}", 1, len(drafted)) in row.files


def test_a_page_without_translation_of_is_stale_by_its_last_review(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    page, english = docs / "ko" / PAGE, docs / "en" / PAGE
    page.write_text(FRONT_MATTER.sub("", page.read_text(encoding="utf-8")), encoding="utf-8")   # no translation_of
    review.append(docs, "ko", PAGE, source_hash(english.read_text(encoding="utf-8")), "ko reviewer", [])
    stale = lambda: [f for f in translations.check_locale(docs, "ko", tmp_path) if f.kind == "stale"]  # noqa: E731
    assert stale() == []
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    assert [(f.path, f.line) for f in stale()] == [(f"docs/ko/{PAGE}", 1)]
    assert "since its last review" in stale()[0].message


def test_the_status_page_counts_errors_and_warnings_file_by_file(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    page = docs / "ko" / PAGE
    page.write_text(draft(cut_after_sections(page.read_text(encoding="utf-8"), 3)), encoding="utf-8")
    other = docs / "ko" / "04-simplex-walk.md"
    other.write_text(other.read_text(encoding="utf-8") + "\nThis English sentence is left at the end of the page.\n",
                     encoding="utf-8")
    rows = translations.progress(docs, {"ko": translations.check_locale(docs, "ko", tmp_path)})
    html = translations.progress_html(rows)
    cells = dict(re.findall(r"<tr><td>ko</td><td><code>([^<]+)</code>[^<]*</td><td>(\d+</td><td>\d+)</td></tr>", html))
    assert cells[f"docs/ko/{PAGE}"].startswith("0</td><td>") and not cells[f"docs/ko/{PAGE}"].endswith(">0")
    assert cells["docs/ko/04-simplex-walk.md"].startswith("1</td>")
    assert f"<code>{PAGE}</code> (draft)" in html and f"docs/ko/{PAGE}</code> (draft)" in html


@pytest.mark.slow
def test_the_command_prints_drafts_as_warnings_and_exits_zero(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    page = docs / "ko" / PAGE
    page.write_text(draft(cut_after_sections(page.read_text(encoding="utf-8"), 2)), encoding="utf-8")
    shutil.copytree(ROOT / "grader" / "locale", tmp_path / "grader" / "locale")
    done = run_command("ko", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"docs/ko/{PAGE}:" in done.stdout and " structure (draft): section '## " in done.stdout
    header, row = [re.split(r"\s{2,}", line.strip()) for line in done.stdout.splitlines()
                   if line.startswith(("locale", "ko "))]
    assert dict(zip(header, row))["drafts"] == "1" and dict(zip(header, row))["errors"] == "0"
    assert done.stdout.rstrip().endswith("0 error(s)")
