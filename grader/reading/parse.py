"""Read a student's answer without ever evaluating it, then build its numbers.

Reading (:func:`read`) needs no SymPy: the text is rewritten by :func:`grader.reading.notation.rewrite`
(``√2``, ``10⁻⁶``, full-width digits, simple LaTeX, ``;`` between entries, commas read by the answer's
shape and the student's convention...; what would be misread, such as ``0x0f``, ``30%`` or ``2e+1``, is
refused there), parsed with :func:`ast.parse`, and walked against the frozen allow-lists below into a
small tree of tuples (:data:`Node`). What is genuinely ambiguous (``e^-1/2``, ``1/2√2``) is refused with
both readings. Every refusal is an :class:`AnswerSyntaxError` whose ``error`` carries a column in the
*original* text.

Building (:func:`value`) turns a tree into a number: an exact :class:`~fractions.Fraction` when it is
arithmetic on integers and decimals (no SymPy), else a SymPy expression built by hand from the tree.
Nothing the student typed is executed.

Shapes: a scalar is one tree; ``(a, b)`` or ``[a, b]`` a vector (a tuple of trees); ``{(..), (..)}`` or
a list/tuple of points a set of points (a tuple of tuples, in the order typed, duplicates kept).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from grader.reading.errors import AnswerSyntaxError, ParseError, fail  # noqa: F401  (the reader's errors)
from grader.reading.literals import ARITHMETIC, MAX_EXPONENT, MAX_POWER_BITS, literal_value  # noqa: F401
from grader.reading.notation import rewrite
from grader.reading.syntax import _product, diagnose

MAX_LENGTH = 500          # characters in one answer
MAX_DEPTH = 40            # nesting of operations in the syntax tree
# An answer's plain arithmetic is worked out exactly, in this process: each value it builds (numerator or
# denominator) has at most MAX_POWER_BITS bits, and all of them together at most MAX_PLAIN_WORK, so that no
# answer of 500 characters can hold the CPU (1/3^1000)^126 + (2/3^1000)^126 + ... is refused, not summed
MAX_PLAIN_WORK = 2 * MAX_POWER_BITS

# the functions an answer may call; a second name reads as the first (an angle's exact reference is an acos)
ALIASES = {"ln": "log", "arccos": "acos", "arcsin": "asin", "arctan": "atan"}
FUNCTIONS = frozenset({"sqrt", "exp", "log", "sin", "cos", "acos", "asin", "atan", *ALIASES})
NAMES = frozenset({"pi", "e", "E"})
WORDS = FUNCTIONS | NAMES
OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}
EXPLICIT_PRODUCT = frozenset("*×⋅∙∗·＊\\")     # what a student types for a product (\\: \times, \cdot)
OPERATOR_SYMBOLS = {
    ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@", ast.BitAnd: "&",
    ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.Invert: "~", ast.Not: "not",
}
# What an answer may not hold, by name: a word is another message (``key:construct.<name>``, so it is said in
# the reader's language); Python's own tokens are shown as they are written
CONSTRUCT_NAMES = {
    ast.Lambda: "lambda", ast.Attribute: "key:construct.attribute",
    ast.Subscript: "key:construct.indexing", ast.ListComp: "key:construct.comprehension",
    ast.SetComp: "key:construct.comprehension", ast.DictComp: "key:construct.comprehension",
    ast.GeneratorExp: "key:construct.comprehension", ast.JoinedStr: "key:construct.text",
    ast.Dict: "key:construct.dictionary", ast.Compare: "key:construct.comparison", ast.BoolOp: "and/or",
    ast.IfExp: "if/else", ast.NamedExpr: ":=", ast.Starred: "*",
    ast.Slice: "key:construct.indexing", ast.Await: "await", ast.Yield: "yield",
}

# A tree: ("num", digits, exponent | None) for a literal (1.5e-4 is ("num", "1.5", "-4")),
# ("name", "pi" | "e"), ("call", function, node), ("neg", node), (operator, left, right) for
# + - * / ^.
Node = tuple


@dataclass(frozen=True)
class Reading:
    """An answer as read: ``kind`` 'scalar', 'vector' or 'set'; ``tree`` one node, a tuple of nodes or a
    tuple of tuples of nodes; ``conventions`` what the reading needed beyond plain arithmetic
    (``root``, ``euler``, ``decimal-comma``, ``scientific``...: then its "Read as" is shown)."""
    kind: str
    tree: tuple
    conventions: frozenset[str] = frozenset()

    def entries(self) -> tuple:
        """The answer's numbers, flat: one for a scalar, each coordinate of each point for a set."""
        if self.kind == "scalar":
            return (self.tree,)
        if self.kind == "vector":
            return self.tree
        return tuple(node for point in self.tree for node in point)


