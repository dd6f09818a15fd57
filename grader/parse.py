"""Parse a student's answer into SymPy objects without ever evaluating it.

The text is rewritten (``^`` -> ``**`` and a few Unicode look-alikes), parsed
with :func:`ast.parse`, and walked against the frozen allow-lists below. Every
SymPy object is built by hand from the nodes that pass; nothing the student
typed is executed. A rejected answer raises :class:`AnswerSyntaxError`, whose
``error`` is a :class:`ParseError` carrying a column in the *original* text.

Decimal comma (``decimal_comma=True``, for students writing French or
Indonesian): :func:`decimal_commas` reads ``0,3837`` as ``0.3837`` where one
number is expected, and refuses a comma that could be a decimal mark or a
separator; the text keeps its length, so columns still point into what the
student typed.

Shapes: a scalar is a SymPy expression; ``(a, b)`` or ``[a, b]`` is a vector
(a tuple of expressions); ``{(..), (..)}`` or a list/tuple of points is a set
of points (a tuple of tuples, in the order typed, duplicates kept).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from types import MappingProxyType

import sympy

MAX_LENGTH = 500          # characters in one answer
MAX_DEPTH = 40            # nesting of operations in the syntax tree
MAX_EXPONENT = 1000       # largest |numeric exponent| accepted
MAX_POWER_BITS = 200_000  # bits in an exact power before it is "too large"

ALLOWED_FUNCTIONS = MappingProxyType({
    "sqrt": sympy.sqrt, "exp": sympy.exp, "log": sympy.log, "ln": sympy.log,
    "sin": sympy.sin, "cos": sympy.cos,
})
ALLOWED_NAMES = MappingProxyType({"pi": sympy.pi, "e": sympy.E, "E": sympy.E})
BINARY_OPERATORS = MappingProxyType({
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
})
OPERATOR_SYMBOLS = MappingProxyType({
    ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@", ast.BitAnd: "&",
    ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.Invert: "~", ast.Not: "not",
})
CONSTRUCT_NAMES = MappingProxyType({
    ast.Lambda: "lambda", ast.Attribute: "attribute access (.)",
    ast.Subscript: "indexing [ ]", ast.ListComp: "comprehension",
    ast.SetComp: "comprehension", ast.DictComp: "comprehension",
    ast.GeneratorExp: "comprehension", ast.JoinedStr: "f-string",
    ast.Dict: "dictionary", ast.Compare: "comparison", ast.BoolOp: "and/or",
    ast.IfExp: "if/else", ast.NamedExpr: ":=", ast.Starred: "*",
    ast.Slice: "slice", ast.Await: "await", ast.Yield: "yield",
})
# Unicode look-alikes students paste, and the ASCII they stand for.
REWRITES = MappingProxyType({"^": "**", "\u2212": "-", "\u00d7": "*", "\u00b7": "*",
                             "\u03c0": "pi", "\n": " ", "\r": " ", "\t": " "})


@dataclass(frozen=True)
class ParseError:
    """Why an answer was rejected: a message key, its parameters, a column."""
    key: str
    column: int
    params: tuple[tuple[str, str], ...] = field(default=())

    @property
    def param_dict(self) -> dict[str, str]:
        return dict(self.params)


class AnswerSyntaxError(ValueError):
    def __init__(self, error: ParseError):
        super().__init__(f"{error.key} at column {error.column}")
        self.error = error


@dataclass(frozen=True)
class Parsed:
    """A parsed answer: ``kind`` is 'scalar', 'vector' or 'set'; ``decimal``: the student typed a
    decimal in it (its value is still exact: ``0.3015`` is 603/2000)."""
    kind: str
    value: object
    decimal: bool = False


def _fail(key: str, column: int, **params: object) -> AnswerSyntaxError:
    return AnswerSyntaxError(ParseError(key, column, tuple((k, str(v)) for k, v in params.items())))


def rewrite(text: str) -> tuple[str, tuple[int, ...]]:
    """Return the rewritten text and, per rewritten character, its original column."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        repl = REWRITES.get(ch, ch)
        out.append(repl)
        origin.extend([i] * len(repl))
    origin.append(len(text))
    return "".join(out), tuple(origin)


