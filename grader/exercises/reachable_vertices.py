"""Lesson 4, "Walking the reachable region": the vertices of a simplex cut by a floor and a cap.

Data: ``{"sources": 3 names, "symbols": ("H", "G", "D"), "floors": {symbol: Rational},
"caps": {symbol: Rational}}``; the region is the part of the simplex H + G + D = 1, all >= 0,
that satisfies every floor and cap.
"""
from __future__ import annotations

import math
from fractions import Fraction
from types import MappingProxyType

from sympy import Rational

from grader.arithmetic import compare
from grader.languages.numerals import finite_decimal, tex_number
from grader.model import drawing as d
from grader.model import geometry as g
from grader.model.exercise import Definition, Figure, Part, finding


def parts(data, lesson: bool):
    vertices = g.region_vertices(data["symbols"], data["floors"], data["caps"])
    return (Part("vertices", len(vertices), "set", "form.points", "{(1/3, 1/3, 1/3)}",
                 g.point_set(vertices),
                 params=(("point", "(" + ", ".join(data["symbols"]) + ")"),)),)


def point_note(ex, point: tuple):
    """Why a student point that matched no vertex is wrong: the constraint it breaks, or that it is
    a corner of the whole simplex the floor or cap removes, or inside the region but not a vertex."""
    symbols = ex.data["symbols"]
    if len(point) != len(symbols):
        return finding("wrong-point-size", point=point, expected=len(symbols),
                       form="(" + ", ".join(symbols) + ")")
    broken = g.violations(point, symbols, ex.data["floors"], ex.data["caps"])
    if not broken:
        return finding("not-a-vertex", point=point)
    kind, symbol, bound = broken[0]      # 'sum' first: off the simplex altogether
    corners = g.simplex_vertices(len(symbols))
    key = "removed-simplex-vertex" if any(compare.same_point(point, c) for c in corners) \
        else "point-outside-region"
    return finding(key, point=point, constraint=f"key:constraint-{kind}", symbol=symbol, bound=bound)


# --- variants: a floor and a cap that both bind ---------------------------

FLOORS = (Fraction(1, 5), Fraction(1, 4), Fraction(1, 3), Fraction(2, 5), Fraction(1, 2), Fraction(3, 5))
CAPS = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 4), Fraction(1, 3), Fraction(2, 5))


def draw(draw):
    return MappingProxyType({
        "sources": ("hermes3-general", "gutenberg", "dictionary"), "symbols": ("H", "G", "D"),
        "floors": MappingProxyType({"H": draw.choice(FLOORS)}),
        "caps": MappingProxyType({"D": draw.choice(CAPS)})})


def invariants(data) -> list[str]:
    out = []
    symbols, floors, caps = data["symbols"], data["floors"], data["caps"]
    if len(floors) != 1 or len(caps) != 1:
        return ["one floor and one cap"]
    vertices = g.region_vertices(symbols, floors, caps)
    if len(vertices) != 4:
        out.append("the region is a quadrilateral (4 vertices)")
    (fs, f), = floors.items()
    (cs, c), = caps.items()
    if not any(v[symbols.index(fs)] == f for v in vertices):
        out.append("the floor is tight at a vertex")
    if not any(v[symbols.index(cs)] == c for v in vertices):
        out.append("the cap is tight at a vertex")
    if g.region_vertices(symbols, {}, caps) == vertices:
        out.append("the floor binds: without it the region is larger")
    if g.region_vertices(symbols, floors, {}) == vertices:
        out.append("the cap binds: without it the region is larger")
    if any(x.denominator > 20 for v in vertices for x in v):
        out.append("readable vertices: denominators up to 20")
    return out


# --- what the site shows -------------------------------------------------------

def data_items(ex, locale: str):
    data = ex.data
    items = [f"${symbol}$ = `{source}`" for symbol, source in zip(data["symbols"], data["sources"])]
    items += [rf"${s} \ge {tex_number(v, locale)}$" for s, v in data["floors"].items()]
    items += [rf"${s} \le {tex_number(v, locale)}$" for s, v in data["caps"].items()]
    items.append("$" + " + ".join(data["symbols"]) + r" = 1, \quad " + ", ".join(data["symbols"]) + r" \ge 0$")
    return items