def shape_of(kind: str, length: int | None) -> tuple:
    """The shape :func:`grader.reading.commas.separators` reads commas by, from a part's kind and its
    vector's length or its points' dimension."""
    return {"vector": (length,), "set": (None, length)}.get(kind, ())


def read(text: str, *, convention: str = "en", shape: tuple | None = None) -> Reading:
    """Read ``text`` into a :class:`Reading`, or raise :class:`AnswerSyntaxError`. No SymPy.

    ``convention``: the student's locale (``1,871`` is 1871 in en, 1.871 in fr); ``shape``: what the part
    expects (:func:`shape_of`), which decides how a comma between digits reads."""
    if len(text) > MAX_LENGTH:
        raise fail("too-long", MAX_LENGTH, limit=MAX_LENGTH)
    if not text.strip():
        raise fail("empty-answer", 0)
    source, origin, tags = rewrite(text, convention=convention, shape=shape, words=WORDS)
    stripped = source.lstrip()
    shift = len(source) - len(stripped)
    source, origin = stripped, origin[shift:]
    if not source.strip():                    # only invisible characters
        raise fail("empty-answer", 0)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        offset = (exc.offset or 0) - 1
        if offset < 0 or offset >= len(origin):   # 'unexpected end': point past the end
            offset = len(origin) - 1
        raise diagnose(source, origin, text) or fail("syntax-error", origin[offset]) from None
    except (RecursionError, MemoryError):
        raise fail("too-deep", 0) from None
    try:
        walker = _Walker(text, source, origin)
        kind, nodes = walker.top(tree.body)
    except RecursionError:
        raise fail("too-deep", 0) from None
    return Reading(kind, nodes, frozenset(tags | walker.tags))


