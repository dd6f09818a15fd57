"""Exercises and figures on the built site come from the grader's bank, in every locale."""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from grader import bank
from hooks.chapters.blockspec import scan_blocks
from tests.conftest import ROOT, run_mkdocs_build, wait_seconds
from tests.grader.test_bank import chapters_exercises
from tests.site.test_browser import source_of
from tests.site.test_build import LOCALES, page

LESSON_OF = chapters_exercises()   # exercise id -> the chapter that holds it (every exercise of the registry)
FIGURE_OF = {d.id: d.figure.id for d in bank.definitions() if d.figure is not None}
DECIMAL_COMMA = {"fr", "id"}
GRADER = shutil.which("grader", path=str(Path(sys.executable).parent)) or "grader"


def section(html_text: str, exercise_id: str) -> str:
    start = html_text.index(f'id="exercise-{exercise_id}"')
    return html_text[start: html_text.index("</section>", start)]


def hints_in_chapter(locale: str, lesson: str, exercise_id: str) -> int:
    """How many `/// hint` blocks the exercise's block holds in the chapter the locale's page is built from."""
    uses, _ = scan_blocks(source_of(locale, lesson).read_text(encoding="utf-8"), lesson)
    starts = [use.line for use in uses if use.name == "exercise"]
    start = next(use.line for use in uses if use.name == "exercise" and use.argument == exercise_id)
    end = min([line for line in starts if line > start], default=float("inf"))
    return sum(1 for use in uses if use.name == "hint" and start < use.line < end)


def mathml_numbers(fragment: str, locale: str) -> list[Fraction]:
    """Every <mn> number in a fragment, read back in the locale's number format."""
    values = []
    for raw in re.findall(r"<mn>([^<]+)</mn>", fragment):
        raw = html.unescape(raw).replace("\u202f", "").replace("\u2009", "")
        raw = raw.replace(".", "").replace(",", ".") if locale in DECIMAL_COMMA else raw.replace(",", "")
        values.append(Fraction(raw))
    return values


def bank_numbers(exercise) -> list[Fraction]:
    """The numbers an exercise's data holds, straight from the bank."""
    found = []

    def walk(value):
        if isinstance(value, (sympy.MatrixBase, tuple, list)):
            for item in value:
                walk(item)
        elif hasattr(value, "values"):
            for item in value.values():
                walk(item)
        elif isinstance(value, sympy.Basic) and value.is_Rational:
            found.append(Fraction(int(value.p), int(value.q)))

    walk(exercise.data)
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("exercise_id", list(LESSON_OF))
def test_rendered_data_is_the_banks(built_site, locale, exercise_id):
    exercise = bank.get(exercise_id)
    block = section(page(built_site, locale, LESSON_OF[exercise_id]), exercise_id)
    hints = hints_in_chapter(locale, LESSON_OF[exercise_id], exercise_id)
    assert hints >= 1, f"{exercise_id} has no hint in its chapter"
    assert block.count('class="course-exercise__data"') == 1
    assert block.count('class="course-solution"') == 1
    assert block.count('class="course-hint"') == hints
    order = [m for m in re.findall(r'class="course-(exercise__data|hint|solution)"', block)]
    assert order == ["exercise__data", *["hint"] * hints, "solution"]
    data = block.split('class="course-exercise__data">', 1)[1].split("</ul>", 1)[0]
    shown = mathml_numbers(data, locale)
    for value in bank_numbers(exercise):
        if exercise_id == "terrain-warmup" and value in (exercise.data["step"], exercise.data["fraction"], exercise.data["ratio_step"]):
            continue  # these are asked in the parts, not listed as data
        assert value in shown, f"{value} from the bank is not in the rendered data of {exercise_id} ({locale})"
    parts = re.findall(r'<li data-part="([^"]+)"><code>', block.split("course-solution")[0])
    assert parts == [p.id for p in exercise.parts]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("exercise_id", list(FIGURE_OF))
