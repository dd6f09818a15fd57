"""What a reader's browser runs is what the project wrote: an allow-list over the page as written.

A chapter is prose written by authors and translators, and Markdown lets it carry raw HTML (`<kbd>`,
`<br>`); the hook adds its own markup (exercises, figures' SVG, MathML). Nothing in a chapter needs to
run script or load anything from elsewhere. So the page's content, once its math and figures are in
it (:func:`sanitized`, called by hooks/course.py on the written page), goes through nh3 (the binding of
the Rust sanitizer ammonia) with the allow-list below: the tags and attributes chapters and blocks use,
links to http(s) and mail only, images and other sources from the site itself only, and a figure's
`style` with the few properties figures set. Whatever the list does not hold is removed and named
(:func:`disallowed`, from the same list), with the chapter's line, and the build fails on it.

The same list checks a chapter's source before any build (:func:`unsafe_in_chapter`, for the
translators' report): one list, two users.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import nh3

from grader import files
from hooks.chapters import source as chapter

_SVG_PAINT = frozenset({"fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
                        "stroke-linejoin", "stroke-linecap", "transform", "opacity"})
_CELL = frozenset({"colspan", "rowspan", "scope", "align"})
_FORM = frozenset({"type", "name", "value", "disabled", "for", "form", "accept", "autocomplete", "autocapitalize",
                   "autocorrect", "spellcheck", "inputmode", "placeholder", "readonly", "required", "size",
                   "maxlength", "min", "max", "step", "checked", "selected", "multiple", "open"})
_MATH = frozenset({"display", "xmlns", "mathvariant", "fence", "form", "stretchy", "separator", "lspace", "rspace",
                   "width", "height", "depth", "linethickness", "accent", "accentunder", "columnalign",
                   "rowalign", "columnspacing", "rowspacing", "displaystyle", "scriptlevel", "notation",
                   "encoding", "movablelimits", "symmetric", "largeop", "minsize", "maxsize"})

# Every tag a chapter or a block may write, with the attributes it may carry beyond the ones every tag may
# (GENERIC, and data-*, aria-*). Frozen: one home, read by the sanitizer and the source check alike.
ALLOWED = MappingProxyType({
    **{tag: frozenset() for tag in (
        "abbr", "article", "aside", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "dfn", "div",
        "dl", "dt", "em", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i",
        "ins", "kbd", "legend", "li", "mark", "nav", "p", "pre", "q", "s", "samp", "section", "small", "span",
        "strong", "sub", "summary", "sup", "tbody", "tfoot", "thead", "tr", "u", "ul", "var", "wbr")},
    "a": frozenset({"href", "hreflang", "rel", "download"}),
    "img": frozenset({"src", "alt", "width", "height", "loading", "decoding"}),
    "ol": frozenset({"start", "reversed", "type"}),
    "td": _CELL, "th": _CELL, "col": frozenset({"span"}), "colgroup": frozenset({"span"}), "table": frozenset(),
    "time": frozenset({"datetime"}),
    "details": frozenset({"open", "name"}),
    "button": _FORM, "input": _FORM, "label": _FORM, "fieldset": _FORM, "output": _FORM, "select": _FORM,
    "option": _FORM, "textarea": _FORM | {"rows", "cols"}, "form": frozenset({"novalidate"}),
    "svg": _SVG_PAINT | {"viewBox", "width", "height", "xmlns", "font-family", "font-size", "preserveAspectRatio",
                         "focusable"},
    "g": _SVG_PAINT | {"font-family", "font-size", "text-anchor"},
    "line": _SVG_PAINT | {"x1", "y1", "x2", "y2"},
    "polygon": _SVG_PAINT | {"points"}, "polyline": _SVG_PAINT | {"points"},
    "circle": _SVG_PAINT | {"cx", "cy", "r"}, "ellipse": _SVG_PAINT | {"cx", "cy", "rx", "ry"},
    "rect": _SVG_PAINT | {"x", "y", "width", "height", "rx", "ry"}, "path": _SVG_PAINT | {"d"},
    "text": _SVG_PAINT | {"x", "y", "dx", "dy", "font-family", "font-size", "font-style", "font-weight",
                          "text-anchor", "dominant-baseline", "style"},
    "tspan": _SVG_PAINT | {"x", "y", "dx", "dy", "font-size", "font-style", "font-weight", "text-anchor"},
    "title": frozenset(), "desc": frozenset(),
    **{tag: _MATH for tag in (
        "math", "mi", "mn", "mo", "ms", "mtext", "mrow", "mfrac", "msqrt", "mroot", "msub", "msup", "msubsup",
        "munder", "mover", "munderover", "mspace", "mstyle", "mpadded", "mphantom", "menclose", "mtable", "mtr",
        "mtd", "semantics", "annotation")},
})
GENERIC = frozenset({"class", "id", "lang", "dir", "title", "role", "hidden", "tabindex"})
PREFIXES = frozenset({"data-", "aria-"})
LINK_SCHEMES = frozenset({"http", "https", "mailto"})   # where a link may lead; what a page loads stays on the site
LOADED = frozenset({"src", "srcset", "poster"})          # attributes whose URL the browser loads by itself
STYLE_PROPERTIES = frozenset({"paint-order", "stroke", "stroke-width", "stroke-linejoin", "fill", "font-style",
                              "font-weight"})   # what figures set in a text's `style` (a halo behind a label)
SCHEME = re.compile(r"^\s*([a-z][a-z0-9+.-]*):", re.I)
IGNORED_IN_URLS = re.compile(r"[\x00-\x20]")   # browsers skip these inside a scheme ('java\tscript:')

# A start tag and its attributes, as a browser tokenizes them (quoted values may hold '>')
TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>])((?:\s*[^\s=>/\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?|\s*/)*)\s*>")
ATTRIBUTE = re.compile(r"([^\s=>/\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
END_TAG = re.compile(r"</\s*([a-zA-Z][\w:-]*)\s*>")


@dataclass(frozen=True)
class Unsafe:
    """One thing of a page's content that the allow-list does not let through: its markup, and why."""

    markup: str
    reason: str
    evidence: str  # what to look for in the chapter when the markup was not written as is (a link's URL)

    def message(self) -> str:
        return (f"markup the page may not carry ({self.reason}): {self.markup[:80]!r}; it is removed from the page "
                "(chapters may use the tags and attributes of hooks/chapters/sanitize.py's ALLOWED, and load "
                "nothing from elsewhere)")