class _Walker:
    """The ast of the rewritten text, checked against the allow-lists, as a tree of tuples."""

    def __init__(self, typed: str, source: str, origin: tuple[int, ...]):
        self.typed, self.source, self.origin = typed, source, origin
        self.encoded = source.encode("utf-8")
        self.tags: set[str] = set()
        self.values: dict[Node, Fraction | None] = {}    # each subtree's exact value (None: not plain)
        self.work = 0                                    # bits of every exact value built so far

    def column(self, node: ast.AST) -> int:
        return self.at(self._char(getattr(node, "col_offset", 0)))

    def at(self, position: int) -> int:
        return self.origin[min(position, len(self.origin) - 1)]

    def _char(self, byte: int) -> int:
        return len(self.encoded[:byte].decode("utf-8", "ignore"))

    def segment(self, node: ast.AST) -> str:
        return self.encoded[node.col_offset:node.end_col_offset].decode("utf-8")

    def typed_text(self, node: ast.AST) -> str:
        """What the student typed for ``node``."""
        start, end = self._char(node.col_offset), self._char(node.end_col_offset)
        return self.typed[self.at(start):self.at(max(end - 1, start)) + 1].strip()

    def top(self, node: ast.AST) -> tuple[str, tuple]:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
            if not items:
                raise fail("empty-answer", self.column(node))
            if any(isinstance(e, (ast.Tuple, ast.List, ast.Set)) for e in items) or isinstance(node, ast.Set):
                return "set", tuple(self.point(e) for e in items)
            return "vector", tuple(self.scalar(e, 1) for e in items)
        return "scalar", self.scalar(node, 0)

    def point(self, node: ast.AST) -> tuple:
        if isinstance(node, (ast.Tuple, ast.List)):
            for e in node.elts:
                if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
                    raise fail("too-nested", self.column(e))
            return tuple(self.scalar(e, 2) for e in node.elts)
        if isinstance(node, ast.Set):
            raise fail("too-nested", self.column(node))
        return (self.scalar(node, 2),)

    def scalar(self, node: ast.AST, depth: int) -> Node:
        tree = self._scalar(node, depth)
        # a value too large points at the operand that makes it so: the term a long sum cannot take
        self.exact(tree, self.column(node.right if isinstance(node, ast.BinOp) else node))
        return tree

    def exact(self, tree: Node, column: int) -> Fraction | None:
        """The exact value of ``tree`` from its children's (None: not plain), refusing as ``too-large`` one
        with too many bits, or one past the answer's budget of bits (:data:`MAX_PLAIN_WORK`)."""
        if tree in self.values:
            return self.values[tree]
        kind = tree[0]
        if kind == "num":
            found = literal_value(tree)
        elif kind in ("name", "call"):
            found = None
        elif kind == "neg":
            child = self.values.get(tree[1])
            found = None if child is None else -child
        else:
            found = _combined(kind, self.values.get(tree[1]), self.values.get(tree[2]))
        if found is not None:
            bits = found.numerator.bit_length() + found.denominator.bit_length()
            self.work += bits
            if max(found.numerator.bit_length(), found.denominator.bit_length()) > MAX_POWER_BITS \
                    or self.work > MAX_PLAIN_WORK:
                raise fail("too-large", column)
        self.values[tree] = found
        return found

    def _scalar(self, node: ast.AST, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise fail("too-deep", self.column(node))
        col = self.column(node)
        if isinstance(node, ast.Constant):
            return self.constant(node, col)
        if isinstance(node, ast.Name):
            if node.id in NAMES:
                if node.id != "pi":
                    self.tags.add("euler")
                return ("name", "pi" if node.id == "pi" else "e")
            if node.id in FUNCTIONS:
                raise fail("function-without-call", col, name=node.id)
            raise fail("unknown-name", col, name=node.id)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, (ast.UAdd, ast.USub)):
                operand = self.scalar(node.operand, depth + 1)
                return ("neg", operand) if isinstance(node.op, ast.USub) else operand
            raise fail("operator-not-allowed", col, operator=OPERATOR_SYMBOLS.get(type(node.op), "?"))
        if isinstance(node, ast.BinOp):
            return self.binop(node, depth, col)
        if isinstance(node, ast.Call):
            return self.call(node, depth, col)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            raise fail("vector-inside-expression", col)
        raise fail("not-allowed", col, construct=CONSTRUCT_NAMES.get(type(node), type(node).__name__))

    def constant(self, node: ast.Constant, col: int) -> Node:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            kind = "key:construct.text" if isinstance(value, (str, bytes)) else \
                "key:construct.complex" if isinstance(value, complex) else repr(value)
            raise fail("not-allowed", col, construct=kind)
        literal = self.segment(node).replace("_", "")     # 1_871: a thousands separator read as such
        digits, _, exponent = literal.lower().partition("e")
        if exponent:
            self.tags.add("scientific")
            if abs(int(exponent)) > MAX_EXPONENT:
                raise fail("too-large", col)
        return ("num", digits, exponent or None)

    def binop(self, node: ast.BinOp, depth: int, col: int) -> Node:
        op = type(node.op)
        if op not in OPERATORS:
            # the operator sits between the operands: find it after the left one
            symbol = OPERATOR_SYMBOLS.get(op, "?")
            after = self._char(node.left.end_col_offset)
            at = self.source.find(symbol, after)
            raise fail("operator-not-allowed", self.at(at if at >= 0 else after), operator=symbol)
        left = self.scalar(node.left, depth + 1)
        right = self.scalar(node.right, depth + 1)
        if op is ast.Pow:
            check_power(left, right, self.column(node.right))
            if _is_ten(left):
                self.tags.add("scientific")                  # 10^-4: a power of ten, shown as read
            return ("^", left, right)
        if op in (ast.Div, ast.Mult):
            self.ambiguity(node, left, right)
        return (OPERATORS[op], left, right)

    def parenthesized(self, node: ast.AST) -> bool:
        """Did the text hold ``node`` in brackets of its own (``e^(-1)``, not ``e^-1``)?"""
        before = self.source[:self._char(node.col_offset)].rstrip()
        return before.endswith("(")

    def implicit(self, node: ast.BinOp) -> bool:
        """Is this product written without an operator (``2√2``), the rewriting's ``*``?"""
        start, end = self._char(node.left.end_col_offset), self._char(node.right.col_offset)
        star = self.source.find("*", start, end)
        return star >= 0 and self.typed[self.at(star)] not in EXPLICIT_PRODUCT

    def ambiguity(self, node: ast.BinOp, left: Node, right: Node) -> None:
        """Refuse what reads two ways; note what reads by a convention worth showing."""
        op = "/" if isinstance(node.op, ast.Div) else "*"
        found = self.power_before(node)
        if found:
            power, path = found
            if isinstance(power.right, ast.UnaryOp) and op == "/" and not _is_ten(_at(left, path)[1]):
                # e^-1/2: e^(-1)/2 or e^(-1/2)? (10^-4/40 is scientific notation; 2^-2*4 no exponent typed
                # inline: a product is not written in one)
                (_, base, exponent) = _at(left, path)
                exponent = exponent[1] if exponent[0] == "neg" and isinstance(power.right.op, ast.USub) else exponent
                sign = "neg" if isinstance(power.right.op, ast.USub) else None
                inner = (op, exponent, right)
                second = _replace(left, path, ("^", base, (sign, inner) if sign else inner))
                raise fail("ambiguous-reading", self.column(power.right), text=self.typed_text(node),
                           first=text((op, left, right)), second=text(second))
            if _is_ten(_at(left, path)[1]):
                self.tags.add("scientific")                  # 3*10^-4/40 is (3*10^(-4))/40
            elif op == "/" or isinstance(power.right, ast.UnaryOp):
                self.tags.add("precedence")                  # e^1/2 is e^1 / 2, 2^-2*4 is 2^(-2)*4
        between = self.source[self._char(node.left.end_col_offset):self._char(node.right.col_offset)]
        if op == "*" and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Div) and self.implicit(node) \
                and ")" not in between:                        # (1/2)√14: the bracket closes first, one reading
            (_, a, b) = left                                   # 1/2√2: (1/2)·√2 or 1/(2√2)?
            raise fail("ambiguous-reading", self.column(node.left), text=self.typed_text(node),
                       first=text(("*", left, right)), second=text(("/", a, ("*", b, right))))

    def power_before(self, node: ast.BinOp) -> tuple[ast.BinOp, tuple[int, ...]] | None:
        """The power written right before this product's or quotient's operator with an exponent in no
        brackets of its own (``e^-1`` in ``2*e^-1/2``, ``-e^-1/2``, ``2^e^-1/2``), and its path in the
        left operand's tree; None if there is none or a closing bracket stands between (``(e^-1)/2``)."""
        operand, path = node.left, ()
        while True:
            if isinstance(operand, ast.UnaryOp):
                path += (1,) if isinstance(operand.op, ast.USub) else ()
                operand = operand.operand
            elif isinstance(operand, ast.BinOp) and (isinstance(operand.op, (ast.Mult, ast.Div)) or (
                    isinstance(operand.op, ast.Pow) and isinstance(operand.right, ast.BinOp)
                    and isinstance(operand.right.op, ast.Pow))):     # 2*e^-1, 2^e^-1: the right side is next
                operand, path = operand.right, path + (2,)
            else:
                break
        if not (isinstance(operand, ast.BinOp) and isinstance(operand.op, ast.Pow)):
            return None
        if self.parenthesized(operand.right):
            return None
        between = self.source[self._char(operand.end_col_offset):self._char(node.right.col_offset)]
        return None if ")" in between else (operand, path)

    def call(self, node: ast.Call, depth: int, col: int) -> Node:
        if self.side_by_side(node):
            bracket = self.source.index("(", self._char(node.func.end_col_offset))     # after (1/2)'s own ')'
            last = len(self.source[:bracket].rstrip()) - 1                              # 2 (3): the 2
            raise fail("implicit-product", self.at(bracket), product=_product(self.typed, self.at(last) + 1))
        if not isinstance(node.func, ast.Name):
            raise fail("not-allowed", col, construct=CONSTRUCT_NAMES.get(type(node.func), "key:construct.call"))
        name = node.func.id
        if name not in FUNCTIONS:
            raise fail("unknown-function", col, name=name)
        if node.keywords:
            raise fail("not-allowed", self.column(node.keywords[0].value), construct="key:construct.keyword")
        if len(node.args) != 1:
            raise fail("wrong-arity", col, name=name, count=len(node.args))
        return ("call", ALIASES.get(name, name), self.scalar(node.args[0], depth + 1))


    def side_by_side(self, node: ast.Call) -> bool:
        """Is this a value written against a bracket, as a product with no operator (``2(3)``, ``(1/2)(3)``,
        ``sqrt(2)(3)``, ``e(2)``), which Python reads as a call? A function's name (``sqrt(2)``) or an unknown
        name (``foo(2)``, said as such) is not."""
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in NAMES and len(node.args) == 1 and not node.keywords
        return isinstance(func, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.Call)) and len(node.args) == 1 \
            and not node.keywords and not isinstance(getattr(func, "value", None), (str, bytes))


