"""The block validators, on their own, and the linter that names a malformed block's line and fix."""

import pytest

from hooks.blockspec import SPECS, boolean, scan_blocks, slug, text


@pytest.mark.parametrize("validator, value, expected", [
    (text, "  Score every key ", "Score every key"),
    (slug, "attention-weights", "attention-weights"),
    (boolean, True, True),
])
def test_valid_values_come_back_clean(validator, value, expected):
    assert validator(value) == expected


@pytest.mark.parametrize("validator, value", [
    (text, ""), (text, "two\nlines"), (slug, "Attention Weights"), (slug, "a--b"), (slug, "-a"),
    (boolean, "yes"), (boolean, 1),
])
def test_invalid_values_raise_value_error(validator, value):
    with pytest.raises(ValueError):
        validator(value)


def test_every_block_is_declared_with_a_purpose():
    assert set(SPECS) == {"step", "reading", "exercise", "hint", "figure", "translation-status"}
    assert all(spec.purpose for spec in SPECS.values())


# (chapter text, line of the problem, words the message must contain)
MALFORMED = [
    ("# T\n\n/// sidebar\nx\n///\n", 3, "unknown block type 'sidebar'"),
    ("# T\n\n/// step\nx\n///\n", 3, "needs an argument"),
    ("# T\n\n/// figure | Not An Id!\nx\n///\n", 3, "bad argument"),
    ("# T\n\n/// exercise | no-such-exercise\nx\n///\n", 3, "unknown id 'no-such-exercise'"),
    ("# T\n\n/// reading | A title\nx\n///\n", 3, "takes no argument"),
    ("# T\n\n/// exercise | attention-weights\n    colour: red\n\nx\n///\n", 4, "unknown option 'colour'"),
    ("# T\n\n/// exercise | attention-weights\n    open: maybe\n\nx\n///\n", 4, "bad value for option 'open'"),
    ("# T\n\ntext\n\n/// step | One\nnever closed\n", 5, "is not closed"),
    ("# T\n\n/// hint\nlonely\n///\n", 3, "belongs inside an 'exercise' block"),
    ("# T\n\nx\n\n///\n", 5, "without an open block"),
    ("# T\n\n/// exercise | attention-weights\n\n///\n", 3, "write the exercise's statement"),
    ("# T\n\nSome code:\n\n```python\n# not a heading\n", 5, "code fence '```' is never closed"),
]


@pytest.mark.parametrize("source, line, words", MALFORMED)
def test_linter_names_line_and_fix(source, line, words):
    known = {"exercise": frozenset({"attention-weights"}), "figure": frozenset({"x"})}
    _, problems = scan_blocks(source, "docs/en/bad.md", known_ids=known)
    assert [p.line for p in problems] == [line], problems
    assert words in problems[0].message
    assert str(problems[0]).startswith(f"docs/en/bad.md:{line}: ")


def test_blocks_inside_code_fences_are_ignored():
    uses, problems = scan_blocks("```\n/// nonsense\n```\n\n/// step | A\nx\n///\n", "a.md")
    assert problems == [] and [u.name for u in uses] == ["step"]
