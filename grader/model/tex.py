"""Exact values written in TeX, in a locale's number format: what the site shows of a bank value.

Exercise modules write their data and working with these; the site's hook renders the TeX as
MathML. Decimals that are exact stay exact (``0.25``); other values keep SymPy's exact form, with
``≈`` and a rounded decimal where that helps a reader.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

from grader.languages.numerals import finite_decimal, format_number, tex_number, tex_tuple
from grader.model.geometry import as_number


def tex_value(value, locale: str) -> str:
    """Exact when the value is a finite decimal or an integer, else SymPy's exact form."""
    value = as_number(value)
    if value.is_Rational and finite_decimal(value) is not None:
        return tex_number(value, locale)
    return sympy.latex(value)


def tex_vector(values, locale: str) -> str:
    return tex_tuple([tex_value(x, locale) for x in values], locale)


def approx(value, locale: str) -> str:
    """' \\approx 0.6225' when the exact value is not already a short decimal, else ''."""
    value = as_number(value)
    if value.is_Rational and format_number(value, locale) == format_number(float(value), locale):
        return ""
    return r" \approx " + tex_number(float(value), locale)


def tex_answer(reference, locale: str) -> str:
    """A part's reference answer: a number, a vector (with its decimals) or a set of points."""
    if isinstance(reference, sympy.MatrixBase):
        reference = [simplest(x) for x in reference]   # as a reader writes it
        exact = tex_vector(reference, locale)
        if all(x.is_Rational for x in reference):
            return exact
        return exact + r" \approx " + tex_tuple([tex_number(float(x), locale) for x in reference], locale)
    if isinstance(reference, sympy.FiniteSet):
        points = sorted(reference, key=lambda p: [-float(x) for x in p])
        return r"\left\{" + ", ".join(tex_vector(p, locale) for p in points) + r"\right\}"
    return tex_value(reference, locale) + approx(reference, locale)


@lru_cache(maxsize=1024)
def simplest(value):
    """SymPy's simplest form of a value: a rational as it is. A pure function of the value, made once per
    process: the preview renders an exercise again after a catalog's save without simplifying again."""
    return value if value.is_Rational else sympy.simplify(value)


simplest.catalog_free = True   # hooks/chapters/cache.py refresh(): a catalog's save leaves it as it is
