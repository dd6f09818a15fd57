"""The block validators, on their own, and the linter that names a malformed block's line and fix."""

import pytest

from hooks.chapters.blockspec import SPECS, boolean, part_ids, scan_blocks, slug, text


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


@pytest.mark.parametrize("validator, value, message", [
    (text, None, "must not be empty"),
    (text, "   ", "must not be empty"),
    (text, "two\nlines", "must be a single line"),
    (slug, "Attention Weights", "'Attention Weights' is not an id (lower-case letters, digits and single hyphens)"),
    (slug, None, "must not be empty"),
    (boolean, "True", "'True' is a string, not true or false: write it without quotes"),
    (boolean, " false ", "' false ' is a string, not true or false: write it without quotes"),
    (boolean, "yes", "'yes' is not true or false"),
    (boolean, 0, "'0' is not true or false"),
    (boolean, None, "'None' is not true or false"),
])
def test_each_invalid_value_says_why(validator, value, message):
    with pytest.raises(ValueError) as info:
        validator(value)
    assert str(info.value) == message


@pytest.mark.parametrize("validator, value, expected", [
    (text, 3, "3"), (text, "\tA title\t", "A title"), (slug, " a-1 ", "a-1"), (boolean, False, False),
])
def test_more_valid_values(validator, value, expected):
    assert validator(value) == expected


KNOWN = {"exercise": frozenset({"attention-weights", "b-ex"}), "figure": frozenset({"x"})}

# (chapter text, the blocks found as (name, argument, options, line), every problem as the build prints it)
CHAPTERS = [
    ("/// exercise | attention-weights\n    open: true\n    colour: red\n\nx\n///\n",
     [], ["p.md:2: block 'exercise': unknown option 'colour' (allowed: open)"]),
    ("/// exercise | attention-weights\n    open: true\n    open: false\n\nx\n///\n",
     [("exercise", "attention-weights", {"open": False}, 1)], []),
    ("/// exercise | attention-weights\n    open: true\n\nx\n///\n",
     [("exercise", "attention-weights", {"open": True}, 1)], []),
    ("/// exercise | attention-weights\n\nx\n///\n",
     [("exercise", "attention-weights", {"open": False}, 1)], []),
    ("# T\n\n/// exercise | attention-weights\n    - a\n    - b\n\nx\n///\n",
     [], ["p.md:4: block 'exercise': options must be 'name: value' lines indented by four spaces"]),
    ("# T\n\n/// exercise | attention-weights\n    open: [\n\nx\n///\n",
     [], ["p.md:4: block 'exercise': options must be 'name: value' lines indented by four spaces"]),
    ("/// exercise | attention-weights\n    open: \"true\"\n\nx\n///\n",
     [], ["p.md:2: block 'exercise': bad value for option 'open': "
          "'true' is a string, not true or false: write it without quotes"]),
    ("/// exercise | attention-weights\n    open: maybe\n    colour: red\n\nx\n///\n",
     [], ["p.md:2: block 'exercise': bad value for option 'open': 'maybe' is not true or false",
          "p.md:2: block 'exercise': unknown option 'colour' (allowed: open)"]),
    ("# T\n\n/// reading\n    open: true\n\nx\n///\n",
     [], ["p.md:4: block 'reading': unknown option 'open' (allowed: none)"]),
    ("# T\n\n/// reading | A title\nx\n///\n",
     [], ["p.md:3: block 'reading' takes no argument: remove '| A title'"]),
    ("/// step\nx\n///\n",
     [], ["p.md:1: block 'step' needs an argument (the step's title): '/// step | ...'"]),
    ("/// figure | Not An Id!\nx\n///\n",
     [], ["p.md:1: block 'figure': bad argument: 'Not An Id!' is not an id (lower-case letters, digits and single hyphens)"]),
    ("/// exercise | no-such-exercise\nx\n///\n",
     [], ["p.md:1: block 'exercise': unknown id 'no-such-exercise': use one of attention-weights, b-ex"]),
    ("/// exercise | no-such-exercise\n    colour: red\n\nx\n///\n",
     [], ["p.md:1: block 'exercise': unknown id 'no-such-exercise': use one of attention-weights, b-ex",
          "p.md:2: block 'exercise': unknown option 'colour' (allowed: open)"]),
    ("/// sidebar | x\ny\n///\n",
     [], ["p.md:1: unknown block type 'sidebar': use one of exercise, figure, hint, reading, step, translation-status"]),
    ("# T\n\n//// step | A\n/// hint\nx\n///\n////\n",
     [("step", "A", {}, 3)], ["p.md:4: block 'hint' belongs inside an 'exercise' block: move it there"]),
    ("/// exercise | b-ex\nStatement.\n//// hint\nh\n////\n///\n",
     [("exercise", "b-ex", {"open": False}, 1), ("hint", None, {"parts": None}, 3)], []),
    ("/// STEP | A\nx\n///\n", [("step", "A", {}, 1)], []),
    ("/// step|A\nx\n///\n", [("step", "A", {}, 1)], []),
    ("/// step |   A title  \nx\n///\n", [("step", "A title", {}, 1)], []),
    ("# T\n\n/// step | A\n/// reading\nx\n///\n",
     [("step", "A", {}, 3), ("reading", None, {}, 4)],
     ["p.md:3: block 'step' is not closed: add a line '///' after its content"]),
    ("//// step | A\n/// reading\nx\n////\n",
     [("step", "A", {}, 1), ("reading", None, {}, 2)],
     ["p.md:2: block 'reading' is not closed: add a line '///' after its content"]),
    ("/// st@p\nx\n///\n",
     [], ["p.md:1: malformed block header '/// st@p': write '/// name | argument'",
          "p.md:3: closing '///' without an open block: remove it, or open the block it ends"]),
    ("//// step | A\n/// reading\n///\n////\n",
     [("step", "A", {}, 1), ("reading", None, {}, 2)],
     ["p.md:2: block 'reading' is empty: write the reading inside it"]),
    ("/// step | A\n\n///\n", [("step", "A", {}, 1)], ["p.md:1: block 'step' is empty: write the step inside it"]),
    ("/// step | A\n```\ncode\n```\n///\n", [("step", "A", {}, 1)], []),
    ("/// translation-status\n///\n", [("translation-status", None, {}, 1)], []),
    ("/// sidebar\n///\n", [], ["p.md:1: unknown block type 'sidebar': use one of exercise, figure, hint, reading, "
                                "step, translation-status"]),
    ("```\ncode\n", [], ["p.md:1: code fence '```' is never closed: the site would show the rest of the page as text; "
                         "add a line '```' after the code"]),
    ("/// step | A\nx\n~~~~\n", [("step", "A", {}, 1)],
     ["p.md:1: block 'step' is not closed: add a line '///' after its content",
      "p.md:3: code fence '~~~~' is never closed: the site would show the rest of the page as text; "
      "add a line '~~~~' after the code"]),
]


