"""The typography a locale's text must keep, as checks: pure functions from a text to its problems.

They run on every surface a translator writes (a page's prose, a label, a grader message: hooks.translations.pagechecks
and hooks.translations.surfaces) and on the grader's rendered messages (a test fills every message with numbers):

- French (`french`): a no-break space (U+202F or U+00A0) before `: ; ! ?` and inside « »;
- Japanese and Chinese (`full_width`): the full-width `：；！？，（）。` next to CJK text, not ASCII;
- Japanese and Chinese (`full_width`): items of a list joined with 、 where the next one is CJK text, not ASCII
  `, ` (`フロア H ≥ 0.5、キャップ D ≤ 0.25`);
- Korean (`korean_brackets`): no space between a word and the bracket that annotates it (`정수(예: 4)`, as the
  pages write it); a tuple after a particle is a word of its own (`점은 (a, b, c)처럼`), and a datum's name is
  code (`최대 학습률 (peak_lr)`);
- Indonesian (`indonesian_points`): a point's entries separated with `; ` (`(0,5; 1)`), as the grader writes them;
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
# 0.5, キャップ D, 重み ≈ 0.384, k₂：スコア: the next item of the list holds CJK text (not a tuple's: (H, G, D) の)
CJK_LIST = re.compile(rf"(?<=[^\s{CJK_CHAR}]),(?![0-9])(?= ?[^,，、。()（）\[\]{{}}]*[{CJK_CHAR}])")
KOREAN_SPACED_BRACKET = re.compile(r"(?P<word>[가-힣]+) \((?P<inside>[^()]*)\)?")
KOREAN_WORD_ENDS = "은는이가을를에의와과도만로나고며면서"   # a particle or a connective ending ends the word: what follows is a word of its own
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
    return found + cjk_lists(text)


def cjk_lists(text: str) -> list[str]:
    """Items of a Japanese or Chinese list joined with ASCII ', ' (`フロア H ≥ 0.5, キャップ D ≤ 0.25`): 、 joins them.
    Also run on text as composed, formulas left in (a formula blanked as code would hide the comma's item)."""
    return [f"ASCII ',' between the items of a list, before CJK text ('{text[max(0, m.start() - 8):m.end() + 4]}'): "
            "write '、'" for m in CJK_LIST.finditer(text)]


def korean_brackets(text: str) -> list[str]:
    """Korean sets no space before the bracket that annotates a word (`수(예: 50)`); a bracket after a particle
    opens a word of its own, a tuple (`점은 (a, b, c)처럼`)."""
    found = []
    for m in KOREAN_SPACED_BRACKET.finditer(text):
        word, inside = m.group("word"), m.group("inside")
        if (word[-1] in KOREAN_WORD_ENDS and not re.search("[가-힣]", inside)) or re.fullmatch(r"[A-Za-z_][\w.-]*", inside):
            continue       # a tuple as a word of its own; a datum's name after its description: (peak_lr)
        found.append(f"a space before the bracket in '{word} ({inside[:20]}': Korean writes the bracket against the "
                     f"word it annotates, '{word}({inside[:20]}'")
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
    if locale == "ko":
        return korean_brackets(prose)
    if locale == "id":
        return indonesian_points(prose)
    return []


def indonesian_points(text: str) -> list[str]:
    """Indonesian separates a point's entries as the grader writes them, `(0,5; 1)`: no space before the `;`."""
    return [f"'{m.group(0)}' in a point: Indonesian writes '; ' between its entries, (0,5; 1), as the grader does"
            for m in re.finditer(r"(?<=[0-9)]) ; (?=[0-9(])", text)]