def _is_ten(node: Node) -> bool:
    """Is this the base of scientific notation, ``10`` as typed (``3×10^-4``)?"""
    return node == ("num", "10", None)


def _at(tree: Node, path: tuple[int, ...]) -> Node:
    for step in path:
        tree = tree[step]
    return tree


def _replace(tree: Node, path: tuple[int, ...], node: Node) -> Node:
    """``tree`` with the node at ``path`` (indices into the tuples) replaced by ``node``."""
    if not path:
        return node
    step = path[0]
    return tree[:step] + (_replace(tree[step], path[1:], node),) + tree[step + 1:]


def text(node: Node) -> str:
    """A tree in the grader's notation, locale-free (see :func:`grader.reading.show.read_as`)."""
    from grader.reading.show import expression_text
    return expression_text(node, "en")


# --- building numbers -------------------------------------------------------------------

@lru_cache(maxsize=256)
def plain(node: Node) -> Fraction | None:
    """The exact value of arithmetic on integers and decimals (integer powers included), without
    SymPy; None for anything else (a root, e, a function, division by 0)."""
    try:
        return _plain(node)
    except (ZeroDivisionError, _NotPlain):
        return None


class _NotPlain(Exception):
    pass


def _combined(kind: str, a: Fraction | None, b: Fraction | None) -> Fraction | None:
    """``a kind b`` exactly (None: not plain, or no number: a division by 0). A power is checked
    first (:func:`check_power`), so it is never too large to build."""
    if a is None or b is None:
        return None
    try:
        if kind in ARITHMETIC:
            return ARITHMETIC[kind](a, b)
        if b.denominator != 1 or (a == 0 and b < 0):
            return None
        return a ** int(b)
    except ZeroDivisionError:
        return None