def test_figure_parses_and_is_drawn_from_the_bank(built_site, locale, exercise_id):
    html_text = page(built_site, locale, LESSON_OF[exercise_id])
    figure = html_text.split(f'id="figure-{FIGURE_OF[exercise_id]}"', 1)[1].split("</figure>", 1)[0]
    svg = ET.fromstring(figure[figure.index("<svg"): figure.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.find(f"{ns}title") is not None and svg.find(f"{ns}desc").text
    # the page's figure draws the data; the drawing with the answers is inside the worked solution
    solution = section(html_text, exercise_id).split('<details class="course-solution">', 1)[1].split("</details>", 1)[0]
    answers = ET.fromstring(solution[solution.index("<svg"): solution.index("</svg>") + 6])
    assert answers.find(f"{ns}title").text == svg.find(f"{ns}title").text
    if exercise_id == "reachable-vertices":
        vertices = lambda root: {tuple(Fraction(x) for x in el.get("data-vertex").split(","))  # noqa: E731
                                 for el in root.iter() if el.get("data-vertex")}
        expected = {tuple(Fraction(int(x.p), int(x.q)) for x in point) for point in bank.get(exercise_id).parts[0].reference}
        assert vertices(answers) == expected and vertices(svg) == set()


@pytest.mark.parametrize("exercise_id", list(LESSON_OF))
@pytest.mark.parametrize("locale", ["en", "ja", "fr"])
def test_copy_ready_commands_are_accepted_by_the_cli(built_site, tmp_path, locale, exercise_id):
    block = section(page(built_site, locale, LESSON_OF[exercise_id]), exercise_id)
    commands = [html.unescape(c) for c in re.findall(r'<pre class="course-command"[^>]*><code>(.*?)</code></pre>', block, re.S)]
    toml = html.unescape(re.search(r'<pre class="course-toml"[^>]*><code>(.*?)</code></pre>', block, re.S).group(1))
    (tmp_path / "answers.toml").write_text(toml, encoding="utf-8")
    assert commands[0].startswith(f"grader check {exercise_id} ") and commands[0].endswith(f" --lang {locale}")
    assert commands[1] == f"grader submit answers.toml --lang {locale}"
    for command in commands:
        argv = shlex.split(command)
        result = subprocess.run([GRADER, *argv[1:]], cwd=tmp_path, capture_output=True, text=True,
                                timeout=wait_seconds(15))
        assert result.returncode in (0, 1), f"{command}: {result.stdout}{result.stderr}"
        assert "Traceback" not in result.stderr


def test_solutions_are_in_the_default_build(built_site):
    assert 'class="course-solution"' in page(built_site, "en", "02-attention-projection")


def build_without_solutions(folder: Path) -> Path:
    """The real site, every locale, with COURSE_SOLUTIONS=off."""
    result = run_mkdocs_build(ROOT / "mkdocs.yml", folder / "site", env={"COURSE_SOLUTIONS": "off"})
    assert result.returncode == 0, result.stderr[-3000:]
    return folder / "site"


@pytest.fixture(scope="module")
def site_without_solutions(shared_builds):
    """That site, built once per run (whichever worker asks first)."""
    return shared_builds.get("site-solutions-off", build_without_solutions)


def test_solutions_off_leaves_no_solution_anywhere(built_site, site_without_solutions):
    solution_fragments = {}  # page -> math found only in its solution
    for path in built_site.rglob("*.html"):
        text = path.read_text("utf-8")
        blocks = re.findall(r'<details class="course-solution">(.*?)</details>', text, re.S)
        outside = re.sub(r'<details class="course-solution">.*?</details>', "", text, flags=re.S)
        only_there = {m for b in blocks for m in re.findall(r"<math.*?</math>", b, re.S) if m not in outside}
        if only_there:
            solution_fragments[path.relative_to(built_site)] = only_there
    assert len(solution_fragments) >= 26  # every exercise page of every locale
    index = (site_without_solutions / "search" / "search_index.json").read_text("utf-8")
    for path in site_without_solutions.rglob("*.html"):
        text = path.read_text("utf-8")
        assert "course-solution" not in text, path
        leaked = [f for f in solution_fragments.get(path.relative_to(site_without_solutions), ()) if f in text]
        assert leaked == [], f"{path} still holds solution math"
    docs = json.loads(index)["docs"]
    assert not any("Worked solution" in d["text"] or "Solution détaillée" in d["text"] for d in docs)
