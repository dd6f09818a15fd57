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


# --- each rule on one unit, and each surface read from a small tree (fast: no copy of the real docs)

TERMS = translations.Glossary(
    terms=({"en": "projection", "use": "射影", "avoid": ["投射"]}, {"en": "learning rate", "use": "taux d’apprentissage"}),
    allow=frozenset({"softmax"}))


def unit_findings(key: str, english: str, text: str, locale: str = "fr") -> list[str]:
    unit = surfaces.Unit("docs/fr/labels.toml", 7, key, english, text)
    return [str(f) for f in surfaces.check_units([unit], locale, TERMS)]


TERM = "on every surface (or add the form used here to the term's `also` in the glossary)"


@pytest.mark.parametrize("english, text, locale, problem", [
    ("distance, e.g. 0.471", "distance, par ex. 0.471", "fr",
     "numbers: a: 0.471 has a decimal point where this locale writes a decimal comma: write 0,471"),
    ("in 2000 steps", "en 2\u202f000 pas", "fr",
     "numbers: a: 2\u202f000 groups a whole number of four digits: every locale writes it as the grader and the figures do, 2000"),
    ("in 2000 steps", "en 3000 pas", "fr", "numbers: a: 3000 differs from English (2000): check the figure and its format"),
    ("in 2000 and 3000 steps", "en 2000 pas", "fr", "numbers: a: English's 3000 is missing here: write it, in this "
     "locale's format"),
    ("in 2000 and 3000 steps", "en 2000 pas et 4000", "fr",
     "numbers: a: 4000 differs from English (2000, 3000): check the figure and its format"),
    ("in steps", "en 5 pas et 20", "fr", "numbers: a: 20 differs from English (none): check the figure and its format"),
    ("Reachable region", "Reachable region", "fr", "untranslated: a: still the English text"),
    ("Softmax", "Softmax", "ja", "untranslated: a: still the English text"),      # allowed as a word, not as a label
    ("the learning rate", "le taux", "fr",
     f"terminology: a: English says 'learning rate'; this locale writes it 'taux d’apprentissage' {TERM}"),
    ("point {point}", "점 {point}은 두 번", "ko", "particle: a: '{point}은': a particle after a placeholder cannot agree "
     "with every value; write a construction that reads right whatever the value (e.g. '{point} 값은'), or both forms, 은(는)"),
    ("The model trains on a single distribution.", "The model trains on a single distribution.", "fr",
     "untranslated: a: 'the model trains on a single distribution' is the English sentence: translate it"),
    ("Region", "Region", "ja", "untranslated: a: Latin-script words Region: translate them, or add them to `allow` in "
     "docs/ja/glossary.toml if they stay as they are"),     # and not "still the English text" too: once per line
])
def test_each_rule_holds_on_a_label(english, text, locale, problem):
    assert unit_findings("a", english, text, locale) == [f"docs/fr/labels.toml:7: {problem}"]


@pytest.mark.parametrize("english, text, locale", [
    ("write 1,5 not 1.5", "écrivez 1,5 et non 1.5", "fr"),     # about decimal marks: it shows both
    ("{n} steps of 20", "{n} pas de 20", "fr"),
    ("in 2000 steps", "en 2000 pas", "fr"),
    ("Region", "Region", "fr"), ("Region", "Region", "en"), ("Reachable region", "Reachable region", "en"),
    ("the learning rate", "le taux d’apprentissage", "fr"),
    ("point {point}", "점 {point} 값은 두 번", "ko"), ("point {point}", "점 {point}은 두 번", "ja"),
])
def test_a_clean_label_has_no_finding(english, text, locale):
    assert unit_findings("a", english, text, locale) == []


def test_a_datum_s_name_after_its_description_is_not_a_word():
    assert unit_findings("data.fraction", "fraction of the peak (fraction)", "ピークの割合 (fraction)", "ja") == []
    assert unit_findings("figures.fraction", "fraction of the peak (fraction)", "ピークの割合 (fraction)", "ja") != []


# the one term the small tree's pages use
SMALL_TERMS = translations.Glossary(terms=({"en": "learning rate", "use": "taux d’apprentissage"},))


def small_tree(root: Path, locale: str = "fr") -> Path:
    """docs/en and docs/<locale> with labels and one page, and grader/locale/{en,<locale>} catalogs."""
    for name, labels, page, title in (
            ("en", 'reading = "Reading"\n[figures]\nregion = "Region"\nextra = "x"\n',
             "# Chapter\n\n## Walking the region\n\n/// exercise | walk\n///\n\nThe learning rate here.\n",
             "Walking the region"),
            (locale, 'reading = "Lecture"\n[figures]\nregion = "Région"\nstray = "y"\n',
             "# Chapitre\n\n## Parcourir la région\n\n/// exercise | walk\n///\n\nLe taux d’apprentissage ici.\n",
             "Parcourir la région")):
        (root / "docs" / name).mkdir(parents=True)
        (root / "docs" / name / "labels.toml").write_text(labels, encoding="utf-8")
        (root / "docs" / name / "01-walk.md").write_text(page, encoding="utf-8")
        (root / CATALOG.format(name)).parent.mkdir(parents=True)
        msgstr = (lambda english, text: english) if name == "en" else (lambda english, text: text)
        (root / CATALOG.format(name)).write_text(
            'msgid ""\nmsgstr ""\n"Language: x\\n"\n\n'
            f'msgctxt "correct"\nmsgid "Correct."\nmsgstr "{msgstr("", "Juste.")}"\n\n'
            f'msgctxt "missing"\nmsgid "Not answered."\nmsgstr ""\n\n'
            f'msgctxt "exercise.walk.title"\nmsgid "{title if name == "en" else "Walking the region"}"\n'
            f'msgstr "{msgstr("", title)}"\n', encoding="utf-8")
    return root


