"""Exercises and figures rendered from the grader's bank, in the page's language.

Everything shown comes from the exercise's own module (:mod:`grader.exercises`) through the
registry (:mod:`grader.bank`): the data, the parts and how to type them, the placeholders in the
copy-ready commands, the worked solution (from the reference answers) and the figure. This module
names no exercise: it turns what a module declares (prose with ``$TeX$`` and `` `code` ``,
display TeX, SVG) into HTML. A chapter only names the exercise and gives its prose.
"""

from __future__ import annotations

import html
import re
import shlex
import string

from grader import bank
from grader.arithmetic.tolerance import SIGNIFICANT_FIGURES
from grader.languages.messages import message
from grader.model import targets
from grader.model.display import prompt_markup
from grader.model.tex import tex_answer
from hooks.chapters.blocks import suffixed_ids
from hooks.chapters.labels import figure_labels
from hooks.chapters.mathml import tex_to_mathml
from hooks.checker import workspace


def exercise_ids() -> tuple[str, ...]:
    return tuple(bank.EXERCISES)


def figure_ids() -> tuple[str, ...]:
    return tuple(bank.figures())


# --- small pieces

PROSE = re.compile(r"\$([^$]+)\$|`([^`]+)`")


def math(tex: str, display: bool = False) -> str:
    return tex_to_mathml(tex, display)


def prose(text: str) -> str:
    """Text with `$...$` math and `` `code` ``: text escaped, math converted, code marked up."""
    out, last = [], 0
    for m in PROSE.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        out.append(math(m.group(1)) if m.group(1) is not None else f"<code>{html.escape(m.group(2))}</code>")
        last = m.end()
    return "".join(out) + html.escape(text[last:])


def filled(template: str, **markup: str) -> str:
    """A label's template in HTML: its own words escaped, its placeholders filled with ``markup`` (HTML
    already), so a label decides its colons and brackets around code and math ('{part}: {prompt}')."""
    out = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        out.append(html.escape(literal))
        if name is not None:
            out.append(markup[name])
    return "".join(out)


# --- the exercise


def render_exercise(exercise_id: str, locale: str, labels: dict, solutions: bool,
                    in_browser: bool = False, gate: str = "always") -> tuple[str, str]:
    """(body, solution) HTML for an exercise block; the solution is '' when solutions are off.
    ``in_browser``: each part gets an answer box and the exercise a "Check all" (hooks/checker/publish.py);
    then ``gate`` "after-attempt" has the worked solution open once every part was checked (assets/exercise.js)."""
    exercise = bank.get(exercise_id)
    label = lambda key, **kw: labels[key].format(**kw)  # noqa: E731
    data = "".join(f"<li>{prose(item)}</li>" for item in exercise.definition.data_items(exercise, locale))
    parts = []
    for part in exercise.parts:
        parts.append(
            f'<li data-part="{part.id}">'
            + filled(labels["part"], part=f"<code>{part.id}</code>", prompt=prose(prompt_markup(exercise, part, locale)))
            + f' <span class="course-exercise__points">{html.escape(label("points", n=part.points))}</span><br>'
            f'<small>{html.escape(label("type_as", form=part.form_in(locale)))}</small>'
            # in-page checker (hooks/checker/workspace.py): the part's answer box
            + (workspace.part_html(exercise.id, part.id, part.points, part.form_in(locale), labels) if in_browser else "")
            + "</li>"
        )
    first = exercise.parts[0]
    # the reading of an answer is the page's language's (a decimal comma in fr and id): the commands say it
    check = f"grader check {exercise.id} {first.id} {shlex.quote(first.example)} --lang {locale}"
    # the file says the language its answers are written in (how 0,5 reads), as the page's download does; each
    # part is left empty for the student's answer (an empty one is "not answered yet"), its form beside it
    toml = f'lang = "{locale}"\n\n[{exercise.id}]\n' + "".join(
        f'{p.id} = ""   # {" ".join(p.form_in(locale).split())}\n' for p in exercise.parts)
    body = (
        f'<p class="course-exercise__heading">{html.escape(label("data"))}</p><ul class="course-exercise__data">{data}</ul>'
        f'<p class="course-exercise__heading">{html.escape(label("to_submit"))}</p>'
        f'<ol class="course-exercise__parts">{"".join(parts)}</ol>'
        # in-page checker (hooks/checker/workspace.py): "Check all", scores, a variant's seed, the work kept
        + (workspace.exercise_html(exercise.id, locale, labels, course_parts(), figure_words(exercise, labels, locale))
           if in_browser else "") +
        f"<p>{html.escape(label('check_one'))}</p>"
        f'<pre class="course-command" id="exercise-{exercise.id}-check" data-part="{first.id}" '
        f'data-answer="{html.escape(first.example, quote=True)}"><code>{html.escape(check)}</code></pre>'
        f"<p>{html.escape(label('submit_all'))}</p>"
        f'<pre class="course-toml" id="exercise-{exercise.id}-answers"><code>{html.escape(toml)}</code></pre>'
        f'<pre class="course-command" id="exercise-{exercise.id}-submit" data-submit><code>grader submit answers.toml --lang {locale}</code></pre>'
        + workspace.install_html(labels, workspace.INSTALL_HREF) +
        f'<p class="course-exercise__tolerance">{html.escape(tolerance_text(exercise, locale))}</p>'
    )
    if not solutions:
        return body, ""
    working = "".join(math(row, display=True) for row in exercise.definition.derivation(exercise, locale))
    lines = "".join(
        f'<li data-part="{p.id}">'
        + filled(labels["part"], part=f"<code>{p.id}</code>", prompt=math(tex_answer(p.reference, locale))) + "</li>"
        for p in exercise.parts
    )
    # the nudge under it (assets/exercise.js): opened before every part was checked, it stays closed and says so
    gated = (f'<p class="course-solution__gate" data-gate="after-attempt" role="status" hidden data-note="'
             f'{html.escape(label("solution_gate", checked="{checked}", total="{total}"), quote=True)}"></p>'
             if in_browser and gate == "after-attempt" else "")
    solution = (
        f'<details class="course-solution"><summary>{html.escape(label("solution"))}</summary>'
        f"{working}<ul>{lines}</ul>{solution_figure(exercise, labels, locale)}</details>{gated}"
    )
    return body, solution


