"""The allow-list every page's content passes (hooks/chapters/sanitize.py): what could run script or load from
elsewhere is removed and named, the markup chapters and blocks use passes, and a corpus of known vectors
leaves nothing live (read back by html.parser, the yardstick here; tests/site/test_sanitize_browser.py runs
them in Chromium)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from hooks.chapters.mathml import render_math
from hooks.chapters.sanitize import ALLOWED, reason, sanitized, unsafe_in_chapter
from hooks.chapters.sanitize import report as report_unsafe

# Known vectors: the usual filter evasions (OWASP's cheat sheet and html5sec's families), SVG and MathML ones,
# and the two that passed the deny-list this replaces (a formula's text unescaped, an SVG animation).
VECTORS = [
    ("<p>a <script>window.x=1</script> b</p>", "<script>"),
    ('<img src=x onerror="window.x=1">', "'onerror'"),
    ('<a href="javascript:alert(1)">x</a>', "javascript: URL"),
    ('<a href=" JavaScript&colon;alert(1)">x</a>', "javascript: URL"),
    ('<a href="java&#x09;script:alert(1)">x</a>', "javascript: URL"),
    ('<a href="javascript&#58;alert(1)">x</a>', "javascript: URL"),
    ('<a HREF=javascript&#x3A;alert(1)>x</a>', "javascript: URL"),
    ('<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">x</a>', "data: URL"),
    ('<a href="vbscript:msgbox(1)">x</a>', "vbscript: URL"),
    ('<iframe srcdoc="&lt;script&gt;x&lt;/script&gt;"></iframe>', "<iframe>"),
    ('<svg onload="x()"><circle r="1"/></svg>', "'onload'"),
    ("<style>@import url(http://example.com/x.css)</style>", "<style>"),
    ('<img/src="x"/onerror=alert(1)>', "'onerror'"),
    ('<svg><a xlink:href="javascript:x()">y</a></svg>', "'xlink:href'"),
    ('<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>', "<animate>"),
    ('<svg><set attributeName="onmouseover" to="alert(1)"/></svg>', "<set>"),
    ('<svg><use href="data:image/svg+xml,&lt;svg id=x&gt;"/></svg>', "<use>"),
    ('<svg><foreignObject><iframe src="javascript:x()"></iframe></foreignObject></svg>', "<foreignobject>"),
    ('<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>', "<maction>"),
    ('<math href="javascript:alert(1)"><mi>x</mi></math>', "'href' on <math>"),
    ('<img src="https://example.com/track.png" alt="">', "'src' loads from elsewhere"),
    ('<img src="//example.com/track.png" alt="">', "'src' loads from elsewhere"),
    ('<object data="x.swf"></object>', "<object>"),
    ('<embed src="x.swf">', "<embed>"),
    ('<form action="javascript:x()"><button>go</button></form>', "'action'"),
    ('<button formaction="javascript:x()">go</button>', "'formaction'"),
    ('<meta http-equiv="refresh" content="0;url=javascript:x()">', "<meta>"),
    ('<base href="https://example.com/">', "<base>"),
    ('<link rel="stylesheet" href="https://example.com/x.css">', "<link>"),
    ('<div style="background:url(https://example.com/x.png)">x</div>', "'style' on <div>"),
    ('<svg><text style="fill: red; background-image: url(x)">a</text></svg>', "a style"),
    ('<details open ontoggle="alert(1)"><summary>x</summary></details>', "'ontoggle'"),
    ('<input autofocus onfocus="alert(1)">', "'autofocus'"),
    ('<input onfocus="alert(1)" autofocus>', "'onfocus'"),
    ('<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', "<noscript>"),
    ("<p>a</p>\n<img src=x onerror=alert(1)//", "never closed"),
]

LIVE_ATTRIBUTES = ("on", "formaction", "srcdoc", "action")


class _Live(HTMLParser):
    """What a browser could run or load in the sanitized markup, as html.parser reads it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in ALLOWED:
            self.live.append(f"<{tag}>")
        for name, value in attrs:
            url = "".join((value or "").split()).lower()
            if name.startswith(LIVE_ATTRIBUTES) or url.startswith(("javascript:", "vbscript:", "data:")):
                self.live.append(f"{tag} {name}={value}")
            if name in ("src", "srcset") and (":" in url or url.startswith("//")):
                self.live.append(f"{tag} {name}={value}")

    handle_startendtag = handle_starttag


