"""Every sentence the grader prints, per locale, looked up by stable key.

The wording lives in gettext catalogs, one per locale:
``grader/locale/<locale>/LC_MESSAGES/grader.po``. In each entry ``msgctxt`` is
the stable key the code uses, ``msgid`` the English text and ``msgstr`` the
locale's text, a ``str.format`` template. English (``grader/locale/en``) is the
reference: its msgids are the English wording. A message a locale lacks, leaves
empty or marks fuzzy falls back to English, as gettext does; :func:`grader.languages.audit.check_catalogs`
lists every such gap as untranslated (a warning). A key English lacks (an exercise module added
before its catalog entries) shows as the key itself, is remembered (:func:`unknown_keys`: the
command line names them), and the catalog check reports it as an error.

A parameter whose value starts with ``key:`` names another message; it is
rendered first, with the same parameters (``constraint="key:constraint-floor"``).
Any other parameter that is not text is a value (a number, a point, a percentage,
an enumeration), written in the message's language when the message is
(:func:`grader.languages.numerals.format_value`): a finding keeps its numbers as
numbers, and each reader gets them in their own format.

The catalogs are read with the small reader in :mod:`grader.languages.po` (fast
at start-up); :mod:`grader.languages.audit` checks them with Babel.
"""
from __future__ import annotations

import os
import re
import string
import unicodedata
from decimal import Decimal
from functools import cache
from typing import Mapping

from grader.languages.numerals import (
    DECIMAL_COMMA,  # noqa: F401  (the locales whose students type 0,5: grader.languages.numerals)
    Percent,
    finite_decimal,
    format_value,
)

LOCALES = ("en", "ja", "zh", "ko", "fr", "id")
DEFAULT = "en"
REF = "key:"   # a parameter value naming another message
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")   # POSIX order: the first set one wins
ENGLISH_LOCALES = frozenset({"C", "POSIX"})


LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")


def catalog_path(lang: str) -> str:
    """The catalog file of ``lang`` in the package (a plain file: importlib.resources
    would cost ~7 ms at start-up for nothing, the package is never zipped)."""
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", "grader.po")


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """{key: template} for ``lang``: translated, non-fuzzy entries only (English: all).

    A translation's catalog that is missing or unreadable counts as empty, so a
    translator's slip shows English rather than stopping the grader (the
    catalog check reports it); English's own must be readable.
    """
    if lang not in LOCALES:
        raise ValueError(f"unknown locale {lang!r}; known: {', '.join(LOCALES)}")
    from grader.languages.po import PoSyntaxError, read
    try:
        with open(catalog_path(lang), encoding="utf-8") as handle:
            entries = read(handle.read())
    except (OSError, UnicodeDecodeError, PoSyntaxError):
        if lang == DEFAULT:
            raise
        return {}
    table = {}
    for entry in entries:
        if entry.context is None or entry.fuzzy:
            continue
        wording = entry.msgstr or (entry.msgid if lang == DEFAULT else "")
        if wording:
            table[entry.context] = wording
    return table


_UNKNOWN: set[str] = set()


def unknown_keys() -> frozenset[str]:
    """The keys asked for in this process that the English catalog lacks."""
    return frozenset(_UNKNOWN)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


# Every field a message may hold: the names of the parameters the grader passes (and :func:`rule_params`'
# numbers). Any other ``{...}`` in a message is a mistake the catalog check reports (TeX's
# ``$\operatorname{softmax}$`` would be a field, shown as "?"): a literal brace is written doubled,
# ``{{`` and ``}}`` (``$\operatorname{{softmax}}$``). A new parameter's name is added here.
FIELDS = frozenset({
    "a", "absolute", "argument", "arguments", "b", "base", "bound", "caption", "choices", "components",
    "constraint", "construct", "count", "decimal", "digits", "error", "exact", "excluded", "exercise", "exercises",
    "expected", "figures",
    "expression", "field", "file", "file_seed", "files", "first", "folder", "form", "format", "found", "fraction",
    "got",
    "graded", "heading", "high", "id", "kept", "known", "label", "language", "lesson", "limit", "line", "lines",
    "log", "low", "matches", "max", "message", "n", "name", "now", "number", "operator", "option", "option_seed",
    "package", "part", "parts", "path", "percent", "point", "points", "polish_from", "power", "problem", "product", "prog",
    "prompt", "ratio_step", "reason", "score", "second", "seed", "seeds", "sent", "shown", "size", "step", "students",
    "sum", "symbol", "text", "threshold", "title", "tolerance", "total", "type", "undecided", "unit", "unreadable", "until",
    "value", "variant", "what", "where"})
