"""Lesson 1, "Computing distances": three word embeddings, their Euclidean distances and cosines.

Data: ``{"parakeet": v, "monkey": v, "fourier": v}``, 3x1 columns of exact rationals (the lesson's
decimals). Two words are related and close; the third is far and points elsewhere.
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType

from sympy import ImmutableMatrix, Rational

from grader.model import drawing as d
from grader.model import geometry as g
from grader.model.exercise import Definition, Figure, Part
from grader.model.tex import approx, tex_value, tex_vector

WORDS = ("parakeet", "monkey", "fourier")
PAIRS = tuple(combinations(WORDS, 2))      # (parakeet, monkey), (parakeet, fourier), (monkey, fourier)


def _vec(*values) -> ImmutableMatrix:
    return ImmutableMatrix([Rational(v) for v in values])


def parts(data, lesson: bool):
    out = [Part(f"{a}-{b}", 1, "real", "form.number", "1/2", g.euclidean(data[a], data[b]),
                params=(("a", a), ("b", b))) for a, b in PAIRS]
    out += [Part(f"cos-{a}-{b}", 1, "real", "form.number", "1/2", g.cosine(data[a], data[b]),
                 params=(("a", a), ("b", b))) for a, b in PAIRS]
    return out


def mistakes(ex):
    table = {}
    for a, b in PAIRS:
        u, v = ex.data[a], ex.data[b]
        dist, cos = g.euclidean(u, v), g.cosine(u, v)
        table[f"{a}-{b}"] = [("squared-distance", dist ** 2), ("cosine-for-distance", cos),
                             ("cosine-distance-for-distance", 1 - cos)]
        table[f"cos-{a}-{b}"] = [("distance-for-cosine", dist), ("dot-for-cosine", g.dot(u, v)),
                                 ("cosine-distance-for-cosine", 1 - cos)]
    return table


# --- variants: three word vectors, two related, one far ---------------------

def tenths(draw, low: int, high: int) -> Fraction:
    """A one-decimal number low/10 .. high/10, exact."""
    return Fraction(draw.integer(low, high), 10)


def draw(draw):
    parakeet = [tenths(draw, 5, 15), tenths(draw, 2, 10), tenths(draw, 0, 3)]
    monkey = [max(Fraction(0), x + Fraction(draw.integer(-3, 3), 10)) for x in parakeet]
    fourier = [tenths(draw, 0, 3), tenths(draw, 0, 3), tenths(draw, 10, 20)]
    return MappingProxyType({"parakeet": g.vector(parakeet), "monkey": g.vector(monkey),
                             "fourier": g.vector(fourier)})


def invariants(data) -> list[str]:
    f = g.to_float
    out = []
    vectors = [data[name] for name in WORDS]
    if any(not all(0 <= x <= 2 and g.is_integer(x * 10) for x in v) for v in vectors):
        out.append("components are one-decimal numbers in [0, 2]")
    if any(all(x == 0 for x in v) for v in vectors):
        out.append("no zero vector")
    dist = {p: g.euclidean(data[p[0]], data[p[1]]) for p in PAIRS}
    cos = {p: g.cosine(data[p[0]], data[p[1]]) for p in PAIRS}
    near, far = PAIRS[0], PAIRS[1:]
    if not all(2 * f(dist[near]) <= f(dist[p]) for p in far) or f(dist[near]) < 0.1:
        out.append("the related pair (parakeet, monkey) is clearly the closest, at least 0.1 apart")
    if not (f(cos[near]) >= 0.8 and all(f(cos[p]) <= 0.5 for p in far)):
        out.append("the related pair points the same way (cosine >= 0.8), fourier does not (<= 0.5)")
    for p in PAIRS:   # the named mistakes must not be the answer
        if abs(f(dist[p]) - 1) < 0.01 or abs(f(cos[p]) - 0.5) < 0.01:
            out.append(f"distance != its square and cosine != 1 - cosine for {p}")
    return out


# --- what the site shows -------------------------------------------------------

def data_items(ex, locale: str):
    return [rf"$v(\text{{{name}}}) = {tex_vector(ex.data[name], locale)}$" for name in WORDS]


def derivation(ex, locale: str):
    rows = []
    for a, b in PAIRS:
        squares = sum((x - y) ** 2 for x, y in zip(ex.data[a], ex.data[b]))
        distance = g.euclidean(ex.data[a], ex.data[b])
        rows.append(rf"\lVert v(\text{{{a}}}) - v(\text{{{b}}}) \rVert = \sqrt{{{tex_value(squares, locale)}}}"
                    rf" = {tex_value(distance, locale)}{approx(distance, locale)}")
    # each cosine from its dot product and the two norms, with the numbers
    rows.append(r"\cos(a, b) = \frac{v(a) \cdot v(b)}{\lVert v(a) \rVert \, \lVert v(b) \rVert}")
    for a, b in PAIRS:
        u, v = ex.data[a], ex.data[b]
        cosine = g.cosine(u, v)
        rows.append(rf"\cos(\text{{{a}}}, \text{{{b}}}) = \frac{{{tex_value(g.dot(u, v), locale)}}}"
                    rf"{{\sqrt{{{tex_value(g.dot(u, u), locale)}}} \, \sqrt{{{tex_value(g.dot(v, v), locale)}}}}}"
                    rf" = {tex_value(cosine, locale)}{approx(cosine, locale)}")
    return rows


def figure(ex, labels, locale: str, solutions: bool, narrow: bool = False) -> str:
    """The three embeddings as points in an oblique 3-D view, the segments between them labelled with
    their distances (the answers: only with solutions)."""
    points = {name: tuple(ex.data[name]) for name in WORDS}
    distances = {(a, b): ex.part(f"{a}-{b}").reference for a, b in PAIRS}
    W, H, M = (d.NARROW, 350, 36) if narrow else (640, 400, 50)
    ex_, ey, ez = (-0.9, 0.3), (0.6, 0.3), (0.0, -1.0)  # an oblique view that keeps the segments apart
    unit = lambda v: tuple(sum(float(c) * e[i] for c, e in zip(v, (ex_, ey, ez))) for i in (0, 1))  # noqa: E731
    ends = [unit([max(1.0, max(float(v[i]) for v in points.values()) + 0.4) if j == i else 0 for j in range(3)])
            for i in range(3)]
    raw = {name: unit(v) for name, v in points.items()}
    xs, ys = zip(*ends, (0.0, 0.0), *raw.values())
    s = min((W - 2 * M) / (max(xs) - min(xs)), (H - 2 * M) / (max(ys) - min(ys)))
    place = lambda p: (M + (p[0] - min(xs)) * s + (W - 2 * M - (max(xs) - min(xs)) * s) / 2,  # noqa: E731
                       M + (p[1] - min(ys)) * s)
    o, at = place((0.0, 0.0)), {name: place(p) for name, p in raw.items()}
    body = [d.axis(*o, *place(e), name, anchor, dx, dy) for e, name, anchor, dx, dy in
            zip(ends, ("x₁", "x₂", "x₃"), ("end", "start", "middle"), (-6, 6, 0), (12, 12, -8))]
    obstacles = [(o, place(e)) for e in ends] + [(at[a], at[b]) for a, b in distances]
    for name, v in points.items():  # dashed drop to the x₁x₂ plane, for depth
        body.append(d.line(*at[name], *place(unit((v[0], v[1], 0))), width=1, dash="3 3", stroke_opacity=0.6))
    labels_at = []
    for a, b in distances:
        (x1, y1), (x2, y2) = at[a], at[b]
        body.append(d.line(x1, y1, x2, y2, width=2, color=d.ACCENT))
        if solutions:
            labels_at += _distance_label(distances[(a, b)], (x1, y1), (x2, y2),
                                         next(at[n] for n in WORDS if n not in (a, b)), obstacles, locale)
    body += labels_at
    for name, (x, y) in at.items():
        near = min((p for n, p in at.items() if n != name), key=lambda p: math.hypot(p[0] - x, p[1] - y))
        dx, dy = x - near[0], y - near[1]
        norm = math.hypot(dx, dy) or 1
        anchor = "start" if dx / norm > 0.3 else "end" if dx / norm < -0.3 else "middle"
        body += [d.dot(x, y), d.text(x + 12 * dx / norm, y + 12 * dy / norm + 5, name, anchor, font_family=d.MONO)]
    a, b, c = WORDS
    coordinates = {name: d.point_text(points[name], locale) for name in WORDS}
    if solutions:
        note = d.wrap(labels["embedding_note"], W - 24, 12)
        body += [d.text(W - 12, H - 12 - 16 * (len(note) - 1 - i), row, "end", 12) for i, row in enumerate(note)]
        dist = {frozenset(k): d.num(v, locale, 4) for k, v in distances.items()}
        desc = labels["alt_embedding_distances"].format(a=a, b=b, c=c, ab=dist[frozenset((a, b))],
                                                        ac=dist[frozenset((a, c))], bc=dist[frozenset((b, c))])
    else:
        desc = labels["alt_embedding_points"].format(a=a, b=b, c=c, va=coordinates[a], vb=coordinates[b],
                                                     vc=coordinates[c])
    return d.svg("embedding-distances", W, H, labels["title_embedding_distances"], desc, body, narrow)


def _distance_label(value, p1, p2, third, obstacles, locale) -> list[str]:
    """A segment's distance, beside it and away from the third point, clear of every line."""
    (x1, y1), (x2, y2) = p1, p2
    length = math.hypot(x2 - x1, y2 - y1) or 1
    nx, ny = (y1 - y2) / length, (x2 - x1) / length
    away = -1 if (third[0] - x1) * nx + (third[1] - y1) * ny > 0 else 1
    label = d.num(value, locale, 4)
    w = d.width(label) + 6
    anchor = "start" if away * nx > 0.3 else "end" if away * nx < -0.3 else "middle"
    spots = []
    for t in (0.5, 0.35, 0.65):
        for gap in range(10, 160, 6):
            lx, ly = x1 + t * (x2 - x1) + away * gap * nx, y1 + t * (y2 - y1) + away * gap * ny
            left, top = lx - {"start": 0, "middle": w / 2, "end": w}[anchor], ly - 8 + away * ny * 8
            if not any(left <= p + (q - p) * k / 60 <= left + w and top <= r + (u - r) * k / 60 <= top + 16
                       for (p, r), (q, u) in obstacles for k in range(61)):
                spots.append((gap, t, lx, top + 12))
                break
    gap, t, lx, ly = min(spots or [(10, 0.5, x1 + 0.5 * (x2 - x1) + away * 10 * nx,
                                    y1 + 0.5 * (y2 - y1) + away * 10 * ny)])
    out = []
    if gap > 10:  # pushed past another line: a leader shows which segment it names
        sx, sy = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
        out += [d.dot(sx, sy, 2.5, fill=d.ACCENT), d.line(sx, sy, lx - away * 4 * nx, ly - 4, width=1, stroke_opacity=0.7)]
    return out + [d.text(lx, ly, label, anchor, font_weight="600", style=d.HALO)]


EXERCISE = Definition(
    id="embedding-distances",
    lesson=1,
    data=MappingProxyType({"parakeet": _vec("1.0", "0.5", "0.0"), "monkey": _vec("1.2", "0.3", "0.1"),
                           "fourier": _vec("0.0", "0.0", "1.5")}),
    parts=parts,
    draw=draw,
    invariants=invariants,
    mistakes=mistakes,
    data_items=data_items,
    derivation=derivation,
    figure=Figure("embedding-distances", figure),
    message_keys=("squared-distance", "cosine-for-distance", "cosine-distance-for-distance",
                  "distance-for-cosine", "dot-for-cosine", "cosine-distance-for-cosine"),
)