def live(markup: str) -> list[str]:
    parser = _Live()
    parser.feed(markup)
    parser.close()
    return parser.live


@pytest.mark.parametrize("markup, why", VECTORS)
def test_a_known_vector_is_removed_and_named(markup, why):
    clean, found = sanitized(markup)
    assert live(clean) == []
    assert found and why in found[0].reason, found


def test_a_formulas_text_cannot_become_markup():
    """`$\\text{&lt;img/src/onerror=…&gt;}$`: arithmatex keeps it escaped, latex2mathml unescapes it into the
    MathML (an <mtext> holds HTML); the allow-list runs after the math, so it is removed."""
    page = render_math('<p><span class="arithmatex">\\(\\text{&lt;img/src/onerror=alert(1)&gt;}\\)</span></p>')
    clean, found = sanitized(page)
    assert live(clean) == [] and "'onerror'" in found[0].reason


SAFE = [
    "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd><br>then <sup>2</sup></p>",
    '<math display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>',
    '<details class="course-solution"><summary>Solution</summary><ul><li>x</li></ul></details>',
    '<svg viewBox="0 0 10 10" role="img"><line x1="0" y1="0" x2="1" y2="1"/><text x="1">a &lt; b</text></svg>',
    '<a href="../02-attention-projection/#step-1">a link</a> <a href="https://example.org/">out</a>',
    '<img src="../assets/figure.png" alt="a local image">',
    "<p>Text with &lt;script&gt; already escaped</p>",
    '<pre><code>step-at-fraction = &quot;1200&quot; onclick=</code></pre>',
    '<svg><text style="paint-order: stroke; stroke: var(--md-default-bg-color, Canvas); stroke-width: 4px">a</text></svg>',
    '<input class="course-answer" type="text" spellcheck="false" aria-describedby="x" data-part="p">',
]


@pytest.mark.parametrize("markup", SAFE)
def test_the_markup_chapters_and_blocks_use_passes(markup):
    clean, found = sanitized(markup)
    assert found == []
    assert [tag for tag in _tags(markup)] == [tag for tag in _tags(clean)]


def _tags(markup: str) -> list[tuple[str, tuple]]:
    seen = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            seen.append((tag, tuple(sorted(name for name, _ in attrs))))

        handle_startendtag = handle_starttag

    Tags().feed(markup)
    return seen


def test_what_passes_stays_xml_where_it_was():
    """A figure's French text keeps its no-break spaces as characters: the sanitizer's serializer would write
    `&nbsp;`, which an SVG read as XML does not know."""
    clean, _ = sanitized('<svg viewBox="0 0 9 9"><text x="1">pas\u00a0: 0,5</text></svg>')
    assert "&nbsp;" not in clean and "pas\u00a0: 0,5" in clean


def test_the_report_names_the_chapter_line(tmp_path: Path):
    chapter = tmp_path / "index.md"
    chapter.write_text("# T\n\nSome text.\n\n[click](javascript:alert(1))\n\nA <script>x()</script>\n", encoding="utf-8")
    _, found = sanitized('<p><a href="javascript:alert(1)">click</a></p>\n<p>A <script>x()</script></p>')
    problems = report_unsafe(found, "docs/en/index.md", chapter)
    assert [p.split(": ")[0] for p in problems] == ["docs/en/index.md:5", "docs/en/index.md:7"]
    assert "removed from the page" in problems[0]


def test_the_source_check_uses_the_same_list():
    text = ("# T\n\nA <kbd>key</kbd> and <https://example.org/> autolinked.\n\n"
            "```html\n<script>in code</script>\n```\n\n`<script>` in code too.\n\n"
            '<svg><animate attributeName="href" values="javascript:x"/></svg>\n')
    assert unsafe_in_chapter(text) == [(11, unsafe_in_chapter(text)[0][1])]
    assert "<animate>" in unsafe_in_chapter(text)[0][1]


