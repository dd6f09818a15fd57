"""Drawing the caret under a parse error, for short and long answers."""

import json

import pytest

from grader.judging.outcome import CARET_WINDOW, caret


@pytest.mark.parametrize(
    "answer, column",
    [("(1, 2 3)", 6), ("3 0", 2), ("1+" * 300 + "1", 500), ("x" * 200 + " 2x", 201), ("2x", 0)],
)
def test_caret_points_at_the_character(answer, column):
    shown, marker = caret(answer, column, indent="").split("\n")
    assert len(shown) <= CARET_WINDOW + 2
    pointed = shown[len(marker) - 1]
    assert pointed == answer[column]


def test_wide_characters_keep_the_caret_aligned():
    shown, marker = caret("（１、２）", 2, indent="").split("\n")
    assert marker == "\u3000\u3000^"


# --- what reaches a terminal is escaped (issue 12) ---------------------------------

from grader.cli.output import json_text, printable  # noqa: E402


@pytest.mark.parametrize("text, shown", [
    ("plain (1, 2, 3)", "plain (1, 2, 3)"),
    ("距離の 2 乗", "距離の 2 乗"),
    ("400\u00a0000", "400\u00a0000"),                 # a no-break space is a space: shown
    ("\x1b[1A\x1b[2Kfake", "\\x1b[1A\\x1b[2Kfake"),   # ESC: cursor up, erase line
    ("bell\x07", "bell\\x07"),
    ("back\x08space", "back\\x08space"),
    ("del\x7f", "del\\x7f"),
    ("csi\x9b2J", "csi\\x9b2J"),                       # C1: an 8-bit CSI
    ("abc\u202edcba", "abc\\u202edcba"),               # right-to-left override
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("line\u2028sep", "line\\u2028sep"),
    ("tag\U000e0041", "tag\\U000e0041"),               # invisible tag characters
    ("new\nline", "new\\nline"),
    ("caf\udce9.toml", "caf\\xe9.toml"),                # a byte that was not UTF-8
    ("half\ud800", "half\\ud800"),                      # a lone surrogate
])
def test_printable_escapes_what_would_act_on_a_terminal(text, shown):
    assert printable(text) == shown
    assert printable(text).encode("utf-8")


def test_printable_keeps_line_breaks_when_asked():
    assert printable("a\nb\x1b", lines=True) == "a\nb\\x1b"


@pytest.mark.parametrize("answer, column", [
    ("\x1b[1A\x1b[2Kfake: 3/3 Correct.", 8),           # the caret under 'f'
    ("abc\u202e + x", 6),
    ("\u200b1 + x", 5),
    ("（１，\x07ｘ）", 4),
    ("e\u0301 + x", 5),                                 # a combining accent takes no column
])
def test_the_caret_lines_up_under_escaped_text(answer, column):
    shown, marker = caret(answer, column, indent="").split("\n")
    assert "\x1b" not in shown and "\x07" not in shown
    width = {"W": 2, "F": 2}
    import unicodedata

    def cells(text):
        return sum(0 if unicodedata.combining(c) else width.get(unicodedata.east_asian_width(c), 1)
                   for c in text)
    assert cells(marker) - 1 == cells(printable(answer[:column]))
    assert marker.endswith("^")


@pytest.mark.parametrize("value", ["\ud800", "caf\udce9", "\x1b[2J", "\x9b", "\u202e", "ok"])
def test_json_text_is_always_valid_utf8_json(value):
    data = {"answer": value, "list": [value]}
    text = json_text(data)
    assert text.encode("utf-8")                          # no lone surrogate reaches the output
    assert not any(c in text for c in "\x1b\x9b\u202e")
    assert json.loads(text) == data                      # and it says the same thing
    assert json.loads(json_text(data, indent=2)) == data
