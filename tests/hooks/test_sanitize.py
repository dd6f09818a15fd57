"""Markup that could run script is escaped (nothing lost) and named; the rest of the markup passes untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.chapters.sanitize import neutralise, report

UNSAFE = [
    ("<p>a <script>window.x=1</script> b</p>", "<script>", "&lt;script&gt;window.x=1&lt;/script&gt;"),
    ('<img src=x onerror="window.x=1">', "event handler attribute 'onerror'", "&lt;img src=x onerror="),
    ('<a href="javascript:alert(1)">x</a>', "script URL in 'href'", "&lt;a href=&quot;javascript:alert(1)&quot;&gt;x"),
    ('<a href=" JavaScript&colon;alert(1)">x</a>', "script URL in 'href'", "&lt;a href="),
    ('<iframe srcdoc="&lt;script&gt;x&lt;/script&gt;"></iframe>', "<iframe>", "&lt;iframe srcdoc="),
    ('<svg onload="x()"><circle r="1"/></svg>', "'onload'", '&lt;svg onload=&quot;x()&quot;&gt;<circle r="1"/></svg>'),
    ("<style>@import url(http://example.com/x.css)</style>", "<style>", "&lt;style&gt;@import"),
    ('<img/src="x"/onerror=alert(1)>', "'onerror'", "&lt;img/src=&quot;x&quot;/onerror=alert(1)&gt;"),
    ('<a href="java&#x09;script:alert(1)">x</a>', "script URL in 'href'", "&lt;a href="),
    ('<a href="javascript&#58;alert(1)">x</a>', "script URL in 'href'", "&lt;a href="),
    ('<a HREF=javascript&#x3A;alert(1)>x</a>', "script URL in 'href'", "&lt;a HREF="),
    ('<svg><a xlink:href="javascript:x()">y</a></svg>', "script URL in 'xlink:href'", "&lt;a xlink:href="),
    ("<p>a</p>\n<img src=x onerror=alert(1)//", "never closed", "<p>a</p>\n&lt;img src=x onerror=alert(1)//"),
]


SAFE_LOOKALIKES = ['<pre><code>step-at-fraction = &quot;1200&quot;</code></pre>', "<p>based on = fact</p>",
                   '<a href="../02-attention-projection/#scaling">x</a>', "<code>onclick=</code>"]


@pytest.mark.parametrize("content", SAFE_LOOKALIKES)
def test_safe_content_that_looks_suspect_is_left_alone(content):
    assert neutralise(content) == (content, [])


@pytest.mark.parametrize("markup, why, shown", UNSAFE)
def test_unsafe_markup_is_escaped_and_named(markup, why, shown):
    out, found = neutralise(markup)
    assert shown in out
    assert len(found) == 1 and why in found[0].reason


SAFE = [
    "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd><br>then <sup>2</sup></p>",
    '<math display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math>',
    '<details class="course-solution"><summary>Solution</summary><ul><li>x</li></ul></details>',
    '<svg viewBox="0 0 10 10" role="img"><line x1="0" y1="0" x2="1" y2="1"/><text x="1">a &lt; b</text></svg>',
    '<a href="../02-attention-projection/#step-1">a link</a> <a href="https://example.org/">out</a>',
    "<p>Text with &lt;script&gt; already escaped</p>",
    "<!-- <script>a comment</script> --><p>x</p>",
]


@pytest.mark.parametrize("markup", SAFE)
def test_the_rest_passes_untouched(markup):
    assert neutralise(markup) == (markup, [])


def test_the_report_names_the_chapter_line(tmp_path: Path):
    chapter = tmp_path / "index.md"
    chapter.write_text("# T\n\nSome text.\n\n[click](javascript:alert(1))\n\nA <script>x()</script>\n", encoding="utf-8")
    _, found = neutralise('<p><a href="javascript:alert(1)">click</a></p>\n<p>A <script>x()</script></p>')
    problems = report(found, "docs/en/index.md", chapter)
    assert [p.split(": ")[0] for p in problems] == ["docs/en/index.md:5", "docs/en/index.md:7"]
    assert "it is shown as text" in problems[0]
