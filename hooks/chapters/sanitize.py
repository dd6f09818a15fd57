"""Chapter markup that could run script in a reader's browser: shown as text, and reported with path:line.

Markdown lets a chapter carry raw HTML, which is useful (`<kbd>`, `<br>`), but a chapter is
prose written by authors and translators: nothing in it needs to run script or load anything
from elsewhere. So, in a page's rendered content, a tag that could do either (a `<script>`, an
`on…=` handler, a `javascript:` link, a frame...) is escaped, so the reader sees it as text and
nothing is lost, and the hook fails the build naming the chapter and line where it is written.

The hook's own markup (MathML, figures' SVG, exercises' <details>) passes: it uses none of these.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from grader import files
from hooks.chapters import source as chapter

# Elements that run script, embed another document, or load from elsewhere.
ELEMENTS = frozenset(
    {"script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "link", "meta", "style", "noscript"}
)
# Attributes whose value is a document or a URL that could be `javascript:`.
URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "xlink:href", "data", "poster", "background"})
SCRIPT_URL = re.compile(r"^(?:javascript:|vbscript:|data:text/html)", re.I)
IGNORED_IN_URLS = re.compile(r"[\x00-\x20]")  # browsers skip these inside a scheme ('java\tscript:')


@dataclass(frozen=True)
class Unsafe:
    """One tag of a page's content that could run script: its markup as written, and why."""

    markup: str
    reason: str
    evidence: str  # what to look for in the chapter when the markup was not written as is (a link's URL)

    def message(self) -> str:
        return f"markup that could run script in a reader's browser ({self.reason}): {self.markup[:80]!r}; it is shown as text"


def reason(tag: str, attrs: list[tuple[str, str | None]]) -> tuple[str, str] | None:
    """(why, evidence) when a start tag could run script, else None."""
    if tag in ELEMENTS:
        return f"a <{tag}> element", f"<{tag}"
    for name, value in attrs:
        if name.startswith("on"):
            return f"an event handler attribute '{name}'", value or name
        if name == "srcdoc":
            return "an embedded document 'srcdoc'", value or name
        if name in URL_ATTRIBUTES and value and SCRIPT_URL.match(IGNORED_IN_URLS.sub("", value)):
            return f"a script URL in '{name}'", value
    return None


class _Finder(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.spans: list[tuple[int, int, tuple[str, str] | None]] = []  # (start, end, (why, evidence))

    def here(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        why = reason(tag, attrs)
        if why:
            start = self.here()
            self.spans.append((start, start + len(self.get_starttag_text()), why))

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag in ELEMENTS:
            start = self.here()
            end = self.text.index(">", start) + 1
            self.spans.append((start, end, None))


# Anything that could make a tag unsafe: content without any of these (nearly every page) needs no parsing.
SUSPECT = re.compile(
    r"<\s*/?\s*(?:" + "|".join(sorted(ELEMENTS)) + r")\b"
    r"|(?<![a-z0-9_-])on[a-z]*\s*=|srcdoc"
    r"|(?:" + "|".join(sorted(URL_ATTRIBUTES)) + r")\s*=\s*[\"']?[^\"'>]*(?::|&#|&colon;)",  # a scheme's colon
    re.I,
)


def neutralise(content: str) -> tuple[str, list[Unsafe]]:
    """`content` with every tag that could run script escaped, and those tags (end tags aside)."""
    if not SUSPECT.search(content) and content.rfind("<") <= content.rfind(">"):
        return content, []
    finder = _Finder(content)
    finder.feed(content)
    rest = finder.rawdata  # what the parser could not finish: a tag left open at the very end
    if rest.startswith("<") and not rest.startswith("<!--"):
        # a browser would read the page's own markup that follows as the rest of this tag
        finder.spans.append((len(content) - len(rest), len(content), ("a tag that is never closed", rest.split()[0])))
    finder.reset()
    out, found, last = [], [], 0
    for start, end, why in sorted(finder.spans):
        out += [content[last:start], html.escape(content[start:end])]
        last = end
        if why:
            found.append(Unsafe(content[start:end], *why))
    return "".join(out) + content[last:], found


def locate(unsafe: Unsafe, source: str) -> int:
    """The line of the chapter where the tag is written (as is, or its telling part), or 1."""
    return files.line_of([unsafe.markup, unsafe.evidence], source, casefold=True)


def report(found: list[Unsafe], where: str, source_path: Path) -> list[str]:
    """One `where:line: what` problem per unsafe tag, found in the chapter at `source_path`."""
    if not found:
        return []
    source = source_path.read_text(encoding="utf-8")
    return [f"{where}:{locate(unsafe, source)}: {unsafe.message()}" for unsafe in found]


def unsafe_in_chapter(source: str) -> list[tuple[int, str]]:
    """(line, what) of every tag written in a chapter's source (outside code) that could run script:
    what the build will escape and report, found before rendering, for the translators' checks. Code and
    block fences are left out: they reach the page escaped (a block's options, not at all)."""
    masked = chapter.masked(source, frozenset({chapter.PROSE, chapter.FRONT}))
    masked = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), masked)
    return [(locate(unsafe, masked), unsafe.message()) for unsafe in neutralise(masked)[1]]

