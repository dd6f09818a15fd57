"""Parse a student's answer into SymPy objects without ever evaluating it.

The text is rewritten first by :func:`grader.reading.notation.rewrite` (``√2``,
``10⁻⁶``, full-width digits, simple LaTeX, ``;`` between entries, the decimal
comma of fr and id...; what would be misread, such as ``0x0f`` or ``30%``, is
refused there), parsed with :func:`ast.parse`, and walked against the frozen
allow-lists below. Every SymPy object is built by hand from the nodes that
pass; nothing the student typed is executed. A rejected answer raises
:class:`AnswerSyntaxError`, whose ``error`` is a :class:`ParseError` carrying a
column in the *original* text.

Shapes: a scalar is a SymPy expression; ``(a, b)`` or ``[a, b]`` is a vector
(a tuple of expressions); ``{(..), (..)}`` or a list/tuple of points is a set
of points (a tuple of tuples, in the order typed, duplicates kept).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from types import MappingProxyType

import sympy

from grader.reading.notation import AnswerSyntaxError, ParseError, fail, rewrite, separators  # noqa: F401

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
WORDS = frozenset(ALLOWED_FUNCTIONS) | frozenset(ALLOWED_NAMES)
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


@dataclass(frozen=True)
class Parsed:
    """A parsed answer: ``kind`` is 'scalar', 'vector' or 'set'; ``decimal``: the student typed a
    decimal in it (its value is still exact: ``0.3015`` is 603/2000)."""
    kind: str
    value: object
    decimal: bool = False


def _fail(key: str, column: int, **params: object) -> AnswerSyntaxError:
    return fail(key, column, **params)


def constant(literal: str) -> sympy.Expr:
    """The number a literal stands for (its text as Python reads it: ``12``, ``0.3837``,
    ``1.5e-4``); the one place that decides how a typed decimal becomes a number."""
    if literal.isdigit():
        return sympy.Integer(int(literal))
    return sympy.Rational(literal)          # exactly what was typed: 0.3015 is 603/2000


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
        literal = self.segment(node)
        if not literal.isdigit():
            self.decimal = True
            exponent = literal.lower().partition("e")[2]
            if exponent and abs(int(exponent)) > MAX_EXPONENT:
                raise _fail("too-large", col)
        return constant(literal)

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


def parse_answer(text: str, *, decimal_comma: bool = False, entries: bool = False) -> Parsed:
    """Parse ``text`` into a :class:`Parsed`, or raise :class:`AnswerSyntaxError`.

    ``decimal_comma``: the student's language writes 0,5 (see :func:`grader.reading.notation.separators`);
    ``entries``: the part expects a vector or a set (there a comma separates).
    """
    if len(text) > MAX_LENGTH:
        raise _fail("too-long", MAX_LENGTH, limit=MAX_LENGTH)
    if not text.strip():
        raise _fail("empty-answer", 0)
    source, origin = rewrite(text, decimal_comma=decimal_comma, entries=entries, words=WORDS)
    stripped = source.lstrip()
    shift = len(source) - len(stripped)
    source, origin = stripped, origin[shift:]
    if not source.strip():                    # only invisible characters
        raise _fail("empty-answer", 0)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        offset = (exc.offset or 0) - 1
        if offset < 0 or offset >= len(origin):   # 'unexpected end': point past the end
            offset = len(origin) - 1
        raise _fail("syntax-error", origin[offset]) from None
    except (RecursionError, MemoryError):
        raise _fail("too-deep", 0) from None
    try:
        builder = _Builder(source, origin)
        parsed = builder.top(tree.body)
        return Parsed(parsed.kind, parsed.value, builder.decimal)
    except RecursionError:
        raise _fail("too-deep", 0) from None
