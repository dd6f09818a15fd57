"""Numbers as each locale writes them: the one home of decimal marks, list separators and grouping.

The site's pages and figures, the grader's messages and its parser all read this table, so a
French reader sees ``(0,5 ; 0,25)`` in the math, in the figures and in the feedback alike.
Standard library only (a plain-number ``grader check`` imports it without SymPy); exact values
are read by duck typing (anything with integer ``p`` and ``q`` is a fraction).
"""
from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

# locale -> (decimal mark, thousands separator); a locale not listed writes as English does
FORMATS = MappingProxyType({
    "en": (".", ","),
    "ja": (".", ","),
    "zh": (".", ","),
    "ko": (".", ","),
    "fr": (",", "\u202f"),
    "id": (",", "."),
})
# Between the items of a tuple: a comma, unless the decimal mark is one. French sets a narrow
# no-break space before the semicolon.
LIST_SEPARATORS = MappingProxyType({"fr": "\u202f; ", "id": "; "})
PERCENT_SIGNS = MappingProxyType({"fr": "\u202f%"})
GROUP_FROM = 5   # digits in the whole part from which it is grouped: 2000 stays, 20,000 is grouped

DECIMAL_COMMA = frozenset(locale for locale, (mark, _) in FORMATS.items() if mark == ",")


def number_format(locale: str) -> tuple[str, str]:
    """(decimal mark, thousands separator) of ``locale``."""
    return FORMATS.get(locale, FORMATS["en"])


def list_separator(locale: str) -> str:
    return LIST_SEPARATORS.get(locale, ", ")


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


def format_number(value, locale: str, digits: int = 4) -> str:
    """``value`` as text in the locale's format: an exact decimal stays exact, anything else is
    rounded to ``digits`` significant figures."""
    text = None if isinstance(value, float) else finite_decimal(value)
    if text is None:
        text = f"{float(value):.{digits}g}"
        if "e" in text:
            return text
    mark, thousands = number_format(locale)
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, fraction = text.partition(".")
    if len(whole) >= GROUP_FROM:
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands.join(groups)
    return sign + whole + (mark + fraction if fraction else "")


def format_tuple(values, locale: str, digits: int = 4) -> str:
    """'(0.5, 0.25)', or '(0,5 ; 0,25)' in French."""
    return "(" + list_separator(locale).join(format_number(v, locale, digits) for v in values) + ")"


def format_percent(fraction, locale: str) -> str:
    """A fraction as a percentage: '0.5%', '0,5 %'."""
    return format_number(Fraction(exact_fraction(fraction)) * 100, locale) + PERCENT_SIGNS.get(locale, "%")


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