def tolerance_text(exercise, locale: str) -> str:
    """The tolerance's rule, and, where a part asks for more figures than the rule's ("(to 4 significant
    figures)" after its prompt), that it needs them: the paragraph and the parts agree."""
    rule = message("tolerance-rule", locale)
    asked = sorted({n for n in (targets.figures(exercise, p.id) for p in exercise.parts) if n > SIGNIFICANT_FIGURES})
    space = "" if rule.endswith("。") else " "    # ja and zh: no space after a full stop
    return space.join([rule, *(message("tolerance-more-figures", locale, digits=n) for n in asked)])


def course_parts() -> dict[str, list[str]]:
    """Every exercise of the course and its parts, in the course's order: what a submission may hold."""
    return {exercise.id: [p.id for p in exercise.parts] for exercise in bank.EXERCISES.values()}


class _Recorded(dict):
    """Labels that remember which of them were read."""

    def __init__(self, labels: dict):
        super().__init__(labels)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)


def figure_words(exercise, labels: dict, locale: str) -> tuple[str, dict] | None:
    """(the exercise's figure id, the words its data-only drawing uses): what the page needs to draw a variant's
    figure in its place, in the grader's hands (grader.web.figure), without the whole [figures] table."""
    figure = exercise.definition.figure
    if figure is None:
        return None
    recorded = _Recorded(figure_labels(labels))
    for narrow in (False, True):
        figure.draw(exercise, recorded, locale, False, narrow=narrow)
    return figure.id, {key: recorded[key] for key in sorted(recorded.read)}


def render_figure(figure_id: str, labels: dict, locale: str, solutions: bool = False, narrow: bool = False) -> str:
    """One <svg> for ``figure_id`` (a KeyError if no exercise draws it), with ``labels`` (the locale's
    [figures] table), in its wide or its ``narrow`` layout. The page's figure block draws the exercise's data,
    never its answers (``solutions`` False); the drawing with the answers is in the worked solution
    (:func:`solution_figure`)."""
    definition = bank.figures()[figure_id]
    return definition.figure.draw(bank.get(definition.id), labels, locale, solutions, narrow=narrow)


def both_layouts(figure_id: str, labels: dict, locale: str, solutions: bool = False) -> str:
    """The wide <svg> then the narrow one, what a figure's drawing holds: the page shows one (course.css)."""
    return "".join(render_figure(figure_id, labels, locale, solutions, narrow) for narrow in (False, True))


def solution_figure(exercise, labels: dict, locale: str) -> str:
    """The exercise's figure with its answers drawn (labelled vertices, weights, distances), for inside the
    worked solution only; its ids differ from those of the page's figure, which draws the same exercise."""
    figure = exercise.definition.figure
    if figure is None:
        return ""
    svg = both_layouts(figure.id, figure_labels(labels), locale, solutions=True)
    svg = suffixed_ids(svg, "-solution")
    return (f'<div class="course-solution__figure"><div class="course-figure__drawing" '
            f'data-search-exclude>{svg}</div></div>')
