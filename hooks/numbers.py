"""Numbers written the way each locale writes them, in text and in TeX."""

from __future__ import annotations

from fractions import Fraction

# locale -> (decimal mark, thousands separator); the checker in hooks.translations reads the same table
FORMATS = {
    "en": (".", ","),
    "ja": (".", ","),
    "zh": (".", ","),
    "ko": (".", ","),
    "fr": (",", "\u202f"),
    "id": (",", "."),
}


def list_separator(locale: str) -> str:
    """Where the decimal mark is a comma, items of a tuple are separated by a semicolon: (0,5 ; 0,25)."""
    return ";" if FORMATS.get(locale, FORMATS["en"])[0] == "," else ","


def exact_fraction(value) -> Fraction | None:
    """An int, a Fraction or a SymPy rational (anything with integer `p` and `q`) as a Fraction; else None.

    Duck-typed so that this module, which the hook imports on every build, does not import SymPy."""
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    p, q = getattr(value, "p", None), getattr(value, "q", None)
    if isinstance(p, int) and isinstance(q, int):
        return Fraction(p, q)
    return None


def finite_decimal(value) -> str | None:
    """'0.25' for 1/4; None when the exact value has no finite decimal expansion."""
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
    scaled = abs(fraction) * 10**places
    digits = str(int(scaled)).rjust(places + 1, "0")
    sign = "-" if fraction < 0 else ""
    return sign + (digits[:-places] + "." + digits[-places:] if places else digits)


def format_number(value, locale: str, digits: int = 4) -> str:
    """`value` (exact or float) as text in the locale's format: exact decimals stay exact, others are rounded."""
    text = finite_decimal(value) if not isinstance(value, float) else None
    if text is None:
        text = f"{float(value):.{digits}g}"
        if "e" in text:
            return text
    decimal_mark, thousands = FORMATS.get(locale, FORMATS["en"])
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, fraction = text.partition(".")
    if len(whole) > 4:  # 2000 stays 2000; 20000 becomes 20,000
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands.join(groups)
    return sign + whole + (decimal_mark + fraction if fraction else "")


def tex_number(value, locale: str, digits: int = 4) -> str:
    """The same, for TeX: a decimal comma is braced so TeX does not space it as punctuation."""
    text = format_number(value, locale, digits)
    return text.replace(",", "{,}").replace("\u202f", "\\,")
