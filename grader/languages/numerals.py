"""Numbers as each locale writes them: the one home of decimal marks, grouping, list separators and
percentages, for the grader's messages, its data lines, its report, the site's pages and figures.

The conventions are CLDR's (``tests/grader/test_numerals.py`` checks each one against Babel, which reads
CLDR); they are kept here as a small table because the grader needs only the standard library at run
time: it also runs in the reader's browser, without Babel, and a plain-number ``grader check`` must not
pay for loading locale data. One house rule on top of CLDR: a whole part of four digits is not grouped
(``2000``, as the pages write it; 20 000 is).

A message's parameters stay values until the message is written in a language (:func:`format_value`):
an int is grouped (``20 000``), a :class:`~decimal.Decimal` keeps its digits with the locale's mark
(``0,9900``), a Fraction is written as a student types it (``1/2``), a :class:`Percent` as a percentage
(``40 %``), a tuple as a point (``(1/2 ; 0)``), a :class:`Series` as an enumeration (``1、2`` in zh).
Exact values are read by duck typing (anything with integer ``p`` and ``q`` is a fraction), so SymPy's
numbers are formatted too, without importing it.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

# locale -> (decimal mark, grouping separator), CLDR's symbols; a locale not listed writes as English does
FORMATS = MappingProxyType({
    "en": (".", ","),
    "ja": (".", ","),
    "zh": (".", ","),
    "ko": (".", ","),
    "fr": (",", "\u202f"),
    "id": (",", "."),
})
# How a percentage is written, CLDR's percent pattern: '40%', or '40 %' with a no-break space in French
PERCENT_PATTERNS = MappingProxyType({"fr": "{}\u00a0%"})
# Between the items of an enumeration (CLDR's list pattern, its middle): '1, 2, 3', '1、2、3'
SERIES_SEPARATORS = MappingProxyType({"ja": "\u3001", "zh": "\u3001"})
# Between the entries of a point or a vector: a comma, unless the decimal mark is one; French sets a
# narrow no-break space before the semicolon (the grader's notation, not CLDR's)
LIST_SEPARATORS = MappingProxyType({"fr": "\u202f; ", "id": "; "})
# The minus sign of a number set in running text (the class report): U+2212 in French, as its
# typography sets it (CLDR's fr writes a hyphen-minus; the grader reads both in an answer)
MINUS_SIGNS = MappingProxyType({"fr": "\u2212"})
GROUP_FROM = 5   # digits in the whole part from which it is grouped: 2000 stays, 20,000 is grouped

DECIMAL_COMMA = frozenset(locale for locale, (mark, _) in FORMATS.items() if mark == ",")


class Percent(Fraction):
    """A share written as a percentage: ``Percent(2, 5)`` is 40% (a prompt's parameter)."""


class Series(tuple):
    """An enumeration of items (numbers or names), written with the locale's list separator."""


def number_format(locale: str) -> tuple[str, str]:
    """(decimal mark, thousands separator) of ``locale``."""
    return FORMATS.get(locale, FORMATS["en"])


def list_separator(locale: str) -> str:
    return LIST_SEPARATORS.get(locale, ", ")


def series_separator(locale: str) -> str:
    return SERIES_SEPARATORS.get(locale, ", ")


def exact_fraction(value) -> Fraction | None:
    """An int, a Fraction or an exact rational (integer ``p`` and ``q``) as a Fraction; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    p, q = getattr(value, "p", None), getattr(value, "q", None)
    if isinstance(p, int) and isinstance(q, int):
        return Fraction(p, q)
    return None


def finite_decimal(value) -> str | None:
    """'0.25' for 1/4; None when the value is not exact or has no finite decimal expansion."""
    fraction = exact_fraction(value)
    if fraction is None:
        return None
    denominator, twos, fives = fraction.denominator, 0, 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return None
    places = max(twos, fives)
    digits = str(int(abs(fraction) * 10**places)).rjust(places + 1, "0")
    sign = "-" if fraction < 0 else ""
    return sign + (digits[:-places] + "." + digits[-places:] if places else digits)


def localized(text: str, locale: str) -> str:
    """A number written the English way ('-20000.25') in the locale's format: its decimal mark, and its
    whole part grouped from :data:`GROUP_FROM` digits."""
    mark, thousands = number_format(locale)
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, fraction = text.partition(".")
    if len(whole) >= GROUP_FROM and whole.isdigit():
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands.join(groups)
    return sign + whole + (mark + fraction if fraction else "")


def format_number(value, locale: str, digits: int = 4) -> str:
    """``value`` as text in the locale's format: an exact decimal stays exact (a Decimal keeps the
    digits it has), anything else is rounded to ``digits`` significant figures."""
    if isinstance(value, Decimal):
        text = format(value, "f") if value.is_finite() else str(value)
    else:
        text = None if isinstance(value, float) else finite_decimal(value)
    if text is None:
        text = f"{float(value):.{digits}g}"
        if "e" in text or not text.lstrip("-")[:1].isdigit():     # 1e-09, inf, nan
            return text
    return localized(text, locale)


def format_places(value: float, locale: str, places: int, trim: bool = True) -> str:
    """``value`` rounded to ``places`` decimals (trailing zeros dropped when ``trim``): 12.5, 0.40."""
    text = f"{value:.{places}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if float(text) == 0:
        text = text.lstrip("-")                                     # -0.001 to 2 places is 0
    return localized(text, locale)


def typeset_minus(text: str, locale: str) -> str:
    """A number already in the locale's format, with the locale's minus sign: '\u22120,05' in French."""
    sign = MINUS_SIGNS.get(locale)
    return sign + text[1:] if sign and text.startswith("-") else text


def format_tuple(values, locale: str, digits: int = 4) -> str:
    """'(0.5, 0.25)', or '(0,5 ; 0,25)' in French."""
    return "(" + list_separator(locale).join(format_number(v, locale, digits) for v in values) + ")"


def percent_text(number: str, locale: str) -> str:
    """A percentage's number (already in the locale's format) with its sign, the locale's way."""
    return PERCENT_PATTERNS.get(locale, "{}%").format(number)