# a figure's text `style`: each declaration one of the few properties figures set, its value loading nothing
STYLES = [
    ("fill: red; ", None),                                  # an empty declaration after the last ';' is nothing
    ("fill: red;; stroke: blue", None),
    ("fill: red; position: fixed", "a style (position: fixed)"),
    ("FONT-WEIGHT: bold", None),                           # a property's name in any case
    ("fill: URL(https://example.com/x.svg)", "a style (fill: URL(https://example.com/x.svg))"),
    ("stroke: expression(alert(1))", "a style (stroke: expression(alert(1)))"),
    ("fill: \\75rl(x)", "a style (fill: \\75rl(x))"),
    ("fill: red @import", "a style (fill: red @import)"),
    ("position: " + "a" * 60, "a style (position: " + "a" * 30 + ")"),   # the declaration cut to its first 40 characters
]


@pytest.mark.parametrize("style, why", STYLES)
def test_a_figures_text_style_keeps_only_the_properties_figures_set(style, why):
    markup = f'<svg><text style="{style}">a</text></svg>'
    clean, found = sanitized(markup)
    assert [unsafe.reason for unsafe in found] == ([why] if why else [])
    assert ("style=" in clean) is (why is None), clean


def test_what_the_sanitizer_drops_for_reasons_of_its_own_is_named_too():
    """A cell outside a table: an allowed tag, which the sanitizer's HTML parser drops (a browser would too)."""
    clean, found = sanitized("<p>x</p><td>y</td>")
    assert clean == "<p>x</p>y"
    assert [(u.markup, u.reason, u.evidence) for u in found] == [("<td >", "markup the sanitizer would not keep", "<td")]


def test_what_the_sanitizer_drops_is_named_with_every_attribute_it_carried():
    clean, found = sanitized('<p>x</p><td class="a" id="b">y</td>')
    assert clean == "<p>x</p>y" and [u.markup for u in found] == ["<td class id>"]


def test_a_script_or_a_style_goes_with_its_text_and_a_comment_goes_too():
    """What a <script> or a <style> holds is no prose: removed with the tag (and the tag named), as a comment is."""
    clean, found = sanitized("<p>a</p><script>alert(1)</script><style>p { color: red }</style><!-- a note -->")
    assert clean == "<p>a</p>", clean
    assert [u.reason for u in found] == ["a <script> element", "a <style> element"]


def test_an_attribute_refused_is_found_by_its_value_or_else_by_its_name():
    """The evidence the report looks for in the chapter: the value written, or the attribute's name when it has none."""
    assert reason("p", [("onclick", "alert(1)")]) == ("the attribute 'onclick' on <p>", "alert(1)")
    assert reason("p", [("onclick", "")]) == ("the attribute 'onclick' on <p>", "onclick")
    assert [u.evidence for u in sanitized("<p onclick>x</p>")[1]] == ["onclick"]     # written with no value


@pytest.mark.parametrize("markup", ["<p title='a b' class=\"c\" id=d hidden>x</p>", "<p TITLE = 'a b'>x</p>"])
def test_every_way_to_write_an_attribute_is_read(markup):
    """Quoted either way, unquoted, or with no value: each is read as a browser reads it (a single-quoted value
    holding a space stays one attribute)."""
    clean, found = sanitized(markup)
    assert found == [] and "a b" in clean, (clean, found)
    assert reason("img", [("src", "https://example.com/x.png")])[0] == "'src' loads from elsewhere"
    assert sanitized("<img alt='x' src='https://example.com/x.png'>")[1][0].evidence == "https://example.com/x.png"


def test_a_problem_quotes_the_first_80_characters_of_the_markup_and_says_what_is_allowed():
    tag = '<img src="https://example.com/' + "x" * 80 + '.png">'
    (unsafe,) = sanitized(tag)[1]
    assert unsafe.message() == (
        f"markup the page may not carry ('src' loads from elsewhere): {tag[:80]!r}; it is removed from the page "
        "(chapters may use the tags and attributes of hooks/chapters/sanitize.py's ALLOWED, and load nothing from "
        "elsewhere)")


def test_the_report_finds_the_markup_whatever_its_case_in_the_chapter(tmp_path: Path):
    chapter = tmp_path / "index.md"
    chapter.write_text('# T\n\nText.\n\n<A HREF="JAVASCRIPT:x()">a</A>\n', encoding="utf-8")
    _, found = sanitized('<p><a href="javascript:x()">a</a></p>')
    assert [p.split(": ")[0] for p in report_unsafe(found, "docs/en/index.md", chapter)] == ["docs/en/index.md:5"]
    assert report_unsafe([], "docs/en/index.md", tmp_path / "no-such-file.md") == []
