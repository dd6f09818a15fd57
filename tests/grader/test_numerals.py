"""Numbers as each locale writes them: the one number module against CLDR (read through Babel, the yardstick),
and every kind of value a message may hold."""
from decimal import Decimal
from fractions import Fraction

import pytest
from babel import Locale
from babel.numbers import format_decimal, format_percent, get_decimal_symbol, get_group_symbol

from grader.languages import numerals
from grader.languages.messages import LOCALES
from grader.languages.numerals import Percent, Series, format_value

NB, NNB = "\u00a0", "\u202f"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_conventions_are_cldrs(locale):
    """The table the grader carries (it runs without Babel, in the browser too) is CLDR's, symbol by symbol."""
    mark, group = numerals.number_format(locale)
    assert (mark, group) == (get_decimal_symbol(locale), get_group_symbol(locale))
    assert numerals.percent_text("40", locale) == format_percent(Decimal("0.4"), locale=locale)
    middle = Locale.parse(locale).list_patterns["standard"]["middle"]
    assert numerals.series_separator(locale) == middle.replace("{0}", "").replace("{1}", "")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("value", ["20000", "112000", "1234567.25", "-20000.5", "0.0005", "12.5", "400000"])
def test_numbers_are_written_as_cldr_writes_them(locale, value):
    """Whole parts of five digits or more grouped, the decimal mark: as Babel formats them (four digits stay
    ungrouped, the course's one rule on top of CLDR: 2000, as the pages write it)."""
    assert numerals.format_number(Decimal(value), locale) == format_decimal(Decimal(value), locale=locale,
                                                                             decimal_quantization=False)


@pytest.mark.parametrize("locale, expected", [("en", "2000"), ("fr", "2000"), ("id", "2000"), ("zh", "2000")])
def test_four_digits_stay_ungrouped(locale, expected):
    assert numerals.format_number(2000, locale) == expected


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("share", ["0.4", "0.005", "0.125", "1"])
def test_percentages_are_cldrs(locale, share):
    assert numerals.format_percent(Fraction(share), locale) == \
        format_percent(Decimal(share), locale=locale, decimal_quantization=False)


@pytest.mark.parametrize("value, en, fr, id_, zh", [
    (20000, "20,000", f"20{NNB}000", "20.000", "20,000"),
    (Decimal("0.9900"), "0.9900", "0,9900", "0,9900", "0.9900"),        # the digits it was given
    (Fraction(1, 2), "1/2", "1/2", "1/2", "1/2"),                        # a fraction as a student types it
    (Fraction(40), "40", "40", "40", "40"),
    (Percent(2, 5), "40%", f"40{NB}%", "40%", "40%"),
    ((Fraction(1, 2), Decimal("0.25"), 0), "(1/2, 0.25, 0)", f"(1/2{NNB}; 0,25{NNB}; 0)", "(1/2; 0,25; 0)",
     "(1/2, 0.25, 0)"),
    (Series([1, 2, 3]), "1, 2, 3", "1, 2, 3", "1, 2, 3", "1、2、3"),
    (Series(["repo-docs", "repo-docstrings"]), "repo-docs, repo-docstrings", "repo-docs, repo-docstrings",
     "repo-docs, repo-docstrings", "repo-docs、repo-docstrings"),
    (0.123456, "0.1235", "0,1235", "0,1235", "0.1235"),
    ("as typed: 0.5", "as typed: 0.5", "as typed: 0.5", "as typed: 0.5", "as typed: 0.5"),   # text is text
])
def test_each_kind_of_value_in_each_locale(value, en, fr, id_, zh):
    assert [format_value(value, lang) for lang in ("en", "fr", "id", "zh")] == [en, fr, id_, zh]


def test_sympy_values_are_plain_values_first():
    import sympy
    assert numerals.plain_value(sympy.Rational(1, 2)) == Fraction(1, 2)
    assert numerals.plain_value(sympy.Integer(20000)) == 20000 and type(numerals.plain_value(sympy.Integer(3))) is int
    assert numerals.plain_value(sympy.Float("0.99", 4)) == Decimal("0.9900")
    assert numerals.plain_value(sympy.Matrix([1, sympy.Rational(1, 4)])) == (1, Fraction(1, 4))
    assert format_value(numerals.plain_value(sympy.sqrt(2) / 2), "fr") == "sqrt(2)/2"   # an exact form as typed


@pytest.mark.parametrize("value, places, trim, fr", [(12.5, 2, True, "12,5"), (0.4, 2, False, "0,40"),
                                                      (-0.0001, 2, False, "0,00"), (20000.0, 1, True, f"20{NNB}000")])
def test_rounded_numbers(value, places, trim, fr):
    assert numerals.format_places(value, "fr", places, trim) == fr


@pytest.mark.parametrize("text, locale, typeset", [("-0,05", "fr", "\u22120,05"), ("-0.05", "en", "-0.05"),
                                                  ("0,05", "fr", "0,05"), ("-1,5", "id", "-1,5")])
def test_a_minus_is_typeset_the_locale_s_way(text, locale, typeset):
    assert numerals.typeset_minus(text, locale) == typeset
