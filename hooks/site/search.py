"""What mkdocs-material's search index reads of a page: its content, with what the index skips emptied.

The index skips each element marked ``data-search-exclude`` (a figure's drawing, a formula's TeX, an
exercise's checker and install line, the printed answers), but its HTML parser still reads every tag inside:
an SVG's and a form's, thousands per page, a third of the strict build's time. Emptied first, those elements
are read as start and end tags only, and every page's index is the same (tests/site/test_build.py feeds the
theme's parser both). An element is left as it is when a heading is inside it (the parser opens a section at
any heading, even a skipped one) or when its end cannot be found. One difference, on purpose: the theme's
parser takes a nested element's end for the skipped one's and indexes what follows it inside; emptied, none
of a skipped element is read, as its marker says."""

from __future__ import annotations

import re

EXCLUDED = re.compile(r"<(div|section|p|span|figure|aside)\b[^>]*\bdata-search-exclude\b[^>]*>")
HEADING = re.compile(r"<h[1-6]\b")


def _end(html: str, tag: str, start: int) -> int | None:
    """Where the element whose start tag ends at ``start`` ends (after its end tag), or None."""
    depth = 1
    for found in re.compile(rf"<(/?){tag}\b[^>]*?(/?)>").finditer(html, start):
        if found.group(2):          # <span/>: opens and closes
            continue
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return found.end()
    return None


def searchable(html: str) -> str:
    """``html`` with the content of every element the search index skips removed (its tags kept)."""
    parts, at = [], 0
    while (found := EXCLUDED.search(html, at)) is not None:
        end = _end(html, found.group(1), found.end())
        inner = html[found.end():end] if end is not None else ""
        if end is None or HEADING.search(inner):
            parts.append(html[at:found.end()])
            at = found.end()
            continue
        parts.append(html[at:found.end()] + f"</{found.group(1)}>")
        at = end
    parts.append(html[at:])
    return "".join(parts)


def wrap_reader(config, mark: str, wrap) -> None:
    """The search index's reader of a page (``add_entry_from_context``) replaced by ``wrap(read, index)``, once per
    index (the plugin makes a new one for each build): ``mark`` names the wrapping on it."""
    search = config.plugins.get("material/search")
    index = getattr(search, "search_index", None)
    if index is None or getattr(index, mark, False):
        return
    index.add_entry_from_context = wrap(index.add_entry_from_context, index)
    setattr(index, mark, True)


def keep_out_skipped(config) -> None:
    """The search index reads each page through :func:`searchable`."""
    def wrap(read, index):
        def add_entry_from_context(page):
            content = page.content
            page.content = searchable(content or "")
            try:
                read(page)
            finally:
                page.content = content
        return add_entry_from_context

    wrap_reader(config, "searchable", wrap)
