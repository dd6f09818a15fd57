"""Locales: the same keys and placeholders as English; language detection."""
import re

import pytest

from grader.messages import LOCALES, catalog, detect_lang, message, placeholders

EN = catalog("en")


@pytest.mark.parametrize("lang", LOCALES)
def test_locale_has_exactly_the_english_keys(lang):
    assert set(catalog(lang)) == set(EN)


@pytest.mark.parametrize("lang", LOCALES)
def test_locale_has_the_same_placeholders(lang):
    table = catalog(lang)
    wrong = {k: (placeholders(EN[k]), placeholders(table[k]))
             for k in EN if placeholders(EN[k]) != placeholders(table[k])}
    assert not wrong


@pytest.mark.parametrize("lang", LOCALES)
def test_every_message_renders(lang):
    for key in EN:
        text = message(key, lang, **{p: "X" for p in placeholders(EN[key])})
        assert text and not re.search(r"\{[a-z_]+\}", text)


def test_every_key_used_in_code_exists():
    import pathlib
    source = "\n".join(p.read_text() for p in pathlib.Path("grader").glob("*.py"))
    used = set(re.findall(r'(?:finding|_fail|message|_error)\("([a-z0-9-]+)"', source))
    used |= set(re.findall(r'\("([a-z0-9-]+)", [a-z(]', (pathlib.Path("grader") / "feedback.py").read_text()))
    assert len(used) > 40
    assert used <= set(EN), used - set(EN)


def test_nested_message_reference():
    text = message("point-outside-region", "fr", point="(0, 1, 0)",
                   constraint="key:constraint-floor", symbol="H", bound="1/2")
    assert "le plancher H >= 1/2" in text


@pytest.mark.parametrize("option, env, expected", [
    ("ko", {"GRADER_LANG": "fr", "LANG": "ja_JP.UTF-8"}, "ko"),
    (None, {"GRADER_LANG": "fr", "LANG": "ja_JP.UTF-8"}, "fr"),
    (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
    (None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "fr_FR.UTF-8"}, "zh"),
    (None, {"LANG": "id_ID"}, "id"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_detect_lang(option, env, expected):
    assert detect_lang(option, env) == expected


def test_unknown_lang_option_is_an_error():
    with pytest.raises(ValueError, match="unknown language"):
        detect_lang("xx", {})
