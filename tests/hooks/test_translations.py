"""The translation checks catch each kind of defect the delivered seeds had, with file and line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hooks import translations
from hooks.translations import check_page, source_hash, stamp

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGE = "04-simplex-walk.md"


def real(locale: str, page: str = PAGE) -> str:
    return (DOCS / locale / page).read_text(encoding="utf-8")


def glossary(locale: str) -> list[dict]:
    return translations.load_glossary(DOCS / locale)


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
def test_the_published_translations_are_clean(locale):
    findings = translations.check_locale(DOCS, locale, ROOT)
    problems = [str(f) for f in findings if f.kind not in translations.INFO_KINDS]
    assert problems == []


DEFECTS = [
    # (locale, injected paragraph, expected kind)
    ("ja", "このように射影を計算します。[BLOCK_TYPE SECTION/STEP]", "marker"),
    ("ko", "Think of K as a list of vectors in the space of the keys, one for each token.", "english"),
    ("fr", "Think of K as a list of vectors in the space of the keys, one for each token.", "english"),
    ("id", "Entri di atas diagonal & bobot nol.", "punctuation"),
    ("fr", "Le plancher vaut 0.7 pour cette source.", "number-format"),
    ("fr", "Le plancher vaut 0,8 pour cette source.", "numbers"),
    ("ja", "双曲面で単体を切ります。", "glossary"),
    ("zh", "两个向量的内积。", "glossary"),
]


@pytest.mark.parametrize("locale, paragraph, kind", DEFECTS)
def test_each_defect_is_found_at_its_line(locale, paragraph, kind):
    text, line = inject(real(locale), first_prose_line(real(locale)), paragraph)
    path = f"docs/{locale}/{PAGE}"
    findings = check_page(real("en"), text, locale, path, glossary(locale))
    assert any(f.kind == kind and f.line == line for f in findings), findings
    assert all(str(f).startswith(f"{path}:") for f in findings)


@pytest.mark.parametrize("locale, identifier, translated", [("fr", "dictionary", "dictionnaire"), ("zh", "repo-docs", "仓库文档")])
def test_a_translated_identifier_is_found(locale, identifier, translated):
    text = real(locale).replace(f"`{identifier}`", translated, 1)
    findings = check_page(real("en"), text, locale, "p.md", glossary(locale))
    assert [f.kind for f in findings] == ["identifier"]
    assert f"`{identifier}`" in findings[0].message


def test_a_missing_block_breaks_the_structure():
    text = real("ko").replace("/// reading\n", "", 1)
    text = text.replace("\n///\n", "\n", 1)
    findings = check_page(real("en"), text, "ko", "p.md", glossary("ko"))
    assert any(f.kind == "structure" for f in findings)


def test_a_stamped_page_goes_stale_when_english_changes(tmp_path):
    for locale in ("en", "ko"):
        (tmp_path / "docs" / locale).mkdir(parents=True)
        unstamped = translations.FRONT_MATTER.sub("", real(locale))
        (tmp_path / "docs" / locale / PAGE).write_text(unstamped, encoding="utf-8")
        (tmp_path / "docs" / locale / "labels.toml").write_text("", encoding="utf-8")
    assert stamp(tmp_path / "docs", "ko") == [tmp_path / "docs/ko" / PAGE]
    assert [f.kind for f in translations.check_locale(tmp_path / "docs", "ko", tmp_path)] == []
    english = tmp_path / "docs/en" / PAGE
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    findings = translations.check_locale(tmp_path / "docs", "ko", tmp_path)
    assert [(f.kind, f.line) for f in findings] == [("stale", 1)]
    assert source_hash(english.read_text(encoding="utf-8")) not in (tmp_path / "docs/ko" / PAGE).read_text()


def test_the_command_reports_and_exits():
    ok = subprocess.run([sys.executable, "-m", "hooks.translations", "ja"], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "docs/ja/01-semantic-distance.md:1: missing:" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "hooks.translations", "xx"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown locale xx" in bad.stderr


@pytest.mark.parametrize(
    "paragraph, kind",
    [
        ("/// sidebar\nx\n///", "block"),
        ("Une formule cassée : $x^$.", "math"),
        ("Voir [la leçon](06-nowhere.md).", "link"),
    ],
)
def test_what_would_break_the_page_is_found(paragraph, kind):
    text, line = inject(real("fr"), first_prose_line(real("fr")), paragraph)
    pages = frozenset(p.name for p in (DOCS / "en").glob("*.md"))
    findings = translations.broken(text, "docs/fr/p.md", pages)
    assert [(f.kind, f.line) for f in findings] == [(kind, line)]


def test_the_published_pages_are_not_broken():
    for locale in ("en", "ja", "zh", "ko", "fr", "id"):
        pages = frozenset(p.name for d in ("en", locale) for p in (DOCS / d).glob("*.md"))
        for path in sorted((DOCS / locale).glob("*.md")):
            assert translations.broken(path.read_text("utf-8"), str(path), pages) == []


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
