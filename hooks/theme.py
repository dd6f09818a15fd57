"""What the hook changes in the page mkdocs-material writes around the content.

mkdocs-static-i18n points the theme's language links at the same page in each language, so
the switcher keeps a reader on the lesson. The theme also writes them into <head> as
`<link rel="alternate" hreflang>`, and its script fetches `sitemap.xml` next to each one, to
map pages between languages; next to a page there is none, so every page load made one failed
request (and a console error) per language. The switcher's own links already lead to the same
lesson, so the <head> copies go.
"""

from __future__ import annotations

import re

HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def without_language_alternates(output: str) -> str:
    head, sep, body = output.partition("</head>")
    return HEAD_ALTERNATE.sub("", head) + sep + body if sep else output
