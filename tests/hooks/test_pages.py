"""hooks/chapters/pages.py's readings of a page, each on a small page written for it: the front matter's record,
the prose a reader reads, the skeleton, paragraphs and how a translation's lines stand for English's, the
numbers in each locale's format, and the sentences a translation must not leave in English."""

from __future__ import annotations

from decimal import Decimal

import pytest

from hooks.chapters import pages

FRONT = "---\ntitle: T\ntranslation_of: 0a1b2c  \ndraft: true\n  nested: x\n---\n# T\n\ntitle: not front matter\n"


@pytest.mark.parametrize("name, value", [("title", "T"), ("translation_of", "0a1b2c"), ("draft", "true"),
                                         ("nested", None), ("missing", None), ("titl", None), ("itle", None)])
def test_a_front_matter_value_is_a_top_level_scalar_as_written(name, value):
    assert pages.front_matter_value(FRONT, name) == value


def test_a_page_without_front_matter_has_no_values():
    assert pages.front_matter_value("# T\n\ntitle: T\n", "title") is None
    assert pages.recorded_hash("# T\n") is None and not pages.is_draft("# T\n")


@pytest.mark.parametrize("written, recorded", [("0a1b2c", "0a1b2c"), ("0A1B2C", None), ("", None), ("0a 1b", None),
                                               ("0a1b2g", None)])
def test_the_recorded_hash_is_the_hex_the_page_was_translated_from(written, recorded):
    assert pages.recorded_hash(f"---\ntranslation_of: {written}\n---\n# T\n") == recorded


@pytest.mark.parametrize("written, draft", [("true", True), ("false", False), ("True", False), ("", False)])
def test_a_draft_says_draft_true(written, draft):
    assert pages.is_draft(f"---\ndraft: {written}\n---\n# T\n") is draft


PAGE = ("---\ntitle: T\n---\n# T\n\nA $x+1$ b `code` [link](target.md) <b>bold</b>\n\n$$\ny = 2\n$$\n\n"
        "```\n# not prose\n```\n/// step | A\nin step\n///\n")


def test_prose_lines_are_what_a_reader_reads():
    lines = dict(pages.prose_lines(PAGE))
    assert sorted(lines) == [4, 5, 6, 7, 8, 9, 10, 11, 16]   # not the front matter, the code, the block fences
    assert lines[4] == "# T" and lines[16] == "in step"
    shown = lines[6]
    assert "$x+1$" in shown and "bold" in shown and "[link]" in shown
    assert "code" not in shown and "target" not in shown and "<b>" not in shown and "</b>" not in shown
    assert [lines[n] for n in (8, 9, 10)] == ["$$", "y = 2", "$$"]


def test_prose_lines_without_math_keep_the_lines_and_their_length():
    with_math, without = dict(pages.prose_lines(PAGE)), dict(pages.prose_lines(PAGE, keep_math=False))
    assert sorted(without) == sorted(with_math)
    assert without[6] == with_math[6].replace("$x+1$", " " * 5)
    assert [without[n].strip() for n in (8, 9, 10)] == ["", "", ""]
    assert [len(without[n]) for n in (8, 9, 10)] == [2, 5, 2]


def test_code_spans_are_counted_outside_code_blocks():
    assert pages.code_spans("`a` and `a`, `b`\n\n```\n`c`\n```\n    `d`\n") == {"a": 2, "b": 1}


def test_the_skeleton_is_the_headings_and_blocks_in_order():
    text = "# T\n\n/// exercise | e1\nx\n///\n\n## S ##\n\n/// figure | f1\n///\n\n/// step | A\ns\n///\n"
    assert pages.headings(text) == [(1, 1, "T"), (7, 2, "S")]
    assert pages.structure(text, "p.md") == [(1, "h1"), (3, "exercise:e1"), (7, "h2"), (9, "figure:f1"), (12, "step")]


PARAGRAPHS = ("# T\n\npara one\nstill one\n\n- item\n- item2\n\n```\ncode\n\nmore\n```\nafter code\n"
              "/// step | A\nin step\n///\n")


def test_a_paragraph_starts_after_a_blank_line_a_code_block_or_a_block_fence_and_at_a_heading_or_item():
    assert pages.paragraph_starts(PARAGRAPHS) == [1, 3, 6, 7, 9, 14, 15, 16, 17]
    assert pages.paragraph_starts("    code\n    more\n\ntext\n") == [1, 4]


@pytest.mark.parametrize("line, paragraph", [(1, "# T\n"), (4, "para one\nstill one\n"), (3, "para one\nstill one\n"),
                                             (11, "```\ncode\n\nmore\n```"), (17, "///"), (16, "in step")])
def test_the_paragraph_at_a_line_runs_to_the_next_start(line, paragraph):
    assert pages.paragraph_at(PARAGRAPHS, line) == paragraph


def test_the_lines_before_the_first_paragraph_are_read_from_the_top():
    assert pages.paragraph_at("\n\nx\ny\n", 1) == "\n"
    assert pages.paragraph_at("\n\nx\ny\n", 4) == "x\ny"


