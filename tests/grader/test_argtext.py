"""The command line's own words (help, usage, argparse's errors) in the student's language."""
import argparse
import inspect

import pytest

from grader.cli import argtext
from grader.cli.main import build_parser
from grader.languages.messages import LOCALES, catalog, message
from tests.grader.test_cli import run


def test_every_argparse_sentence_we_translate_is_one_argparse_says():
    source = inspect.getsource(argparse)
    missing = [text for text in argtext.ARGPARSE if repr(text) not in source]
    assert missing == [], "argparse changed these sentences: update grader/cli/argtext.py"


def _actions(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"cli.command.{choice.dest}", choice.help
            for sub in dict.fromkeys(action.choices.values()):
                yield from _actions(sub)
        elif action.help and action.dest != "help":
            yield f"cli.option.{action.dest}", action.help


def test_english_help_in_the_code_is_the_catalog_entry():
    """build_parser keeps the English help; the catalog holds the same words for translation."""
    english = catalog("en")
    found = dict(_actions(build_parser()))
    assert found and {k: v for k, v in found.items() if english.get(k, v) != v} == {}
    assert english["cli.description"] == build_parser().description


@pytest.mark.parametrize("lang", LOCALES)
def test_translated_templates_fill_like_argparse(lang):
    for text, (key, fields) in argtext.ARGPARSE.items():
        template = argtext.translate(text, lang)
        values = {"prog": "grader", "message": "M", "argument_name": "A", "value": "v",
                  "choices": "c", "type": "int", "option": "--x", "matches": "--xa, --xb"}
        filled = template % (values if "%(" in text else ("X",) if "%s" in text else ())
        assert "%" not in filled.replace("%%", "")
        assert filled.endswith("\n") == text.endswith("\n")


@pytest.mark.parametrize("args, env, expected", [
    (["check", "--lang", "ja"], {}, "次の引数が必要です：id, part, answer"),
    (["check", "attention-weights", "scores", "1,", "1", "--lang", "fr"], {}, "arguments non reconnus"),
    (["show", "x", "--format", "xml"], {"LANG": "ko_KR.UTF-8"}, "잘못된 선택: 'xml'"),
    (["nope"], {"LC_ALL": "id_ID.UTF-8"}, "pilihan tidak sah: 'nope'"),
    (["list", "--lang", "xx"], {"LANG": "ja_JP.UTF-8"}, "--lang の言語 'xx' は使えません"),
    (["list"], {"GRADER_LANG": "qq", "LANG": "fr_FR.UTF-8"}, "langue «\u202fqq\u202f» inconnue dans GRADER_LANG"),
])
@pytest.mark.slow
def test_command_line_errors_in_the_students_language(args, env, expected):
    proc = run(*args, env=env)
    assert proc.returncode == 2 and expected in proc.stderr


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.slow
def test_help_in_every_language(lang):
    out = run("check", "--help", "--lang", lang).stdout
    for key in ("cli.help", "cli.option.seed", "cli.positional"):
        assert message(key, lang).split()[0] in out, key
    assert out.startswith(message("cli.usage", lang))
