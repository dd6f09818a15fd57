"""Exercises and figures rendered from the grader's bank, in the page's language.

Every number shown here comes from `grader.bank`: the data, the parts, the
placeholders in the copy-ready commands and the worked solution (from the
reference answers). A chapter only names the exercise and gives its prose.
"""

from __future__ import annotations

import html
import re
import shlex

import sympy

from grader import bank
from hooks import checker
from hooks.mathml import tex_to_mathml
from hooks.numbers import finite_decimal, format_number, list_separator, tex_number


def exercise_ids():
    return tuple(bank.EXERCISES)


def figure_ids():
    from hooks import figures

    return figures.FIGURES


# --- small pieces


def math(tex: str, display: bool = False) -> str:
    return tex_to_mathml(tex, display)


def prose(text: str) -> str:
    """A label with optional `$...$` math: text escaped, math converted."""
    parts = re.split(r"\$([^$]+)\$", text)
    return "".join(math(p) if i % 2 else html.escape(p) for i, p in enumerate(parts))


def tex_value(value, locale: str) -> str:
    """Exact when the value is a finite decimal or an integer, else SymPy's exact form."""
    value = sympy.nsimplify(value) if isinstance(value, float) else sympy.sympify(value)
    if value.is_Rational:
        if finite_decimal(value) is not None:
            return tex_number(value, locale)
    return sympy.latex(value)


def tex_tuple(items, locale: str) -> str:
    """(a, b, c) in TeX, separated as the locale separates items (a ';' where the decimal mark is a comma)."""
    return r"\left(" + f"{list_separator(locale)} ".join(items) + r"\right)"


def tex_vector(matrix, locale: str) -> str:
    return tex_tuple((tex_value(x, locale) for x in matrix), locale)


def approx(value, locale: str) -> str:
    """'≈ 0.6225' when the exact value is not already a short decimal."""
    value = sympy.sympify(value)
    if value.is_Rational and format_number(value, locale) == format_number(float(value), locale):
        return ""
    return r" \approx " + tex_number(float(value), locale)


def tex_answer(reference, locale: str) -> str:
    if isinstance(reference, sympy.MatrixBase):
        exact = tex_vector(reference, locale)
        if all(x.is_Rational for x in reference):
            return exact
        return exact + r" \approx " + tex_tuple((tex_number(float(x), locale) for x in reference), locale)
    if isinstance(reference, sympy.FiniteSet):
        points = sorted(reference, key=lambda p: [-float(x) for x in p])
        return r"\left\{" + ", ".join(tex_vector(p, locale) for p in points) + r"\right\}"
    return tex_value(reference, locale) + approx(reference, locale)


# --- the exercise's data, as math


def data_items(exercise, locale: str) -> list[str]:
    d, n = exercise.data, lambda v: tex_number(v, locale)
    if exercise.id == "embedding-distances":
        return [math(rf"v(\text{{{name}}}) = {tex_vector(d[name], locale)}") for name in d]
    if exercise.id == "attention-weights":
        items = [math(f"q = {tex_vector(d['q'], locale)}")]
        items += [math(f"k_{i} = {tex_vector(k, locale)}") for i, k in enumerate(d["keys"], 1)]
        return items + [math(rf"d_k = {d['d_k']}, \quad \sqrt{{d_k}} = {sympy.latex(sympy.sqrt(d['d_k']))}")]
    if exercise.id == "terrain-warmup":
        return [
            math(rf"\eta_{{\text{{peak}}}} = {n(d['peak_lr'])}"),
            math(rf"T_{{\text{{warmup}}}} = {n(d['warmup_steps'])}"),
            math(r"\eta_{\text{v2}}(s) = \eta_{\text{peak}} \cdot \frac{s}{T_{\text{warmup}}} \quad (s \le T_{\text{warmup}})"),
            math(r"\eta_{\text{v1}}(s) = \eta_{\text{peak}}"),
        ]
    if exercise.id == "reachable-vertices":
        items = [f"{math(sym)} = <code>{html.escape(src)}</code>" for sym, src in zip(d["symbols"], d["sources"])]
        items += [math(rf"{s} \ge {n(v)}") for s, v in d["floors"].items()]
        items += [math(rf"{s} \le {n(v)}") for s, v in d["caps"].items()]
        items.append(math(" + ".join(d["symbols"]) + r" = 1, \quad " + ", ".join(d["symbols"]) + r" \ge 0"))
        return items
    if exercise.id == "submanifold-dims":
        code = lambda names: ", ".join(f"<code>{html.escape(x)}</code>" for x in names)  # noqa: E731
        before, after, to_zero = math(r"s < " + n(d["warmup_until"])), math(r"s \ge " + n(d["polish_from"])), math(r"\to 0")
        return [
            math(rf"n = {d['n_sources']}"),
            f"{before}: {code(d['warmup_sources'])}",
            f"{after}: {code(d['polish_excluded'])} {to_zero}",
        ]
    raise KeyError(exercise.id)