def test_each_unit_s_findings_are_kept_with_the_next_unit_s_particle():
    units = [surfaces.Unit("c.po", 3, "a", "The value 0.5 here.", "값 여기."),
             surfaces.Unit("c.po", 7, "b", "point {point} twice", "점 {point}은 두 번")]
    assert [(f.line, f.kind) for f in surfaces.check_units(units, "ko", translations.Glossary())] == [
        (3, "numbers"), (7, "particle")]


def test_the_units_of_the_labels_and_the_catalog(tmp_path):
    root = small_tree(tmp_path)
    labels = surfaces.label_units(root / "docs", "fr", root)
    assert [(u.path, u.line, u.key, u.english, u.text) for u in labels] == [
        ("docs/fr/labels.toml", 1, "reading", "Reading", "Lecture"),
        ("docs/fr/labels.toml", 3, "figures.region", "Region", "Région")]       # not `stray`: English has none
    messages = surfaces.catalog_units("fr", root)
    assert [(u.path, u.line, u.key, u.english, u.text) for u in messages] == [
        (CATALOG.format("fr"), 7, "correct", "Correct.", "Juste."),             # not `missing`: no msgstr
        (CATALOG.format("fr"), 15, "exercise.walk.title", "Walking the region", "Parcourir la région")]
    english = surfaces.catalog_units("en", root)
    assert [(u.line, u.key, u.english, u.text) for u in english] == [
        (6, "correct", "Correct.", "Correct."), (10, "missing", "Not answered.", "Not answered."),
        (14, "exercise.walk.title", "Walking the region", "Walking the region")]   # English's text is its msgid
    assert surfaces.label_units(root / "docs", "ko", root) == [] and surfaces.catalog_units("ko", root) == []
    (root / CATALOG.format("fr")).write_text('msgid "unclosed\n', encoding="utf-8")
    assert surfaces.catalog_units("fr", root) == []
    (root / CATALOG.format("fr")).write_bytes("msgid \"é\"".encode("latin-1"))
    assert surfaces.catalog_units("fr", root) == []
    assert surfaces.catalog_units("fr") and all(u.path == CATALOG.format("fr") for u in surfaces.catalog_units("fr"))


def test_the_surfaces_of_a_clean_small_tree_agree(tmp_path):
    root = small_tree(tmp_path)
    assert surfaces.check_surfaces(root / "docs", "fr", root, SMALL_TERMS, catalog_root=root) == []
    assert surfaces.check_words(root / "docs", "fr", root, SMALL_TERMS, catalog_root=root) == []
    assert surfaces.check_words(root / "docs", "en", root, SMALL_TERMS, catalog_root=root) == []
    assert surfaces.check_surfaces(root / "docs", "en", root, SMALL_TERMS, catalog_root=root) == []


def test_a_review_of_the_labels_made_against_an_older_english_is_found_with_the_surfaces(tmp_path):
    from hooks.translations import review

    root = small_tree(tmp_path)
    review.append(root / "docs", "fr", "labels.toml", "0" * 12, "fr reviewer", [])
    assert [(f.path, f.kind) for f in surfaces.check_surfaces(root / "docs", "fr", root, SMALL_TERMS, catalog_root=root)] == [
        ("docs/fr/review.toml", "review-stale")]


def test_an_apostrophe_in_math_is_a_prime_not_the_locale_s_typography(tmp_path):
    root = small_tree(tmp_path)
    page = root / "docs/fr/01-walk.md"
    page.write_text(page.read_text("utf-8") + "\nSoit $f'g$ et $g''$, l’autre.\n", encoding="utf-8")
    assert surfaces.check_surfaces(root / "docs", "fr", root, SMALL_TERMS, catalog_root=root) == []


def test_the_words_of_the_locale_s_own_catalog_are_checked(tmp_path):
    root = small_tree(tmp_path)
    catalog = root / CATALOG.format("fr")
    catalog.write_text(catalog.read_text("utf-8").replace('msgstr "Juste."', 'msgstr "Juste, à 0.5 près."'), encoding="utf-8")
    assert [str(f) for f in surfaces.check_words(root / "docs", "fr", root, translations.Glossary(), catalog_root=root)] == [
        f"{CATALOG.format('fr')}:7: numbers: correct: 0.5 has a decimal point where this locale writes a decimal comma: "
        "write 0,5"]


