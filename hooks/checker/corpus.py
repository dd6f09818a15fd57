"""The answers the in-page checker is proved on, and traced over: one corpus, two users.

- tests/site/test_checker.py checks every one on the page and with `grader check`: the verdicts must
  be the same, word for word;
- the build's import trace (hooks/checker/trace.py) runs them in Pyodide to find which modules the
  grader imports for a first plain-number verdict (:func:`first_cases`) and for the rest
  (:func:`corpus`), so the site packs those first and the others apart.

The corpus: every example of `grader check` in the manual (the README and its pages, hooks/checker/manual.py), one answer per named mistake, equivalent exact
forms, decimals at and around the tolerance, malformed and hostile answers. It is drawn from the bank (parts
picked by kind, :func:`first_part`), so it names no exercise: a new or renamed exercise is in it as it is.
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import sympy

from grader import bank
from grader.model import targets
from grader.reading.show import show
from hooks.checker import manual

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Case:
    exercise: str
    part: str
    answer: str
    lang: str = "en"
    seed: str | None = None
    why: str = ""

    def __str__(self) -> str:
        seed = f" --seed {self.seed}" if self.seed else ""
        return f"[{self.why}] {self.exercise} {self.part} {self.answer!r} --lang {self.lang}{seed}"


def readme_cases() -> list[Case]:
    """Every `$ grader check ...` example of the manual (the README and its pages), with its language and seed,
    each once."""
    cases = []
    for line in "\n".join(manual.texts(ROOT).values()).splitlines():
        match = re.match(r"\$ (?:LANG=(\w\w)\S* )?grader check (.*)$", line)
        if not match:
            continue
        argv = shlex.split(match.group(2), comments=True)
        options = {argv[i]: argv[i + 1] for i, arg in enumerate(argv) if arg.startswith("--")}
        words = [a for i, a in enumerate(argv) if not a.startswith("--") and not argv[i - 1].startswith("--")]
        cases.append(Case(*words, lang=options.get("--lang", match.group(1) or "en"),
                          seed=options.get("--seed"), why="readme"))
    assert len(cases) >= 8, f"the manual's check examples were not found in {', '.join(manual.FILES)}"
    return list(dict.fromkeys(cases))


def decimal(value, digits: int) -> str:
    return str(sympy.N(value, digits))


def plain(value) -> str:
    """A part's reference written as a reader types a plain answer: decimals, 4 significant digits."""
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return "(" + ", ".join(plain(x) for x in value) + ")"
    return str(value) if value.is_Integer else decimal(value, 4)


def number_cases(ex, part) -> list[Case]:
    """Exact forms that equal the reference, and decimals at, inside and outside the tolerance."""
    ref, cases = part.reference, []
    add = lambda answer, why, lang="en": cases.append(Case(ex.id, part.id, answer, lang, why=why))  # noqa: E731
    if part.kind in ("real", "integer"):
        add(str(ref), "exact")
        if ref != 0:
            add(f"1/({1 / ref})", "equivalent exact")
            add(f"2*({ref})/2", "equivalent exact")
        if not ref.is_Integer:
            for factor in ("1", "1.004", "0.996", "1.005", "0.995", "1.006", "0.994", "1.02"):
                add(decimal(ref * sympy.Rational(factor), 12), f"decimal x{factor}")
            add(decimal(ref, 4), "4 significant digits")
            add(decimal(ref, 2), "2 significant digits")
            add(decimal(ref, 4).replace(".", ","), "decimal comma", "fr")
        else:
            add(f"{ref}.0", "a whole number as a decimal")
            add(str(ref + 1), "off by one")
    elif part.kind == "vector":
        add("(" + ", ".join(map(str, ref)) + ")", "exact")
        add("[" + ", ".join(map(str, ref)) + "]", "exact, brackets")
        add("(" + ", ".join(decimal(x, 4) for x in ref) + ")", "decimals")
        add("(" + ", ".join(decimal(x, 2) for x in ref) + ")", "decimals, too few digits")
        add("(" + " ; ".join(decimal(x, 4).replace(".", ",") for x in ref) + ")", "decimal comma", "fr")
        add("(" + ", ".join(map(str, list(ref)[::-1])) + ")", "reversed")
        add("(" + ", ".join(map(str, list(ref)[:-1])) + ")", "one entry short")
    else:
        points = ["(" + ", ".join(map(str, p)) + ")" for p in ref]
        add("{" + ", ".join(points) + "}", "exact")
        add("{" + ", ".join(points[::-1]) + "}", "another order")
        add("{" + ", ".join(points[:-1]) + "}", "a vertex missing")
        add("{" + ", ".join(points + points[:1]) + "}", "a vertex twice")
        add("{(1, 0, 0), (0, 1, 0), (0, 0, 1)}", "the whole simplex's corners")
    return cases