BRACES = "write a literal brace doubled ({{ for {, }} for })"


def template_problem(template: str, fields: frozenset[str] | None = FIELDS) -> str | None:
    """What makes ``template`` unusable as a message, with the fix, or None: braces that do not parse,
    a field that is not a plain name (``{0}``, ``{}``, ``{a.b}``, ``{a[0]}``), or one not in ``fields``
    (None: any name)."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        return f"its braces do not parse ({exc}): close each field as {{name}}, or {BRACES}"
    for _, name, spec, _ in parsed:
        if name is None:
            continue
        if not name.isidentifier():
            return (f"{{{name}}} is not a field's name (fields are named, like {{value}}): {BRACES}"
                    if name else f"{{}} is not a field's name (fields are named, like {{value}}): {BRACES}")
        if fields is not None and name not in fields:
            return (f"{{{name}}} is not a field the grader fills in (it would show as ?): {BRACES}, as in "
                    f"$\\operatorname{{{{{name}}}}}$, or add a new parameter's name to FIELDS in grader/languages/messages.py")
        if spec and "{" in spec:
            return f"{{{name}:{spec}}} nests a field in another: {BRACES}"
    try:
        template.format(**{name: "" for name in placeholders(template)})
    except (ValueError, IndexError, KeyError, AttributeError) as exc:
        return f"it cannot be formatted ({exc}): {BRACES}"
    return None


def message(key: str, lang: str = DEFAULT, **params: object) -> str:
    """The sentence for ``key`` in ``lang`` (English if the locale lacks it).

    A parameter naming no message (a student's text that happens to start with ``key:``,
    such as a file ``key:x.toml``) is shown as it is."""
    lang = lang if lang in LOCALES else DEFAULT
    english = catalog(DEFAULT).get(key)
    template = catalog(lang).get(key) or english
    if template is None:
        _UNKNOWN.add(key)
        return key
    values = {k: (message(v[4:], lang, **{n: p for n, p in params.items() if n != k})
                  if isinstance(v, str) and v.startswith(REF) and v[4:] in catalog(DEFAULT) else v)
              for k, v in params.items()}
    values = {**rule_params(), **values}
    if template is not english and english is not None:
        problem = _translation_problem(template, english)
        if problem is None:
            try:
                return _formatted(template, values, lang)
            except (KeyError, ValueError, IndexError, AttributeError) as exc:
                problem = f"it cannot be formatted ({type(exc).__name__}: {exc})"
        _broken(lang, key, problem)
        template = english
    return _formatted(template, values, lang)


@cache
def _translation_problem(template: str, english: str) -> str | None:
    """What makes a translation unusable (its braces, or a field English does not have), with the fix."""
    problem = template_problem(template, fields=None)
    if problem is None and template_problem(english, fields=None) is None:
        extra = placeholders(template) - placeholders(english)
        if extra:
            return (f"it uses {{{', '.join(sorted(extra))}}}, which English does not: use English's fields "
                    f"({', '.join('{' + name + '}' for name in sorted(placeholders(english))) or 'none'})")
    return problem


def _formatted(template: str, values: Mapping[str, object], lang: str) -> str:
    return template.format(**{name: format_value(values[name], lang) if name in values else "?"
                              for name in placeholders(template)})


_BROKEN: set[tuple[str, str]] = set()


def _broken(lang: str, key: str, problem: str) -> None:
    """A translation that cannot be formatted is shown in English: said once per message on stderr, with
    its catalog, for whoever runs the grader (the catalog check, python -m grader.languages, says it too)."""
    if (lang, key) in _BROKEN:
        return
    _BROKEN.add((lang, key))
    import sys
    print(f"grader: {catalog_path(lang)}: '{key}': {problem}; shown in English until it is fixed "
          "(python -m grader.languages lists every such message)", file=sys.stderr)


FULL_WIDTH_ENDS = "\u3002\uff01\uff1f\uff09\u300d\u300f"   # 。！？）」』: the next sentence follows with no space


def sentences(texts) -> str:
    """Messages joined into one text, as each language joins sentences: a space between them, none after
    a full-width sentence end (Japanese and Chinese write 。 and go on)."""
    joined = ""
    for text in texts:
        joined += ("" if not joined or joined.endswith(tuple(FULL_WIDTH_ENDS)) else " ") + text
    return joined


# How the TeX a message may hold ($q \cdot k_i$, $\theta$) reads as plain text on a terminal.
_TEX_GROUPS = re.compile(r"\\(?:text|mathrm|operatorname|mathit|mathbf|boldsymbol)\{([^{}]*)\}")
_TEX_ROOT = re.compile(r"\\sqrt\{([^{}]*)\}")
_TEX_FRACTION = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
_TEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_TEX_SYMBOLS = {"cdot": "·", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "le": "≤", "leq": "≤",
                "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "infty": "∞", "to": "→",
                "rightarrow": "→", "in": "∈", "sum": "∑", "prod": "∏", "partial": "∂", "nabla": "∇",
                "circ": "∘", "lVert": "‖", "rVert": "‖", "Vert": "‖", "langle": "⟨", "rangle": "⟩",
                "ldots": "…", "dots": "…", "cdots": "⋯", "degree": "°", "left": "", "right": "",
                "varepsilon": "ε", "vartheta": "ϑ", "varphi": "φ", "lambda": "λ", "Lambda": "Λ"}
_TEX_SPACES = ((r"\,", " "), (r"\;", " "), (r"\:", " "), (r"\ ", " "), (r"\!", ""), (r"\|", "‖"))
_MATH = re.compile(r"\$([^$]+)\$")


def _tex_command(match: re.Match) -> str:
    """A TeX command as the character it draws: a symbol, a Greek letter (by its Unicode name: \\theta is
    GREEK SMALL LETTER THETA, θ), or the command's own name when it is neither."""
    name = match.group(1)
    if name in _TEX_SYMBOLS:
        return _TEX_SYMBOLS[name]
    case = "CAPITAL" if name[0].isupper() else "SMALL"
    try:
        return unicodedata.lookup(f"GREEK {case} LETTER {name.upper()}")
    except KeyError:
        return name


