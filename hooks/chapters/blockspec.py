"""The course's custom blocks as data, and a linter that checks a chapter against them.

pymdown-extensions' Blocks API quietly turns a block it cannot parse into a
paragraph. The linter reads the chapter source first, with the same specs the
renderer registers, so a malformed block fails the build with `path:line` and
the fix instead. Which lines are code, block fences and options is `hooks.chapters.source`'s
to say; the linter also reports a code fence that nothing closes (the site would
show the rest of the page as text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

import yaml

from hooks.chapters import source as chapter

Validator = Callable[[Any], Any]


# --- validators: tiny pure functions that return the clean value or raise ValueError


def text(value: Any) -> str:
    """A non-empty single line of text."""
    value = str(value).strip() if value is not None else ""
    if not value:
        raise ValueError("must not be empty")
    if "\n" in value:
        raise ValueError("must be a single line")
    return value


def slug(value: Any) -> str:
    """A lower-case id such as `my-exercise`: letters, digits, single hyphens."""
    value = text(value)
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", value):
        raise ValueError(f"'{value}' is not an id (lower-case letters, digits and single hyphens)")
    return value


def part_ids(value: Any) -> tuple[str, ...]:
    """The parts a hint helps with: their ids, separated by spaces (`d_mp d_mf`), each named once."""
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    ids = tuple(text(value).split())
    for part in ids:
        if not re.fullmatch(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*", part):
            raise ValueError(f"'{part}' is not a part id (letters, digits, '_' and single hyphens)")
    if len(set(ids)) < len(ids):
        raise ValueError("names a part twice: name each part once")
    return ids


def boolean(value: Any) -> bool:
    """true or false (YAML's, not a string that says so)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        raise ValueError(f"'{value}' is a string, not true or false: write it without quotes")
    raise ValueError(f"'{value}' is not true or false")


@dataclass(frozen=True)
class BlockSpec:
    """What a block type accepts. `argument` is None (no argument) or the validator of a required one."""

    name: str
    purpose: str
    argument: Validator | None
    argument_help: str = ""
    options: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))  # name -> (default, validator)
    inside: str | None = None  # the block type this one must be nested in
    body: str = ""  # what the block's content must say, when it must not be empty


SPECS: MappingProxyType = MappingProxyType(
    {
        spec.name: spec
        for spec in (
            BlockSpec("step", "a numbered step of a worked derivation", text, "the step's title", body="the step"),
            BlockSpec("reading", "the 'geometric reading' callout", None, body="the reading"),
            BlockSpec(
                "exercise",
                "an exercise from the grader's bank",
                slug,
                "the exercise's bank id",
                MappingProxyType({"open": (False, boolean)}),
                body="the exercise's statement, in the page's language",
            ),
            BlockSpec("hint", "a hint, shown after the last of the parts it helps with, opened one at a time", None,
                      options=MappingProxyType({"parts": (None, part_ids)}), inside="exercise", body="the hint"),
            BlockSpec("figure", "a figure drawn from the bank's data", slug, "the figure's id", body="the caption"),
            BlockSpec("translation-status", "each locale's translation progress, from the translation checks", None),
        )
    }
)


# --- the linter