def part_params(exercise, part, locale: str) -> dict:
    d = exercise.data
    if exercise.id == "embedding-distances":
        a, b = part.id.removeprefix("cos-").split("-")
        return {"a": a, "b": b}
    if exercise.id == "terrain-warmup":
        return {
            "step": format_number(d["step"], locale),
            "percent": format_number(d["fraction"] * 100, locale),
            "ratio_step": format_number(d["ratio_step"], locale),
        }
    if exercise.id == "submanifold-dims":
        return {
            "n": d["n_sources"],
            "until": format_number(d["warmup_until"], locale),
            "polish_from": format_number(d["polish_from"], locale),
            "excluded": ", ".join(d["polish_excluded"]),
        }
    return {}


def part_label_key(exercise, part) -> str:
    if exercise.id == "embedding-distances":
        return "parts.cosine" if part.id.startswith("cos-") else "parts.distance"
    return f"parts.{part.id}"


def form(part, labels) -> str:
    if part.kind == "vector":
        slots = ", ".join("abcdefgh"[: part.reference.rows])
        return labels["forms.vector"].format(slots=slots)
    return labels[f"forms.{part.kind}"].format()


# --- the exercise


def render_exercise(exercise_id: str, locale: str, labels: dict, solutions: bool,
                    in_browser: bool = False) -> tuple[str, str]:
    """(body, solution) HTML for an exercise block; the solution is '' when solutions are off.
    ``in_browser``: each part gets an answer box and the exercise a "Check all" (hooks/checker.py)."""
    exercise = bank.get(exercise_id)
    label = lambda key, **kw: labels[key].format(**kw)  # noqa: E731
    data = "".join(f"<li>{item}</li>" for item in data_items(exercise, locale))
    parts = []
    for part in exercise.parts:
        text = label(part_label_key(exercise, part), **part_params(exercise, part, locale))
        parts.append(
            f'<li data-part="{part.id}"><code>{part.id}</code>: {prose(text)} '
            f'<span class="course-exercise__points">({html.escape(label("points", n=part.points))})</span><br>'
            f'<small>{html.escape(label("type_as"))}: {html.escape(form(part, labels))}</small>'
            # in-page checker (hooks/checker.py): the part's answer box
            + (checker.part_html(exercise.id, part.id, part.points, form(part, labels), labels) if in_browser else "")
            + "</li>"
        )
    first = exercise.parts[0]
    check = f"grader check {exercise.id} {first.id} {shlex.quote(first.example)}"
    toml = f"[{exercise.id}]\n" + "".join(f'{p.id} = "{p.example}"\n' for p in exercise.parts)
    body = (
        f'<p class="course-exercise__heading">{html.escape(label("data"))}</p><ul class="course-exercise__data">{data}</ul>'
        f'<p class="course-exercise__heading">{html.escape(label("to_submit"))}</p>'
        f'<ol class="course-exercise__parts">{"".join(parts)}</ol>'
        # in-page checker (hooks/checker.py): "Check all", progress, a variant's seed
        + (checker.exercise_html(exercise.id, locale, labels) if in_browser else "") +
        f"<p>{html.escape(label('check_one'))}</p>"
        f'<pre class="course-command" id="exercise-{exercise.id}-check"><code>{html.escape(check)}</code></pre>'
        f"<p>{html.escape(label('submit_all'))}</p>"
        f'<pre class="course-toml" id="exercise-{exercise.id}-answers"><code>{html.escape(toml)}</code></pre>'
        f'<pre class="course-command" id="exercise-{exercise.id}-submit"><code>grader submit answers.toml</code></pre>'
        f'<p class="course-exercise__tolerance">{html.escape(label("tolerance"))}</p>'
    )
    if not solutions:
        return body, ""
    lines = "".join(
        f'<li data-part="{p.id}"><code>{p.id}</code>: {math(tex_answer(p.reference, locale))}</li>'
        for p in exercise.parts
    )
    solution = (
        f'<details class="course-solution"><summary>{html.escape(label("solution"))}</summary>'
        f"{derivation(exercise, locale)}<ul>{lines}</ul></details>"
    )
    return body, solution


def derivation(exercise, locale: str) -> str:
    """The working behind the answers, where it is more than the answer itself."""
    d = exercise.data
    if exercise.id == "embedding-distances":
        names = list(d)
        rows = []
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                diff = d[a] - d[b]
                squares = sum(x**2 for x in diff)
                rows.append(
                    rf"\lVert v(\text{{{a}}}) - v(\text{{{b}}}) \rVert = \sqrt{{{tex_value(squares, locale)}}}"
                    rf" = {sympy.latex(sympy.sqrt(squares))}{approx(sympy.sqrt(squares), locale)}"
                )
        return "".join(math(row, display=True) for row in rows)
    if exercise.id == "attention-weights":
        scaled = [sympy.Matrix(d["q"]).dot(k) / sympy.sqrt(d["d_k"]) for k in d["keys"]]
        softmax = r"w_i = \frac{e^{s_i}}{\sum_j e^{s_j}}, \quad s = " + tex_vector(scaled, locale)
        return math(softmax, display=True)
    return ""