class _Builder:
    def __init__(self, source: str, origin: tuple[int, ...]):
        self.decimal = False
        self.source = source
        self.origin = origin
        self.encoded = source.encode("utf-8")

    def column(self, node: ast.AST) -> int:
        byte = getattr(node, "col_offset", 0)
        return self.origin[len(self.encoded[:byte].decode("utf-8", "ignore"))]

    def segment(self, node: ast.AST) -> str:
        return self.encoded[node.col_offset:node.end_col_offset].decode("utf-8")

    def top(self, node: ast.AST) -> Parsed:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
            if not items:
                raise _fail("empty-answer", self.column(node))
            if any(isinstance(e, (ast.Tuple, ast.List, ast.Set)) for e in items) or isinstance(node, ast.Set):
                return Parsed("set", tuple(self.point(e) for e in items))
            return Parsed("vector", tuple(self.scalar(e, 1) for e in items))
        return Parsed("scalar", self.scalar(node, 0))

    def point(self, node: ast.AST) -> tuple:
        if isinstance(node, (ast.Tuple, ast.List)):
            for e in node.elts:
                if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
                    raise _fail("too-nested", self.column(e))
            return tuple(self.scalar(e, 2) for e in node.elts)
        if isinstance(node, ast.Set):
            raise _fail("too-nested", self.column(node))
        return (self.scalar(node, 2),)

    def scalar(self, node: ast.AST, depth: int) -> sympy.Expr:
        if depth > MAX_DEPTH:
            raise _fail("too-deep", self.column(node))
        col = self.column(node)
        if isinstance(node, ast.Constant):
            return self.constant(node, col)
        if isinstance(node, ast.Name):
            if node.id in ALLOWED_NAMES:
                return ALLOWED_NAMES[node.id]
            if node.id in ALLOWED_FUNCTIONS:
                raise _fail("function-without-call", col, name=node.id)
            raise _fail("unknown-name", col, name=node.id)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, (ast.UAdd, ast.USub)):
                value = self.scalar(node.operand, depth + 1)
                return -value if isinstance(node.op, ast.USub) else value
            raise _fail("operator-not-allowed", col, operator=OPERATOR_SYMBOLS.get(type(node.op), "?"))
        if isinstance(node, ast.BinOp):
            return self.binop(node, depth, col)
        if isinstance(node, ast.Call):
            return self.call(node, depth, col)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            raise _fail("vector-inside-expression", col)
        raise _fail("not-allowed", col, construct=CONSTRUCT_NAMES.get(type(node), type(node).__name__))

    def constant(self, node: ast.Constant, col: int) -> sympy.Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            kind = "text string" if isinstance(value, (str, bytes)) else type(value).__name__
            raise _fail("not-allowed", col, construct=kind)
        if isinstance(value, int):
            return sympy.Integer(value)
        self.decimal = True
        text = self.segment(node).replace("_", "")
        mantissa, _, exponent = text.lower().partition("e")
        if exponent and abs(int(exponent)) > MAX_EXPONENT:
            raise _fail("too-large", col)
        return sympy.Rational(text)          # the decimal text, exactly: 0.3015 is 603/2000

    def binop(self, node: ast.BinOp, depth: int, col: int) -> sympy.Expr:
        op = type(node.op)
        if op is ast.Pow:
            base = self.scalar(node.left, depth + 1)
            exponent = self.scalar(node.right, depth + 1)
            check_power(base, exponent, self.column(node.right))
            return base ** exponent
        if op not in BINARY_OPERATORS:
            # the operator sits between the operands: find it after the left one
            symbol = OPERATOR_SYMBOLS.get(op, "?")
            after = len(self.encoded[:node.left.end_col_offset].decode("utf-8", "ignore"))
            at = self.source.find(symbol, after)
            raise _fail("operator-not-allowed", self.origin[at if at >= 0 else after],
                        operator=symbol)
        left = self.scalar(node.left, depth + 1)
        right = self.scalar(node.right, depth + 1)
        return BINARY_OPERATORS[op](left, right)

    def call(self, node: ast.Call, depth: int, col: int) -> sympy.Expr:
        if not isinstance(node.func, ast.Name):
            raise _fail("not-allowed", col, construct=CONSTRUCT_NAMES.get(type(node.func), "call"))
        name = node.func.id
        if name not in ALLOWED_FUNCTIONS:
            raise _fail("unknown-function", col, name=name)
        if node.keywords:
            raise _fail("not-allowed", self.column(node.keywords[0].value), construct="keyword argument")
        if len(node.args) != 1:
            raise _fail("wrong-arity", col, name=name, count=len(node.args))
        return ALLOWED_FUNCTIONS[name](self.scalar(node.args[0], depth + 1))