def _grouped(term: str) -> str:
    """A fraction's numerator or denominator, in brackets unless it is one symbol or number."""
    return term if re.fullmatch(r"[\w.\\]+", term.strip()) else f"({term.strip()})"


def plain_math(text: str) -> str:
    r"""``text`` with each ``$TeX$`` segment written as plain text, as a terminal shows it:
    ``$q \cdot k_i / \sqrt{d_k}$`` reads ``q · k_i / sqrt(d_k)``, ``$\theta$`` reads ``θ``."""
    def plain(match: re.Match) -> str:
        tex = _TEX_ROOT.sub(r"sqrt(\1)", _TEX_GROUPS.sub(r"\1", match.group(1)))
        tex = _TEX_FRACTION.sub(lambda m: f"{_grouped(m.group(1))}/{_grouped(m.group(2))}", tex)
        for command, symbol in _TEX_SPACES:
            tex = tex.replace(command, symbol)
        tex = _TEX_COMMAND.sub(_tex_command, tex)
        return tex.replace("{", "").replace("}", "")
    return _MATH.sub(plain, text)


@cache
def rule_params() -> Mapping[str, object]:
    """The tolerance's numbers as ``{tolerance}``, ``{absolute}``, ``{digits}`` (values: each message
    writes them in its language): every message that states the rule derives its text from
    :mod:`grader.arithmetic.tolerance`."""
    from grader.arithmetic import tolerance
    return {"tolerance": Percent(tolerance.RELATIVE), "absolute": Decimal(finite_decimal(tolerance.ABSOLUTE)),
            "digits": tolerance.SIGNIFICANT_FIGURES}


class UnknownLanguage(ValueError):
    """A language asked for by name (``--lang``, ``GRADER_LANG``) that has no catalog."""

    def __init__(self, value: str, where: str):
        super().__init__(f"unknown language {value!r} in {where}; known: {', '.join(LOCALES)}")
        self.value, self.where = value, where


def _language_of(value: str) -> str | None:
    """'fr_FR.UTF-8@euro' -> 'fr'; 'C', 'POSIX', 'C.UTF-8' -> 'en'; unknown -> None."""
    base = value.split(".")[0].split("@")[0]
    if base in ENGLISH_LOCALES:
        return DEFAULT
    prefix = base.replace("-", "_").split("_")[0].lower()
    return prefix if prefix in LOCALES else None


def detect_lang(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang``, else ``GRADER_LANG``, else the locale, else en.

    The locale is the first non-empty of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    (POSIX order); ``C``/``POSIX`` and languages without a catalog mean English.
    An unknown ``--lang`` or ``GRADER_LANG`` is an :class:`UnknownLanguage`
    (a ValueError): the student asked for it by name.
    """
    environ = os.environ if environ is None else environ
    for where, value in (("--lang", option), ("GRADER_LANG", environ.get("GRADER_LANG"))):
        if value:
            found = _language_of(value)
            if found is None:
                raise UnknownLanguage(value, where)
            return found
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable)
        if value:
            return _language_of(value) or DEFAULT
    return DEFAULT
