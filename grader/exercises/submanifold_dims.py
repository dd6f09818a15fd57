"""Lesson 5, "Reading the submanifold": the dimensions of the simplices a curriculum walks on.

Data: ``{"n_sources": Integer, "warmup_sources": names, "warmup_until": Integer,
"polish_from": Integer, "polish_excluded": names}``. k sources in play span a simplex of
dimension k - 1.
"""
from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

from sympy import Integer

from grader.languages.numerals import Series, format_number, format_value, tex_number
from grader.model import drawing as d
from grader.model import geometry as g
from grader.model.exercise import Definition, Figure, Part

FORM = "form.whole"


def parts(data, lesson: bool):
    n, warm = data["n_sources"], len(data["warmup_sources"])
    return (
        Part("full-dim", 1, "integer", FORM, "4", g.simplex_dimension(n), params=(("n", n),)),
        Part("warmup-dim", 1, "integer", FORM, "4", g.simplex_dimension(warm),
             params=(("until", data["warmup_until"]),)),
        Part("warmup-pinned", 1, "integer", FORM, "4", n - warm, params=(("n", n),)),
        Part("polish-dim", 1, "integer", FORM, "4", g.simplex_dimension(n - len(data["polish_excluded"])),
             params=(("polish_from", data["polish_from"]), ("excluded", Series(data["polish_excluded"])))),
    )


def mistakes(ex):
    data = ex.data
    n, warm, out = data["n_sources"], len(data["warmup_sources"]), len(data["polish_excluded"])
    return {
        "full-dim": [("dim-off-by-one", n), ("dim-off-by-one", n - 2)],
        "warmup-dim": [("dim-off-by-one", warm), ("pinned-for-dim", n - warm)],
        "warmup-pinned": [("active-for-pinned", warm), ("dims-subtracted", n - (warm - 1))],
        "polish-dim": [("dim-off-by-one", n - out), ("exclusion-ignored", n - 1), ("exclusion-ignored", n)],
    }


# --- variants: dimensions of the sub-simplices ----------------------------

WARMUP_POOL = ("hermes3-general", "hermes3-creative", "hermes3-roleplay", "chat", "smoltalk", "oasst", "gutenberg")
EXCLUDED_POOL = ("repo-docs", "repo-docstrings", "dictionary")


def draw(draw):
    return MappingProxyType({
        "n_sources": Fraction(draw.integer(12, 20)),
        "warmup_sources": draw.sample(WARMUP_POOL, draw.integer(3, 7)),
        "warmup_until": Fraction(5000 * draw.integer(2, 6)),
        "polish_from": Fraction(8000 * draw.integer(12, 15)),
        "polish_excluded": draw.sample(EXCLUDED_POOL, draw.integer(1, 3))})


def invariants(data) -> list[str]:
    out = []
    n, warm = int(data["n_sources"]), len(data["warmup_sources"])
    out_count = len(data["polish_excluded"])
    if set(data["warmup_sources"]) & set(data["polish_excluded"]):
        out.append("excluded sources are not warmup sources")
    if not (3 <= warm <= n - 3 and 1 <= out_count <= 3 and n <= 20):
        out.append("3 <= warmup sources <= n - 3, 1 to 3 excluded, n <= 20")
    answers = [n - 1, warm - 1, n - warm, n - out_count - 1]
    if len(set(answers)) != 4:
        out.append("the four answers differ")
    if 4 in answers or n - warm in (warm, warm - 1):
        out.append("no answer equals the example 4 or another part's count")
    if not data["warmup_until"] < data["polish_from"]:
        out.append("the warmup ends before the polish starts")
    return out


# --- what the site shows -------------------------------------------------------

def data_items(ex, locale: str):
    data = ex.data
    code = lambda names: format_value(Series(f"`{name}`" for name in names), locale)  # noqa: E731
    return [
        f"$n = {tex_number(data['n_sources'], locale)}$",
        f"$s < {tex_number(data['warmup_until'], locale)}$: {code(data['warmup_sources'])}",
        rf"$s \ge {tex_number(data['polish_from'], locale)}$: {code(data['polish_excluded'])} $\to 0$",
    ]