def _plain(node: Node) -> Fraction:
    kind = node[0]
    if kind == "num":
        return literal_value(node)
    if kind == "neg":
        return -_plain(node[1])
    if kind in ("name", "call"):
        raise _NotPlain
    a, b = _plain(node[1]), _plain(node[2])
    if kind in ARITHMETIC:
        return ARITHMETIC[kind](a, b)
    if b.denominator != 1:                    # a root: not a plain number
        raise _NotPlain
    if a == 0 and b < 0:
        raise ZeroDivisionError
    return a ** int(b)


def check_power(base: Node, exponent: Node, column: int) -> None:
    """Refuse a power whose exact value would be too large to build."""
    e = plain(exponent)
    if e is None:
        return
    b = plain(base)
    if b is not None and b in (0, 1, -1):
        return
    if abs(e) > MAX_EXPONENT:
        raise fail("too-large", column)
    if b is not None:
        bits = max(b.numerator.bit_length(), b.denominator.bit_length())
        if bits * abs(e) > MAX_POWER_BITS:
            raise fail("too-large", column)


def is_decimal(node: Node) -> bool:
    """Does the tree hold a decimal (a literal with a point or a power of ten)?"""
    if node[0] == "num":
        return "." in node[1] or node[2] is not None
    return any(is_decimal(child) for child in node[1:] if isinstance(child, tuple))


