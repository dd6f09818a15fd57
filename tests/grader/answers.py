"""Hypothesis strategies: answers generated from the grammar the grader reads (the README's *Answers*
and *Notations*), and the noise around them that students and hostile files bring.

Numbers in every written form (integers, decimals, scientific notation, decimal commas, thousands
separators, full-width and Arabic-Indic digits, vulgar fractions, huge and tiny magnitudes);
expressions of them with the operators, functions and names an answer may use, in every notation
(√, superscripts, LaTeX, implicit products); vectors and sets of them with `,` or `;`; Unicode noise
(combining marks, zero-width, bidi, control characters) and garbage around all of it.

The profile: ``HYPOTHESIS_PROFILE=long`` for a long random run (thousands of examples); the default,
``fast``, is sized for ``make test-fast`` and derandomized (the same examples on every machine, so a
test fails only when the grader changes).
"""
from __future__ import annotations

import os
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from grader.bank import EXERCISES

settings.register_profile("fast", max_examples=25, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.register_profile("long", max_examples=1500, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))


def examples(fast: int) -> int:
    """``fast`` examples for a test that runs more of the grader per example (forks, files), scaled up
    as the profile is."""
    return max(fast, fast * settings.default.max_examples // 25)

LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
PARTS = tuple((ex.id, p.id) for ex in EXERCISES.values() for p in ex.parts)
# each part's kind, from the exercises themselves: nothing here reads the reference table, which would
# fill its cache while the tests are collected (bench/mutate.py forks each mutant's run from there)
KIND = {(ex.id, p.id): p.kind for ex in EXERCISES.values() for p in ex.parts}
SEEDS = ("s0042", "José", "student-17")

# --- numbers ------------------------------------------------------------------------------------

FULL_WIDTH = {str(d): chr(0xFF10 + d) for d in range(10)} | {".": "．", ",": "，", "-": "－", "(": "（", ")": "）"}
ARABIC_INDIC = {str(d): chr(0x0660 + d) for d in range(10)} | {".": "\u066b"}
PERSIAN = {str(d): chr(0x06F0 + d) for d in range(10)}
GROUPING = ("\u202f", "\u2009", "\u00a0", " ", ",", ".")
VULGAR = "¼½¾⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
SUPERSCRIPT = dict(zip("0123456789+-()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾"))

digits = st.text("0123456789", min_size=1, max_size=6)
integers = st.one_of(st.integers(0, 1000).map(str), digits, st.integers(10**15, 10**40).map(str))
decimals = st.one_of(
    st.builds(lambda i, f: f"{i}.{f}", st.integers(0, 99), digits),
    digits.map(lambda f: f".{f}"),                                        # .5
    st.integers(0, 99).map(lambda i: f"{i}."),                            # 5.
    st.builds(lambda z, f: f"0.{'0' * z}{f}", st.integers(0, 400), digits),   # tiny
)
exponents = st.one_of(st.integers(-12, 12), st.integers(-10**9, 10**9))
scientific = st.builds(lambda m, sign, e: f"{m}{sign}{e}", st.one_of(decimals, digits),
                       st.sampled_from(["e", "E", "e+", "e-", "E-"]), st.one_of(st.integers(0, 12).map(str),
                                                                             st.sampled_from(["06", "999999999"])))


def _translate(text: str, table: dict) -> str:
    return "".join(table.get(ch, ch) for ch in text)


@st.composite
def grouped(draw) -> str:
    """A number with a thousands separator (or a decimal comma, or both)."""
    head, groups = draw(st.integers(1, 999)), draw(st.lists(st.integers(0, 999), min_size=1, max_size=3))
    sep = draw(st.sampled_from(GROUPING))
    text = str(head) + "".join(f"{sep}{g:03d}" for g in groups)
    if draw(st.booleans()):
        text += draw(st.sampled_from([",", "."])) + draw(digits)
    return text


plain_numbers = st.one_of(integers, decimals, scientific)
numbers = st.one_of(
    plain_numbers,
    decimals.map(lambda d: d.replace(".", ",")),                          # 0,3
    grouped(),
    plain_numbers.map(lambda n: _translate(n, FULL_WIDTH)),
    plain_numbers.map(lambda n: _translate(n, ARABIC_INDIC)),
    integers.map(lambda n: _translate(n, PERSIAN)),
    st.builds(lambda a, b: f"{a}/{b}", integers, integers),
    st.sampled_from(VULGAR),
    st.builds(lambda i, v: f"{i}{v}", st.integers(1, 9), st.sampled_from(VULGAR)),   # 1½
)

# --- expressions --------------------------------------------------------------------------------

NAMES = ("pi", "e", "E", "π", "\\pi", "x", "alpha", "\\alpha", "inf", "nan", "I", "oo")
FUNCTIONS = ("sqrt", "exp", "log", "ln", "sin", "cos", "tan", "abs", "__import__", "eval")
UNDEFINED = ("0/0", "1/0", "sqrt(-1)", "log(0)", "ln(-2)", "0^(-1)", "(-8)^(1/3)")   # no finite real number
atoms = st.one_of(numbers, numbers, numbers, st.sampled_from(NAMES), st.sampled_from(UNDEFINED))


def _superscript(text: str) -> str:
    return _translate(text, SUPERSCRIPT)


def _extend(inner):
    return st.one_of(
        st.builds(lambda a, op, b: f"{a}{op}{b}", inner, st.sampled_from(
            ["+", "-", "*", "/", "^", "**", " + ", " - ", "×", "÷", "·", "−", "⋅", " ", "//", "%", "@"]), inner),
        inner.map(lambda a: f"-{a}"),
        inner.map(lambda a: f"({a})"),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(FUNCTIONS), inner),
        st.builds(lambda f, a: f"{f}{a}", st.sampled_from(["√", "√ ", "2√", "\\sqrt", "e^", "10^-"]), inner),
        st.builds(lambda a, b: f"{a}{_superscript(b)}", inner, st.sampled_from(["2", "-6", "-1", "(1)", "+3"])),
        st.builds(lambda a, b: f"\\frac{{{a}}}{{{b}}}", inner, inner),
        st.builds(lambda a: f"\\sqrt{{{a}}}", inner),
        st.builds(lambda a: f"e^{{{a}}}", inner),
        st.builds(lambda a, b: f"\\left({a}\\right) \\cdot {b}", inner, inner),
        st.builds(lambda a, b: f"{a} \\times {b}", inner, inner),
    )


