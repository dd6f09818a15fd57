"""The chapter scanner calls code exactly what a CommonMark parser (markdown-it-py) calls code, and every
reader of a chapter (headings, prose, paragraphs, math, markup, links, blocks, bank numbers) leaves code alone."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from markdown_it import MarkdownIt

from hooks.chapters import pages, sanitize
from hooks.chapters import source as chapter
from hooks.chapters.blockspec import scan_blocks
from hooks.translations import pagechecks

COMMONMARK = MarkdownIt("commonmark")


def code_lines_by_commonmark(text: str) -> set[int]:
    """The 1-based lines markdown-it's fenced and indented code blocks cover."""
    return {n + 1 for token in COMMONMARK.parse(text) if token.type in ("fence", "code_block")
            for n in range(*token.map)}


def code_lines(text: str) -> set[int]:
    return {line.number for line in chapter.scan(text).lines if line.kind == chapter.CODE}


# (what the case shows, chapter text): the fences of CommonMark's spec and their kin in a chapter
FENCES = [
    ("four backticks hold a ```python block", "# T\n\n````markdown\n```python\n# x\n```\n````\n\nafter\n"),
    ("a shorter fence does not close a longer one", "`````\n````\n```\n`````\nafter\n"),
    ("tildes hold backticks", "~~~\n```\n# x\n~~~\nafter\n"),
    ("backticks hold tildes", "```\n~~~\n# x\n```\nafter\n"),
    ("a closing fence may be longer", "~~~\nx\n~~~~~~\nafter\n"),
    ("a fence with text after it does not close", "```\nx\n``` not closing\n```\nafter\n"),
    ("trailing spaces after a closing fence", "```\nx\n```   \nafter\n"),
    ("a tilde fence's info string may hold backticks", "~~~ a`b\nx\n~~~\nafter\n"),
    ("a backtick fence's info string may not", "``` a`b\nnot code\n```\nx\n"),
    ("a fence indented by 1 to 3 spaces", " ```\na\n  ```\n   ```\nb\n   ```\nafter\n"),
    ("a closing fence indented by 3 spaces", "```\na\n   ```\nafter\n"),
    ("a fence indented by 4 spaces is indented code", "text\n\n    ```\n    # x\n    ```\n\nafter\n"),
    ("a fence indented by a tab is indented code", "\t```\n\t# x\n\nafter\n"),
    ("a closing fence indented by 4 spaces does not close", "```\na\n    ```\nb\n```\nafter\n"),
    ("indented lines continue a paragraph", "text\n    ```\n    # x\n"),
    ("blank lines inside indented code", "    a\n\n\n    b\n\n\nafter\n"),
    ("a fence interrupts a paragraph", "text\n```\n# x\n```\nafter\n"),
    ("an unclosed fence runs to the end", "# T\n\n```\n# x\n\nmore\n\n"),
    ("an unclosed fence at the very end", "text\n\n~~~~"),
    ("a fence inside a block", "/// step | A\n```python\n# x\n```\n///\n"),
    ("a block fence inside code", "```\n/// step | A\n///\n```\n"),
    ("a block's options are not code", "/// exercise | a\n    open: true\n\nx\n///\n"),
    ("a fence in a list item", "- item\n\n    ```python\n    # x\n    ```\n\nafter\n"),
    ("a list item's second paragraph is not code", "- item\n\n    more text\n\nafter\n"),
    ("indented code in a list item", "- item\n\n        code\n\n        more\n\nafter\n"),
    ("a fence right after a list marker", "- ```\n  # x\n  ```\n- b\n"),
    ("a list item's end closes its fence", "- a\n  ```\n  b\nc\n"),
    ("an empty item and a blank line end a list", "-\n\n    code\n"),
    ("an ordered item's fence", "1. x\n   ```\n   y\n```\nz\n"),
    ("an empty fence", "```\n```\nafter\n"),
]


@pytest.mark.parametrize("text", [text for _, text in FENCES], ids=[name for name, _ in FENCES])
def test_code_is_what_commonmark_calls_code(text):
    assert code_lines(text) == code_lines_by_commonmark(text)


