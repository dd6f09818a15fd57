"""The checks of the labels and the grader's catalogs, and across a locale's surfaces: each defect injected into
a clean copy is found at its path, line and kind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hooks.translations import report as translations
from hooks.translations import surfaces
from hooks.translations.docs import label_lines as _label_lines

ROOT = Path(__file__).resolve().parents[2]
CATALOG = "grader/locale/{}/LC_MESSAGES/grader.po"


def clean_copy(root: Path, locale: str) -> Path:
    """A copy of English's and the locale's docs folders and grader catalogs, to break."""
    for name in ("en", locale):
        shutil.copytree(ROOT / "docs" / name, root / "docs" / name)
        shutil.copytree(ROOT / "grader" / "locale" / name, root / "grader" / "locale" / name)
    return root


def found(root: Path, locale: str) -> list[tuple[str, int, str]]:
    docs = root / "docs"
    glossary = translations.load_glossary(docs / locale, translations.load_glossary(docs / "en"))
    found = surfaces.check_surfaces(docs, locale, root, glossary, catalog_root=root) + \
        surfaces.check_words(docs, locale, root, glossary, catalog_root=root)
    return [(f.path, f.line, f.kind) for f in found]


def set_label(root: Path, locale: str, key: str, value: str) -> tuple[str, int]:
    """Write a label's value; return (path, line) of the label."""
    path = root / "docs" / locale / "labels.toml"
    line = _label_lines(path)[key][0]
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f"{key.split('.')[-1]} = {json.dumps(value, ensure_ascii=False)}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return f"docs/{locale}/labels.toml", line


def set_message(root: Path, locale: str, key: str, value: str) -> tuple[str, int]:
    """Write a message's msgstr; return (path, line) of the msgstr."""
    path = root / CATALOG.format(locale)
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index(f"msgctxt {json.dumps(key)}")
    line = next(n for n in range(at, len(lines)) if lines[n].startswith("msgstr ")) + 1
    lines[line - 1] = f"msgstr {json.dumps(value, ensure_ascii=False)}"
    path.write_text("\n".join(lines), encoding="utf-8")
    return CATALOG.format(locale), line


# (locale, label key, its new value, the kind expected): each rule of the page checks, on a label
LABELS = [
    ("fr", "figures.embedding_note", "longueur du segment = distance euclidienne, par exemple 0.471", "numbers"),
    ("id", "figures.embedding_note", "panjang ruas = jarak Euclidean, misalnya 0.471", "numbers"),
    ("ja", "figures.embedding_note", "線分の長さ = ユークリッド距離（例：0,471）", "numbers"),
    ("zh", "figures.title_warmup_subsimplex", "各阶段单纯形的维数", "glossary"),
    ("ko", "figures.warmup_end", "웜업 종료", "glossary"),
    ("ko", "figures.col_scaled", "scaled 점수", "untranslated"),
    ("fr", "figures.title_reachable_region", "The reachable region in the simplex of three sources", "untranslated"),
    ("fr", "figures.legend_v2", "v2 : échauffement linéaire & constant", "punctuation"),
    ("fr", "figures.title_reachable_region", "La zone atteignable dans le simplexe de trois sources", "terminology"),
    ("fr", "figures.axis_lr", "Taux d'apprentissage", "typography"),
    ("ja", "figures.region", "[BLOCK_TYPE region] 到達可能領域", "markers"),
    # typography: French no-break spaces, full-width marks next to CJK text; English words left in
    ("fr", "check_one", "Vérifier une réponse :", "typography"),
    ("fr", "hint", "« Indice »", "typography"),
    ("ja", "check_one", "1 つの答えを確認する:", "typography"),
    ("zh", "points", "({n} 分)", "typography"),
    ("fr", "checker.check", "Vérifier (undecided)", "untranslated"),
    ("id", "checker.check", "Periksa (undecided)", "untranslated"),
]


@pytest.mark.parametrize("locale, key, value, kind", LABELS)
@pytest.mark.slow
def test_a_defect_in_a_label_is_found_at_its_line(tmp_path, locale, key, value, kind):
    copy = clean_copy(tmp_path, locale)
    where = (f"docs/{locale}/labels.toml", _label_lines(copy / "docs" / locale / "labels.toml")[key][0], kind)
    assert where not in found(copy, locale)
    path, line = set_label(copy, locale, key, value)
    assert (path, line, kind) in found(copy, locale)


