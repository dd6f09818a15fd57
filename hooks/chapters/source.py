"""One reading of a chapter's source, line by line: front matter, code, block fences and options, prose.

Every reader of a chapter goes through `lines`: the headings, math, prose and paragraphs
(`hooks.chapters.pages`), the markup check (`hooks.chapters.sanitize`), the page checks (`hooks.translations.pagechecks`) and the
block linter (`hooks.chapters.blockspec`). So no reader takes code for prose, and they all agree on where
code starts and ends.

Code follows CommonMark 0.31 (tested against markdown-it-py, a CommonMark parser):

- a fenced code block opens with 3 or more backticks or tildes indented at most 3 spaces (a backtick
  fence's info string holds no backtick); a fence of the same character, at least as long, with
  nothing but spaces after it, closes it; an unclosed one runs to the end of the file (or of the
  list item that holds it);
- an indented code block is a run of lines indented 4 or more spaces that does not continue a
  paragraph;
- inside a list item, indentation counts from the item's content column.

Block quotes and raw HTML blocks are not followed (the chapters put no code in them).

The course's blocks (pymdown-extensions' `/// name | argument` and the closing `///`) are read on top
of that: a block fence is a line of 3 or more slashes indented at most 3 spaces, outside code; the
lines indented 4 or more spaces right under a block's header are its options. To CommonMark both are
paragraph text, which is how they count here when deciding what is code.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

# the kinds of line
FRONT, CODE, BLOCK, OPTIONS, PROSE = "front matter", "code", "block", "options", "prose"
READ = frozenset({PROSE, BLOCK})  # the text a reader reads: prose, and blocks' titles

FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)  # MkDocs' YAML front matter
OPENING_FENCE = re.compile(r"(`{3,})[^`]*$|(~{3,})")
BLOCK_FENCE = re.compile(r"/{3,}")
LIST_ITEM = re.compile(r"(?:[-+*]|(\d{1,9})[.)])(?=[ \t]|$)")
ATX_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
THEMATIC_BREAK = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*$")
SETEXT_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*$")


class Line(NamedTuple):
    number: int  # 1-based
    text: str
    kind: str  # FRONT, CODE, BLOCK, OPTIONS or PROSE (blank lines outside code are PROSE)
    opens: bool = False  # the first line of a code block: its opening fence, or its first indented line


class Scan(NamedTuple):
    lines: tuple[Line, ...]  # every line of the chapter (`str.splitlines`), with its kind
    unclosed: tuple[tuple[int, str], ...]  # (line, fence) of every code fence that no fence closes


@lru_cache(maxsize=128)
def scan(text: str) -> Scan:
    """A chapter's lines, each with its kind, and its unclosed code fences.

    CommonMark runs an unclosed fence to the end of the file (or of its list item); pymdown-extensions'
    SuperFences, which renders the site, shows it as text instead: so the block linter reports it."""
    source = text.splitlines()
    front = FRONT_MATTER.match(text)
    skip = front.group(0).count("\n") if front else 0
    reader = _Reader()
    for line in source[skip:]:
        reader.read(line)
    reader.end()
    found = [Line(n, line, FRONT) for n, line in enumerate(source[:skip], 1)]
    found += [Line(n, line, kind, opens)
              for n, line, (kind, opens) in zip(range(skip + 1, len(source) + 1), source[skip:], reader.kinds)]
    return Scan(tuple(found), tuple((skip + 1 + index, fence) for index, fence in reader.unclosed))


def masked(text: str, keep: frozenset[str]) -> str:
    """The text with every line whose kind is not in `keep` left empty (so line numbers hold)."""
    return "".join(line.text + "\n" if line.kind in keep else "\n" for line in scan(text).lines)


def _indentation(line: str, column: int = 0) -> tuple[int, str]:
    """(the column after the leading spaces and tabs of `line`, which starts at `column`; the rest of it).
    A tab reaches the next multiple of 4."""
    for i, char in enumerate(line):
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            return column, line[i:]
    return column, ""


class _Reader:
    """CommonMark's block structure, as far as it decides which lines are code (see the module's doc)."""

    def __init__(self):
        self.kinds: list[tuple[str, bool]] = []
        self.items: list[int] = []  # the content columns of the open list items, innermost last
        self.fence: tuple[str, int, int, int] | None = None  # (character, length, column it counts from, line)
        self.unclosed: list[tuple[int, str]] = []  # (0-based line, fence) of the fences no fence closed
        self.paragraph = False  # a paragraph is open: an indented line continues it
        self.indented = False  # an indented code block is open
        self.blanks: list[int] = []  # blank lines inside it so far: code if it goes on after them
        self.options = False  # the previous line was a block's header or one of its options
        self.empty_item = False  # the previous line opened a list item with nothing after its marker

    def read(self, line: str) -> None:
        column, rest = _indentation(line)
        if not rest:
            self._blank()
            return
        self.empty_item = False
        if self.fence is not None:
            char, length, base, _ = self.fence
            if column >= base:
                if column - base <= 3 and re.fullmatch(rf"{char}{{{length},}}[ \t]*", rest):
                    self.fence = None
                self.kinds.append((CODE, False))
                return
            self.end()  # a line left of the item's content ends the item, and the fence in it
        matched = len(self.items)  # the items this line is indented enough to stay in
        while matched and column < self.items[matched - 1]:
            matched -= 1
        if matched < len(self.items):
            base = self.items[matched - 1] if matched else 0
            if self.paragraph and not self._starts_block(column - base, rest):
                self.options = False
                self.kinds.append((PROSE, False))  # a lazy continuation line: the paragraph, and its items, go on
                return
            del self.items[matched:]  # and with them, whatever they hold
            self.paragraph, self.indented, self.blanks = False, False, []
        self.kinds.append(self._leaf(column, rest))

    def end(self) -> None:
        """The end of the file, or of the list item holding an open fence."""
        if self.fence is not None:
            char, length, _, index = self.fence
            self.unclosed.append((index, char * length))
            self.fence = None

    def _blank(self) -> None:
        if self.empty_item:  # a list item may begin with one blank line, not two
            self.items.pop()
        self.paragraph = self.options = self.empty_item = False
        if self.fence is not None:
            self.kinds.append((CODE, False))
            return
        if self.indented:
            self.blanks.append(len(self.kinds))
        self.kinds.append((PROSE, False))

    @staticmethod
    def _starts_block(indent: int, rest: str) -> bool:
        """Does a line left of an open item's content start a block (else it continues the paragraph)?"""
        return indent <= 3 and bool(OPENING_FENCE.match(rest) or ATX_HEADING.match(rest)
                                    or THEMATIC_BREAK.match(rest) or LIST_ITEM.match(rest))

    def _leaf(self, column: int, rest: str) -> tuple[str, bool]:
        base = self.items[-1] if self.items else 0
        options, self.options = self.options, False
        if column - base >= 4 and (self.paragraph or options):
            self.options = options
            return (OPTIONS if options else PROSE), False  # continues the header or the paragraph
        if column - base >= 4:
            for index in self.blanks:
                self.kinds[index] = (CODE, False)
            self.blanks, opens, self.indented = [], not self.indented, True
            return CODE, opens
        self.indented, self.blanks = False, []
        fence = OPENING_FENCE.match(rest)
        if fence:
            marker = fence.group(1) or fence.group(2)
            self.fence, self.paragraph = (marker[0], len(marker), base, len(self.kinds)), False
            return CODE, True
        if BLOCK_FENCE.match(rest):
            self.paragraph = True
            self.options = bool(rest.strip("/ \t"))  # a header, not a closing fence
            return BLOCK, False
        if ATX_HEADING.match(rest) or THEMATIC_BREAK.match(rest) or (self.paragraph and SETEXT_UNDERLINE.match(rest)):
            self.paragraph = False
            return PROSE, False
        item = LIST_ITEM.match(rest)
        # an item may interrupt a paragraph if it is not empty, and an ordered one only if it starts at 1
        if item and (not self.paragraph or (rest[item.end():].strip() and item.group(1) in (None, "1"))):
            return self._item(column, rest, item.end())
        self.paragraph = True
        return PROSE, False

    def _item(self, column: int, rest: str, marker: int) -> tuple[str, bool]:
        """A list item's first line: open the item, then read what follows its marker."""
        start = column + marker
        after, content = _indentation(rest[marker:], start)
        self.paragraph = False
        if not content:  # an empty item: its content, if any comes, starts one column after the marker
            self.items.append(start + 1)
            self.empty_item = True
            return PROSE, False
        self.items.append(after if after - start <= 4 else start + 1)  # past 4 spaces, the content is indented code
        return self._leaf(after, content)