def figure(ex, labels, locale: str, solutions: bool, narrow: bool = False) -> str:
    """The simplex of three weights as a triangle and the floor and cap lines; with solutions, the
    region they cut out and its labelled vertices."""
    sources, symbols, floors, caps = (ex.data[k] for k in ("sources", "symbols", "floors", "caps"))
    W, H, side, cx, top = (d.NARROW, 330, 220, 180, 56) if narrow else (640, 450, 380, 320, 56)
    corners = [(cx, top), (cx - side / 2, top + side * math.sqrt(3) / 2), (cx + side / 2, top + side * math.sqrt(3) / 2)]
    at = lambda b: tuple(sum(float(w) * c[i] for w, c in zip(b, corners)) for i in (0, 1))  # noqa: E731
    body = [d.polygon(corners, width=1.5)]
    # each corner's source: on a phone, the bottom ones further under their corner, towards the middle
    beside = (((-12, 4, "end"), (-10, 40, "start"), (10, 40, "end")) if narrow else
              ((-12, 4, "end"), (24, 24, "end"), (-24, 24, "start")))
    for (x, y), symbol, source, (dx, dy, anchor) in zip(corners, symbols, sources, beside):
        body.append(d.text(x + dx, y + dy, f"{symbol} = {source}", anchor, font_weight="600"))
    points = [tuple(v) for v in ex.part("vertices").reference]
    middle, constraints = at((Fraction(1, 3),) * 3), []
    centre = tuple(sum(at(p)[i] for p in points) / len(points) for i in (0, 1)) if solutions else middle
    for bounds, key in ((floors, "floor"), (caps, "cap")):
        for symbol, value in bounds.items():
            i = list(symbols).index(symbol)
            ends = [at([value if k == i else (1 - value if k == j else 0) for k in range(3)]) for j in range(3) if j != i]
            constraints.append(labels[key].format(symbol=symbol, value=d.num(value, locale)))
            x, y = max(ends, key=lambda p: math.hypot(p[0] - centre[0], p[1] - centre[1]))
            dx, dy = x - middle[0], y - middle[1]
            dx, dy = dx / math.hypot(dx, dy), dy / math.hypot(dx, dy)
            anchor = "start" if dx > 0.75 else "end" if dx < -0.75 else "middle"
            lx, anchor = d.within(x + 10 * dx, constraints[-1], anchor, 12, W)
            body += [d.line(*ends[0], *ends[1], width=2, dash="6 4"),
                     d.text(lx, y + 16 * dy + 5, constraints[-1], anchor, 12, font_style="italic", style=d.HALO)]
    texts = {"h": sources[0], "g": sources[1], "d": sources[2], "constraints": d.list_text(constraints, locale)}
    if not solutions:
        desc = labels["alt_simplex_constraints"].format(**texts)
        return d.svg("reachable-region", W, H, labels["title_reachable_region"], desc, body, narrow)
    ordered = sorted(points, key=lambda p: math.atan2(at(p)[1] - centre[1], at(p)[0] - centre[0]))
    body.append(d.polygon([at(p) for p in ordered], d.ACCENT, 0.35, d.ACCENT, 2))
    if narrow:  # its name under the triangle
        rows = d.wrap(labels["region"], W - 16)
        body.append(d.line(*centre, cx, H - 20 - 17 * len(rows), width=1))
        body += [d.text(cx, H - 8 - 17 * (len(rows) - 1 - i), row, "middle", font_weight="600")
                 for i, row in enumerate(rows)]
    else:
        body.append(d.line(*centre, 206, 120, width=1))
        body += [d.text(200, 116 + 17 * i, row, "end", font_weight="600")
                 for i, row in enumerate(d.wrap(labels["region"], 150))]
    for p in ordered:
        x, y = at(p)
        dx, dy = x - centre[0], y - centre[1]
        norm = math.hypot(dx, dy) or 1
        dx, dy = dx / norm, dy / norm
        if abs(dx) < 0.35:  # above or below: write it beside, off the lines
            dx, dy = 0.8, (-0.4 if dy < 0 else 1.2)
        anchor = "start" if dx > 0.3 else "end" if dx < -0.3 else "middle"
        exact = ",".join(finite_decimal(c) or str(c) for c in p)
        name = d.point_text(p, locale)
        lx, anchor = d.within(x + 12 * dx, name, anchor, 12, W)
        body += [d.dot(x, y, 5, data_vertex=exact, stroke="currentColor"),
                 d.text(lx, y + 14 * dy + 5, name, anchor, 12, style=d.HALO)]
    desc = labels["alt_reachable_region"].format(
        **texts, count=len(points), vertices=d.list_text([d.point_text(p, locale) for p in ordered], locale))
    return d.svg("reachable-region", W, H, labels["title_reachable_region"], desc, body, narrow)


EXERCISE = Definition(
    id="reachable-vertices",
    lesson=4,
    data=MappingProxyType({"sources": ("hermes3-general", "gutenberg", "dictionary"), "symbols": ("H", "G", "D"),
                           "floors": MappingProxyType({"H": Rational(1, 2)}),
                           "caps": MappingProxyType({"D": Rational(1, 4)})}),
    parts=parts,
    draw=draw,
    invariants=invariants,
    point_note=point_note,
    data_items=data_items,
    figure=Figure("reachable-region", figure),
    message_keys=("wrong-point-size", "not-a-vertex", "removed-simplex-vertex", "point-outside-region",
                  "constraint-sum", "constraint-nonnegative", "constraint-floor", "constraint-cap"),
)