def is_exact_form(node: Node) -> bool:
    """Was this entry written as an exact form (a root, e, pi, a function, a fractional power) with no
    decimal in it? Then it must equal the answer; a number (a decimal, a fraction or arithmetic on them,
    or anything holding a decimal) is judged within the tolerance. Decided by what was typed, not by
    the value: ``sqrt(9)/10`` is an exact form, ``0.3`` and ``3/10`` are numbers."""
    return not is_decimal(node) and _has_exact_part(node)


def _has_exact_part(node: Node) -> bool:
    kind = node[0]
    if kind in ("name", "call"):
        return True
    if kind == "^":
        e = plain(node[2])
        if e is None or e.denominator != 1:
            return True
    return any(_has_exact_part(child) for child in node[1:] if isinstance(child, tuple))


def figures(node: Node) -> int | None:
    """Significant figures of an entry typed as one decimal (``1.87``: 3, ``0.0500``: 3); else None."""
    if node[0] == "neg":
        node = node[1]
    if node[0] != "num" or ("." not in node[1] and node[2] is None):
        return None
    digits = node[1].replace(".", "").lstrip("0")
    return max(len(digits), 1)


def value(node: Node):
    """The entry's number: a Fraction when it is plain arithmetic (no SymPy), else a SymPy expression."""
    exact = plain(node)
    return exact if exact is not None else sympy_value(node)


def sympy_value(node: Node):
    """The entry as a SymPy expression, built by hand from the tree (imports SymPy)."""
    from grader.reading.build import build
    return build(node)


# --- the whole answer in SymPy, as the rules before this reader were written against ------------

@dataclass(frozen=True)
class Parsed:
    """A parsed answer with SymPy values: ``kind`` is 'scalar', 'vector' or 'set'; ``decimal``: the
    student typed a decimal in it (its value is still exact: ``0.3015`` is 603/2000); ``reading``:
    the :class:`Reading` it was built from."""
    kind: str
    value: object
    decimal: bool = False
    reading: Reading | None = None


def parse_answer(text: str, *, decimal_comma: bool = False, entries: bool = False,
                 convention: str | None = None, shape: tuple | None = None) -> Parsed:
    """Read ``text`` and build every entry in SymPy, or raise :class:`AnswerSyntaxError`.

    ``convention``: the student's locale (default: fr with ``decimal_comma``, else en); ``shape``: what
    the part expects (:func:`shape_of`; by default a comma between digits separates, as in Python,
    except with ``decimal_comma``: then a vector of unknown length with ``entries``, else a number)."""
    convention = convention or ("fr" if decimal_comma else "en")
    if shape is None and decimal_comma:
        shape = (None,) if entries else ()
    reading = read(text, convention=convention, shape=shape)
    if reading.kind == "scalar":
        built = sympy_value(reading.tree)
    elif reading.kind == "vector":
        built = tuple(sympy_value(n) for n in reading.tree)
    else:
        built = tuple(tuple(sympy_value(n) for n in point) for point in reading.tree)
    return Parsed(reading.kind, built, any(is_decimal(n) for n in reading.entries()), reading)
