"""Why a TOML or JSON file cannot be read, in the reader's language: each message of tomllib and json that a
student's file can raise is one of the catalog's reasons."""
import json

import pytest
import tomllib

from grader.languages import parsers
from grader.languages.messages import LOCALES, catalog, message


@pytest.mark.parametrize("text, name", [
    ('[attention-weights]\nscores = (1, 1, 0)\n', "value"),
    ('[attention-weights]\nscores "(1, 1, 0)"\n', "equals"),
    ('[attention-weights]\nscores = "(1, 1, 0)\n', "quote"),
    ('[attention-weights]\nscores = "1"\nscores = "2"\n', "twice"),
    ('[attention-weights]\nscores = "1" "2"\n', "line-end"),
    ('[attention-weights]\n= "1"\n', "statement"),
    ('[attention-weights\nscores = "1"\n', "bracket"),
    ('[attention-weights]\nscores = "a\\qb"\n', "character"),
    ('x = 1979-02-30\n', "date"),
])
def test_tomls_messages(text, name):
    with pytest.raises(tomllib.TOMLDecodeError) as info:
        tomllib.loads(text)
    said = str(info.value).split(" (at ")[0]
    assert parsers.reason(said) == f"key:reason.{name}", said


@pytest.mark.parametrize("text, name", [
    ('{"attention-weights": {"scores": (1, 1, 0)}}', "value"),
    ('{"attention-weights": {"scores": "1" "weights": "2"}}', "comma"),
    ('{"attention-weights": {scores: "1"}}', "name"),
    ('{"attention-weights": {"scores" "1"}}', "name"),
    ('{"attention-weights": {"scores": "1}}', "quote"),
    ('{"attention-weights": {"scores": "\\q"}}', "character"),
    ('{"attention-weights": {}} x', "line-end"),
])
def test_jsons_messages(text, name):
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(text)
    assert parsers.reason(info.value.msg) == f"key:reason.{name}", info.value.msg


def test_every_reason_is_in_the_catalog_and_an_unknown_message_stays_as_it_is():
    names = {name for _, name in parsers.REASONS}
    assert {f"reason.{name}" for name in names} <= set(catalog("en"))
    assert parsers.reason("Something new in Python 3.14") == "Something new in Python 3.14"


@pytest.mark.parametrize("lang", LOCALES)
def test_a_reason_is_said_in_the_readers_language(lang):
    text = message("error-malformed", lang, path="carol.toml", line=3, format="TOML", reason="key:reason.value")
    assert "key:" not in text and message("reason.value", lang) in text