def test_a_translation_with_as_many_paragraphs_is_aligned_paragraph_by_paragraph():
    english, translated = "# A\n\none\n\ntwo\n", "# B\n\nun\nsuite\n\ndeux\n"
    line_for = pages.aligner(english, translated, pages.structure(english, "e.md"), pages.structure(translated, "t.md"))
    assert [line_for(n) for n in (1, 2, 3, 4, 5)] == [1, 1, 3, 3, 6]


def test_a_translation_with_other_paragraphs_is_aligned_heading_by_heading():
    english, translated = "# A\n\none\n\n## S\n\ntwo\n", "# A\n\nun\n\nplus\n\n## S\n\ndeux\n"
    line_for = pages.aligner(english, translated, pages.structure(english, "e.md"), pages.structure(translated, "t.md"))
    assert [line_for(n) for n in (1, 3, 5, 7)] == [1, 1, 7, 7]
    fewer = pages.aligner(english, "# A\n\nun\n", pages.structure(english, "e.md"), [(1, "h1")])
    assert [fewer(n) for n in (3, 5, 7)] == [1, 1, 1]   # no heading stands for '## S': the page's top


@pytest.mark.parametrize("locale, decimal_comma", [("en", False), ("fr", True), ("id", True), ("ja", False),
                                                   ("xx", False)])
def test_which_locales_write_a_decimal_comma(locale, decimal_comma):
    assert pages.writes_decimal_comma(locale) is decimal_comma


def test_an_unknown_locale_reads_numbers_as_english_and_french_accepts_every_kind_of_space():
    assert pages.number_pattern("xx") == pages.number_pattern("en")
    assert pages.number_pattern("fr")[1:] == ("\u202f\u00a0 ", ",")
    assert pages.number_pattern("id")[1:] == (".", ",")


@pytest.mark.parametrize("locale, line, found", [
    ("en", "In 2024, 3 cats ate 1,234.5 g and 0.25 kg; x2 v1.2 12", ["2024", "1234.5", "0.25", "12"]),
    ("en", "0{.}5 and 1{,}000", ["0.5", "1000"]),
    ("en", r"$\log10$ and $\sqrt{16}$ and $\Omega12$", ["10", "16", "12"]),
    ("fr", "1\u202f234,5 et 0,25 et 1\u00a0234,5 et 1 234", ["1234.5", "0.25", "1234.5", "1234"]),
    ("fr", r"$1\,234{,}5$", ["1234.5"]),
    ("id", "1.234,5 dan 12,5 dan 7,0 dan 7,5", ["1234.5", "12.5", "7.5"]),
])
def test_numbers_are_read_in_the_locale_s_format_and_small_integers_left_out(locale, line, found):
    assert pages.numbers([(3, line)], locale) == [(3, Decimal(value)) for value in found]


def test_small_integers_are_read_when_asked():
    assert pages.numbers([(1, "3 cats, 10 dogs"), (2, "9.5 and 0")], "en", small=True) == \
        [(1, Decimal(3)), (1, Decimal(10)), (2, Decimal("9.5")), (2, Decimal(0))]
    assert pages.numbers([(1, "3 cats, 10 dogs"), (2, "9.5 and 0")], "en") == [(1, Decimal(10)), (2, Decimal("9.5"))]


def test_sentences_and_bracketed_or_quoted_phrases_of_enough_latin_words():
    lines = [(1, "# This is a heading"), (2, "Short one. This has four words here! (a bracketed phrase of words) "
                                            "“quoted words go here”"), (3, "- two words"), (4, "これは 日本語 です 。"),
             (5, "Many   spaces\there now;")]
    assert pages.sentences(lines) == [(1, "this is a heading"), (2, "this has four words here"),
                                      (2, "a bracketed phrase of words"), (2, "quoted words go here"),
                                      (5, "many spaces here now")]
    assert (3, "two words") in pages.sentences(lines, min_words=2)
    assert (2, "short one") in pages.sentences(lines, min_words=2)


def test_code_spans_and_tags_leave_one_space_each_in_the_prose():
    assert pages.prose_lines("A `code` b <i>x</i> [l](t)\n") == [(1, "A   b  x  [l]")]


def test_a_page_that_opens_with_prose_starts_a_paragraph_at_its_first_line():
    assert pages.paragraph_starts("one\ntwo\n\nthree\n") == [1, 4]


def test_the_first_english_paragraph_stands_for_the_translation_s_first_even_below_its_front_matter():
    english, translated = "# A\n\none\n", "---\ntitle: B\n---\n# B\n\nun\n"
    line_for = pages.aligner(english, translated, pages.structure(english, "e.md"), pages.structure(translated, "t.md"))
    assert [line_for(n) for n in (1, 2, 3)] == [4, 4, 6]


def test_math_segments_are_found_with_their_lines_outside_code_spans():
    text = "\n`$no$` and $$\na\n$$ then $b$\n\nand $c$ $$d$$\n"
    assert pages.math_segments(text) == [(2, "\na\n", True), (4, "b", False), (6, "c", False), (6, "d", True)]
    assert pages.math_segments("$a `b` c$\n") == [(1, "a     c", False)]   # a code span in it: blank, as wide


def test_a_phrase_of_exactly_min_words_is_kept_and_only_the_edges_punctuation_is_stripped():
    assert pages.sentences([(1, "X marks the spot"), (2, "- Three words here -"), (3, "Two words")]) == \
        [(1, "x marks the spot"), (2, "three words here")]