expressions = st.recursive(atoms, _extend, max_leaves=6)

# --- shapes -------------------------------------------------------------------------------------


@st.composite
def vectors(draw, entries=expressions) -> str:
    items = draw(st.lists(entries, min_size=1, max_size=4))
    sep = draw(st.sampled_from([", ", ",", " ; ", ";", "，"]))
    opening, closing = draw(st.sampled_from(["()", "[]", "（）"]))
    return opening + sep.join(items) + closing


@st.composite
def sets(draw, entries=expressions) -> str:
    points = draw(st.lists(vectors(entries), min_size=0, max_size=4))
    opening, closing = draw(st.sampled_from(["{}", "[]", "()"]))
    return opening + draw(st.sampled_from([", ", ","])) .join(points) + closing


shaped = st.one_of(expressions, expressions, vectors(), sets())

# --- noise --------------------------------------------------------------------------------------

NOISE = ("\u0301", "\u0308", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u202d", "\u2066",
         "\u2069", "\u200f", "\u061c", "\x00", "\x1b", "\x1b[2J", "\x7f", "\x85", "\t", "\n", "\r", "\u3000",
         "\u00a0", "#", "%", " steps", "'", '"', "\\", "$", "\ud800", "lambda", "1_0", "0x1f", "()", ")(", ",,")


@st.composite
def noisy(draw, base=shaped) -> str:
    """An answer with noise characters inserted at random places."""
    text = draw(base)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(NOISE)) + text[at:]
    return text


anything = st.one_of(shaped, shaped, noisy(), st.text(max_size=40), st.text("()[]{},;.0123456789+-*/^e ", max_size=30))

# --- answers near a reference: the ones that get real verdicts -----------------------------------


def decimal_text(value: Fraction | Decimal, figures: int) -> str:
    """``value`` correctly rounded (half even) to ``figures`` significant figures, written with them all
    (trailing zeros kept: they count as figures)."""
    with localcontext() as ctx:
        ctx.prec = 200
        d = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(value)
        if d == 0:
            return "0"
        quantum = Decimal(1).scaleb(d.adjusted() - figures + 1)
        return format(d.quantize(quantum, rounding=ROUND_HALF_EVEN), "f")
