"""How students write math, rewritten into the arithmetic :mod:`grader.reading.parse` reads.

Students type ``√2``, ``10⁻⁶``, ``１２``, ``400 000``, ``\\frac{1}{2}`` or
``(1 ; 1 ; 0)``. :func:`rewrite` turns such text into plain ASCII arithmetic
(``sqrt(2)``, ``10**(-6)``...) in stages, each one data (frozen tables below):

1. :data:`CHARACTERS`, one character at a time: full-width forms, Arabic-Indic
   digits, look-alike operators, spaces, invisible characters;
2. :data:`GROUPING`: thin, narrow no-break and no-break spaces between groups
   of three digits (``400 000``) are dropped;
3. :data:`REFUSALS`: what would be misread is refused with its own message key
   (a comment, a hexadecimal literal, ``1_5``, ``0·5``, ``30%``, ``800 steps``);
4. :data:`LATEX` (until nothing changes, so ``\\frac{\\sqrt{2}}{2}`` works
   from the inside out) and :data:`NOTATIONS` (``√``, ``½``, superscripts, ``^``);
5. :func:`separators`: ``;`` between entries, and the decimal comma of
   languages that write ``0,5``.

Every rewritten character remembers the column of the character it came from
(text inserted by a rule takes the column of what it replaced), so a
:class:`ParseError` found in the rewritten text points into what the student
typed. Nothing here evaluates anything: the result is only ever read by the
``ast`` whitelist in :mod:`grader.reading.parse`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from types import MappingProxyType
from typing import Mapping

from grader.languages.numerals import DECIMAL_COMMA
from grader.reading.commas import separators
from grader.reading.errors import AnswerSyntaxError, ParseError, fail  # noqa: F401  (the reader's errors)

# --- 1. characters ------------------------------------------------------------

def _table(*parts: Mapping[str, str]) -> Mapping[str, str]:
    """One frozen table from several."""
    return MappingProxyType({k: v for part in parts for k, v in part.items()})


FULL_WIDTH = _table({chr(0xFF01 + i): chr(0x21 + i) for i in range(94)},   # （１，２） -> (1,2)
                    {"\u3000": " "})
ARABIC_INDIC = _table({chr(0x0660 + d): str(d) for d in range(10)},      # ٠١٢...
                      {chr(0x06F0 + d): str(d) for d in range(10)},      # ۰۱۲... (Persian, Urdu)
                      {"\u066b": "."})                                   # ٫ Arabic decimal separator
LOOK_ALIKES = _table({"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
                      "\u00d7": "*", "\u22c5": "*", "\u2219": "*", "\u2217": "*",
                      "\u00f7": "/", "\u2215": "/", "\u2044": "/", "\u03c0": "pi"})
SPACES = _table(dict.fromkeys("\t\n\r\v\f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                              "\u200a\u205f", " "))
INVISIBLE = _table(dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u061c", ""))  # zero-width
CHARACTERS = _table(FULL_WIDTH, ARABIC_INDIC, LOOK_ALIKES, SPACES, INVISIBLE)

GROUPING_SPACES = "\u00a0\u2009\u202f"     # no-break, thin, narrow no-break: 400 000
_GROUPED = rf"[0-9]{{1,3}}(?:[ {GROUPING_SPACES}][0-9]{{3}})+"
_UNGROUPED = MappingProxyType(dict.fromkeys(" " + GROUPING_SPACES, ""))
SUPERSCRIPTS = MappingProxyType(dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾", "0123456789+-()")))
FRACTIONS = MappingProxyType({
    ch: "{0.numerator}/{0.denominator}".format(Fraction(unicodedata.numeric(ch)).limit_denominator(10))
    for ch in "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"})


# --- the rules ------------------------------------------------------------------

Piece = str | int | tuple[int, Mapping[str, str]]   # literal text | a group | a group, translated


@dataclass(frozen=True)
class Rule:
    """Where ``pattern`` matches: write ``template`` (literal text, group numbers, or
    (group, table) to translate a group character by character), or, with a ``key``,
    refuse the answer at the group named ``at`` (else the match's start), unless the
    group named ``word`` is one of the words an answer may use (``pi``, ``sqrt``...)."""
    pattern: re.Pattern
    template: tuple[Piece, ...] = ()
    key: str | None = None
    tag: str = ""      # the convention a rewrite reads the answer by (its "Read as" is then shown)


def _rule(pattern: str, *template: Piece, tag: str = "") -> Rule:
    return Rule(re.compile(pattern), template, tag=tag)


def _refuse(key: str, pattern: str) -> Rule:
    return Rule(re.compile(pattern), (), key)


NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
NUMBER_OR_COMMA = r"(?:[0-9]+(?:[.,][0-9]+|\.)?|\.[0-9]+)"     # 0,3 is read as 0.3 in every language
_LETTER = rf"[^\W\d_{''.join(SUPERSCRIPTS)}{''.join(FRACTIONS)}]"    # ² and ½ are not letters
_CLOSES = r"(?=\s*(?:$|[,;)\]}]))"         # the end of an entry

# 400 000 -> 400000, with a plain, thin, narrow no-break or no-break space alike (each one is how some
# keyboard or page writes it): groups of three digits after one to three, and the "Read as" shows it
GROUPING = (
    _rule(rf"(?<![0-9.,]){_GROUPED}(?![0-9]|[ {GROUPING_SPACES}][0-9])", (0, _UNGROUPED), tag="grouping"),
    _rule(rf"[{GROUPING_SPACES}]", " "),
)
REFUSALS = (
    _refuse("syntax-error", r"(?P<at>[\x00-\x1f\x7f-\x9f\ud800-\udfff])"),   # control, half a character
    _refuse("comment-in-answer", r"(?P<at>#).*"),
    _refuse("number-base", r"(?<![\w.])0[xXbBoO][0-9A-Za-z_]*"),
    _refuse("digit-underscore", r"(?<![A-Za-z_.])[0-9][0-9.]*(?P<at>_)[0-9_.]*"),
    _refuse("middle-dot", r"[0-9]+(?P<at>\u00b7)[0-9]+"),
    _refuse("percent-sign", rf"[0-9][0-9.,]*\s*(?P<at>%){_CLOSES}"),
    # 2e+1: 2 x 10^1, or 2e + 1? Read as a power of ten: a minus after the e, as students write scientific
    # notation (3e-4, 1.5e-4), a decimal before it (1.5e+4), no sign (2e3), or an exponent written with a
    # leading zero as programs print it (8e+06)
    _refuse("ambiguous-exponent", r"(?<![\w.,])(?P<mantissa>[0-9]+)(?P<at>[eE])(?P<sign>[+])(?P<power>[1-9][0-9]*)(?![\w.])"),
    _refuse("unit-in-answer", rf"(?<![\w.,])(?P<number>{NUMBER_OR_COMMA}(?:[eE][+-]?[0-9]+)?)\s*"
                              rf"(?P<at>(?P<word>{_LETTER}+)){_CLOSES}"),
)
_ARG = r"\{([^{}]*)\}"                      # a LaTeX argument with no braces inside (yet)
LATEX = (
    _rule(rf"\\[dt]?frac\s*{_ARG}\s*{_ARG}", "((", 1, ")/(", 2, "))", tag="latex"),
    _rule(r"\\[dt]?frac\s*([0-9])\s*([0-9])", "((", 1, ")/(", 2, "))", tag="latex"),     # \frac12
    _rule(rf"\\sqrt\s*{_ARG}", "sqrt(", 1, ")", tag="latex"),
    _rule(r"\\sqrt\s*([0-9])", "sqrt(", 1, ")", tag="latex"),                             # \sqrt2
    _rule(rf"\^\s*{_ARG}", "^(", 1, ")", tag="latex"),
    _rule(r"\\left\s*([(\[])", 1, tag="latex"),
    _rule(r"\\right\s*([)\]])", 1, tag="latex"),
    _rule(r"\\(?:times|cdot)(?![A-Za-z])", "*", tag="latex"),
    _rule(r"\\div(?![A-Za-z])", "/", tag="latex"),
    _rule(r"\\[,;:! ]", " ", tag="latex"),
    _rule(r"\\([{}])", 1, tag="latex"),
    # any other command is its name (\pi, \exp; \alpha: an unknown name, said so)
    _rule(r"\\(?!(?:[dt]?frac|left|right)(?![A-Za-z])|sqrt\s*\{)([A-Za-z]+)", 1, tag="latex"),
)
_FRACTION = f"[{''.join(FRACTIONS)}]"
NOTATIONS = (
    _rule(r"(?<=[0-9A-Za-z)\]])\s*(?=√)", "*", tag="implicit-product"),   # 2√2 -> 2*√2
    _rule(r"√\s*(?=\()", "sqrt", tag="root"),                             # √(14) -> sqrt(14)
    _rule(rf"√\s*({NUMBER}|[A-Za-z]+(?![A-Za-z(]))", "sqrt(", 1, ")", tag="root"),     # √2, √e
    _rule(rf"(?<![0-9.])([0-9]+)({_FRACTION})", "(", 1, "+", (2, FRACTIONS), ")", tag="fraction"),  # 1½
    _rule(rf"({_FRACTION})", "(", (1, FRACTIONS), ")", tag="fraction"),                   # ½ -> (1/2)
    _rule(f"([{''.join(SUPERSCRIPTS)}]+)", "**(", (1, SUPERSCRIPTS), ")", tag="superscript"),  # 10⁻⁶ -> 10**(-6)
    _rule("\u00b7", "*"),                                                 # 2·sqrt(2): a product
    _rule(r"\^", "**"),
)


# --- applying them, with the origin of every character --------------------------

class Rewritten:
    """A text being rewritten, and per character its column in the original."""

    def __init__(self, text: str, convention: str = "en"):
        self.original = text
        self.text = text
        self.origin = list(range(len(text)))
        self.convention = convention     # the student's locale: how a refusal quotes their number

    def column(self, i: int) -> int:
        """The original column of rewritten position ``i`` (past the end: the original's end)."""
        return self.origin[i] if i < len(self.origin) else len(self.original)

    def typed(self, start: int, end: int) -> str:
        """What the student typed for rewritten positions ``start:end``."""
        return self.original[self.column(start):self.column(end - 1) + 1] if end > start else ""

    def translate(self, table: Mapping[str, str]) -> None:
        text, origin = [], []
        for ch, col in zip(self.text, self.origin):
            out = table.get(ch, ch)
            text.append(out)
            origin += [col] * len(out)
        self.text, self.origin = "".join(text), origin

    def apply(self, rule: Rule) -> bool:
        """Rewrite every match of ``rule`` by its template; True if the text changed."""
        text, origin, last = [], [], 0
        for m in rule.pattern.finditer(self.text):
            text.append(self.text[last:m.start()])
            origin += self.origin[last:m.start()]
            at = m.start()
            for piece in rule.template:
                if isinstance(piece, str):
                    text.append(piece)
                    origin += [self.column(min(at, max(m.end() - 1, m.start())))] * len(piece)
                    continue
                group, table = (piece, None) if isinstance(piece, int) else piece
                for i in range(m.start(group), m.end(group)):
                    out = self.text[i] if table is None else table.get(self.text[i], self.text[i])
                    text.append(out)
                    origin += [self.origin[i]] * len(out)
                at = m.end(group)
            last = m.end()
        text.append(self.text[last:])
        origin += self.origin[last:]
        changed = "".join(text) != self.text
        self.text, self.origin = "".join(text), origin
        return changed

    def refusal(self, key: str, m: re.Match) -> AnswerSyntaxError:
        at = m.start("at") if "at" in m.re.groupindex else m.start()
        typed = self.typed(m.start(), m.end()).strip()
        params = REFUSAL_PARAMS.get(key, lambda m, typed, r: {})(m, typed, self)
        return fail(key, self.column(at), **params)


def _base(m: re.Match, typed: str, r: Rewritten) -> dict:
    text = m.group()
    try:
        value = int(text, 0)
    except ValueError:
        value = "?"
    return {"text": typed, "base": {"x": 16, "b": 2, "o": 8}[text[1].lower()], "value": value}


def _decimal(text: str) -> Decimal | str:
    """A number the advice names, as a value (the message writes it with the reader's decimal mark)."""
    number = text.replace(",", ".")                # 0,3 is 0.3 in every language
    try:
        return Decimal(number) if re.fullmatch(r"[0-9]*\.?[0-9]*", number) else text
    except InvalidOperation:
        return text


def _underscored(m: re.Match, typed: str, r: Rewritten) -> dict:
    """The number an underscore is in, whole: where the decimal mark is a comma (fr, id), ``0,000_1`` is one
    number, quoted whole and read as 0.0001 (the rule's pattern stops at the comma)."""
    start, end = m.start(), m.end()
    if r.convention in DECIMAL_COMMA:
        before = re.search(r"[0-9]+,$", r.text[:start])
        after = re.match(r",[0-9][0-9_]*", r.text[end:]) if "," not in r.text[start:end] else None
        start, end = before.start() if before else start, end + (after.end() if after else 0)
    number = r.text[start:end]
    return {"text": r.typed(start, end).strip(), "value": _decimal(number.replace("_", ""))}


REFUSAL_PARAMS = MappingProxyType({
    "comment-in-answer": lambda m, typed, r: {"kept": r.typed(0, m.start()).strip()},
    "number-base": _base,
    "digit-underscore": _underscored,
    "middle-dot": lambda m, typed, r: {"text": typed, "point": _decimal(m.group().replace("\u00b7", ".")),
                                       "product": m.group().replace("\u00b7", "*")},
    "percent-sign": lambda m, typed, r: {"text": typed,
                                         "fraction": m.group()[:m.start("at") - m.start()].strip()
                                         + "/100"},
    "ambiguous-exponent": lambda m, typed, r: {
        "text": typed, "power": f"{m['mantissa']}*10^" + (m["power"] if m["sign"] == "+" else f"(-{m['power']})"),
        "sum": f"{m['mantissa']}*e {m['sign']} {m['power']}"},
    "unit-in-answer": lambda m, typed, r: {"number": _decimal(r.typed(m.start("number"), m.end("number"))),
                                           "unit": r.typed(m.start("at"), m.end("at"))},
})


def rewrite(text: str, *, convention: str = "en", shape: tuple | None = None,
            words: frozenset[str] = frozenset()) -> tuple[str, tuple[int, ...], frozenset[str]]:
    """The text as arithmetic :mod:`grader.reading.parse` reads, per rewritten character its
    column in ``text`` (plus one last entry: the end), and the conventions the rewriting read it by
    (``root``, ``latex``, ``decimal-comma``...: see :data:`NOTATIONS`, :mod:`grader.reading.commas`).
    Raises :class:`AnswerSyntaxError` (with a column in ``text``) for what it refuses.

    ``convention``: the student's locale (how a comma between digits reads where the answer's shape
    leaves two readings); ``shape``: what the part expects (:func:`grader.reading.commas.separators`);
    ``words``: the names and functions an answer may use (``2 pi`` is a missing ``*``, not a unit)."""
    r = Rewritten(text, convention)
    r.translate(CHARACTERS)
    tags = set()
    for rule in GROUPING:
        if r.apply(rule) and rule.tag:
            tags.add(rule.tag)
    first = []
    for n, rule in enumerate(REFUSALS):
        m = next((m for m in rule.pattern.finditer(r.text)
                  if "word" not in m.re.groupindex or m.group("word") not in words), None)
        if m:
            first.append((m.start(), n, m))
    if first:
        _, n, m = min(first, key=lambda f: f[:2])
        raise r.refusal(REFUSALS[n].key, m)
    changed = "\\" in r.text or "{" in r.text          # every LaTeX rule needs one (a quick way past them)
    while changed:
        changed = any([r.apply(rule) for rule in LATEX])
        tags |= {"latex"} if changed else set()
    if not r.text.isascii() or "^" in r.text:          # every other notation is one of these
        for rule in NOTATIONS:
            if r.apply(rule) and rule.tag:
                tags.add(rule.tag)
    try:
        r.text, read = separators(r.text, convention, shape)
    except AnswerSyntaxError as exc:
        raise fail(exc.error.key, r.column(exc.error.column), **exc.error.param_dict) from None
    return r.text, (*r.origin, len(text)), frozenset(tags | read)
