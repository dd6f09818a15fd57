"""The page around the content: the <head> lists no language alternates; the switcher's links stay."""

from __future__ import annotations

from hooks.theme import without_language_alternates

PAGE = """<html><head>
    <link rel="canonical" href="https://example.org/ja/02/">
      <link rel="alternate" href="../../02/" hreflang="en">
      <link rel="alternate" href="./" hreflang="ja">
    <link rel="icon" href="../../assets/favicon.png">
</head><body>
<a href="../../02/" hreflang="en" class="md-select__link">English</a>
<p>Text about <link rel="alternate" href="x" hreflang="y"> kept in the body.</p>
</body></html>"""


def test_head_alternates_go_and_the_rest_stays():
    out = without_language_alternates(PAGE)
    head, body = out.split("</head>")
    assert 'rel="alternate"' not in head
    assert 'rel="canonical"' in head and 'rel="icon"' in head
    assert body == PAGE.split("</head>")[1]


def test_a_page_with_no_head_is_left_alone():
    assert without_language_alternates("<p>fragment</p>") == "<p>fragment</p>"
