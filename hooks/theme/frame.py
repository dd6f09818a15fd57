"""The theme's own words around every page, in the page's language: the `[frame]` table of labels.toml.

mkdocs-material words most of its furniture in the page's language (its partials/languages/), but not all
of it: the colour switch is named by mkdocs.yml's palette, in one language for every locale; the footer's
credit ("Made with Material for MkDocs") is English everywhere; some of its translations leave the names of
the header and the footer in English (Indonesian's); it names a footer link "<direction>: <title>", with
English's colon in every locale; and its 404 page says "404 - Not found". The course words these in each
locale's labels.toml, where translators work and the checks read every label; this module puts them in:

- the colour switch: in each locale's config, before its pages are written (`with_palette_names`);
- the header's and footer's names, the footer's links, the credit: in each written page (`framed`);
- the 404 page's heading, a sentence and a link to the locale's home page (`not_found`).

What it replaces is the theme's markup, found by its classes; tests/site/test_publish.py checks on the
built site that every replacement took place, so a theme that writes it differently fails a test.
"""

from __future__ import annotations

import html
import re

# a palette entry's toggle switches to the next entry's scheme, and is named after it
SWITCH_TO = {"default": "frame.to_light", "slate": "frame.to_dark"}

LANDMARKS = {
    "frame.header": re.compile(r'(<nav class="md-header__inner md-grid" aria-label=")[^"]*(")'),
    "frame.footer": re.compile(r'(<nav class="md-footer__inner md-grid" aria-label=")[^"]*(")'),
}
# the theme writes aria-label="{direction}: {title}"; its direction words hold no colon
FOOTER_LINK = re.compile(r'(class="md-footer__link md-footer__link--(?:prev|next)" aria-label=")([^":]*): ([^"]*)(")')
CREDIT = re.compile(r'Made with\s*(<a href="https://squidfunk\.github\.io/mkdocs-material/"[^>]*>)\s*'
                    r'(Material for MkDocs)\s*(</a>)')
NOT_FOUND = "<h1>404 - Not found</h1>"


def with_palette_names(palette: list[dict], labels: dict) -> list[dict]:
    """The palette with each toggle named, in the locale's words, after the theme it switches to."""
    named = []
    for index, entry in enumerate(palette):
        after = palette[(index + 1) % len(palette)].get("scheme", "default")
        toggle = {**entry.get("toggle", {}), "name": labels[SWITCH_TO.get(after, "frame.to_light")]}
        named.append({**entry, "toggle": toggle})
    return named


def _words(template: str, **values: str) -> str:
    """A label as HTML text, its placeholders filled with HTML already."""
    return html.escape(template, quote=True).format(**values)


def framed(output: str, labels: dict) -> str:
    """The written page with the header's and footer's names, the footer's links and the credit in the locale's words."""
    for key, landmark in LANDMARKS.items():
        output = landmark.sub(lambda m, key=key: m.group(1) + _words(labels[key]) + m.group(2), output)
    output = FOOTER_LINK.sub(lambda m: m.group(1) + _words(labels["frame.footer_link"], direction=m.group(2),
                                                           title=m.group(3)) + m.group(4), output)
    return CREDIT.sub(lambda m: _words(labels["frame.made_with"], theme="".join(m.groups())), output, count=1)


def not_found(output: str, labels: dict, home: str) -> str:
    """The 404 page's heading, what happened and a link to the locale's home page (`home`, its address)."""
    words = (f"<h1>{_words(labels['frame.not_found'])}</h1>\n<p>{_words(labels['frame.not_found_text'])}</p>\n"
             f'<p><a href="{html.escape(home, quote=True)}">{_words(labels["frame.not_found_home"])}</a></p>')
    return output.replace(NOT_FOUND, words, 1)