# Line shapes for generated chapters. A list item's content column stays at most 4: beyond it, markdown-it
# and CommonMark's reference implementation (commonmark.js) disagree on a line indented 4 spaces or more
# but less than the item's content, and the scanner follows commonmark.js. Raw HTML blocks are not followed.
SHAPES = ["```", "````", "~~~", "~~~~", "```python", "``` a`b", "~~~ a`b", "``` ", "text $x$", "# h", "---", "===",
          "/// step | A", "///", "open: true", "***", "\t```"]
ITEMS = ["- a", "* b", "1. c", "-", "- ", "1.  ", "- ```", "1. ~~~", "-     five", "- \tcode"]


def generated_chapter(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 10)):
        if rng.random() < 0.2:
            lines.append("")
        elif rng.random() < 0.2:
            item = rng.choice(ITEMS)
            lines.append(" " * (rng.choice([0, 2]) if item[0] in "-*" else 0) + item)
        else:
            lines.append(" " * rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 8]) + rng.choice(SHAPES))
    text = "\n".join(lines) + "\n"
    return "\n" + text if text.startswith("---") else text  # not front matter


def test_code_is_what_commonmark_calls_code_in_generated_chapters():
    rng = random.Random(11)
    disagree = [text for text in (generated_chapter(rng) for _ in range(3000))
                if code_lines(text) != code_lines_by_commonmark(text)]
    assert disagree == []


@pytest.mark.parametrize("text", ["   - a\n    ```\n    b\n", "   - a\n    ***\n    b\n"])
def test_a_line_left_of_an_items_content_but_indented_4_continues_its_paragraph(text):
    """Where markdown-it parts from commonmark.js (the spec's reference), the scanner follows commonmark.js:
    `<ul><li>a ``` b</li></ul>`, no code."""
    assert code_lines(text) == set()


def test_front_matter_block_fences_and_options_are_told_apart():
    text = "---\ntitle: T\n---\n# T\n\n/// exercise | a\n    open: true\n\nx\n///\n"
    kinds = [line.kind for line in chapter.scan(text).lines]
    assert kinds == [chapter.FRONT] * 3 + [chapter.PROSE] * 2 + [chapter.BLOCK, chapter.OPTIONS, chapter.PROSE,
                                                                    chapter.PROSE, chapter.BLOCK]


# --- every reader, on a chapter whose code holds what each reader looks for

SAMPLE = "# not a heading\n$x^$ and <script>alert(1)</script> and `name`\n/// sidebar\n[a link](nowhere.md) 0.7"

KIN = {
    "four backticks around ```python": "````markdown\n```python\n" + SAMPLE + "\n```\n````",
    "tildes around backticks": "~~~\n```\n" + SAMPLE + "\n~~~",
    "a fence indented by 3 spaces": "   ```\n" + SAMPLE + "\n   ```",
    "indented code": "\n".join("    " + line for line in SAMPLE.splitlines()),
    "a list item's fence": "- item\n\n    ```\n" + "\n".join("    " + line for line in SAMPLE.splitlines()) + "\n    ```",
    "a fence inside a block": "/// step | Code\n```\n" + SAMPLE + "\n```\n///",
    "a fence closed by a longer one": "```\n" + SAMPLE + "\n``` not yet\n``````",
}


def chapter_with(code: str) -> str:
    return f"# Title\n\nBefore $a$, `kept`.\n\n{code}\n\n## After\n\nAfter $b$, [back](index.md).\n"


@pytest.mark.parametrize("code", KIN.values(), ids=KIN.keys())
def test_readers_leave_code_alone(code):
    text = chapter_with(code)
    after = text.splitlines().index("## After") + 1
    assert pages.headings(text) == [(1, 1, "Title"), (after, 2, "After")]
    assert [tex for _, tex, _ in pages.math_segments(text)] == ["a", "b"]
    assert sanitize.unsafe_in_chapter(text) == []
    assert pages.code_spans(text) == {"kept": 1}
    assert scan_blocks(text, "p.md")[1] == []
    assert pagechecks.broken(text, "p.md", frozenset({"index.md"})) == []
    prose = "\n".join(line for _, line in pages.prose_lines(text))
    assert "not a heading" not in prose and "Before" in prose and "After" in prose
    code_starts = [line.number for line in chapter.scan(text).lines if line.opens]
    assert set(code_starts) <= set(pages.paragraph_starts(text))
    assert not set(code_lines(text)) - set(code_starts) & set(pages.paragraph_starts(text))


