"""The block validators, on their own."""

import pytest

from hooks.blockspec import SPECS, boolean, slug, text


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