@pytest.mark.parametrize("source, uses, problems", CHAPTERS)
def test_linter_finds_each_block_and_problem(source, uses, problems):
    found, found_problems = scan_blocks(source, "p.md", known_ids=KNOWN)
    assert [(u.name, u.argument, u.options, u.line) for u in found] == uses
    assert [str(p) for p in found_problems] == problems


def test_without_known_ids_any_well_formed_id_is_accepted():
    uses, problems = scan_blocks("/// exercise | anything-at-all\nx\n///\n", "p.md")
    assert problems == [] and [u.argument for u in uses] == ["anything-at-all"]


@pytest.mark.parametrize("value, message", [
    ("a,b", "'a,b' is not a part id (letters, digits, '_' and single hyphens)"),
    ("a -b", "'-b' is not a part id (letters, digits, '_' and single hyphens)"),
    ("d_mp d_mf d_mp", "names a part twice: name each part once"),
    (("a", "a"), "names a part twice: name each part once"),
    ([], "must not be empty"),
])
def test_a_bad_parts_value_says_why(value, message):
    with pytest.raises(ValueError) as info:
        part_ids(value)
    assert str(info.value) == message


def test_parts_may_be_a_tuple_or_a_list_of_ids():
    assert part_ids(("a_1", "B-2")) == part_ids(["a_1", "B-2"]) == part_ids(" a_1\tB-2 ") == ("a_1", "B-2")


PARTS = {"ex-a": ("p1", "p2"), "ex-b": ("q",)}

# (chapter, every problem as the build prints it): a hint's parts are those of the exercise it is in
HINTS = [
    ("/// exercise | ex-a\nS.\n//// hint\n    parts: p2 zz p1 yy\nh\n////\n///\n",
     ["p.md:4: block 'hint': exercise 'ex-a' has no part 'zz', 'yy': use its parts, p1, p2"]),
    ("/// exercise | ex-a\nS.\n///\n\n/// exercise | ex-b\nS.\n//// hint\n    parts: p1\nh\n////\n///\n",
     ["p.md:8: block 'hint': exercise 'ex-b' has no part 'p1': use its parts, q"]),
    ("/// exercise | ex-c\nS.\n//// hint\n    parts: anything\nh\n////\n///\n", []),   # parts unknown: not checked
    ("/// exercise | ex-a\nS.\n//// hint\nh\n////\n///\n", []),                         # a hint naming no part
]


@pytest.mark.parametrize("source, problems", HINTS)
def test_a_hints_parts_are_checked_against_its_exercise(source, problems):
    _, found = scan_blocks(source, "p.md", known_parts=PARTS)
    assert [str(p) for p in found] == problems


def test_a_hints_parts_are_not_checked_without_the_exercises_parts():
    _, found = scan_blocks(HINTS[0][0], "p.md")
    assert found == []


@pytest.mark.parametrize("inside", ["   ", "\t"])
def test_a_block_holding_only_blank_lines_is_empty(inside):
    _, found = scan_blocks(f"/// step | A\n{inside}\n///\n", "p.md")
    assert [str(p) for p in found] == ["p.md:1: block 'step' is empty: write the step inside it"]
