"""Why Python could not parse an answer, named where a student can act on it: a bracket never closed or
never opened (``sqrt(3.49``), or two operands side by side with no operator (``2e^(1/2)``,
``sqrt(1.25)sqrt(1.54)``). Read from the rewritten text (:mod:`grader.reading.notation`), whose every
character knows its column in what was typed; None when neither is found (the generic ``syntax-error``).
Standard library only."""
from __future__ import annotations

import re

from grader.reading.errors import AnswerSyntaxError, fail

OPENING, CLOSING = "([{", ")]}"
# an operand's end, then (spaces allowed) another's start with no operator between: 2e^..., 2pi, 2(3),
# (1)(2), sqrt(2)sqrt(3); a number's own exponent (2e3, 1.5e-4) is part of the number
SIDE_BY_SIDE = re.compile(
    r"(?:(?<![A-Za-z_])(?P<number>[0-9]+\.?[0-9]*|\.[0-9]+)(?![0-9.]|[eE][+-]?[0-9])|(?P<bracket>[)\]}]))"
    r"\s*(?P<next>[A-Za-z_(0-9.])")
SHOWN = 40          # characters of the answer a message quotes around the place, at most


def diagnose(source: str, origin: tuple[int, ...], typed: str) -> AnswerSyntaxError | None:
    """The refusal that names what made ``source`` unreadable, with its column in ``typed``; or None."""
    stack: list[int] = []
    for i, ch in enumerate(source):
        if ch in OPENING:
            stack.append(i)
        elif ch in CLOSING:
            if not stack:
                return fail("bracket-not-opened", origin[i])
            if OPENING.index(source[stack.pop()]) != CLOSING.index(ch):
                return None                       # (2]: a mismatch, the generic message
    if stack:
        at = stack[-1]
        return fail("bracket-not-closed", origin[at], symbol=CLOSING[OPENING.index(source[at])])
    for m in SIDE_BY_SIDE.finditer(source):
        if m["number"] is not None and m["next"] in "0123456789.":
            continue                              # 400 000: digits after a space, not a product
        end = origin[m.end("number" if m["number"] is not None else "bracket") - 1] + 1
        return fail("implicit-product", origin[m.start("next")], product=_product(typed, end))
    return None


def _product(typed: str, end: int) -> str:
    """The answer with ``*`` written at column ``end``, around there when it is long."""
    shown = typed[:end] + "*" + typed[end:]
    if len(shown) <= SHOWN:
        return shown.strip()
    start = max(0, end - SHOWN // 2)
    return ("…" if start else "") + shown[start:start + SHOWN].strip() + ("…" if start + SHOWN < len(shown) else "")