def test_the_surfaces_of_a_small_tree_disagree(tmp_path):
    root = small_tree(tmp_path)
    page = root / "docs/fr/01-walk.md"
    page.write_text(page.read_text("utf-8").replace("## Parcourir", "## Arpenter").replace("taux d’apprentissage", "pas")
                    .replace("ici", "d'ici"), encoding="utf-8")
    (root / "docs/fr/02-staff.md").write_text("---\ntranslate: false\n---\n# Staff\n\nl'a l'b\n", encoding="utf-8")
    (root / "docs/fr/03-orphan.md").write_text("# Orphelin\n\nThe learning rate, l’a.\n", encoding="utf-8")
    found = surfaces.check_surfaces(root / "docs", "fr", root, SMALL_TERMS, catalog_root=root)
    assert [str(f) for f in found] == [
        f"{CATALOG.format('fr')}:15: title: exercise.walk.title: the catalog titles the exercise 'Parcourir la région', "
        "its page 'Arpenter la région' (docs/fr/01-walk.md:3): write one title in both",
        "docs/fr/01-walk.md:8: terminology: English says 'learning rate' here; this locale writes it "
        f"'taux d’apprentissage' {TERM}",
        "docs/fr/01-walk.md:8: typography: apostrophe ' where this locale writes ’ (1 times on its pages, labels and "
        "messages, ' 1 times): one style throughout"]
    words = surfaces.check_words(root / "docs", "fr", root, TERMS, catalog_root=root)
    assert words == []


def test_a_page_s_terms_are_read_paragraph_by_paragraph_or_section_by_section():
    glossary = translations.Glossary(terms=({"en": "learning rate", "use": "taux"},))
    english = "# T\n\nThe learning rate.\n\nNothing.\n\n## B\n\nThe learning rate again.\n"
    assert surfaces.check_page_terms(english, "# T\n\nLe taux.\n\nRien.\n\n## B\n\nLe taux encore.\n", "p.md", glossary) == []
    swapped = surfaces.check_page_terms(english, "# T\n\nRien.\n\nLe taux.\n\n## B\n\nEncore.\n", "p.md", glossary)
    assert [(f.line, f.kind) for f in swapped] == [(3, "terminology"), (9, "terminology")]
    merged = "# T\n\nLe taux, rien.\n\n## B\n\nEncore.\n"          # fewer paragraphs: section by section
    assert [(f.line, f.kind) for f in surfaces.check_page_terms(english, merged, "p.md", glossary)] == [(5, "terminology")]
    assert surfaces.check_page_terms(english, "# T\n\nRien.\n", "p.md", glossary) == []   # the structure check's


def test_a_tie_of_apostrophes_goes_to_the_typographic_one():
    texts = [("a", 1, "l’ordre"), ("b", 2, "l'ordre")]
    assert [(f.path, f.message) for f in surfaces.check_typography(texts, "fr")] == [
        ("b", "apostrophe ' where this locale writes ’ (1 times on its pages, labels and messages, ' 1 times): "
              "one style throughout")]
    texts = [("a", 1, "l'ordre d'une"), ("b", 2, "l’ordre"), ("c", 3, "l'ordre")]
    assert [(f.path, f.message) for f in surfaces.check_typography(texts, "fr")] == [
        ("b", "apostrophe ’ where this locale writes ' (3 times on its pages, labels and messages, ’ 1 times): "
              "one style throughout")]
    assert surfaces.check_typography([("a", 1, "l’ordre"), ("b", 2, "’quoted’")], "fr") == []


@pytest.mark.parametrize("formula, code", [
    ("lr(s) = peak * s / warmup_steps", True), ("x = 2", True), ("H ≥ 0.5", True), ("1 - cosine similarity", False),
    ("cosine - similarity", False),
])
def test_a_formula_of_code_is_blanked_and_words_around_a_sign_stay(formula, code):
    assert (surfaces.prose(f"Then {formula} here").split() == ["Then", "here"]) == code


def test_a_list_of_constraints_can_keep_its_formulas():
    assert surfaces.prose("H ≥ 0.5, D ≤ 0.25", formulas=False).split() == ["H", "≥", "0.5,", "D", "≤", "0.25"]
    assert surfaces.prose("H ≥ 0.5, D ≤ 0.25").split() == [","]


@pytest.mark.parametrize("code", [
    "'(1, 2, 3)'", "';'", '"s0042"', "`x y`", "$GRADER_LANG", "$x + 1$", "--seed", "-n", "[my-exercise]",
    "sqrt, exp, log", "en, ja, zh", "(peak_lr)", "sqrt(2)", "lr(s)", "warmup_steps", "3/20000", "/autograder/results",
    "2*x", "x^2", "a=b", "results.jsonl", "{name}",
])
def test_each_kind_of_code_is_not_words(code):
    assert surfaces.prose(f"a {code} b").split() == ["a", "b"]


@pytest.mark.parametrize("text", ["l'ordre", "well-known", "en, ja", "[BLOCK_TYPE x]", "{{literal}}"])
def test_words_markers_and_escaped_braces_stay(text):
    assert surfaces.prose(f"a {text} b").split() == ["a", *text.replace("{{", "{").replace("}}", "}").split(), "b"]