def format_percent(share, locale: str, places: int | None = None) -> str:
    """A share as a percentage: '0.5%', '40 %' in French. An exact share with a short decimal is
    written exactly; ``places`` rounds it (a float always is, to one decimal by default)."""
    fraction = exact_fraction(share)
    if places is None and fraction is not None and finite_decimal(fraction * 100) is not None:
        return percent_text(format_number(fraction * 100, locale), locale)
    return percent_text(format_places(float(share) * 100, locale, 1 if places is None else places), locale)


def format_value(value, locale: str) -> str:
    """A message's parameter as a reader of ``locale`` reads it (see the module's docstring)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Percent):
        return format_percent(value, locale)
    if isinstance(value, Series):
        return series_separator(locale).join(format_value(v, locale) for v in value)
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return "(" + list_separator(locale).join(format_value(v, locale) for v in value) + ")"
    if isinstance(value, (int, Decimal, float)):
        return format_number(value, locale)
    fraction = exact_fraction(value)
    if fraction is not None:
        if fraction.denominator == 1:
            return format_number(fraction.numerator, locale)
        return f"{fraction.numerator}/{fraction.denominator}"
    if getattr(value, "is_Float", False):                 # SymPy's Float: the digits it holds
        return format_number(Decimal(str(value)), locale)
    if hasattr(value, "decimal") and hasattr(value, "lo"):   # a proven interval: its value, to 4 figures
        return format_number(float(value), locale)
    return str(value).replace("**", "^")                  # an exact form: sqrt(2)/2


def plain_value(value):
    """A value as plain Python, ready to be written in any language later: SymPy's integers and
    rationals as int and Fraction, its Float as the Decimal of its digits, a matrix or a list as a
    tuple; text, stdlib numbers and anything else (an exact form) as they are."""
    if isinstance(value, (str, bool, int, Fraction, Decimal, float)):
        return value
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return type(value)(plain_value(v) for v in value) if isinstance(value, (Series, tuple)) \
            else tuple(plain_value(v) for v in value)
    fraction = exact_fraction(value)
    if fraction is not None:
        return fraction.numerator if fraction.denominator == 1 else fraction
    if getattr(value, "is_Float", False):
        return Decimal(str(value))
    return value


# --- the same, in TeX

def _tex_spacing(text: str) -> str:
    return text.replace("\u202f", r"\,").replace(" ", r"\ ")


def tex_number(value, locale: str, digits: int = 4) -> str:
    """A number in TeX: a decimal comma is braced so TeX does not space it as punctuation."""
    text = format_number(value, locale, digits)
    return text.replace(",", "{,}").replace("\u202f", r"\,")


def tex_list_separator(locale: str) -> str:
    """:func:`list_separator` in TeX, so the math and the text of a page separate alike (TeX spaces
    after the punctuation itself; the space before a French semicolon is kept)."""
    return _tex_spacing(list_separator(locale).rstrip(" "))


def tex_tuple(items, locale: str) -> str:
    """``items`` (TeX already) as a tuple."""
    return r"\left(" + tex_list_separator(locale).join(items) + r"\right)"
