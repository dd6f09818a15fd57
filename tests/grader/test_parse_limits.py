"""The parser's calls and limits, each refusal pinned whole (key, column, every parameter) and each
limit exactly at its edge: accepted on it, refused one step beyond. (Bugs that mutation testing
planted here and the other parser tests let through.)"""
import pytest

from grader.reading.parse import MAX_DEPTH, MAX_EXPONENT, MAX_POWER_BITS, AnswerSyntaxError, parse_answer

WIDE = 2 ** 199       # 200 bits: WIDE**1000 is exactly MAX_POWER_BITS bits
WIDER = 2 ** 200      # 201 bits


@pytest.mark.parametrize("text, key, column, params", [
    ("sqrt(x=2)", "not-allowed", 7, {"construct": "key:construct.keyword"}),      # at the keyword's value
    ("sqrt(2, x=3)", "not-allowed", 10, {"construct": "key:construct.keyword"}),
    ("sqrt(1, 2)", "wrong-arity", 0, {"name": "sqrt", "count": 2}),
    ("sqrt()", "wrong-arity", 0, {"name": "sqrt", "count": 0}),
    ("foo(2)", "unknown-function", 0, {"name": "foo"}),
    ("(1)(2)", "implicit-product", 3, {"product": "(1)*(2)"}),        # a value against a bracket: a product
    ("sqrt(2)(3)", "implicit-product", 7, {"product": "sqrt(2)*(3)"}),
    ("2(3, 4)", "not-allowed", 0, {"construct": "key:construct.call"}),  # two arguments: no product to suggest
    (f"2**{MAX_EXPONENT + 1}", "too-large", 3, {}),                           # at the exponent
    (f"2**-{MAX_EXPONENT + 1}", "too-large", 3, {}),
    (f"{WIDER}**{MAX_EXPONENT}", "too-large", len(str(WIDER)) + 2, {}),
    (f"(1/{WIDER})**{MAX_EXPONENT}", "too-large", len(str(WIDER)) + 6, {}),   # the denominator's bits count too
    ("sqrt(" * (MAX_DEPTH + 1) + "2" + ")" * (MAX_DEPTH + 1), "too-deep", 5 * (MAX_DEPTH + 1), {}),
])
def test_each_refusal_is_pinned_whole(text, key, column, params):
    with pytest.raises(AnswerSyntaxError) as info:
        parse_answer(text)
    error = info.value.error
    assert (error.key, error.column, error.param_dict) == (key, column, params)


@pytest.mark.parametrize("text", [
    f"2**{MAX_EXPONENT}", f"2**(-{MAX_EXPONENT})", f"(1/2)**{MAX_EXPONENT}",
    f"{WIDE}**{MAX_EXPONENT}", f"(1/{WIDE})**{MAX_EXPONENT}",                  # exactly MAX_POWER_BITS
    "sqrt(" * MAX_DEPTH + "2" + ")" * MAX_DEPTH,                                  # exactly MAX_DEPTH calls deep
])
def test_on_each_limit_is_accepted(text):
    assert parse_answer(text).kind == "scalar"


def test_the_limits_are_what_the_cases_assume():
    assert WIDE.bit_length() * MAX_EXPONENT == MAX_POWER_BITS < WIDER.bit_length() * MAX_EXPONENT