def figure(ex, labels, locale: str, solutions: bool, narrow: bool = False) -> str:
    """One row of cells per phase (warmup, full firehose, polish), one cell per source coordinate:
    filled when in play. With solutions, each row's dimension."""
    data = ex.data
    n, warmup_sources, polish_excluded = int(data["n_sources"]), data["warmup_sources"], data["polish_excluded"]
    warm_dim, full_dim, polish_dim = (ex.part(p).reference for p in ("warmup-dim", "full-dim", "polish-dim"))
    dropped = [s for s in polish_excluded if s not in warmup_sources]
    cells = list(warmup_sources) + [None] * (n - len(warmup_sources) - len(dropped)) + dropped
    W, x0 = (d.NARROW, 16) if narrow else (640, 24)
    size = (W - 2 * x0) / n
    rows = [("row_warmup", {"until": format_number(data["warmup_until"], locale)}, lambda c: c in warmup_sources, 60, warm_dim),
            ("row_full", {}, lambda c: True, 236, full_dim),
            ("row_polish", {"start": format_number(data["polish_from"], locale)}, lambda c: c not in polish_excluded, 312,
             polish_dim)]
    body = []
    for key, params, in_play, y, dim in rows:
        # on a phone, the row's name over its dimension: side by side they would meet
        body.append(d.text(x0, y - (28 if narrow else 10), labels[key].format(**params), font_weight="600"))
        if solutions:
            body.append(d.text(W - x0, y - 10, labels["dimension"].format(n=format_number(dim, locale)), "end",
                               font_weight="700", fill=d.ACCENT))
        for i, cell in enumerate(cells):
            x = x0 + i * size
            body.append(d.rect(x + 3, y, size - 6, size - 6, 0.75 if in_play(cell) else 0.0, width=1.2))
            if key == "row_polish" and cell in polish_excluded:
                body += [d.line(x + 3, y, x + size - 3, y + size - 6, width=1.2),
                         d.line(x + size - 3, y, x + 3, y + size - 6, width=1.2)]
            if key == "row_warmup" and cell in warmup_sources:
                cx, cy = x + size / 2, y + size + 4
                body.append(d.text(cx, cy, cell, size=12, font_family=d.MONO, transform=f"rotate(40 {d.coord(cx)} {d.coord(cy)})"))
    marked = [x0 + i * size + size / 2 for i, c in enumerate(cells) if c in polish_excluded]
    ybase = 312 + size
    if marked:
        body += [d.line(min(marked) - 8, ybase, min(marked) - 8, ybase + 6, width=1),
                 d.line(max(marked) + 8, ybase, max(marked) + 8, ybase + 6, width=1),
                 d.line(min(marked) - 8, ybase + 6, max(marked) + 8, ybase + 6, width=1),
                 d.text(max(marked) + 8, ybase + 24, labels["excluded"].format(names=format_value(Series(polish_excluded), locale)), "end", 12)]
    ly = ybase + 52
    note = d.wrap(labels["cells_note"], W - 2 * x0, 12)
    body += [d.rect(x0, ly - 11, 13, 13, 0.75, width=1.2), d.text(x0 + 20, ly, labels["in_play"], size=12),
             d.rect(x0 + 180, ly - 11, 13, 13, 0.0, width=1.2), d.text(x0 + 200, ly, labels["pinned"], size=12),
             *(d.text(x0, ly + 24 + 17 * i, row, size=12) for i, row in enumerate(note))]
    ly += 17 * len(note)
    texts = {"n": n, "warm_count": len(warmup_sources), "warm_sources": format_value(Series(warmup_sources), locale),
             "pinned": n - len(warmup_sources), "excluded": format_value(Series(polish_excluded), locale),
             "polish_count": sum(1 for c in cells if c not in polish_excluded)}
    if solutions:
        desc = labels["alt_warmup_subsimplex"].format(**texts, full_dim=full_dim, warm_dim=warm_dim, polish_dim=polish_dim)
    else:
        desc = labels["alt_subsimplex_cells"].format(**texts)
    return d.svg("warmup-subsimplex", W, ly + 40, labels["title_warmup_subsimplex"], desc, body, narrow)


EXERCISE = Definition(
    id="submanifold-dims",
    lesson=5,
    data=MappingProxyType({"n_sources": Integer(16),
                           "warmup_sources": ("hermes3-general", "hermes3-creative", "hermes3-roleplay", "chat",
                                              "smoltalk", "oasst", "gutenberg"),
                           "warmup_until": Integer(20000), "polish_from": Integer(112000),
                           "polish_excluded": ("repo-docs", "repo-docstrings")}),
    parts=parts,
    draw=draw,
    invariants=invariants,
    mistakes=mistakes,
    data_items=data_items,
    figure=Figure("warmup-subsimplex", figure),
    message_keys=("dim-off-by-one", "pinned-for-dim", "active-for-pinned", "dims-subtracted", "exclusion-ignored"),
)
