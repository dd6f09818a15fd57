"""Values and read answers written back to a student: as text in the grader's notation, or as MathML.

:func:`show` writes a value (a reference, a named mistake) as a student would type it. :func:`read_as`
writes how an answer was read (a :class:`grader.reading.parse.Reading`), bracketed so that no
precedence is left to guess: ``1/2√2`` is refused, but ``e^1/2`` reads ``(e^1)/2`` and ``√2/2`` reads
``sqrt(2)/2``. Numbers keep the digits typed, with the locale's decimal mark.
"""
from __future__ import annotations

from html import escape

from grader.languages.numerals import list_separator, number_format

LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "^": 4}


def show(value) -> str:
    """How a value is written back to a student: '(1/2, 1/4, 1/4)', 'sqrt(14)/2'."""
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return "(" + ", ".join(show(v) for v in value) + ")"
    return str(value).replace("**", "^")


def _level(node: tuple) -> int:
    if node[0] == "num":
        return 2 if node[2] is not None else 5       # 1.5e-4 is a product: 1.5*10^(-4)
    return LEVEL.get(node[0], 5)


def expression_text(node: tuple, locale: str) -> str:
    """One entry's tree as text."""
    kind = node[0]
    if kind == "num":
        digits = node[1].replace(".", number_format(locale)[0])
        if node[2] is None:
            return digits
        exponent = str(int(node[2]))           # 8e-06 is 8*10^(-6)
        return f"{digits}*10^" + (exponent if not exponent.startswith("-") else f"({exponent})")
    if kind == "name":
        return node[1]
    if kind == "call":
        return f"{node[1]}({expression_text(node[2], locale)})"
    if kind == "neg":
        return "-" + _operand(node[1], locale, _level(node[1]) < 2)
    a, b = node[1], node[2]
    la, lb = _level(a), _level(b)
    if kind == "^":
        plain_exponent = b[0] in ("name",) or (b[0] == "num" and b[2] is None)
        return f"{_operand(a, locale, la <= 4)}^{_operand(b, locale, not plain_exponent)}"
    if kind in ("+", "-"):
        return f"{_operand(a, locale, la < 1)} {kind} {_operand(b, locale, lb <= 1)}"
    left = la < 2 or (kind, a[0]) in (("*", "/"), ("/", "^"))   # (1/2)*sqrt(2), (e^1)/2: no precedence to guess
    return f"{_operand(a, locale, left)}{kind}{_operand(b, locale, lb <= 2)}"


def _operand(node: tuple, locale: str, brackets: bool) -> str:
    inner = expression_text(node, locale)
    return f"({inner})" if brackets else inner


def read_as(kind: str, tree: tuple, locale: str) -> str:
    """A whole reading as text: a number, ``(a, b)`` or ``{(a, b), (c, d)}`` (``;`` where the locale's
    decimal mark is a comma)."""
    separator = list_separator(locale)
    if kind == "scalar":
        return expression_text(tree, locale)
    if kind == "vector":
        return "(" + separator.join(expression_text(n, locale) for n in tree) + ")"
    return "{" + ", ".join("(" + separator.join(expression_text(n, locale) for n in point) + ")"
                           for point in tree) + "}"


# --- MathML ----------------------------------------------------------------------------------

def _mo(symbol: str) -> str:
    return f"<mo>{symbol}</mo>"


def _row(*parts: str) -> str:
    return "<mrow>" + "".join(parts) + "</mrow>"


def _fenced(inner: str) -> str:
    return _row(_mo("("), inner, _mo(")"))


def expression_mathml(node: tuple, locale: str) -> str:
    """One entry's tree as MathML (without the ``math`` element)."""
    kind = node[0]
    if kind == "num":
        digits = f"<mn>{escape(node[1].replace('.', number_format(locale)[0]))}</mn>"
        if node[2] is None:
            return digits
        exponent = str(int(node[2]))
        power = _row(_mo("\u2212"), f"<mn>{exponent[1:]}</mn>") if exponent.startswith("-") else f"<mn>{exponent}</mn>"
        return _row(digits, _mo("\u00d7"), f"<msup><mn>10</mn>{power}</msup>")
    if kind == "name":
        return "<mi>\u03c0</mi>" if node[1] == "pi" else "<mi>e</mi>"
    if kind == "call":
        if node[1] == "sqrt":
            return f"<msqrt>{expression_mathml(node[2], locale)}</msqrt>"
        return _row(f"<mi>{node[1]}</mi>", _mo("\u2061"), _fenced(expression_mathml(node[2], locale)))
    if kind == "neg":
        inner = expression_mathml(node[1], locale)
        return _row(_mo("\u2212"), _fenced(inner) if _level(node[1]) < 4 else inner)
    a, b = node[1], node[2]
    ma, mb = expression_mathml(a, locale), expression_mathml(b, locale)
    if kind == "/":
        return f"<mfrac>{ma}{mb}</mfrac>"
    if kind == "^":
        return f"<msup>{_fenced(ma) if _level(a) <= 4 else ma}{mb}</msup>"
    if kind in ("+", "-"):
        return _row(ma if _level(a) >= 1 else _fenced(ma), _mo("+" if kind == "+" else "\u2212"),
                    _fenced(mb) if _level(b) <= 1 else mb)
    return _row(_fenced(ma) if _level(a) < 2 else ma, _mo("\u00b7"), _fenced(mb) if _level(b) < 2 else mb)


def read_as_mathml(kind: str, tree: tuple, locale: str) -> str:
    """A whole reading as a ``math`` element (the site's math is MathML too)."""
    separator = _mo(escape(list_separator(locale).strip()))
    if kind == "scalar":
        body = expression_mathml(tree, locale)
    elif kind == "vector":
        body = _fenced(separator.join(expression_mathml(n, locale) for n in tree))
    else:
        body = _row(_mo("{"), _mo(",").join(_fenced(separator.join(expression_mathml(n, locale) for n in p))
                                            for p in tree), _mo("}"))
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML">{body}</math>'