def _allowed_attribute(tag: str, name: str) -> bool:
    return name in GENERIC or name.startswith(tuple(PREFIXES)) or name in ALLOWED[tag]


def _url_refusal(name: str, value: str) -> str | None:
    """Why a URL attribute's value may not stand, or None."""
    url = IGNORED_IN_URLS.sub("", html.unescape(value))
    scheme = SCHEME.match(url)
    if name in LOADED:
        if scheme or url.startswith("//"):
            return f"'{name}' loads from elsewhere"
    elif name == "href" and scheme and scheme.group(1).lower() not in LINK_SCHEMES:
        return f"a {scheme.group(1).lower()}: URL in '{name}'"
    return None


def _style_refusal(value: str) -> str | None:
    for declaration in filter(str.strip, html.unescape(value).split(";")):
        prop, _, rest = declaration.partition(":")
        if prop.strip().lower() not in STYLE_PROPERTIES or re.search(r"url\(|expression|\\|@", rest, re.I):
            return f"a style ({declaration.strip()[:40]})"
    return None


def reason(tag: str, attrs: list[tuple[str, str]]) -> tuple[str, str] | None:
    """(why, evidence) when a start tag is not let through whole by the allow-list, else None."""
    tag = tag.lower()
    if tag not in ALLOWED:
        return f"a <{tag}> element", f"<{tag}"
    for name, value in attrs:
        if not _allowed_attribute(tag, name) and not _allowed_attribute(tag, name.lower()):
            return f"the attribute '{name}' on <{tag}>", value or name
        refusal = (_url_refusal(name.lower(), value) if name.lower() in LOADED | {"href"}
                   else _style_refusal(value) if name.lower() == "style" else None)
        if refusal:
            return refusal, value
    return None


