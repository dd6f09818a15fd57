"""The checks of one translated page, on small pages written for each rule: what each check finds, at which line,
and in which words (the real pages' defects are tests/hooks/test_translations.py's)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from hooks.chapters.pages import source_hash
from hooks.translations import pagechecks
from hooks.translations.pagechecks import Finding, Glossary, check_page

NONE = Glossary()
GLOSSARY = Glossary(
    terms=({"en": "projection", "use": "射影", "avoid": ["投射"]}, {"en": "gradient", "use": "勾配"},
           {"en": "gradient descent", "use": "勾配降下法", "also": ["最急降下法"]}),
    identifiers=("repo-docs",), allow=frozenset({"softmax"}))


def found(english: str, translated: str, locale: str = "fr", glossary: Glossary = NONE, **kwargs) -> list[str]:
    return [str(f) for f in check_page(english, translated, locale, "p.md", glossary, **kwargs)]


def test_a_finding_names_its_place_and_a_draft_is_a_warning():
    assert str(Finding("p.md", 3, "math", "m")) == "p.md:3: math: m"
    assert str(Finding("p.md", 3, "math", "m", draft=True)) == "p.md:3: math (draft): m"
    assert Finding("p.md", 3, "math", "m").error
    assert not Finding("p.md", 3, "math", "m", draft=True).error
    assert not any(Finding("p.md", 1, kind, "m").error for kind in pagechecks.INFO_KINDS)


TODO = "is not translated yet: translate it after this line, or mark the page `draft: true` in its front matter while you work"


def test_a_page_translated_up_to_a_section_is_told_each_section_it_lacks():
    english = "# Title\n\nThe first part has 2000 steps.\n\n## Second\n\nHere $x$ and 35.\n\n## Third\n\nThe end.\n"
    assert found(english, "# Titre\n\nLa première partie a 2000 pas.\n") == [
        f"p.md:3: structure: section '## Second' (English line 5) {TODO}",
        f"p.md:3: structure: section '## Third' (English line 9) {TODO}"]     # not its math nor its numbers
    assert found(english, "# Titre\n\nLa première partie a 2000 pas.\n\n## Deuxième\n\nIci $x$ et 35.\n") == [
        f"p.md:7: structure: section '## Third' (English line 9) {TODO}"]


def test_a_partial_page_is_still_checked_in_the_sections_it_has():
    english = "# Title\n\nThe first part has 2000 steps.\n\n## Second\n\nHere 35.\n"
    assert found(english, "# Titre\n\nLa première partie.\n") == [
        "p.md:1: numbers: English has 2000 in this section (line 3); it is missing here",
        f"p.md:3: structure: section '## Second' (English line 5) {TODO}"]


def test_a_page_that_stops_inside_a_section_is_told_the_rest_of_it_first():
    english = "# T\n\n## A\n\n/// exercise | a\n///\n\n/// exercise | b\n///\n\n## B\n\nText.\n"
    assert found(english, "# T\n\n## A\n\n/// exercise | a\n///\n") == [
        f"p.md:6: structure: the rest of the section (from its 'exercise:b') (English line 8) {TODO}",
        f"p.md:6: structure: section '## B' (English line 11) {TODO}"]
    english = "# T\n\n/// exercise | a\n///\n\n/// exercise | b\n///\n"
    assert found(english, "# T\n\n/// exercise | a\n///\n") == [
        f"p.md:4: structure: the rest of the section (from its 'exercise:b') (English line 6) {TODO}"]


def test_other_headings_and_blocks_are_one_structure_finding():
    english = "# T\n\n## A\n\nx\n"
    assert found(english, "# T\n\n### A\n\nx\n") == [
        "p.md:3: structure: found 'h3' where English has 'h2': keep English's headings and blocks, in order"]
    assert found(english, "# T\n\n## A\n\n## B\n\nx\n") == ["p.md:5: structure: 3 headings and blocks where English has 2"]
    assert found(english, "x\n") == ["p.md:1: structure: 0 headings and blocks where English has 2"]
    assert pagechecks.partial_from([(1, "h1"), (3, "h2")], [(1, "h1")]) == 3
    assert pagechecks.partial_from([(1, "h1"), (3, "h2")], [(1, "h2")]) is None
    assert pagechecks.partial_from([(1, "h1"), (3, "h2")], [(1, "h1"), (5, "h2")]) is None
    assert pagechecks.partial_from([(1, "h1")], []) is None


def test_a_page_is_stale_when_english_changed_since_its_stamp_or_its_review():
    english, translated = "# T\n\nText.\n", "# T\n\nTexte.\n"
    stale = ("p.md:1: stale: the English page changed since its last review (docs/<locale>/review.toml): update it, "
             "then record your review: --stamp p.md --reviewer NAME")
    assert found(english, translated, reviewed="0" * 16) == [stale]
    assert found(english, translated, reviewed=source_hash(english)) == []
    assert found(english, translated) == []
    stamped = f"---\ntranslation_of: {'0' * 16}\n---\n{translated}"
    assert found(english, stamped, reviewed=source_hash(english))[0].startswith(
        "p.md:1: stale: the English page changed since this translation: update it")
    assert found(english, f"---\ntranslation_of: {source_hash(english)}\n---\n{translated}", reviewed="0" * 16) == []


def test_math_is_english_s_in_the_locale_s_number_format():
    english = "# T\n\nHere $a + 1,000.5$ and $b$.\n\nAnd $b$ again.\n"
    assert found(english, "# T\n\nIci $a + 1\\,000{,}5$ et $b$.\n\nEt $b$.\n") == []
    assert found(english, "# T\n\nIci $a + 1\\,000{,}5$ et $c$.\n\nEt $d$.\n") == [
        "p.md:3: math: $c$ is not in the English page: copy the math from English",
        "p.md:5: math: $d$ is not in the English page: copy the math from English",
        "p.md:3: math: English has $b$ in this section (line 3); it is missing here"]   # said once, where it was


@pytest.mark.parametrize("tex, locale, canonical", [
    ("1,000.5 + x", "en", "1000.5+x"), ("1{,}000.5", "en", "1000.5"), ("12,345,678", "en", "12345678"),
    ("1\\,000{,}5", "fr", "1000.5"), ("1~000", "fr", "1000"), ("1{\\,}000", "fr", "1000"), ("1\u202f000", "fr", "1000"),
    ("1.000{,}5", "id", "1000.5"), ("1{.}000", "id", "1000"), ("0{,}7", "fr", "0.7"), ("0{,}7", "en", "0{,}7"),
    ("1,00", "en", "1,00"), ("1,0000", "en", "1,0000"), ("f(1,2)", "en", "f(1,2)"), ("1,000", "xx", "1000"),
])
def test_canonical_math_writes_numbers_one_way(tex, locale, canonical):
    assert pagechecks.canonical_math(tex, locale) == canonical


def test_each_figure_of_the_prose_is_english_s():
    english = "# T\n\nWe take 120 steps and 35 more, 35 in all.\n\n## B\n\nThen 64.\n"
    assert found(english, "# T\n\nOn fait 120 pas et 35 de plus, 35 en tout.\n\n## B\n\nPuis 64.\n") == []
    assert found(english, "# T\n\nOn fait 120 pas et 36 de plus, 35 en tout.\n\n## B\n\nPuis 46.\n") == [
        "p.md:3: numbers: 36 does not appear in the English page: check the figure and its format",
        "p.md:7: numbers: 46 does not appear in the English page: check the figure and its format",
        "p.md:3: numbers: English has 35 in this section (line 3); it is missing here",
        "p.md:7: numbers: English has 64 in this section (line 7); it is missing here"]


@pytest.mark.parametrize("locale, sentence, problem", [
    ("fr", "Le plancher vaut 0.7 ici.", "0.7 has a decimal point where this locale writes a decimal comma: write 0,7"),
    ("id", "Batasnya 1.5e-4 di sini.", "1.5e-4 has a decimal point where this locale writes a decimal comma: "
                                            "write 1,5e-4"),
    ("id", "Dalam 2.000 langkah.", "2.000 groups a whole number of four digits: every locale writes it as the grader "
                                   "and the figures do, 2000"),
    ("fr", "En 2\u202f000 pas.", "2\u202f000 groups a whole number of four digits: every locale writes it as the grader "
                                 "and the figures do, 2000"),
    ("en", "In 2,000 steps.", "2,000 groups a whole number of four digits: every locale writes it as the grader and the "
                              "figures do, 2000"),
])
def test_a_number_in_another_locale_s_format_is_found(locale, sentence, problem):
    english = "# T\n\nThe floor is 0.7, the rate 1.5e-4, in 2000 steps.\n"
    assert f"p.md:3: numbers: {problem}" in found(english, f"# T\n\n{sentence}\n", locale)


@pytest.mark.parametrize("locale, text, numbers", [
    ("fr", "0.471 et 1.5e-4, v1.2.3, 2,5", ["0.471", "1.5e-4"]),
    ("fr", "Le plancher vaut 0.7. Puis 2.5x.", ["0.7", "2.5"]),
    ("id", "12.000 dan 0.25, 1.234.567", ["0.25"]),
    ("en", "0.471", []),
    ("ja", "0.471", []),
])
def test_decimal_points_are_found_where_a_locale_writes_a_comma(locale, text, numbers):
    assert [n for _, n in pagechecks.decimal_point_numbers([(4, text)], locale)] == numbers
    assert list(pagechecks.decimal_points([(4, text), (4, text), (5, "0")], locale)) == ([4] if numbers else [])


@pytest.mark.parametrize("locale, text, count", [
    ("id", "2.000 dan 12.000", 1), ("id", "2.000,5", 0), ("id", "2.0005", 0), ("id", "x2.000", 0), ("id", "0.000", 0),
    ("fr", "2\u00a0000 pas", 1), ("fr", "2 000", 0), ("fr", "2\u202f000\u202f000", 0), ("en", "2,000 and 3,000", 2),
    ("en", "2,000.5", 0), ("ja", "2,000", 1),
])
def test_four_digits_grouped_are_found(locale, text, count):
    assert len(pagechecks.grouped_four_digits(text, locale)) == count


def test_markers_ampersands_and_forbidden_renderings_are_found():
    english = "# T\n\nThe projection of the keys.\n"
    assert found(english, "# T\n\n鍵の投射です。[BLOCK_TYPE x] 甲 & 乙\n", "ja", GLOSSARY) == [
        "p.md:3: markers: export marker '[BLOCK_TYPE x]' is not text: delete it",
        "p.md:3: punctuation: '&' used for 'and': write the word",
        "p.md:3: glossary: '投射' for 'projection': this locale writes '射影'",
        "p.md:3: glossary: English uses 'projection' in this section (line 3); this locale writes it '射影' (or add "
        "the form used here to the term's `also` in the glossary)"]
    assert found(english, "# T\n\n[EXPORT_NOTE a b] 鍵の射影です。甲&乙\n", "ja", GLOSSARY) == [
        "p.md:3: markers: export marker '[EXPORT_NOTE a b]' is not text: delete it"]


def test_english_left_in_a_page_is_found():
    english = "# T\n\n## The reachable region\n\nThe model trains on a single distribution of sources.\n"
    assert found(english, english) == [
        "p.md:3: untranslated: heading 'The reachable region' is the English one: translate it",
        "p.md:5: untranslated: 'the model trains on a single distribution of sources' is the English sentence: translate it"]
    assert found(english, english, "en") == []
    english = "# T\n\nThe model.\n"
    assert found(english, "# T\n\nIt is the one that is of the best for it.\n", "fr")[-1] == \
        "p.md:3: untranslated: this line is still in English: translate it"
    assert found(english, "# T\n\nLe modèle est undecided, pas le hint.\n", "fr")[-1] == (
        "p.md:3: untranslated: English word(s) undecided, hint: translate them, or add them to `allow` in "
        "docs/fr/glossary.toml if they stay as they are")
    assert found(english, "# T\n\nLa distance de la page, les traductions.\n", "fr") == []   # French words too


def test_latin_script_words_in_a_cjk_page_are_found_unless_allowed():
    english = "# T\n\nThe model.\n"
    assert found(english, "# T\n\nモデルは reachable region を学ぶ。\n", "ja") == [
        "p.md:3: untranslated: Latin-script words reachable, region: translate them, or add them to `allow` in "
        "docs/ja/glossary.toml if they stay as they are"]
    assert found(english, "# T\n\nモデルは softmax と repo-docs と x と d_k と v2 です。\n", "ja", GLOSSARY) == []
    assert found(english, "# T\n\n## Reachable region\n\n到達可能領域。\n", "ja") != []


def test_identifiers_stay_verbatim():
    english = "# T\n\nUse `seed` here.\n\nAnd `seed` again, with repo-docs.\n"
    assert found(english, "# T\n\nUtilisez `seed` ici.\n\nEt `seed` encore, avec repo-docs.\n", glossary=GLOSSARY) == []
    assert found(english, "# T\n\nUtilisez `seed` ici.\n\nEt encore la graine, avec les docs.\n", glossary=GLOSSARY) == [
        "p.md:5: glossary: `seed` appears 2 time(s) in English, 1 here: identifiers stay verbatim, in backticks",
        "p.md:5: glossary: 'repo-docs' is an identifier: it stays verbatim in every locale"]
    english = "# T\n\n- Use `seed`.\n- Other.\n"           # said in its own paragraph (a list item), not the next
    assert found(english, "# T\n\n- Utilisez la graine.\n- Autre.\n") == [
        "p.md:3: glossary: `seed` appears 1 time(s) in English, 0 here: identifiers stay verbatim, in backticks"]
    english = "# T\n\nSee Repo-docs.\n"                       # no line has it as written: the page's first line
    assert found(english, "# T\n\nVoir les docs.\n", glossary=GLOSSARY) == [
        "p.md:1: glossary: 'repo-docs' is an identifier: it stays verbatim in every locale"]
    english = "# T\n\nThe `repo-docs` page.\n"      # in backticks: the backticks' check says it
    assert found(english, "# T\n\nLa page.\n", glossary=GLOSSARY) == [
        "p.md:3: glossary: `repo-docs` appears 1 time(s) in English, 0 here: identifiers stay verbatim, in backticks"]


def test_a_term_is_rendered_and_the_longest_term_is_read_first():
    english = "# T\n\nThe projection.\n\nGradient descent, here.\n"
    assert found(english, "# T\n\n射影。\n\n勾配降下法。\n", "ja", GLOSSARY) == []
    assert found(english, "# T\n\n射影。\n\n最急降下法。\n", "ja", GLOSSARY) == []      # an `also` form
    assert found(english, "# T\n\n射影。\n\n勾配。\n", "ja", GLOSSARY) == [
        "p.md:5: glossary: English uses 'gradient descent' in this section (line 5); this locale writes it '勾配降下法' "
        "(or add the form used here to the term's `also` in the glossary)"]
    terms = [t["en"] for t, _ in pagechecks.unrendered_terms("gradients and projections", "", GLOSSARY.terms)]
    assert terms == ["projection", "gradient"]
    assert pagechecks.unrendered_terms("reprojection, projection-like", "", GLOSSARY.terms) == []
    assert pagechecks.unrendered_terms("a projection", "", ({"en": "projection", "use": ""},)) == []
    assert pagechecks.unrendered_terms("l'angle", "L’ANGLE", ({"en": "angle", "use": "l'angle"},)) == []


@pytest.mark.parametrize("english, translated", [
    ("# Title\n\n```\ngradient = 1\n```\n", "# Titre\n\n```\ngradient = 1\n```\n"),
    ("# Title\n\nUse `gradient` here.\n", "# Titre\n\nUtilisez `gradient` ici.\n")])
def test_a_term_english_writes_only_as_code_is_not_asked_for(english, translated):
    """Code stays as it is (an identifier in backticks, a code block): the glossary asks for the terms of the prose."""
    glossary = Glossary(terms=({"en": "gradient", "use": "pente"},))
    assert found(english, translated, glossary=glossary) == []
    assert found(english.replace("Title", "Gradient"), translated, glossary=glossary) == [
        "p.md:1: glossary: English uses 'gradient' in this section (line 1); this locale writes it 'pente' (or add the "
        "form used here to the term's `also` in the glossary)"]


def test_the_allowed_words_are_the_glossary_s():
    assert GLOSSARY.allowed_words == {"softmax", "repo-docs"}
    assert Glossary(terms=({"en": "x", "use": "Softmax Layer"},)).allowed_words == {"softmax", "layer"}
    assert pagechecks.latin_prose("a b2 x_y Hello e.g. softmax. Softmax", {"softmax", "e.g"}) == ["Hello"]
    assert pagechecks._forms("translations") == ("translations", "translation")
    assert pagechecks._forms("boxes") == ("boxes", "boxe") and pagechecks._forms("bus") == ("bus",)
    assert pagechecks._forms("hint") == ("hint",)


def test_the_bank_s_ids_and_data_values_from_a_cold_cache_and_a_warm_one(tmp_path, monkeypatch):

    from grader import bank
    from hooks.chapters import cache

    monkeypatch.setattr(cache, "FOLDER", tmp_path)       # cold: computed here, not read from an earlier run
    ids, values = pagechecks.known_ids(), pagechecks.bank_values()
    assert list(tmp_path.iterdir()) and (pagechecks.known_ids(), pagechecks.bank_values()) == (ids, values)  # warm
    assert ids["exercise"] == frozenset(bank.EXERCISES) and "reachable-region" in ids["figure"]
    assert isinstance(ids["figure"], frozenset)
    assert ids["parts"] == {e.id: tuple(p.id for p in e.parts) for e in bank.EXERCISES.values()}
    # each exercise's data, walked through matrices, tuples and tables (0, 1 and 2 say "sums to 1", not data)
    assert values == {
        "embedding-distances": {Decimal(x) for x in ("0.5", "1.2", "0.3", "0.1", "1.5")},
        "attention-weights": {Decimal(4)},
        "terrain-warmup": {Decimal(x) for x in ("0.0003", "2000", "50", "0.4", "10")},
        "reachable-vertices": {Decimal("0.5"), Decimal("0.25")},
        "submanifold-dims": {Decimal(16), Decimal(20000), Decimal(112000)},
    }


def test_exercise_data_is_looked_for_inside_the_exercise_s_block_only():
    text = ("# T\n\n/// figure | attention-weights\nA figure of the same name, d_k = 4 here.\n///\n\n"
            "Outside, 0.25 and 4.\n\n/// exercise | reachable-vertices\n\n/// hint\nInside a hint, 0.5.\n///\n\n"
            "After the hint, 0.25.\n///\n\nOutside again, 0.5 and 0.25.\n")
    found = pagechecks.restated(text, "p.md", "en", pagechecks.bank_values())
    assert [(f.line, f.kind, f.message) for f in found] == [
        (12, "bank-number", "0.5 is exercise data: the site renders it from the grader's bank, write 'the data below'"),
        (15, "bank-number", "0.25 is exercise data: the site renders it from the grader's bank, write 'the data below'")]


@pytest.mark.parametrize("line, english", [
    ("the vecteur and la norme of ces deux points donne une distance", True),           # 3 of 12 words
    ("the vecteur and la norme of ces deux points donne une distance claire", False),   # 3 of 13
    ("the vecteur and la norme donne une distance", False),                             # 2 of 8: too few alone
    ("the and of", True)])
def test_a_line_is_still_english_with_three_of_its_common_words_and_a_quarter_of_its_words(line, english):
    assert pagechecks._looks_english(line) is english


def test_a_catalogs_save_computes_neither_the_ids_nor_the_data_values_again(tmp_path, monkeypatch):
    """They depend on the bank's code, not on its words: a translator's catalog save reads them from the cache."""
    from grader import bank
    from hooks.chapters import cache, render

    monkeypatch.setattr(cache, "FOLDER", tmp_path)
    ids, values = pagechecks.known_ids(), pagechecks.bank_values()
    monkeypatch.setattr(cache, "fingerprint", lambda locale=None: "a catalog saved since")
    monkeypatch.setattr(render, "exercise_ids", lambda: pytest.fail("the ids computed again"))
    monkeypatch.setattr(bank, "EXERCISES", {})
    assert (pagechecks.known_ids(), pagechecks.bank_values()) == (ids, values)


@pytest.mark.parametrize("word, forms", [("réseaux", ("réseaux", "réseau")), ("translations", ("translations", "translation")),
                                         ("pages", ("pages", "page")), ("pass", ("pass",)), ("deux", ("deux",)),
                                         ("page", ("page",))])
def test_a_plural_word_is_looked_up_in_its_singular_too_when_it_is_longer_than_four_letters(word, forms):
    assert pagechecks._forms(word) == forms


def test_an_english_word_is_one_at_least_as_common_as_the_threshold_in_english_and_rarer_than_its_own_in_the_locale(
        monkeypatch):
    frequencies = {("hint", "en"): pagechecks.COMMON_IN_ENGLISH, ("hint", "fr"): pagechecks.RARE_HERE - 0.01,
                   ("rare", "en"): pagechecks.COMMON_IN_ENGLISH - 0.01, ("rare", "fr"): 0.0,
                   ("page", "en"): 6.0, ("page", "fr"): pagechecks.RARE_HERE}
    monkeypatch.setattr(pagechecks, "_frequency", lambda word, locale: frequencies.get((word, locale), 0.0))
    assert pagechecks.english_words("Hint, rare, page.", "fr", set()) == ["Hint"]
    assert pagechecks.english_words("Hint, rare, page.", "fr", {"hint"}) == []


KNOWN = {"exercise": frozenset({"attention-weights"}), "figure": frozenset({"reachable-region"}),
         "parts": {"attention-weights": ("scores", "scaled", "weights")}}


@pytest.mark.parametrize("page, message", [
    ("/// exercise | nowhere\nx\n///\n", "nowhere"),
    ("/// exercise | attention-weights\nx\n\n/// hint\n    parts: weight\nh\n///\n\n///\n", "has no part 'weight'")])
def test_a_translated_page_naming_an_exercise_or_a_part_the_bank_lacks_is_broken(page, message):
    """What `make translations` finds (check(): broken() with the bank's ids and parts) is what the build refuses."""
    found = pagechecks.broken(page, "fr/p.md", frozenset(), KNOWN)
    assert [f.kind for f in found] == ["block"] and message in found[0].message, found
    assert pagechecks.broken(page.replace("nowhere", "attention-weights").replace("weight\n", "weights\n"),
                             "fr/p.md", frozenset(), KNOWN) == []


def test_a_separator_the_math_writes_as_an_identifier_is_named_each_one(monkeypatch):
    """A guard behind hooks/chapters/mathml.py (which writes them as operators): its finding names each one."""
    monkeypatch.setattr("hooks.chapters.mathml.tex_to_mathml", lambda tex, display: "<mn>1</mn><mi>,</mi><mi>;</mi>")
    assert [str(f) for f in pagechecks.broken("Soit $1, 2$.\n", "fr/p.md", frozenset())] == [
        "fr/p.md:1: math: $1, 2$ renders ',', ';' as an identifier (<mi>), with no space after it: a separator is "
        "an operator (<mo>), hooks/chapters/mathml.py"]


def test_without_the_bank_s_ids_any_id_is_taken_and_each_formula_that_cannot_render_is_named():
    assert pagechecks.broken("/// exercise | anything\nx\n///\n", "fr/p.md", frozenset()) == []
    first, second = map(str, pagechecks.broken("Soit $\\frac{1}{$.\n\nEt $a \\nosuch b$.\n", "fr/p.md", frozenset()))
    assert first.startswith("fr/p.md:1: math: cannot render the formula '\\frac{1}{' (") and \
        first.endswith("): check its braces and commands")    # the converter's own name for the slip, between
    assert second == "fr/p.md:3: math: cannot render the formula 'a \\nosuch b': unknown command \\nosuch"


def test_math_in_a_heading_and_a_link_to_no_page_are_named_with_the_fix():
    assert [str(f) for f in pagechecks.broken("# T\n\n## Une $x$ ici\n\nVoir [là](nowhere.md).\n", "fr/p.md", frozenset())] == [
        "fr/p.md:3: math: math in a heading: the table of contents would show it as raw TeX; write it in words",
        "fr/p.md:5: link: no page 'nowhere.md' in English or here"]


def test_four_digits_grouped_twice_on_a_line_are_one_finding():
    assert found("# T\n\nIn 2000 and 3000 steps.\n", "# T\n\nEn 2\u202f000 et 3\u202f000 pas.\n") == [
        "p.md:3: numbers: 2\u202f000 groups a whole number of four digits: every locale writes it as the grader and the "
        "figures do, 2000"]


def test_numbers_inside_an_exercise_the_bank_does_not_know_are_not_its_data():
    page = "/// exercise | nowhere\nIl vaut 0,25 ici.\n///\n\n/// exercise\nEt 0,25.\n///\n"
    assert pagechecks.restated(page, "fr/p.md", "fr", {"reachable-vertices": frozenset({Decimal("0.25")})}) == []
