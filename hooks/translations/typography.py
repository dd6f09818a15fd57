"""The typography a locale's text must keep, as checks: pure functions from a text to its problems.

They run on every surface a translator writes (a page's prose, a label, a grader message: hooks.translations.pagechecks
and hooks.translations.surfaces) and on the grader's rendered messages (a test fills every message with numbers):

- French (`french`): a no-break space (U+202F or U+00A0) before `: ; ! ?` and inside « »;
- Japanese and Chinese (`full_width`): the full-width `：；！？，（）。` next to CJK text, not ASCII;
- Korean (`particles`): no particle after a placeholder (`{name}은`, `'{text}'는`): its form depends on the
  value's last sound, which the template cannot know; a construction that reads right whatever the value
  (`{name} 값은`, `은(는)`) is fine.

Code and placeholders are blanked out before the punctuation checks (callers pass prose); the particle
check reads the template itself.
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0\u202f"
FRENCH_MARKS = re.compile(r"(?P<before>.)?(?P<mark>[:;!?])(?=$|[\s)\]»”’\"'.,*_])")
CJK_CHAR = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_ASCII_MARK = re.compile(rf"(?<=[{CJK_CHAR}])[ ]?(?P<mark>[:;!?,.])(?![A-Za-z0-9_])")
CJK_BRACKETS = re.compile(r"\(([^()]*)\)")
FULL_WIDTH = {":": "：", ";": "；", "!": "！", "?": "？", ",": "，", ".": "。", "(": "（", ")": "）"}
PLACEHOLDER_THEN = re.compile(r"\{[A-Za-z_][\w.]*\}['\"’”」]*")      # '{text}'는: the quote closes the value
# 이 is a particle when nothing follows it in the word ({x}이어야, {x}입니다 are the copula, which reads right)
PARTICLE = re.compile(r"(?:은|는|이(?![가-힣])|가|을|를|과|와|으로|로|이나|나|이랑|랑)")
BOTH_FORMS = re.compile(r"\((?:은|는|이|가|을|를|과|와|으|로)\)")


def french(text: str) -> list[str]:
    """French typography: a no-break space before a high punctuation mark and inside guillemets."""
    found = []
    for m in FRENCH_MARKS.finditer(text):
        before = m.group("before")
        if before is None or before not in NO_BREAK:
            shown = "a space" if before == " " else "no space" if before is None or not before.isspace() else repr(before)
            found.append(f"'{m.group('mark')}' after {shown}: French sets a no-break space before it "
                         "(U+202F or U+00A0)")
    for m in re.finditer(r"«(.)|(.)»", text):
        inside = m.group(1) if m.group(1) is not None else m.group(2)
        if inside not in NO_BREAK:
            found.append("guillemets « » hold their text between no-break spaces (U+202F or U+00A0): « texte »")
    return found


def full_width(text: str) -> list[str]:
    """Japanese and Chinese typography: full-width punctuation next to CJK text (the ASCII marks belong
    to Latin text, code and formulas)."""
    found = []
    for m in CJK_ASCII_MARK.finditer(text):
        mark = m.group("mark")
        found.append(f"ASCII '{mark}' after CJK text: write '{FULL_WIDTH[mark]}'")
    for m in CJK_BRACKETS.finditer(text):
        start, end = m.start(), m.end()
        touching = (start > 0 and re.match(f"[{CJK_CHAR}]", text[start - 1])) or \
                   (end < len(text) and re.match(f"[{CJK_CHAR}]", text[end]))
        if re.search(f"[{CJK_CHAR}]", m.group(1)) or touching:
            found.append(f"ASCII brackets '({m.group(1)[:20]})' in CJK text: write （{m.group(1)[:20]}）")
    return found


def particles(template: str) -> list[str]:
    """Korean particles written right after a placeholder (or the quote or bracket that closes one)."""
    found = []
    for m in PLACEHOLDER_THEN.finditer(template):
        rest = template[m.end():]
        particle = PARTICLE.match(rest)
        if particle and not BOTH_FORMS.match(rest[particle.end():]):
            found.append(f"'{m.group(0)}{particle.group(0)}': a particle after a placeholder cannot agree with "
                         "every value; write a construction that reads right whatever the value "
                         f"(e.g. '{m.group(0)} 값{'은' if particle.group(0) in ('은', '는') else '이'}'), or both "
                         "forms, 은(는)")
    return found


def problems(prose: str, locale: str) -> list[str]:
    """The punctuation problems of a locale's prose (code and placeholders already blanked)."""
    if locale == "fr":
        return french(prose)
    if locale in ("ja", "zh"):
        return full_width(prose)
    return []