@pytest.mark.parametrize("code", KIN.values(), ids=KIN.keys())
def test_bank_numbers_in_code_inside_an_exercise_are_not_restated(code):
    text = f"# T\n\n/// exercise | e\nCompute 0.7 here.\n\n{code}\n///\n"
    found = pagechecks.restated(text, "p.md", "en", {"e": frozenset({Decimal("0.7")})})
    assert [(f.kind, f.line) for f in found] == [("bank-number", 4)]


def test_an_unclosed_fence_at_the_end_of_a_file():
    """CommonMark runs it to the end (every reader sees code), the site shows it as text: the linter says so."""
    text = "# Title\n\nBefore $a$.\n\n````\n" + SAMPLE + "\n```\n\n## After\n"
    assert pages.headings(text) == [(1, 1, "Title")]
    assert [n for n, line in pages.prose_lines(text) if line.strip()] == [1, 3]
    assert pages.paragraph_starts(text) == [1, 3, 5]
    assert [tex for _, tex, _ in pages.math_segments(text)] == ["a"]
    assert sanitize.unsafe_in_chapter(text) == []
    problems = scan_blocks(text, "p.md")[1]
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [(5, "code fence '````' is never closed")]
    assert [(f.kind, f.line) for f in pagechecks.broken(text, "p.md", frozenset())] == [("block", 5)]


F, C, B, O, P = chapter.FRONT, chapter.CODE, chapter.BLOCK, chapter.OPTIONS, chapter.PROSE


# (chapter, each line's (kind, opens a code block), the unclosed fences' (line, fence))
LINES = [
    ("# T\n\n```\nx\n", [(P, 0), (P, 0), (C, 1), (C, 0)], [(3, "```")]),
    ("---\na: 1\n---\n~~~~\nx\n", [(F, 0)] * 3 + [(C, 1), (C, 0)], [(4, "~~~~")]),
    ("- a\n  ```\n  b\nc\n", [(P, 0), (C, 1), (C, 0), (P, 0)], [(2, "```")]),
    ("    a\n\n    b\n", [(C, 1), (C, 0), (C, 0)], []),
    ("```\nx\n```\n```\ny\n```\n", [(C, 1), (C, 0), (C, 0)] * 2, []),
    ("/// exercise | a\n    open: true\n    parts: x\n\n    code\n", [(B, 0), (O, 0), (O, 0), (P, 0), (C, 1)], []),
    ("/// step | A\n///\n    x\n", [(B, 0), (B, 0), (P, 0)], []),
    ("  \tcode\n", [(C, 1)], []),
    # a line that leaves an item (content at 10) for its parent's (content at 2), 4 columns in: a code block opens
    ("- a\n     -    b\n\n      code\n", [(P, 0), (P, 0), (P, 0), (C, 1)], []),
]


@pytest.mark.parametrize("text, kinds, unclosed", LINES)
def test_each_line_s_kind_the_first_line_of_each_code_block_and_the_unclosed_fences(text, kinds, unclosed):
    scan = chapter.scan(text)
    assert [line.number for line in scan.lines] == list(range(1, len(text.splitlines()) + 1))
    assert [line.text for line in scan.lines] == text.splitlines()
    assert [(line.kind, int(line.opens)) for line in scan.lines] == kinds
    assert list(scan.unclosed) == unclosed


def test_masked_keeps_the_lines_of_the_kinds_asked_and_empties_the_others():
    text = "---\na: 1\n---\n# T\n```\nx\n```\n/// s\n"
    assert chapter.masked(text, frozenset({chapter.PROSE})) == "\n\n\n# T\n\n\n\n\n"
    assert chapter.masked(text, chapter.READ) == "\n\n\n# T\n\n\n\n/// s\n"
    assert chapter.masked(text, frozenset({chapter.CODE, chapter.FRONT})) == "---\na: 1\n---\n\n```\nx\n```\n\n"