@dataclass(frozen=True)
class Problem:
    """A defect in a chapter, at a 1-based line."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class BlockUse:
    """A well-formed block found in a chapter."""

    name: str
    argument: str | None
    options: dict
    line: int


START = re.compile(r"\s*(/{3,})[ ]*(.*?)[ ]*$")  # on a line `hooks.chapters.source` calls a block fence
HEADER = re.compile(r"([\w-]+)[ ]*(?:\|[ ]*(.*?))?$")


def scan_blocks(
    source: str, path: str, specs: MappingProxyType = SPECS, known_ids: dict[str, frozenset] | None = None,
    known_parts: dict[str, tuple] | None = None,
) -> tuple[list[BlockUse], list[Problem]]:
    """Every block in `source` and every problem with one.

    `known_ids` optionally maps a block name to the ids its argument may take
    (the bank's exercise ids, the figure ids), and `known_parts` an exercise id to its part ids (which a
    hint's `parts` may name).
    """
    scan = chapter.scan(source)
    uses: list[BlockUse] = []
    problems: list[Problem] = []
    open_blocks: list[list] = []  # [slash count, line, name, has content]

    def problem(line: int, message: str) -> None:
        problems.append(Problem(path, line, message))

    for index, line in enumerate(scan.lines):
        number = line.number
        if line.kind != chapter.BLOCK:
            if open_blocks and line.kind in (chapter.PROSE, chapter.CODE) and line.text.strip():
                open_blocks[-1][3] = True
            continue
        m = START.match(line.text)
        slashes, rest = len(m.group(1)), m.group(2)
        if not rest:  # a closing fence
            if any(o[0] == slashes for o in open_blocks):
                while open_blocks[-1][0] != slashes:
                    s, at, name, _ = open_blocks.pop()
                    problem(at, f"block '{name}' is not closed: add a line '{'/' * s}' after its content")
                    open_blocks[-1][3] = True  # the block it was in holds it: not empty
                _, at, name, has_body = open_blocks.pop()
                spec = specs.get(name)
                if spec is not None and spec.body and not has_body:
                    problem(at, f"block '{name}' is empty: write {spec.body} inside it")
                if open_blocks:
                    open_blocks[-1][3] = True
            else:
                problem(number, "closing '///' without an open block: remove it, or open the block it ends")
            continue
        header = HEADER.match(rest)
        if not header:
            problem(number, f"malformed block header '{line.text.strip()}': write '/// name | argument'")
            continue
        name, argument = header.group(1).lower(), header.group(2)
        option_lines = []
        for following in scan.lines[index + 1:]:
            if following.kind != chapter.OPTIONS:
                break
            option_lines.append(following.text)
        enclosing = {o[2] for o in open_blocks}
        open_blocks.append([slashes, number, name, False])
        spec = specs.get(name)
        if spec is None:
            problem(number, f"unknown block type '{name}': use one of {', '.join(sorted(specs))}")
            continue
        if spec.inside and spec.inside not in enclosing:
            problem(number, f"block '{name}' belongs inside an '{spec.inside}' block: move it there")
            continue
        use = _check_block(spec, argument, option_lines, number, problem, (known_ids or {}).get(name))
        if use is not None:
            uses.append(use)
            if use.name == "hint" and known_parts:
                _check_hint_parts(use, [u for u in uses if u.name == "exercise"], known_parts, problem)
    for slashes, at, name, _ in open_blocks:
        problem(at, f"block '{name}' is not closed: add a line '{'/' * slashes}' after its content")
    for at, fence in scan.unclosed:
        problem(at, f"code fence '{fence}' is never closed: the site would show the rest of the page as text; "
                    f"add a line '{fence}' after the code")
    return uses, problems


def _check_hint_parts(hint: BlockUse, exercises: list[BlockUse], known_parts: dict, problem) -> None:
    """A hint's `parts` name parts of the exercise it is in."""
    parts = known_parts.get(exercises[-1].argument) if exercises else None
    if parts is None or hint.options.get("parts") is None:
        return
    unknown = [p for p in hint.options["parts"] if p not in parts]
    if unknown:
        problem(hint.line + 1, f"block 'hint': exercise '{exercises[-1].argument}' has no part "
                               f"{', '.join(repr(p) for p in unknown)}: use its parts, {', '.join(parts)}")


def _check_block(spec, argument, option_lines, number, problem, known) -> BlockUse | None:
    ok = True
    if spec.argument is None and argument:
        problem(number, f"block '{spec.name}' takes no argument: remove '| {argument}'")
        ok = False
    elif spec.argument is not None:
        if not argument:
            problem(number, f"block '{spec.name}' needs an argument ({spec.argument_help}): '/// {spec.name} | ...'")
            ok = False
        else:
            try:
                argument = spec.argument(argument)
            except ValueError as error:
                problem(number, f"block '{spec.name}': bad argument: {error}")
                ok = False
            else:
                if known is not None and argument not in known:
                    choices = ", ".join(sorted(known))
                    problem(number, f"block '{spec.name}': unknown id '{argument}': use one of {choices}")
                    ok = False
    options = _parse_options(spec, option_lines, number, problem)
    if options is None or not ok:
        return None
    return BlockUse(spec.name, argument, options, number)


def _parse_options(spec, option_lines, number, problem) -> dict | None:
    options = {key: default for key, (default, _) in spec.options.items()}
    if not option_lines:
        return options
    try:
        given = yaml.safe_load("\n".join(line.strip() for line in option_lines))
    except yaml.YAMLError:
        given = None
    if not isinstance(given, dict):
        problem(number + 1, f"block '{spec.name}': options must be 'name: value' lines indented by four spaces")
        return None
    ok = True
    for key, value in given.items():
        if key not in spec.options:
            allowed = ", ".join(sorted(spec.options)) or "none"
            problem(number + 1, f"block '{spec.name}': unknown option '{key}' (allowed: {allowed})")
            ok = False
            continue
        try:
            options[key] = spec.options[key][1](value)
        except ValueError as error:
            problem(number + 1, f"block '{spec.name}': bad value for option '{key}': {error}")
            ok = False
    return options if ok else None
