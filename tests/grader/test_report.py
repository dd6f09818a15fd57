"""Drawing the caret under a parse error, for short and long answers."""

import pytest

from grader.report import CARET_WINDOW, caret


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
