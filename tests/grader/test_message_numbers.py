"""Every catalog message, in every locale, filled with numbers of every kind: each number is written the reader's
way (decimal mark, grouping, percentage, enumeration), and the text around it keeps the locale's typography."""
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from grader.judging.check import check_part
from grader.languages.messages import LOCALES, catalog, message, placeholders
from grader.languages.numerals import Percent, Series, format_value
from hooks.translations import typography
from hooks.translations.pagechecks import decimal_points
from hooks.translations.surfaces import prose

EN = catalog("en")
SAMPLES = {   # one of each kind a finding or a prompt holds
    "whole": 20000,
    "decimal": Decimal("0.9900"),
    "fraction": Fraction(3, 10000),
    "percentage": Percent(2, 5),
    "point": (Fraction(1, 2), Decimal("0.25"), 0),
    "series": Series([1, 2, 3]),
    "float": 1.8682,
}


def rendered(key: str, lang: str, sample) -> str:
    return message(key, lang, **{name: sample for name in placeholders(EN[key])})


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("kind", SAMPLES)
def test_every_message_writes_every_kind_of_number_the_readers_way(lang, kind):
    sample = SAMPLES[kind]
    written = format_value(sample, lang)
    for key in EN:
        if not placeholders(EN[key]):
            continue
        text = rendered(key, lang, sample)
        assert written in text, (key, lang, text)
        if lang in ("fr", "id"):
            assert not list(decimal_points([(0, written)], lang)), (key, written)   # id's 20.000 is grouped
            assert format_value(sample, "en") not in text or written == format_value(sample, "en"), (key, text)


@pytest.mark.parametrize("lang", LOCALES)
def test_every_message_keeps_the_locales_typography_around_its_numbers(lang):
    """The typography checks of the translators' report, on each message as the grader writes it: French
    no-break spaces (: ; ! ? « »), full-width marks next to Japanese and Chinese text. A message the locale does
    not translate yet is shown in English (the report's catalog-untranslated warning), and kept out of this."""
    problems = {}
    for key in (EN if lang == "en" else catalog(lang)):
        for sample in SAMPLES.values():
            found = typography.problems(prose(rendered(key, lang, sample)), lang)
            if found:
                problems[key] = found[0]
    assert problems == {}


@pytest.mark.parametrize("lang, grouped, percent", [("en", "20,000", "40%"), ("ja", "20,000", "40%"),
                                                    ("zh", "20,000", "40%"), ("ko", "20,000", "40%"),
                                                    ("fr", "20\u202f000", "40\u00a0%"), ("id", "20.000", "40%")])
def test_prompts_group_and_write_percentages_as_the_locale_does(lang, grouped, percent):
    from grader import bank
    prompts = {p.id: p.prompt_in(lang) for ex in bank.EXERCISES.values() for p in ex.parts}
    assert grouped in prompts["warmup-dim"]
    assert percent in prompts["step-at-fraction"] and "40 %" not in prompts["step-at-fraction"].replace(percent, "")


@pytest.mark.parametrize("lang, number", [("en", "0.3"), ("fr", "0,3"), ("id", "0,3"), ("ja", "0.3")])
@pytest.mark.parametrize("answer", ["0,3 m", "0.3 m", "0,3m"])
def test_a_unit_after_a_decimal_comma_is_advised_with_the_whole_number(lang, number, answer):
    """0,3 is read as 0.3 in every language: the advice names 0.3 (in the reader's format), never 3."""
    result = check_part("embedding-distances", "parakeet-monkey", answer, lang)
    assert result.note == "unit-in-answer"
    assert result.feedback.count(number) == 2 and not re.search(r"(?<![\d,.])3(?![\d,.])", result.feedback)


@pytest.mark.parametrize("lang, advice", [("en", "1.25"), ("fr", "1,25"), ("id", "1,25"), ("zh", "1.25")])
def test_the_middle_dot_advice_writes_the_decimal_the_readers_way(lang, advice):
    result = check_part("embedding-distances", "parakeet-monkey", "1·25", lang)
    assert result.note == "middle-dot" and advice in result.feedback and "1*25" in result.feedback


def test_a_findings_numbers_reach_the_message_as_numbers():
    """weights-not-normalized names the sum as a value, written in each reader's format when it is said."""
    en = check_part("attention-weights", "weights", "(0.5, 0.5, 0.1)", "en")
    fr = check_part("attention-weights", "weights", "(0,5 ; 0,5 ; 0,1)", "fr")
    assert "sum to 1.1." in en.feedback and "vaut 1,1." in fr.feedback and "1.1" not in fr.feedback
    zh = check_part("attention-weights", "weights", "(0.5, 0.5, 0.1)", "zh")
    assert "1、2、3" in zh.feedback and "。 " not in zh.feedback     # an enumeration, sentences joined the zh way