# (locale, message key, its new msgstr, the kind expected): the defects, and each rule on a message
MESSAGES = [
    ("ja", "constraint-floor", "下限 {symbol} >= {bound}", "glossary"),
    ("zh", "pinned-for-dim", "这是固定为零的坐标数；本小题要求子单纯形的维数。", "glossary"),
    ("ko", "removed-simplex-vertex", "점 {point}은(는) 전체 단체의 꼭짓점이지만 {constraint} 때문에 제외됩니다.", "glossary"),
    ("ko", "point-outside-region", "점 {point}은(는) 도달 가능 영역 밖에 있습니다: {constraint}을(를) 위반합니다.",
     "glossary"),
    ("ja", "peak-not-ramped", "これはピーク学習率です: warmup 中の学習率はその s / warmup_steps 倍にすぎません。",
     "untranslated"),
    ("ko", "peak-not-ramped", "최대 학습률입니다: warmup 동안 학습률은 그 값의 s / warmup_steps 배일 뿐입니다.",
     "terminology"),
    ("ko", "unscaled-softmax", "스케일링하지 않은 점수의 softmax입니다: softmax 전에 점수를 sqrt(d_k)로 나누세요.",
     "terminology"),
    ("fr", "cosine-for-distance", "This is the cosine similarity; the part asks for the Euclidean distance.",
     "untranslated"),
    ("fr", "form.number", "un nombre : exact, comme sqrt(2)/3, ou décimal, comme 0.471", "numbers"),
    ("id", "form.lr", "sebuah bilangan, seperti 3/20000 atau 1.5e-4", "numbers"),
    ("id", "percent-vs-fraction", "Persen dan pecahan tertukar: 40% adalah 0,5, bukan 40.", "numbers"),
    ("fr", "squared-distance", "C'est la distance au carré : prenez la racine carrée de la somme des carrés.",
     "typography"),
    ("id", "wrong-order", "Nilainya benar & urutannya salah: berikan sesuai urutan kunci (k_1, k_2, k_3).",
     "punctuation"),
    ("zh", "exercise.attention-weights.title", "解读一个投影", "title"),
    ("fr", "read-as", "Lu comme: {expression}", "typography"),
    ("fr", "decimal-comma-in-vector", "Dans un vecteur, « {text}» peut être un nombre décimal ou deux entrées.",
     "typography"),
    ("ja", "read-as", "読み取った答え: {expression}", "typography"),
    ("zh", "missing-points", "缺少顶点(共 {total} 个中缺少 {count} 个)。", "typography"),
    ("ko", "duplicate-point", "점 {point}가 두 번 주어졌습니다.", "particle"),
    ("ko", "unit-in-answer", "'{unit}'는 {number} 뒤에 있어 단위처럼 보입니다: 수만 쓰세요, {number}.", "particle"),
    ("fr", "undecided", "Non accepté : le correcteur n’a pas pu décider (undecided). Simplifiez-la.", "untranslated"),
]


@pytest.mark.slow
def test_a_label_english_does_not_have_is_found_at_its_line(tmp_path):
    copy = clean_copy(tmp_path, "zh")
    path = copy / "docs/zh/labels.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("[figures]\n", "[figures]\nstray_dims = \"维数\"\n", 1),
                    encoding="utf-8")
    line = _label_lines(path)["figures.stray_dims"][0]
    docs = copy / "docs"
    glossary = translations.load_glossary(docs / "zh", translations.load_glossary(docs / "en"))
    assert ("docs/zh/labels.toml", line, "orphan") in \
        {(f.path, f.line, f.kind) for f in translations.check_labels(docs, "zh", copy, glossary)}


@pytest.mark.parametrize("locale, key, value, kind", MESSAGES)
@pytest.mark.slow
def test_a_defect_in_a_grader_message_is_found_at_its_line(tmp_path, locale, key, value, kind):
    copy = clean_copy(tmp_path, locale)
    path, line = set_message(copy, locale, key, value)
    assert (path, line, kind) in found(copy, locale)
    shutil.copy(ROOT / path, copy / path)
    assert (path, line, kind) not in found(copy, locale)


def test_placeholders_code_and_formulas_are_not_words():
    words = surfaces.prose("Unknown name '{name}': only sqrt(2)/3 and lr(s) = peak * s / warmup_steps")
    assert words.split() == ["Unknown", "name", ":", "only", "and"]
    assert "cosine similarity" in surfaces.prose("This is 1 - cosine similarity")  # words around a sign stay
    assert surfaces.prose("言語: en, ja, zh, ko, fr, id (既定: $GRADER_LANG)").split() == ["言語:", "(既定:", ")"]
    assert surfaces.prose("{path}: expected one table per exercise id, like [attention-weights].").count("attention") == 0
    assert "l’ordre" in surfaces.prose("dans l’ordre des clés") and "'ordre" in surfaces.prose("dans l'ordre des clés")


def test_one_rendering_per_term_holds_in_every_paragraph_of_a_page(tmp_path):
    copy = clean_copy(tmp_path, "ja")
    page = copy / "docs/ja/02-attention-projection.md"
    text = page.read_text(encoding="utf-8")
    at = next(n for n, line in enumerate(text.splitlines(), 1) if "内積" in line and not line.startswith("#"))
    lines = text.splitlines()
    lines[at - 1] = lines[at - 1].replace("内積", "ドット積の値")
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert ("docs/ja/02-attention-projection.md", at, "terminology") in found(copy, "ja")


def test_an_exercise_heading_that_differs_from_its_catalog_title_is_found(tmp_path):
    copy = clean_copy(tmp_path, "fr")
    page = copy / "docs/fr/04-simplex-walk.md"
    page.write_text(page.read_text(encoding="utf-8").replace("## Parcourir la région accessible",
                                                             "## Arpenter la région accessible"), encoding="utf-8")
    catalog = CATALOG.format("fr")
    line = next(n for n, l in enumerate((copy / catalog).read_text(encoding="utf-8").splitlines(), 1)
                if l == 'msgstr "Parcourir la région accessible"')
    assert (catalog, line, "title") in found(copy, "fr")


def test_the_minority_apostrophe_is_the_one_reported():
    texts = [("a", 1, "l’ordre, d’une, qu’il"), ("b", 2, "l'ordre"), ("c", 3, "'(1, 2)' is code")]
    assert [(f.path, f.line, f.kind) for f in surfaces.check_typography(texts, "fr")] == [("b", 2, "typography")]
    assert surfaces.check_typography([("a", 1, "v1's and v2's")], "en") == []


def test_a_page_title_does_not_title_the_exercise_under_it():
    text = "# A chapter\n\n/// exercise | attention-weights\n///\n\n# Another\n\n## Reading a projection\n"
    assert surfaces.exercise_headings(text, "p.md") == {}
    text = "# A chapter\n\n## Reading a projection\n\n/// exercise | attention-weights\n///\n"
    assert surfaces.exercise_headings(text, "p.md") == {"attention-weights": (3, "Reading a projection")}
