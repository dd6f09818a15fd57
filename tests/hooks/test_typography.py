"""The typography checks, rule by rule: what each finds in a locale's prose and what it leaves alone."""
import pytest

from hooks.translations import typography
from hooks.translations.pagechecks import english_words, grouped_four_digits

NB, NNB = "\u00a0", "\u202f"


@pytest.mark.parametrize("text, problems", [
    (f"Lu comme{NB}: 0,5", 0),
    (f"Lu comme{NNB}: 0,5", 0),
    ("Lu comme : 0,5", 1),                    # a plain space
    ("Lu comme: 0,5", 1),                     # none
    (f"Pourquoi{NNB}? Parce que{NNB}!", 0),
    ("Pourquoi ? Parce que!", 2),
    (f"(0,5{NNB}; 1)", 0),
    ("(0,5 ; 1)", 1),
    (f"écrivez{NB}:", 0),                     # at the end of the text
    ("Données:", 1),
    (f"**Remarque{NB}:** la suite", 0),
    ("**Remarque :** la suite", 1),
    ("l’heure 10:30, le rapport 1:2, http://x", 0),   # not punctuation: nothing follows it as a word
    (f"«{NB}texte{NB}»", 0),
    (f"«{NNB}texte{NNB}»", 0),
    ("« texte »", 2),
    ("«texte»", 2),
])
def test_french_sets_a_no_break_space_before_high_marks_and_inside_guillemets(text, problems):
    assert len(typography.french(text)) == problems


@pytest.mark.parametrize("text, problems", [
    ("データ：", 0),
    ("データ:", 1),
    ("データ: 20,000", 1),
    ("入力形式：整数（例：4）", 0),
    ("整数 (例: 4)", 2),                       # brackets around CJK text, and the colon
    ("（レッスン 3、バリアント s0042）", 0),
    ("(レッスン 3, バリアント s0042)", 2),     # the brackets, and the comma between its items
    ("各点を (H, G, D) の形で", 0),            # a formula in brackets, set apart by spaces
    ("ソース(curriculum)の数", 1),              # brackets touching CJK text
    ("值为 0.5。下一句", 0),                    # a decimal point is not a full stop
    ("值为 0.5.", 0),
    ("第 1 步.", 1),
    ("数据,下一个", 1),
    ("数据、下一个", 0),
])
def test_japanese_and_chinese_use_full_width_marks_next_to_cjk_text(text, problems):
    assert len(typography.full_width(text)) == problems


@pytest.mark.parametrize("template, problems", [
    ("'{text}'는 단위처럼 보입니다", 1),
    ("점 {point}가 두 번 주어졌습니다.", 1),
    ("{value}을 쓰세요", 1),
    ("{value}로 읽힙니다", 1),
    ("“{text}”은 두 가지로 읽힙니다", 1),
    ("{point} 점은 두 번 주어졌습니다.", 0),         # a word that agrees whatever the value
    ("{point}은(는) 두 번 주어졌습니다.", 0),        # both forms
    ("{expected}이어야 합니다", 0),                  # the copula reads right after any value
    ("{expected}입니다", 0),
    ("꼭짓점 {count}개 중 {missing}개가 빠졌습니다.", 0),
    ("최대 학습률({peak})을 사용합니다", 0),          # the particle belongs to the word before the brackets
    ("스텝 {step}에서", 0),                          # 에 has one form
])
def test_korean_puts_no_particle_right_after_a_placeholder(template, problems):
    assert len(typography.particles(template)) == problems


@pytest.mark.parametrize("text, problems", [
    ("フロア H ≥ 0.5, キャップ D ≤ 0.25", 1),       # a figure's constraints, joined the English way
    ("フロア H ≥ 0.5、キャップ D ≤ 0.25", 0),
    ("重み ≈ 0.384, k₂：スコア 0.5", 1),             # the next item begins in Latin, and holds CJK text
    ("各点を (H, G, D) の形で", 0),                  # a tuple's commas
    ("点の集合 {(H, G, D), ...}，顺序任意", 0),
    ("ステップ 112,619 で", 0),                      # a grouped number
    ("parakeet, monkey", 0),                          # a list of names
])
def test_japanese_and_chinese_join_the_items_of_a_list_with_the_enumeration_comma(text, problems):
    assert len(typography.full_width(text)) == problems


@pytest.mark.parametrize("text, problems", [
    ("정수 (예: 4)", 1),
    ("정수(예: 4)", 0),
    ("가중치 (H, G, D)의 심플렉스", 1),             # a tuple that annotates a word
    ("가중치(H, G, D)의 심플렉스", 0),
    ("읽힐 수 없습니다 (시간 초과).", 1),
    ("점은 (a, b, c)처럼 씁니다", 0),                # after a particle: the tuple is a word of its own
    ("공백을 넣거나 (0.5, 1), 쓰세요", 0),           # after a connective ending, the same
    ("최대 학습률 (peak_lr)", 0),                    # a datum's name after its description: code
])
def test_korean_writes_a_bracket_against_the_word_it_annotates(text, problems):
    assert len(typography.korean_brackets(text)) == problems
    assert len(typography.problems(text, "ko")) == problems


@pytest.mark.parametrize("locale, text, found", [
    ("id", "pada langkah 2.000, lalu", ["2.000"]),
    ("id", "8.449 token", ["8.449"]),
    ("id", "langkah 112.619 dan 20.000", []),         # five digits and more are grouped
    ("id", "jaraknya 2,000", []),                     # a decimal comma
    ("en", "2,000 steps", ["2,000"]),
    ("fr", "2\u202f000 pas", ["2\u202f000"]),
    ("fr", "20\u202f000 pas, 0,471", []),
    ("ja", "ステップ 2000 で", []),
])
def test_a_whole_number_of_four_digits_is_not_grouped(locale, text, found):
    assert [p.split(" ")[0] for p in grouped_four_digits(text, locale)] == found


def test_each_locale_gets_its_own_rules():
    assert typography.problems("Données: 3", "fr") and not typography.problems("Données: 3", "id")
    assert typography.problems("データ:", "ja") and typography.problems("数据:", "zh")
    assert not typography.problems("데이터:", "ko") and not typography.problems("Data:", "en")
    assert typography.problems("정수 (예: 4)", "ko") and not typography.problems("정수 (예: 4)", "ja")
    assert typography.problems("seperti (0,5 ; 1)", "id") and not typography.problems("seperti (0,5; 1)", "id")


@pytest.mark.parametrize("locale, text, found", [
    ("fr", "Non accepté (undecided) : simplifiez-la.", ["undecided"]),
    ("fr", "la distance, la page, la dimension, les translations de vecteurs", []),   # French words as well
    ("fr", "Un hint pour la suite", ["hint"]),
    ("id", "Benih tidak dapat dipakai (undecided).", ["undecided"]),
    ("id", "folder berkas jawaban, galat internal", []),     # Indonesian borrows them
    ("fr", "le mot warmup_steps et la valeur hermes3", []),  # not words: identifiers
])
def test_english_words_left_in_latin_script_prose(locale, text, found):
    assert english_words(text, locale, set()) == found
    assert english_words(text, locale, {w.lower() for w in found}) == []   # the glossary's allow keeps them
