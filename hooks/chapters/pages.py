"""Reading a chapter's source: what the translation checks compare, each piece with its line.

Pure functions of the page's text: its front matter record, the prose a reader reads,
its skeleton (headings and blocks), its math, its numbers, its sentences. Which lines are code,
front matter, block fences or prose is `hooks.chapters.source`'s to say.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal

from grader.files import text_fingerprint
from grader.languages.numerals import FORMATS
from hooks.chapters import source as chapter
from hooks.chapters.blockspec import scan_blocks
from hooks.chapters.source import FRONT_MATTER

SOURCE = "en"
DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def source_hash(text: str) -> str:
    return text_fingerprint(text)


def recorded_hash(text: str) -> str | None:
    """The hash of the English page this translation was made from (`translation_of:` in its front matter)."""
    value = front_matter_value(text, "translation_of")
    return value if value and re.fullmatch(r"[0-9a-f]+", value) else None


def is_draft(text: str) -> bool:
    """A translation in progress (`draft: true` in its front matter): built with a notice, its findings warnings."""
    return front_matter_value(text, "draft") == "true"


def front_matter_value(text: str, name: str) -> str | None:
    """A top-level scalar of the page's front matter, as written, or None."""
    m = FRONT_MATTER.match(text)
    found = m and re.search(rf"(?m)^{name}:[ \t]*(.*?)[ \t]*$", m.group(1))
    return found.group(1) if found else None


def _blank_math(text: str) -> str:
    """The text with every math segment replaced by spaces (newlines kept, so lines still count)."""
    text = DISPLAY_MATH.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return INLINE_MATH.sub(lambda m: " " * len(m.group(0)), text)


def prose_lines(text: str, keep_math: bool = True) -> list[tuple[int, str]]:
    """(line number, text) of what a reader reads: no front matter, code, block fences, link targets, tags."""
    read = chapter.masked(text, chapter.READ)
    if not keep_math:
        read = _blank_math(read)
    out = []
    for line, shown in zip(chapter.scan(text).lines, read.splitlines()):
        if line.kind == chapter.PROSE:
            shown = re.sub(r"`[^`]*`", " ", shown)
            shown = re.sub(r"\]\([^)]*\)", "]", shown)
            out.append((line.number, re.sub(r"<[^>]+>", " ", shown)))
    return out


def code_spans(text: str) -> Counter:
    """How often each inline code span (`name`) is written in the text a reader reads (not in code blocks)."""
    return Counter(re.findall(r"`([^`]+)`", chapter.masked(text, chapter.READ)))


def headings(text: str) -> list[tuple[int, int, str]]:
    """(line, level, title) of every Markdown heading outside code."""
    return [(n, len(m.group(1)), m.group(2)) for n, line in prose_lines(text) if (m := HEADING.match(line))]


def structure(text: str, path: str) -> list[tuple[int, str]]:
    """The page's skeleton: (line, 'h2' | 'block name:id') in order."""
    uses, _ = scan_blocks(text, path)
    items = [(use.line, f"{use.name}:{use.argument}" if use.name in ("exercise", "figure") else use.name)
             for use in uses]
    items += [(line, f"h{level}") for line, level, _ in headings(text)]
    return sorted(items)


PARAGRAPH_OPENER = re.compile(r"^(#{1,6}\s|[-*+]\s|\d+\.\s)")  # a heading or a list item


def paragraph_starts(text: str) -> list[int]:
    """The first line of every paragraph, heading, list item, block fence and code block, in order."""
    starts, after_break = [], True
    for line in chapter.scan(text).lines:
        if line.kind == chapter.CODE:
            if line.opens:
                starts.append(line.number)
            after_break = True
        elif line.kind == chapter.BLOCK:
            starts.append(line.number)
            after_break = True
        elif line.kind == chapter.PROSE:
            stripped = line.text.strip()
            if stripped and (after_break or PARAGRAPH_OPENER.match(stripped)):
                starts.append(line.number)
            after_break = not stripped
    return starts


