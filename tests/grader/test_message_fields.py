"""FIELDS (grader/languages/messages.py), the names a catalog message may hold as ``{field}``, is checked
against the code: the names of the parameters grader/ and hooks/ actually pass to a message, read from the
source (an ast walk), so a new parameter cannot be forgotten there, and no stale name stays.

A message maker is a function of grader/ (or a class, by its ``__init__``) that takes a ``key`` and
``**params``: message(), finding(), fail(), file_error(), BatchError, Refused, the report's w()... Its call's
keyword arguments, but those it names itself (``lang``, ``at_line``, ``also``), are a message's fields; so are
the names in a literal ``params=(("name", value), ...)`` (a Part's prompt, a Finding's parameters).
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from grader.languages.messages import FIELDS, catalog, placeholders, rule_params

ROOT = Path(__file__).resolve().parents[2]


@cache   # each file parsed once per run (read, never changed)
def sources(*folders: str) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def makers(trees: dict[Path, ast.Module]) -> dict[tuple[str, str], frozenset[str]]:
    """{(module, name): the parameters it names itself} for every message maker of grader/."""
    found = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
                named, function = node.name, init
            elif isinstance(node, ast.FunctionDef) and node.name != "__init__":
                named, function = node.name, node
            else:
                continue
            if function is None or function.args.kwarg is None:
                continue
            args = function.args
            own = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
            if "key" in own:
                found[(module_name(path), named)] = frozenset(own)
    return found


def callee(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else \
        call.func.attr if isinstance(call.func, ast.Attribute) else None


def visible(tree: ast.Module, module: str, known: dict[tuple[str, str], frozenset[str]]) -> dict[str, frozenset[str]]:
    """The message makers a module can call by name: its own and those it imports from their module."""
    names = {name: own for (where, name), own in known.items() if where == module}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (node.module, alias.name) in known:
                    names[alias.asname or alias.name] = known[(node.module, alias.name)]
    return names


@cache
def passed_fields() -> dict[str, list[str]]:
    """{field: the places (file:line) that pass it to a message}."""
    trees = sources("grader", "hooks")
    known = makers({path: tree for path, tree in trees.items() if module_name(path).startswith("grader.")})
    places: dict[str, list[str]] = {}
    for path, tree in trees.items():
        names = visible(tree, module_name(path), known)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            own = names.get(callee(node))
            for keyword in node.keywords:
                if keyword.arg is None:
                    continue
                if own is not None and keyword.arg not in own:
                    places.setdefault(keyword.arg, []).append(where)
                if keyword.arg == "params" and isinstance(keyword.value, (ast.Tuple, ast.List)):
                    for pair in keyword.value.elts:
                        if isinstance(pair, ast.Tuple) and pair.elts and isinstance(pair.elts[0], ast.Constant):
                            places.setdefault(pair.elts[0].value, []).append(where)
    return places


def test_every_field_the_code_passes_is_in_FIELDS():
    missing = {name: where for name, where in passed_fields().items() if name not in FIELDS}
    assert not missing, ("parameters passed to a message that FIELDS in grader/languages/messages.py lacks "
                         f"(add them there): {missing}")


def test_FIELDS_holds_no_name_that_nothing_uses():
    """A name no code passes and no English message holds is stale (a parameter renamed or removed)."""
    used = set(passed_fields()) | set(rule_params())
    english = set().union(*(placeholders(template) for template in catalog("en").values()))
    assert sorted(FIELDS - used - english) == []


def test_the_walk_finds_the_message_makers_and_their_fields():
    """The walk itself: it knows message() and finding() and the wrappers, and reads their calls."""
    known = makers(sources("grader"))
    for maker in [("grader.languages.messages", "message"), ("grader.model.exercise", "finding"),
                  ("grader.reading.errors", "fail"), ("grader.grading.submission", "file_error"),
                  ("grader.grading.folder", "BatchError"), ("grader.cli.gradescope", "Refused")]:
        assert maker in known
    assert "lang" in known[("grader.languages.messages", "message")]
    places = passed_fields()
    assert "lang" not in places and "also" not in places and "at_line" not in places
    assert any(p.startswith("grader/exercises/terrain_warmup.py:") for p in places["ratio_step"])   # a Part's params
    assert any(p.startswith("hooks/") for p in places["digits"])          # hooks' own calls of message()
