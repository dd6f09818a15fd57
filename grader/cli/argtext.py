"""The command line's own words, in the student's language: help, usage and argparse's errors.

:mod:`argparse` words its help and errors in English, through a module-level
``_`` (gettext). While the command line is parsed, :func:`speaking` points that
``_`` at the grader's catalogs for the sentences a student meets (missing or
unknown arguments, a bad choice, the help's headings); any other sentence
stays English. :func:`localize` swaps the help texts of the parser's options
and commands for their catalog entries (``cli.option.<dest>``,
``cli.command.<name>``), so an option without an entry keeps its English help.
"""
from __future__ import annotations

import argparse
import os
from contextlib import contextmanager
from typing import Iterator, Sequence

from grader.languages.messages import catalog, detect_lang, message

# argparse's sentence -> (catalog key, {placeholder: the %-field argparse fills in})
ARGPARSE = {
    "usage: ": ("cli.usage", {}),
    "%(prog)s: error: %(message)s\n": ("cli.error", {"prog": "%(prog)s", "message": "%(message)s"}),
    "argument %(argument_name)s: %(message)s": ("cli.argument", {"argument": "%(argument_name)s",
                                                                 "problem": "%(message)s"}),
    "the following arguments are required: %s": ("cli.required", {"arguments": "%s"}),
    "unrecognized arguments: %s": ("cli.unrecognized", {"arguments": "%s"}),
    "invalid choice: %(value)r (choose from %(choices)s)": ("cli.invalid-choice",
                                                            {"value": "%(value)r",
                                                             "choices": "%(choices)s"}),
    "invalid %(type)s value: %(value)r": ("cli.invalid-value", {"type": "%(type)s",
                                                                "value": "%(value)r"}),
    "expected one argument": ("cli.expected-one", {}),
    "ambiguous option: %(option)s could match %(matches)s": ("cli.ambiguous",
                                                             {"option": "%(option)s",
                                                              "matches": "%(matches)s"}),
    "positional arguments": ("cli.positional", {}),
    "options": ("cli.options", {}),
    "show this help message and exit": ("cli.help", {}),
}


def percent_template(key: str, lang: str, fields: dict[str, str]) -> str:
    """The catalog sentence as a %-template: its own '%' doubled, placeholders as %-fields."""
    marks = {name: f"\0{name}\0" for name in fields}
    text = message(key, lang, **marks).replace("%", "%%")
    for name, field in fields.items():
        text = text.replace(marks[name], field)
    return text


def translate(text: str, lang: str) -> str:
    """argparse's sentence ``text`` in ``lang``; unknown sentences stay as they are."""
    if text not in ARGPARSE:
        return text
    key, fields = ARGPARSE[text]
    out = percent_template(key, lang, fields)
    if text.endswith(" "):
        out = out.rstrip() + " "
    if text.endswith("\n"):
        out = out.rstrip("\n") + "\n"
    return out


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """argparse words its sentences in ``lang`` inside the block."""
    saved = argparse._
    argparse._ = lambda text: translate(text, lang)
    try:
        yield
    finally:
        argparse._ = saved


def _help(key: str, lang: str, english: str | None) -> str | None:
    if english is None or english == argparse.SUPPRESS or key not in catalog("en"):
        return english
    return message(key, lang).replace("%", "%%")


def parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and every command's parser under it."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += parsers(sub)
    return found


def localize(parser: argparse.ArgumentParser, lang: str) -> argparse.ArgumentParser:
    """``parser`` with its description and help texts in ``lang`` (where the catalog has them)."""
    if parser.description:
        parser.description = _help("cli.description", lang, parser.description)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = _help(f"cli.command.{choice.dest}", lang, choice.help)
            for sub in dict.fromkeys(action.choices.values()):
                localize(sub, lang)
        elif action.dest != "help":
            action.help = _help(f"cli.option.{action.dest}", lang, action.help)
    return parser


def early_lang(argv: Sequence[str], environ=None) -> str:
    """The language to parse the command line in, before it is parsed: ``--lang`` if it
    is readable, else the environment's (:func:`grader.languages.messages.detect_lang`)."""
    environ = os.environ if environ is None else environ
    option = None
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            option = argv[i + 1]
        elif word.startswith("--lang="):
            option = word.split("=", 1)[1]
    try:
        return detect_lang(option, environ)
    except ValueError:    # an unknown --lang or GRADER_LANG: main() says so, in the locale's language
        return detect_lang(None, {k: v for k, v in environ.items() if k != "GRADER_LANG"})