def _attributes(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), next((v for v in m.group(2, 3, 4) if v is not None), "")) for m in ATTRIBUTE.finditer(text)]


def disallowed(content: str) -> list[Unsafe]:
    """Every start tag of ``content`` that the allow-list would change, and why."""
    found = []
    for match in TAG.finditer(content):
        why = reason(match.group(1), _attributes(match.group(2)))
        if why:
            found.append(Unsafe(match.group(0), *why))
    rest = content[content.rfind("<"):]
    if ">" not in rest and re.match(r"<[a-zA-Z]", rest):   # a browser would read what follows into this tag
        found.append(Unsafe(rest, "a tag that is never closed", rest.split()[0]))
    return found


def _filter(tag: str, name: str, value: str) -> str | None:
    if name in LOADED | {"href"} and _url_refusal(name, value):
        return None
    if name == "style" and _style_refusal(value):
        return None
    return value


def _shape(content: str) -> Counter:
    """The start tags of ``content`` with their attributes' names: what the sanitizer may take away."""
    return Counter((m.group(1).lower(), tuple(sorted(a.lower() for a, _ in _attributes(m.group(2)))))
                   for m in TAG.finditer(content))


def sanitized(content: str) -> tuple[str, list[Unsafe]]:
    """``content`` as the allow-list lets it through, and what it took away, each with why. A change the
    list's own reasons do not explain (the sanitizer's parser saw a tag where this module's did not) is
    named too, so that nothing is removed in silence."""
    clean = nh3.clean(
        content, tags=set(ALLOWED), attributes={tag: set(names | GENERIC) for tag, names in ALLOWED.items()},
        generic_attribute_prefixes=set(PREFIXES), attribute_filter=_filter, url_schemes=set(LINK_SCHEMES),
        link_rel=None, strip_comments=True, clean_content_tags={"script", "style"},
    ).replace("&nbsp;", "\u00a0")   # the one named entity its serializer writes that XML lacks (a figure is XML too)
    found = disallowed(content)
    if not found:
        lost = _shape(content) - _shape(clean)
        found = [Unsafe(f"<{tag} {' '.join(names)}>", "markup the sanitizer would not keep", f"<{tag}")
                 for tag, names in lost]
    return clean, found


def locate(unsafe: Unsafe, source: str) -> int:
    """The line of the chapter where the tag is written (as is, escaped, or its telling part), or 1."""
    needles = [unsafe.markup, unsafe.evidence, html.escape(unsafe.markup), html.escape(unsafe.evidence)]
    return files.line_of(needles, source, casefold=True)


def report(found: list[Unsafe], where: str, source_path: Path) -> list[str]:
    """One `where:line: what` problem per thing taken away, found in the chapter at `source_path`."""
    if not found:
        return []
    source = source_path.read_text(encoding="utf-8")
    return [f"{where}:{locate(unsafe, source)}: {unsafe.message()}" for unsafe in found]


def unsafe_in_chapter(source: str) -> list[tuple[int, str]]:
    """(line, what) of every tag written in a chapter's source (outside code) that the allow-list would
    change: what the build will remove and report, found before rendering, for the translators' checks.
    Code and block fences are left out: they reach the page escaped (a block's options, not at all)."""
    masked = chapter.masked(source, frozenset({chapter.PROSE, chapter.FRONT}))
    masked = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), masked)
    return [(locate(unsafe, masked), unsafe.message()) for unsafe in disallowed(masked)]
