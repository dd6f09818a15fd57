"""The translation checks find each kind of defect the delivered seeds had (and more), with file, line and kind."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.chapters.pages import FRONT_MATTER, source_hash
from hooks.translations import pagechecks, review
from hooks.translations import report as translations
from hooks.translations.report import check_page
from hooks.translations.review import stamp_pages as stamp

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGE = "04-simplex-walk.md"


def real(locale: str, page: str = PAGE) -> str:
    return (DOCS / locale / page).read_text(encoding="utf-8")


def glossary(locale: str) -> translations.Glossary:
    return translations.load_glossary(DOCS / locale, translations.load_glossary(DOCS / "en"))


def findings_of(locale: str, text: str, page: str = PAGE) -> list[translations.Finding]:
    return check_page(real("en", page), text, locale, f"docs/{locale}/{page}", glossary(locale))


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def inject(text: str, after_line: int, new: str) -> tuple[str, int]:
    """Insert `new` as a paragraph after line `after_line`; return the text and the new line's number."""
    lines = text.splitlines()
    lines[after_line:after_line] = ["", new, ""]
    return "\n".join(lines) + "\n", after_line + 2


def first_prose_line(text: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line and not line.startswith(("#", "/", "-", "$", " ")) and number > 3:
            return number
    raise AssertionError("no prose line")


@pytest.mark.parametrize("locale", ["en", "ja", "zh", "ko", "fr", "id"])
@pytest.mark.slow
def test_the_published_translations_are_clean(locale):
    findings = translations.check_locale(DOCS, locale, ROOT)
    assert [str(f) for f in findings if f.kind not in translations.INFO_KINDS] == []


# (locale, paragraph injected after the first prose line, expected kind): each seed defect, and more
INJECTED = [
    ("ja", "このように射影を計算します。[BLOCK_TYPE SECTION/STEP]", "markers"),
    ("ko", "[BLOCK_TYPE simplex/simplex_question] 꼭짓점을 모두 구하세요.", "markers"),
    ("zh", "[EXPORT_NOTE draft] 单纯形的顶点。", "markers"),
    ("ko", "Think of K as a list of vectors in the space of the keys, one for each token.", "untranslated"),
    ("fr", "Think of K as a list of vectors in the space of the keys, one for each token.", "untranslated"),
    ("zh", "[过去 token 1] [past token 3]", "untranslated"),
    ("ja", "各頂点は the reachable region の角です。", "untranslated"),
    ("fr", "Diversity is zero: the model trains on a single distribution.", "untranslated"),
    ("id", "Entri di atas diagonal & bobot nol.", "punctuation"),
    ("fr", "Le plancher vaut 0.7 pour cette source.", "numbers"),
    ("fr", "Le plancher vaut 0,8 pour cette source.", "numbers"),
    ("id", "Batas atasnya 0,35 untuk sumber ini.", "numbers"),
    ("ja", "双曲面で単体を切ります。", "glossary"),
    ("zh", "两个向量的内积。", "glossary"),
    ("fr", "Soit $w_i \\geq 0.5$ pour toute source.", "math"),
    ("ko", "여기서 $\\sum_j w_j = 1$ 입니다.", "math"),
]


@pytest.mark.parametrize("locale, paragraph, kind", INJECTED)
def test_an_injected_defect_is_found_at_its_line(locale, paragraph, kind):
    text, line = inject(real(locale), first_prose_line(real(locale)), paragraph)
    findings = findings_of(locale, text)
    assert (line, kind) in [(f.line, f.kind) for f in findings], findings
    assert all(str(f).startswith(f"docs/{locale}/{PAGE}:") for f in findings)


# (locale, page, text to replace, replacement, expected kind): edits of the published page itself
EDITED = [
    # structure: a heading level, a block's type, an exercise's id, a lost block
    ("ja", PAGE, "\n## ", "\n### ", "structure"),
    ("fr", PAGE, "/// reading", "/// step | Lecture", "structure"),
    ("zh", "02-attention-projection.md", "/// figure | attention-weights", "/// figure | warmup-schedule", "structure"),
    # math differs from English: changed, or a number in it changed
    ("fr", PAGE, "$\\sum_i w_i = 1$", "$\\sum_i w_i = 2$", "math"),
    ("id", "02-attention-projection.md", "$\\sqrt{d_k}$", "$\\sqrt{d_q}$", "math"),
    # numbers: a figure changed in the prose
    ("ko", "03-loss-terrain.md", "112,080", "112,800", "numbers"),
    # untranslated: a heading left in English
    ("fr", "02-attention-projection.md", "## L’attention multi-têtes comme projection sur plusieurs sous-espaces",
     "## Multi-head attention as multi-subspace projection", "untranslated"),
    ("id", "03-loss-terrain.md", "\n## ", "\n## Gradient Descent as a Path on Terrain\n\n## ", "untranslated"),
    # glossary: an identifier translated, in backticks or not; a forbidden rendering
    ("fr", PAGE, "`dictionary`", "`dictionnaire`", "glossary"),
    ("zh", PAGE, "`repo-docs`", "仓库文档", "glossary"),
    ("ja", "02-attention-projection.md", "アテンション", "注意機構", "glossary"),
    # what the reviewers read: id's 2.000 where the grader and the figures write 2000; a Korean bracket set apart
    # from its word; a Japanese list joined with ASCII ', '
    ("id", "03-loss-terrain.md", "2000 langkah", "2.000 langkah", "numbers"),
    ("ko", "03-loss-terrain.md", "모델을 재설정 없이", "모델을 (재설정 없이)", "typography"),
    ("ja", "02-attention-projection.md", "ほぼ 1、残り", "ほぼ 1, 残り", "typography"),
]


@pytest.mark.parametrize("locale, page, old, new, kind", EDITED)
def test_an_edited_page_is_found_at_the_edit(locale, page, old, new, kind):
    original = real(locale, page)
    assert old in original, f"the fixture no longer matches docs/{locale}/{page}"
    text = original.replace(old, new, 1)
    findings = findings_of(locale, text, page)
    kinds = [f.kind for f in findings]
    assert kind in kinds, findings
    assert line_of(text, new.strip().splitlines()[0]) in [f.line for f in findings if f.kind == kind], findings


def test_a_lost_math_segment_is_reported_in_its_section():
    text = real("ja").replace("$\\sum_i w_i = 1$", "総和が 1", 1)
    found = [f for f in findings_of("ja", text) if f.kind == "math"]
    assert len(found) == 1 and "\\sum_i w_i = 1" in found[0].message
    english_line = line_of(real("en"), "$\\sum_i w_i = 1$")
    assert f"line {english_line}" in found[0].message


def test_a_required_rendering_that_is_missing_is_found():
    text = real("ja", "02-attention-projection.md").replace("射影", "投射")
    found = [f for f in findings_of("ja", text, "02-attention-projection.md") if f.kind == "glossary"]
    assert any("'projection'" in f.message and "射影" in f.message for f in found), found


def test_math_keeps_each_locales_number_format():
    english, french = "Here $0.7 + 120,000 = x$.", "Ici $0{,}7 + 120\\,000 = x$."
    assert [f for f in check_page(english, french, "fr", "p.md", translations.Glossary()) if f.kind == "math"] == []
    assert pagechecks.canonical_math("0{,}7", "fr") == pagechecks.canonical_math("0.7", "en")


def test_a_label_left_in_english_is_found_in_labels_toml(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS / "en", docs / "en")
    shutil.copytree(DOCS / "ja", docs / "ja")
    labels = docs / "ja" / "labels.toml"
    text = labels.read_text(encoding="utf-8")
    english = (DOCS / "en" / "labels.toml").read_text(encoding="utf-8")
    original = next(line for line in text.splitlines() if line.startswith("reading = "))
    labels.write_text(text.replace(original, next(l for l in english.splitlines() if l.startswith("reading = "))),
                      encoding="utf-8")
    found = translations.check_labels(docs, "ja", tmp_path, translations.load_glossary(docs / "ja"))
    assert [(f.path, f.line, f.kind) for f in found] == [("docs/ja/labels.toml", line_of(text, original), "untranslated")]


def test_the_grader_catalog_is_part_of_the_report(tmp_path):
    shutil.copytree(ROOT / "grader" / "locale", tmp_path / "grader" / "locale")
    catalog = tmp_path / "grader/locale/ja/LC_MESSAGES/grader.po"
    text = catalog.read_text(encoding="utf-8")
    entry = text.index('msgctxt "correct"')
    msgstr = text.index("msgstr", entry)
    end = text.index("\n", msgstr)
    catalog.write_text(text[:msgstr] + 'msgstr "正解です {name}。"' + text[end:], encoding="utf-8")
    found = [f for f in translations.check_grader_catalog("ja", tmp_path) if f.kind not in translations.INFO_KINDS]
    line = text[:msgstr].count("\n") + 1      # the msgstr the translator edited, not the English msgid
    assert [(f.path, f.line, f.kind) for f in found] == [("grader/locale/ja/LC_MESSAGES/grader.po", line, "catalog")]
    assert "placeholders" in found[0].message
    assert [f for f in translations.check_grader_catalog("ja") if f.kind not in translations.INFO_KINDS] == []


def copy_locale_pair(tmp_path: Path, locale: str) -> Path:
    docs = tmp_path / "docs"
    for name in ("en", locale):
        shutil.copytree(DOCS / name, docs / name)
    return docs


@pytest.mark.slow
def test_a_stamped_page_goes_stale_when_english_changes(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    page = docs / "ko" / PAGE
    page.write_text(FRONT_MATTER.sub("", page.read_text(encoding="utf-8")), encoding="utf-8")
    assert stamp(docs, [page]) == [page]
    pages = lambda: [f for f in translations.check_locale(docs, "ko", tmp_path)  # noqa: E731
                     if f.kind not in ("review-stale", "catalog-untranslated")]
    assert pages() == []     # (a review of the labels or catalog is another record; messages not translated yet, too)
    english = docs / "en" / PAGE
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    assert [(f.path, f.line, f.kind) for f in pages()] == [(f"docs/ko/{PAGE}", 1, "stale")]
    assert source_hash(english.read_text(encoding="utf-8")) not in page.read_text(encoding="utf-8")
    assert stamp(docs, [page]) == [page] and pages() == []


@pytest.mark.slow
def test_the_command_stamps_one_page_or_a_whole_locale(tmp_path):
    docs = copy_locale_pair(tmp_path, "ko")
    english = docs / "en" / PAGE
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    other = docs / "en" / "03-loss-terrain.md"
    other.write_text(other.read_text(encoding="utf-8") + "\nOne more.\n", encoding="utf-8")
    one = run_command("ko", "--stamp", f"docs/ko/{PAGE}", "--reviewer", "ko reviewer", cwd=tmp_path)
    assert one.returncode == 0 and one.stdout.splitlines()[0] == f"stamped docs/ko/{PAGE}"
    assert "docs/ko/03-loss-terrain.md:1: stale:" in one.stdout and f"docs/ko/{PAGE}:1: stale" not in one.stdout
    unreviewed = run_command("ko", "--stamp", cwd=tmp_path)  # a whole locale: only what the review record holds
    assert unreviewed.stdout.splitlines()[0].startswith("not stamped docs/ko/03-loss-terrain.md:")
    review.append(docs, "ko", "03-loss-terrain.md", source_hash(other.read_text(encoding="utf-8")), "ko reviewer", [])
    every = run_command("ko", "--stamp", cwd=tmp_path)
    assert every.stdout.splitlines()[0] == "stamped docs/ko/03-loss-terrain.md"  and ".md:1: stale:" not in every.stdout
    for args in (["--stamp"], ["--stamp", "docs/en/04-simplex-walk.md", "--reviewer", "r"],
                 ["--stamp", "docs/ko/nothing.md", "--reviewer", "r"], ["--stamp", f"docs/ko/{PAGE}"]):
        refused = run_command(*args, cwd=tmp_path)
        assert refused.returncode == 2 and refused.stderr and "Traceback" not in refused.stderr, args


def test_missing_and_orphan_pages(tmp_path):
    docs = copy_locale_pair(tmp_path, "fr")
    (docs / "fr" / PAGE).rename(docs / "fr" / "04-simplexe.md")
    found = {(f.path, f.kind) for f in translations.check_locale(docs, "fr", tmp_path)}
    assert (f"docs/fr/{PAGE}", "missing") in found and ("docs/fr/04-simplexe.md", "orphan") in found


def test_pages_for_staff_are_not_expected_in_other_locales():
    assert translations.english_only(real("en", "translators.md"))
    assert not any("translators.md" in f.path for f in translations.check_locale(DOCS, "ja", ROOT))


def run_command(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hooks.translations", *args], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_the_command_reports_progress_and_exits_zero_on_the_published_site():
    ok = run_command("ja")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    table = [line.split() for line in ok.stdout.splitlines() if line.startswith(("locale", "ja "))]
    expected = [page.name for page in sorted((DOCS / "en").glob("*.md"))
                if not translations.english_only(page.read_text(encoding="utf-8"))]   # the pages for readers
    translated = [name for name in expected if (DOCS / "ja" / name).exists()]
    missing = [name for name in expected if name not in translated]
    assert translated, "ja should have translated pages"
    assert all(f"docs/ja/{name}:1: missing:" in ok.stdout for name in missing)
    assert (": missing:" in ok.stdout) == bool(missing)
    assert table[0][:2] == ["locale", "translated"] and table[1][:2] == ["ja", f"{len(translated)}/{len(expected)}"]
    assert ok.stdout.rstrip().endswith("0 error(s)")


@pytest.mark.slow
def test_the_command_names_each_error_and_exits_non_zero(tmp_path):
    docs = copy_locale_pair(tmp_path, "fr")
    page = docs / "fr" / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("$\\sum_i w_i = 1$", "$\\sum_i w_i = 2$", 1), encoding="utf-8")
    bad = run_command("fr", cwd=tmp_path)
    line = line_of(text, "$\\sum_i w_i = 1$")
    assert bad.returncode == 1
    assert f"docs/fr/{PAGE}:{line}: math:" in bad.stdout
    assert "Traceback" not in bad.stderr


def test_an_unknown_locale_is_refused():
    bad = run_command("xx")
    assert bad.returncode == 2 and "unknown locale xx" in bad.stderr


@pytest.mark.parametrize("kind", sorted(translations.KINDS))
def test_the_guide_explains_every_kind(kind):
    assert f"`{kind}`" in real("en", "translators.md")


@pytest.mark.parametrize(
    "paragraph, kind",
    [
        ("/// sidebar\nx\n///", "block"),
        ("Une formule cassée : $x^$.", "math"),
        ("Voir [la leçon](06-nowhere.md).", "link"),
        ("Un <img src=x onerror=\"alert(1)\"> ici.", "markup"),
        ("<script>alert(1)</script>", "markup"),
        ("## La mise à l’échelle par $\\sqrt{d_k}$", "math"),
    ],
)
def test_what_would_break_the_page_is_found(paragraph, kind):
    text, line = inject(real("fr"), first_prose_line(real("fr")), paragraph)
    known = frozenset(p.name for p in (DOCS / "en").glob("*.md"))
    findings = translations.broken(text, "docs/fr/p.md", known)
    assert [(f.kind, f.line) for f in findings] == [(kind, line)]


def test_the_published_pages_are_not_broken():
    for locale in ("en", "ja", "zh", "ko", "fr", "id"):
        known = frozenset(p.name for d in ("en", locale) for p in (DOCS / d).glob("*.md"))
        for path in sorted((DOCS / locale).glob("*.md")):
            assert translations.broken(path.read_text("utf-8"), str(path), known) == []


@pytest.mark.parametrize(
    "locale, sentence",
    [("en", "Here $d_k = 4$."), ("fr", "Le plafond vaut 0,25."), ("ja", "ピークは 0.0003 です。")],
)
def test_exercise_data_written_by_hand_is_found(locale, sentence):
    page = {"en": "02-attention-projection.md", "fr": "04-simplex-walk.md", "ja": "03-loss-terrain.md"}[locale]
    text = real(locale, page)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("/// exercise")) + 1
    lines[at:at] = [sentence]
    findings = translations.restated("\n".join(lines), "p.md", locale, translations.bank_values())
    assert [(f.kind, f.line) for f in findings] == [("bank-number", at + 1)]


def test_numbers_outside_exercises_are_the_lessons_own():
    text = real("en", "05-submanifold.md")
    assert "16" in text and translations.restated(text, "p.md", "en", translations.bank_values()) == []


# --- a translator's slip in a file is named with its line, never a traceback

SLIPS = [   # (file, the line the translator breaks, how)
    ("labels.toml", 3, lambda row: row + " = = a slip"),
    ("glossary.toml", 2, lambda row: "[unclosed"),
    ("labels.toml", 4, lambda row: row.replace('"', "", 1)),
    (PAGE, 7, None),   # the page saved in Latin-1: the first line with a letter Latin-1 writes otherwise
]


@pytest.mark.parametrize("name, line, slip", SLIPS, ids=["labels", "glossary", "a quote left out", "latin-1 page"])
def test_a_slip_in_a_file_is_named_with_its_line(tmp_path, name, line, slip):
    docs = copy_locale_pair(tmp_path, "fr")
    path = docs / "fr" / name
    rows = path.read_text(encoding="utf-8").split("\n")
    if slip is None:
        path.write_bytes("\n".join(rows).encode("latin-1", "replace"))
        line, words = next(n for n, row in enumerate(rows, 1) if not row.isascii()), "not UTF-8"
    else:
        rows[line - 1] = slip(rows[line - 1])
        path.write_text("\n".join(rows), encoding="utf-8")
        words = "not valid TOML"
    found = run_command("fr", cwd=tmp_path)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "Traceback" not in found.stderr, found.stderr
    assert re.search(rf"^docs/fr/{re.escape(name)}:{line}: file: [^\n]*{words}", found.stdout, re.M), found.stdout


def test_a_broken_brace_in_the_grader_catalog_is_in_the_translators_report(tmp_path):
    shutil.copytree(ROOT / "grader" / "locale", tmp_path / "grader" / "locale")
    catalog = tmp_path / "grader/locale/fr/LC_MESSAGES/grader.po"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace("donnez au moins {digits} chiffres", "donnez au moins {digits chiffres", 1),
                       encoding="utf-8")
    line = next(n for n, row in enumerate(catalog.read_text("utf-8").splitlines(), 1) if "{digits chiffres" in row)
    found = [f for f in translations.check_grader_catalog("fr", tmp_path) if f.kind not in translations.INFO_KINDS]
    assert [(f.path, f.line, f.kind) for f in found] == [("grader/locale/fr/LC_MESSAGES/grader.po", line, "catalog")]
    assert found[0].message.startswith("format: 'decimal-imprecise': its braces do not parse")
