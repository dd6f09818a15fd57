"""A block's options: every wrong option line is reported, not only the first, each with what is allowed."""
from hooks.chapters.blockspec import scan_blocks


def test_every_wrong_option_is_reported_with_what_is_allowed():
    source = "# T\n\n/// exercise | attention-weights\n    colour: red\n    open: maybe\n    size: 3\n\nx\n///\n"
    uses, problems = scan_blocks(source, "a.md", known_ids={"exercise": frozenset({"attention-weights"})})
    assert uses == []
    assert [(p.line, p.message) for p in problems] == [
        (4, "block 'exercise': unknown option 'colour' (allowed: open)"),
        (4, "block 'exercise': bad value for option 'open': 'maybe' is not true or false"),
        (4, "block 'exercise': unknown option 'size' (allowed: open)"),
    ]


def test_a_block_without_options_says_none_are_allowed():
    _, problems = scan_blocks("# T\n\n/// step | One\n    open: true\n\nx\n///\n", "a.md")
    assert [(p.line, p.message) for p in problems] == [(4, "block 'step': unknown option 'open' (allowed: none)")]


def test_options_that_are_not_name_value_lines():
    source = "# T\n\n/// exercise | attention-weights\n    - open\n\nx\n///\n"
    _, problems = scan_blocks(source, "a.md", known_ids={"exercise": frozenset({"attention-weights"})})
    assert [(p.line, p.message) for p in problems] == [
        (4, "block 'exercise': options must be 'name: value' lines indented by four spaces")]