def check_power(base: sympy.Expr, exponent: sympy.Expr, column: int) -> None:
    """Refuse a power whose exact value would be too large to build."""
    if not exponent.is_Number:
        return
    if base.is_Number and base in (sympy.S.Zero, sympy.S.One, sympy.S.NegativeOne):
        return
    if abs(exponent) > MAX_EXPONENT:
        raise _fail("too-large", column)
    if base.is_Rational:
        bits = max(int(base.p).bit_length(), int(base.q).bit_length())
        if bits * abs(exponent) > MAX_POWER_BITS:
            raise _fail("too-large", column)


_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")         # 0,5: a comma between two digits
_TWO_COMMAS = re.compile(r"\d+,\d+(,)\d")               # 1,234,5: not one decimal number
_AFTER_POINT = re.compile(r"[)\]]\s*$")                  # '), (' separates points


def decimal_commas(text: str, entries: bool) -> str:
    """``text`` with its decimal commas read, for a locale that writes 0,5.

    The rule. A *decimal comma* is a comma directly between two digits
    (``0,5``); a comma followed by a space or a bracket separates.

    * One number expected (``entries=False``): decimal commas become points
      (``0,3837``, ``sqrt(2,5)``). If the answer also has a separating comma,
      or a number has two decimal commas (``1,234,5``), it is refused
      (``decimal-comma-ambiguous``).
    * Several entries expected (a vector or a set, ``entries=True``): commas
      separate entries, so a decimal comma is refused (``decimal-comma-in-vector``;
      ``(1,1,0)`` too: write ``(1, 1, 0)``) unless the answer uses ``;`` between
      entries: then every comma must be a decimal comma (or follow a point's
      closing bracket), ``;`` separates, and ``(0,5 ; 1)`` reads ``(0.5, 1)``.

    The result has the same length as ``text``; refusals point at the comma.
    """
    decimal = [m.start() for m in _DECIMAL_COMMA.finditer(text)]
    if not entries:
        if not decimal:
            return text
        twice = _TWO_COMMAS.search(text)
        if twice:
            raise _fail("decimal-comma-ambiguous", twice.start(1))
        if text.count(",") > len(decimal):
            raise _fail("decimal-comma-ambiguous", decimal[0])
        return _DECIMAL_COMMA.sub(".", text)
    if ";" not in text:
        if decimal:
            at = decimal[0]
            start, end = at, at + 1
            while start > 0 and text[start - 1].isdigit():
                start -= 1
            while end < len(text) and text[end].isdigit():
                end += 1
            raise _fail("decimal-comma-in-vector", at, text=text[start:end])
        return text
    chars = list(text)
    for i, ch in enumerate(text):
        if ch == ",":
            if i in decimal:
                chars[i] = "."
            elif not _AFTER_POINT.search(text[:i]):
                raise _fail("decimal-comma-mixed", i)
        elif ch == ";":
            chars[i] = ","
    return "".join(chars)


def parse_answer(text: str, *, decimal_comma: bool = False, entries: bool = False) -> Parsed:
    """Parse ``text`` into a :class:`Parsed`, or raise :class:`AnswerSyntaxError`.

    ``decimal_comma``: the student's language writes 0,5 (see :func:`decimal_commas`);
    ``entries``: the part expects a vector or a set (there a comma separates).
    """
    if len(text) > MAX_LENGTH:
        raise _fail("too-long", MAX_LENGTH, limit=MAX_LENGTH)
    if not text.strip():
        raise _fail("empty-answer", 0)
    if decimal_comma:
        text = decimal_commas(text, entries)
    source, origin = rewrite(text)
    stripped = source.lstrip()
    shift = len(source) - len(stripped)
    source, origin = stripped, origin[shift:]
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        offset = (exc.offset or 0) - 1
        if offset < 0 or offset >= len(origin):   # 'unexpected end': point past the end
            offset = len(origin) - 1
        raise _fail("syntax-error", origin[offset]) from None
    except (RecursionError, MemoryError, ValueError):
        raise _fail("too-deep", 0) from None
    try:
        builder = _Builder(source, origin)
        parsed = builder.top(tree.body)
        return Parsed(parsed.kind, parsed.value, builder.decimal)
    except RecursionError:
        raise _fail("too-deep", 0) from None
