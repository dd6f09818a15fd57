"""What each typography check says: the translator reads the finding and nothing else, so its words (the
mark, what stands before it, the fix, the excerpt it quotes) are part of the check."""
import pytest

from hooks.translations import typography

FRENCH_FIX = "French sets a no-break space before it (U+202F or U+00A0)"


@pytest.mark.parametrize("text, said", [
    ("Lu comme : 0,5", [f"':' after a space: {FRENCH_FIX}"]),
    ("Lu comme: 0,5", [f"':' after no space: {FRENCH_FIX}"]),
    (":", [f"':' after no space: {FRENCH_FIX}"]),                    # nothing before it at all
    ("Pourquoi\t? oui", [f"'?' after '\\t': {FRENCH_FIX}"]),         # another kind of space, named
    ("Vraiment\u2009! oui", [f"'!' after '\\u2009': {FRENCH_FIX}"]),
    ("a ; b", [f"';' after a space: {FRENCH_FIX}"]),
    ("«\u00a0texte »", ["guillemets « » hold their text between no-break spaces (U+202F or U+00A0): « texte »"]),
    ("« texte\u202f»", ["guillemets « » hold their text between no-break spaces (U+202F or U+00A0): « texte »"]),
])
def test_french_names_the_mark_and_what_stands_before_it(text, said):
    assert typography.french(text) == said


@pytest.mark.parametrize("text, said", [
    ("データ:", ["ASCII ':' after CJK text: write '：'"]),
    ("データ;", ["ASCII ';' after CJK text: write '；'"]),
    ("データ !", ["ASCII '!' after CJK text: write '！'"]),
    ("第 1 步?", ["ASCII '?' after CJK text: write '？'"]),
    ("第一步.", ["ASCII '.' after CJK text: write '。'"]),
    ("整数 (例: 4)", ["ASCII ':' after CJK text: write '：'", "ASCII brackets '(例: 4)' in CJK text: write （例: 4）"]),
    ("(abc)データ", ["ASCII brackets '(abc)' in CJK text: write （abc）"]),     # touching CJK after it
    ("データ(abc)", ["ASCII brackets '(abc)' in CJK text: write （abc）"]),     # and before it
    ("ソース(abcdefghijklmnopqrstuvwxyz)の数",                                  # a long one quoted in part
     ["ASCII brackets '(abcdefghijklmnopqrst)' in CJK text: write （abcdefghijklmnopqrst）"]),
    ("(abc)", []),                                                             # Latin text alone
    ("(abc) データ", []),
])
def test_japanese_and_chinese_name_the_full_width_mark_to_write(text, said):
    assert typography.full_width(text) == said


@pytest.mark.parametrize("text, said", [
    ("フロア H ≥ 0.5, キャップ D ≤ 0.25", [" H ≥ 0.5, キャッ"]),      # eight characters before the comma, four after
    ("H ≥ 0.5, キャップ", ["H ≥ 0.5, キャッ"]),                          # the start of the text
])
def test_a_list_comma_is_quoted_with_its_neighbours(text, said):
    assert typography.cjk_lists(text) == [f"ASCII ',' between the items of a list, before CJK text ('{s}'): write '、'"
                                          for s in said]


@pytest.mark.parametrize("text, said", [
    ("정수 (예: 4)", ["a space before the bracket in '정수 (예: 4': Korean writes the bracket against the word it "
                    "annotates, '정수(예: 4'"]),
    ("값 (가나다라마바사아자차카타파하가나다라마바사)", ["a space before the bracket in '값 (가나다라마바사아자차카타파하가나다라마바': Korean "
                                          "writes the bracket against the word it annotates, '값(가나다라마바사아자차카타파하가나다라마바'"]),
    ("점은 (예시)처럼", ["a space before the bracket in '점은 (예시': Korean writes the bracket against the word it "
                   "annotates, '점은(예시'"]),              # Korean inside: not a tuple, even after a particle
    ("점은 (1, 2)처럼", []),
    ("학습률 (peak-lr.2)", []),                            # a name: letters, digits, _ . -
    ("학습률 (2peak)", ["a space before the bracket in '학습률 (2peak': Korean writes the bracket against the word "
                    "it annotates, '학습률(2peak'"]),      # not a name: it starts with a digit
    ("학습률 (Peak_LR) 값 (예: 50)", ["a space before the bracket in '값 (예: 50': Korean writes the bracket against "
                                 "the word it annotates, '값(예: 50'"]),   # a name, then a bracket to join
])
def test_korean_quotes_the_word_and_its_bracket(text, said):
    assert typography.korean_brackets(text) == said


@pytest.mark.parametrize("template, said", [
    ("{value}을 쓰세요", ["'{value}을': a particle after a placeholder cannot agree with every value; write a "
                      "construction that reads right whatever the value (e.g. '{value} 값이'), or both forms, 은(는)"]),
    ("{value}은 크다", ["'{value}은': a particle after a placeholder cannot agree with every value; write a "
                     "construction that reads right whatever the value (e.g. '{value} 값은'), or both forms, 은(는)"]),
    ("{value}는 크다", ["'{value}는': a particle after a placeholder cannot agree with every value; write a "
                     "construction that reads right whatever the value (e.g. '{value} 값은'), or both forms, 은(는)"]),
    ("'{a.b}'를", ["'{a.b}'를': a particle after a placeholder cannot agree with every value; write a "
                  "construction that reads right whatever the value (e.g. '{a.b}' 값이'), or both forms, 은(는)"]),
    ("{value}를(을) 쓰세요", []),
    ("{value}으로 읽힙니다", ["'{value}으로': a particle after a placeholder cannot agree with every value; write a "
                         "construction that reads right whatever the value (e.g. '{value} 값이'), or both forms, 은(는)"]),
])
def test_korean_particles_are_quoted_with_their_placeholder(template, said):
    assert typography.particles(template) == said


def test_indonesian_quotes_the_spaced_semicolon():
    assert typography.indonesian_points("seperti (0,5 ; 1)") == [
        "' ; ' in a point: Indonesian writes '; ' between its entries, (0,5; 1), as the grader does"]
    assert typography.indonesian_points("(a) ; (b)") == [
        "' ; ' in a point: Indonesian writes '; ' between its entries, (0,5; 1), as the grader does"]
    assert typography.indonesian_points("kata ; kata") == []
    assert typography.problems("seperti (0,5 ; 1)", "en") == []
