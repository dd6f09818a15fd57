"""TeX to MathML at build time, so math renders with no script and no network."""

from __future__ import annotations

import html
import re
from functools import lru_cache

from latex2mathml.converter import convert

# What pymdownx.arithmatex (generic mode) leaves in the HTML.
ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex"(?: data-search-exclude)?>'
    r'\s*(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<display>.*?)\\\])\s*</(?P=tag)>',
    re.S,
)
KEPT_OUT = re.compile(r'<(span|div) class="arithmatex">')


def out_of_search(page_html: str) -> str:
    """Mark the TeX arithmatex left for the search index to skip: the formulas become MathML only in the
    written page (`render_math` on the output), so search neither indexes symbols nor parses MathML."""
    return KEPT_OUT.sub(r'<\1 class="arithmatex" data-search-exclude>', page_html)


# `0{,}5` (a braced decimal comma) and `20\,000` (a thin-space thousands separator) are one number
# to a reader, but latex2mathml splits them; join the pieces back into one <mn>.
SPLIT_NUMBER = re.compile(
    r"<mn>([0-9][0-9.,\u202f]*)</mn>(?:<mrow><mo>&#x0002C;</mo></mrow>|<mspace width=\"0\.167em\" />)<mn>([0-9]+)</mn>"
)


def _join_numbers(markup: str) -> str:
    while True:
        joined = SPLIT_NUMBER.sub(
            lambda m: f"<mn>{m.group(1)}{',' if 'mo' in m.group(0) else chr(0x202F)}{m.group(2)}</mn>", markup
        )
        if joined == markup:
            return joined
        markup = joined


# latex2mathml writes `;` and `:` as identifiers (`<mi>`), which have no space around them: `(1;0;0)`. They are
# separators, operators with the spacing the reader's browser gives punctuation (`<mo>`, as it writes `,`):
# `(1; 0; 0)` as the fr and id pages separate a point's entries (grader.languages.numerals.tex_list_separator)
SEPARATORS = ",;:"
SEPARATOR_IDENTIFIER = re.compile(r"<mi>(,|;|:|&#x0002C;|&#x0003B;|&#x0003A;)</mi>")


def _separators_as_operators(markup: str) -> str:
    return SEPARATOR_IDENTIFIER.sub(r"<mo>\1</mo>", markup)


def misread_separators(markup: str) -> list[str]:
    """The separators (`, ; :`) a piece of MathML writes as identifiers, unspaced: what a check reports."""
    return [html.unescape(m.group(1)) for m in SEPARATOR_IDENTIFIER.finditer(markup)]


# latex2mathml passes a command it does not know through as an identifier
UNKNOWN_COMMAND = re.compile(r"<mi>(\\[A-Za-z]+)</mi>")


class MathError(ValueError):
    """A formula the converter cannot read."""

    def __init__(self, tex: str, reason: str):
        super().__init__(f"cannot render the formula '{tex}' {reason}".replace("' :", "':"))
        self.tex = tex


@lru_cache(maxsize=4096)
def tex_to_mathml(tex: str, display: bool = False) -> str:
    try:
        markup = convert(tex, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises a zoo of exception types
        reason = f"{type(error).__name__} {error}".strip()
        raise MathError(tex, f"({reason}): check its braces and commands") from None
    unknown = UNKNOWN_COMMAND.search(markup)
    if unknown:
        raise MathError(tex, f": unknown command {unknown.group(1)}")
    return _separators_as_operators(_join_numbers(markup))


def render_math(page_html: str) -> str:
    """Replace every arithmatex span/div in `page_html` with MathML."""

    def replace(m: re.Match) -> str:
        display = m.group("display") is not None
        tex = html.unescape(m.group("display") if display else m.group("inline"))
        markup = tex_to_mathml(tex.strip(), display)
        return f'<div class="course-math">{markup}</div>' if display else markup

    return ARITHMATEX.sub(replace, page_html)