def paragraph_at(text: str, line: int) -> str:
    """The paragraph (heading, list item, block fence...: see `paragraph_starts`) that holds `line`."""
    from bisect import bisect_right

    starts = paragraph_starts(text)
    index = bisect_right(starts, line) - 1
    first = starts[index] if index >= 0 else 1
    last = starts[index + 1] - 1 if index + 1 < len(starts) else len(text.splitlines())
    return "\n".join(text.splitlines()[first - 1:last])


def aligner(english: str, translated: str, english_skeleton: list, translated_skeleton: list):
    """A function from a line of the English page to the line that stands in its place in the translation:
    the same paragraph when both pages have as many paragraphs, else the start of the same heading or block
    (the skeletons are the pages' `structure`)."""
    from bisect import bisect_right

    english_starts, translated_starts = paragraph_starts(english), paragraph_starts(translated)
    if len(english_starts) != len(translated_starts):
        english_starts = [line for line, _ in english_skeleton]
        translated_starts = [line for line, _ in translated_skeleton]

    def line_for(english_line: int) -> int:
        index = bisect_right(english_starts, english_line) - 1
        return translated_starts[index] if 0 <= index < len(translated_starts) else 1

    return line_for


def math_segments(text: str) -> list[tuple[int, str, bool]]:
    """(line, TeX, is display math) of every math segment outside code, in order."""
    masked = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), chapter.masked(text, chapter.READ))
    line_at = lambda offset: masked.count("\n", 0, offset) + 1  # noqa: E731
    display = [(m.start(), m.group(1), True) for m in DISPLAY_MATH.finditer(masked)]
    rest = DISPLAY_MATH.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), masked)
    inline = [(m.start(), m.group(1), False) for m in INLINE_MATH.finditer(rest)]
    return [(line_at(offset), tex, is_display) for offset, tex, is_display in sorted(display + inline)]


def number_pattern(locale: str) -> tuple[str, str, str]:
    """(regex of one number, thousands separators, decimal mark) in the locale's format (grader.languages.numerals)."""
    decimal, thousands = FORMATS.get(locale, FORMATS[SOURCE])
    if thousands == "\u202f":  # a narrow no-break space; its wider cousins are accepted too
        thousands = "\u202f\u00a0 "
    sep, dec = f"[{re.escape(thousands)}]", re.escape(decimal)
    return rf"\d{{1,3}}(?:{sep}\d{{3}})+(?:{dec}\d+)?|\d+(?:{dec}\d+)?", thousands, decimal


def writes_decimal_comma(locale: str) -> bool:
    return FORMATS.get(locale, FORMATS[SOURCE])[0] == ","


def numbers(lines: list[tuple[int, str]], locale: str, small: bool = False) -> list[tuple[int, Decimal]]:
    """Numbers a reader reads, as values. Integers below 10 are left out unless `small`: one language
    writes them as words where another writes digits."""
    pattern, thousands, decimal = number_pattern(locale)
    found = []
    for number, line in lines:
        line = line.replace("{,}", ",").replace("{.}", ".").replace("\\,", "\u202f")
        line = re.sub(r"\\[A-Za-z]+", " ", line)  # TeX commands
        for m in re.finditer(rf"(?<![A-Za-z0-9_.,])(?:{pattern})(?![A-Za-z0-9_])", line):
            raw = m.group(0)
            for sep in thousands:
                raw = raw.replace(sep, "")
            value = Decimal(raw.replace(decimal, "."))   # digits, then one point and digits: always a number
            if small or value >= 10 or value != value.to_integral_value():
                found.append((number, value))
    return found


SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+|[()\[\]“”\"«»]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’_.\-]*[A-Za-z0-9]|[A-Za-z]")


def sentences(lines: list[tuple[int, str]], min_words: int = 3) -> list[tuple[int, str]]:
    """(line, phrase) of the prose's sentences and bracketed or quoted phrases of at least `min_words`
    Latin-script words, whitespace and case normalized: what a translation must not leave in English."""
    found = []
    for number, line in lines:
        for piece in SENTENCE_END.split(line.strip(" #>*-")):
            phrase = " ".join(piece.split()).strip(" .,:;!?*_").lower()
            if len(LATIN_WORD.findall(phrase)) >= min_words:
                found.append((number, phrase))
    return found