MALFORMED = ["", "   ", "(1, 2", "sqrt(", "1 +* 2", "x", "e.real", "1/0", "import os", "__import__('os')",
             "lambda: 1", "0x0f", "1_5", "[x for x in (1,)]", "1e999999", "９", "\x1b[1A", "-1/2", "--lang"]
HOSTILE = ["9**9**9**9", "10**10**10**10", "(" * 300 + "1" + ")" * 300, "1" * 5000, "2^2^2^2^2^2^2",
           "'; DROP TABLE answers; --", "<script>alert(1)</script>"]


def corpus() -> list[Case]:
    cases = readme_cases()
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            cases += [Case(ex.id, part.id, show(value if part.kind == "vector" else value[0]), why=f"mistake {key}")
                      for key, value in targets.mistakes(ex, part.id)]
            cases += number_cases(ex, part)
    number, vector = first_part("real"), first_part("vector")   # from the bank: no exercise is named here
    for ex, part in (number, vector):
        cases += [Case(ex.id, part.id, answer, why="malformed") for answer in MALFORMED]
        cases += [Case(ex.id, part.id, answer, why="hostile") for answer in HOSTILE]
    (ex, part), (vex, vpart) = number, vector
    comma = lambda value, digits: decimal(value, digits).replace(".", ",")  # noqa: E731
    cases += [Case(ex.id, part.id, comma(part.reference, 5), "id", why="decimal comma"),
              Case(vex.id, vpart.id, "(" + ", ".join(comma(x, 2) for x in vpart.reference) + ")", "fr",
                   why="decimal comma in a vector"),
              Case(vex.id, vpart.id, "(0,5,0,5,0)", "fr", why="commas that read two ways"),
              Case(ex.id, part.id, "e^-1/2", "en", why="an ambiguous notation"),
              Case(ex.id, part.id, "０．３", "ja", why="full-width digits"),
              Case(ex.id, part.id, "0.3", "ja", why="ja"),
              Case(ex.id, part.id, "0,3", "ja", why="a comma where ja has none")]
    return list(dict.fromkeys(cases))


def first_part(kind: str):
    """(exercise, part): the bank's first part of ``kind`` whose reference has decimals that never end (an
    irrational entry: what a reader rounds), or its first of that kind."""
    parts = [(ex, part) for ex in bank.EXERCISES.values() for part in ex.parts if part.kind == kind]
    rational = lambda value: all(x.is_Rational for x in (value if kind == "vector" else [value]))  # noqa: E731
    return next(((ex, part) for ex, part in parts if not rational(part.reference)), parts[0])


def first_cases(locales) -> list[Case]:
    """What a first verdict is, in each of ``locales``: every part of every exercise answered right with a
    plain number, a vector or a set of plain numbers (what the judge decides without SymPy)."""
    cases = []
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            if part.kind == "set":
                answer = "{" + ", ".join(plain(tuple(point)) for point in part.reference) + "}"
            else:
                answer = plain(part.reference)
            cases += [Case(ex.id, part.id, answer, lang, why="first") for lang in locales]
    return cases


def grader_test_answers(folder: Path = ROOT / "tests" / "grader") -> list[str]:
    """Every string of the grader's tests (tests/grader/test_*.py, read, not run) that could be an answer:
    one line, a digit in it, at most 120 characters. Most are; the others are refused quickly."""
    found = set()
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if 0 < len(text) <= 120 and "\n" not in text and re.search(r"\d", text):
                    found.add(text)
    return sorted(found)


def one_part_of_each_kind() -> list[tuple[str, str]]:
    """(exercise id, part id): the first part of each kind (integer, real, vector, set) in the bank."""
    kinds = {}
    for ex in bank.EXERCISES.values():
        for part in ex.parts:
            kinds.setdefault(part.kind, (ex.id, part.id))
    return list(kinds.values())
