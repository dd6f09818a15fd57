"""The course's figures, drawn as inline SVG from the grader's exercise bank.

`draw(figure_id, labels, locale)` looks the data and the reference answers up
in `grader.bank` and hands them to one drawing function per figure; those take
the values as arguments, so a test can change the data and see the figure move.
`labels` is the locale's `[figures]` table. Text, axes and outlines use
`currentColor` and shading is semi-transparent, so a figure reads in light and
dark themes; each has a localized <title> and a <desc> text alternative.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from xml.sax.saxutils import escape

import sympy

from grader.geometry import as_number
from hooks.numbers import FORMATS, finite_decimal, format_number

FIGURES = ("embedding-distances", "attention-weights", "warmup-schedule", "reachable-region", "warmup-subsimplex")
ACCENT = "#e8590c"  # orange: enough contrast on both the light and the dark page background
# a label over lines gets a halo in the page's background colour (mkdocs-material's variable, else the canvas)
HALO = "paint-order: stroke; stroke: var(--md-default-bg-color, Canvas); stroke-width: 4px; stroke-linejoin: round"
MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
SANS = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK JP', 'Hiragino Sans', 'Microsoft YaHei', 'Malgun Gothic', sans-serif"


# ---- numbers -----------------------------------------------------------------------------------

def num(value, locale: str, digits: int = 3) -> str:
    """An exact decimal as is ('0.25'); anything else rounded, with '≈'."""
    if isinstance(value, float):
        return "≈ " + format_number(value, locale, digits)
    value = sympy.Rational(value.numerator, value.denominator) if isinstance(value, Fraction) else as_number(value)
    if value.is_Rational and finite_decimal(value) is not None:
        return format_number(value, locale)
    return "≈ " + format_number(float(value), locale, digits)


def separator(locale: str) -> str:
    """Between the numbers of a tuple: a comma, unless the locale's decimal mark is one."""
    return {"fr": " ; ", "id": "; "}.get(locale, ", ") if FORMATS.get(locale, (".",))[0] == "," else ", "


def point_text(coords, locale: str) -> str:
    """'(0.5, 0.25, 0.25)' in the locale's number format ('(0,5 ; 0,25 ; 0,25)' in French)."""
    return "(" + separator(locale).join(num(c, locale) for c in coords) + ")"


# ---- SVG helpers -------------------------------------------------------------------------------

def _attrs(attributes: dict) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), {chr(34): "&quot;"})}"'
                   for k, v in attributes.items() if v is not None)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def text(x, y, content, anchor="start", size=13, **attributes) -> str:
    return (f'<text x="{_f(x)}" y="{_f(y)}" text-anchor="{anchor}" font-size="{size}"{_attrs(attributes)}>'
            f"{escape(str(content))}</text>")


def width(content: str, size=13) -> float:
    """Rough width in pixels: CJK and Hangul glyphs are about one em wide, others about half."""
    return sum(size * (1.0 if ord(c) >= 0x2E80 else 0.56) for c in content)


def wrap(content: str, max_width: float, size=13) -> list[str]:
    """Break at spaces (or between CJK characters) so each line fits `max_width`."""
    rows, current = [], ""
    for token in re.findall(r"[\u2e80-\uffff]|[^\s\u2e80-\uffff]+\s*|\s+", content):
        if current and width((current + token).rstrip(), size) > max_width:
            rows.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    return rows + [current.rstrip()] if current.strip() else rows


def line(x1, y1, x2, y2, width=1.5, dash=None, color="currentColor", **attributes) -> str:
    return (f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" stroke="{color}" '
            f'stroke-width="{width}"{_attrs({"stroke_dasharray": dash, **attributes})}/>')


def polygon(points, fill="currentColor", opacity=0.0, stroke="currentColor", width=1.5, **attributes) -> str:
    coords = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
    return (f'<polygon points="{coords}" fill="{fill}" fill-opacity="{opacity}" stroke="{stroke}" '
            f'stroke-width="{width}"{_attrs(attributes)}/>')


def rect(x, y, w, h, opacity=0.0, fill="currentColor", stroke="currentColor", **attributes) -> str:
    return polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill, opacity, stroke, **attributes)


def dot(x, y, r=4.5, fill="currentColor", **attributes) -> str:
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{r}" fill="{fill}"{_attrs(attributes)}/>'


def polyline(points, width=2.5, color="currentColor", **attributes) -> str:
    coords = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
    return f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="{width}"{_attrs(attributes)}/>'


def axis(x1, y1, x2, y2, name="", anchor="start", dx=6, dy=4) -> str:
    """An axis with an arrow head at (x2, y2) and its name just past it."""
    angle = math.atan2(y2 - y1, x2 - x1)
    head = [(x2, y2)] + [(x2 - 9 * math.cos(angle + s), y2 - 9 * math.sin(angle + s)) for s in (0.4, -0.4)]
    return line(x1, y1, x2, y2) + polygon(head, opacity=1, width=1) + (text(x2 + dx, y2 + dy, name, anchor) if name else "")


def svg(figure_id: str, width: int, height: int, title: str, desc: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-labelledby="{figure_id}-title" aria-describedby="{figure_id}-desc" class="course-svg" fill="currentColor" font-family="{escape(SANS)}">'
            f'<title id="{figure_id}-title">{escape(title)}</title><desc id="{figure_id}-desc">{escape(desc)}</desc>'
            + "".join(body) + "</svg>")


def ticks(high, count: int = 5) -> list[Fraction]:
    """0 and round steps (1, 2 or 5 times a power of ten) up to at least `high`, exactly."""
    high = Fraction(str(sympy.Rational(high))) if not isinstance(high, (int, Fraction)) else Fraction(high)
    raw = high / count
    base = Fraction(10) ** math.floor(math.log10(raw))
    step = next(base * m for m in (1, 2, 5, 10) if base * m >= raw)
    return [step * i for i in range(math.ceil(high / step) + 1)]


# ---- the figures -------------------------------------------------------------------------------

def embedding_distances(points: dict, distances: dict, labels: dict, locale: str) -> str:
    """`points`: name -> 3 coordinates; `distances`: (name, name) -> exact distance."""
    W, H, M = 640, 400, 50
    ex, ey, ez = (-0.9, 0.3), (0.6, 0.3), (0.0, -1.0)  # an oblique view that keeps the segments apart
    unit = lambda v: tuple(sum(float(c) * e[i] for c, e in zip(v, (ex, ey, ez))) for i in (0, 1))
    ends = [unit([max(1.0, max(float(v[i]) for v in points.values()) + 0.4) if j == i else 0 for j in range(3)]) for i in range(3)]
    raw = {name: unit(v) for name, v in points.items()}
    xs, ys = zip(*ends, (0.0, 0.0), *raw.values())
    s = min((W - 2 * M) / (max(xs) - min(xs)), (H - 2 * M) / (max(ys) - min(ys)))
    place = lambda p: (M + (p[0] - min(xs)) * s + (W - 2 * M - (max(xs) - min(xs)) * s) / 2, M + (p[1] - min(ys)) * s)
    o, at = place((0.0, 0.0)), {name: place(p) for name, p in raw.items()}
    body = [axis(*o, *place(e), name, anchor, dx, dy) for e, name, anchor, dx, dy in
            zip(ends, ("x₁", "x₂", "x₃"), ("end", "start", "middle"), (-6, 6, 0), (12, 12, -8))]
    obstacles = [(o, place(e)) for e in ends] + [(at[a], at[b]) for a, b in distances]
    for name, v in points.items():  # dashed drop to the x₁x₂ plane, for depth
        body.append(line(*at[name], *place(unit((v[0], v[1], 0))), width=1, dash="3 3", stroke_opacity=0.6))
    names, labels_at = list(points), []
    for a, b in distances:
        (x1, y1), (x2, y2) = at[a], at[b]
        body.append(line(x1, y1, x2, y2, width=2, color=ACCENT))
        third = next(at[n] for n in names if n not in (a, b))
        nx, ny = (y1 - y2) / (math.hypot(x2 - x1, y2 - y1) or 1), (x2 - x1) / (math.hypot(x2 - x1, y2 - y1) or 1)
        away = -1 if (third[0] - x1) * nx + (third[1] - y1) * ny > 0 else 1
        label, spots, w = num(distances[(a, b)], locale, 4), [], width(num(distances[(a, b)], locale, 4)) + 6
        anchor = "start" if away * nx > 0.3 else "end" if away * nx < -0.3 else "middle"
        for t in (0.5, 0.35, 0.65):  # away from the third point, as close as it is clear of every line
            for gap in range(10, 160, 6):
                lx, ly = x1 + t * (x2 - x1) + away * gap * nx, y1 + t * (y2 - y1) + away * gap * ny
                left, top = lx - {"start": 0, "middle": w / 2, "end": w}[anchor], ly - 8 + away * ny * 8
                if not any(left <= p + (q - p) * k / 60 <= left + w and top <= r + (u - r) * k / 60 <= top + 16
                           for (p, r), (q, u) in obstacles for k in range(61)):
                    spots.append((gap, t, lx, top + 12))
                    break
        gap, t, lx, ly = min(spots or [(10, 0.5, x1 + 0.5 * (x2 - x1) + away * 10 * nx, y1 + 0.5 * (y2 - y1) + away * 10 * ny)])
        if gap > 10:  # pushed past another line: a leader shows which segment it names
            sx, sy = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            labels_at += [dot(sx, sy, 2.5, fill=ACCENT), line(sx, sy, lx - away * 4 * nx, ly - 4, width=1, stroke_opacity=0.7)]
        labels_at.append(text(lx, ly, label, anchor, font_weight="600", style=HALO))
    body += labels_at
    for name, (x, y) in at.items():
        near = min((p for n, p in at.items() if n != name), key=lambda p: math.hypot(p[0] - x, p[1] - y))
        dx, dy = x - near[0], y - near[1]
        norm = math.hypot(dx, dy) or 1
        anchor = "start" if dx / norm > 0.3 else "end" if dx / norm < -0.3 else "middle"
        body += [dot(x, y), text(x + 12 * dx / norm, y + 12 * dy / norm + 5, name, anchor, font_family=MONO)]
    body.append(text(W - 12, H - 12, labels["embedding_note"], "end", 12))
    (a, b), (_, c) = list(distances)[0], list(distances)[1]
    dist = {frozenset(k): num(v, locale, 4) for k, v in distances.items()}
    desc = labels["alt_embedding_distances"].format(a=a, b=b, c=c, ab=dist[frozenset((a, b))],
                                                    ac=dist[frozenset((a, c))], bc=dist[frozenset((b, c))])
    return svg("embedding-distances", W, H, labels["title_embedding_distances"], desc, body)


def attention_weights(q, keys, d_k, scaled, weights, labels: dict, locale: str) -> str:
    """Per key: its scaled score q·kᵢ/√d_k and its softmax weight, as bars with their values."""
    W, top, row, bar = 640, 96, 46, 20
    H = top + row * len(keys) + 34
    xs, xw, span = 215, 430, 120  # column starts (scores, weights) and the longest bar
    values = [float(v) for v in scaled]
    low, high = min(0.0, *values), max(0.0, *values)
    zero = xs + (span * -low / (high - low) if high > low else 0)
    unit = span / (high - low) if high > low else 0
    body = [text(20, 24, labels["query"].format(q=point_text(q, locale), d_k=num(d_k, locale)), font_weight="600"),
            text(20, 62, labels["col_key"], font_weight="600"),
            text(xs, 62, labels["col_scaled"], font_weight="600"), text(xs, 80, "q · kᵢ / √d_k", size=12),
            text(xw, 62, labels["col_weight"], font_weight="600"), text(xw, 80, "softmax", size=12),
            line(20, 88, W - 20, 88, width=1)]
    for i, (key, s, w) in enumerate(zip(keys, scaled, weights)):
        y = top + i * row
        body.append(text(20, y + 15, f"k{chr(0x2081 + i)} = {point_text(key, locale)}"))
        body.append(rect(min(zero, zero + float(s) * unit), y, abs(float(s)) * unit, bar, 0.2))
        body.append(text(max(zero, zero + float(s) * unit) + 6, y + 15, num(s, locale)))
        body.append(rect(xw, y, span, bar, 0.0, stroke_opacity=0.35, stroke_dasharray="2 2"))
        body.append(rect(xw, y, float(w) * span, bar, 0.55, ACCENT, ACCENT))
        body.append(text(xw + span + 8, y + 15, num(w, locale)))
    body.append(line(zero, top - 4, zero, top + row * len(keys) - row + bar + 4, width=1))
    body.append(text(xw + span + 8, top + row * len(keys) + 8, "Σ = " + num(sum(weights, sympy.S.Zero).simplify(), locale), size=12))
    rows = separator(locale).join(labels["attention_row"].format(key=f"k{chr(0x2081 + i)}", score=num(s, locale), weight=num(w, locale))
                                  for i, (s, w) in enumerate(zip(scaled, weights)))
    desc = labels["alt_attention_weights"].format(q=point_text(q, locale), d_k=num(d_k, locale), rows=rows)
    return svg("attention-weights", W, H, labels["title_attention_weights"], desc, body)


def warmup_schedule(peak_lr, warmup_steps, step, lr_at_step, labels: dict, locale: str) -> str:
    """v2 ramps linearly from 0 to `peak_lr` over `warmup_steps` then stays flat; v1 is at the peak from step 1."""
    W, H, left, right, top, bottom = 640, 380, 92, 610, 64, 316
    xt, yt = ticks(Fraction(int(warmup_steps)) * 6 / 5), ticks(Fraction(str(sympy.Rational(peak_lr))) * 23 / 20, 4)
    X = lambda s: left + (right - left) * float(s) / float(xt[-1])
    Y = lambda v: bottom - (bottom - top) * float(v) / float(yt[-1])
    body = []
    for t in xt:
        body += [line(X(t), bottom, X(t), bottom + 5, width=1), text(X(t), bottom + 20, format_number(t, locale), "middle", 12)]
    for t in yt:
        body += [line(left - 5, Y(t), left, Y(t), width=1), text(left - 8, Y(t) + 4, format_number(t, locale), "end", 12),
                 line(left, Y(t), right, Y(t), width=1, stroke_opacity=0.15)]
    body += [axis(left, bottom, right + 14, bottom), axis(left, bottom, left, top - 16),
             text((left + right) / 2, H - 16, labels["axis_step"], "middle"),
             text(18, (top + bottom) / 2, labels["axis_lr"], "middle", transform=f"rotate(-90 18 {(top + bottom) / 2})")]
    body.append(line(X(1), Y(peak_lr), right, Y(peak_lr), width=2.5, dash="7 5", color=ACCENT))
    body.append(polyline([(X(0), Y(0)), (X(warmup_steps), Y(peak_lr)), (right, Y(peak_lr))], stroke_linejoin="round"))
    body += [line(X(warmup_steps), Y(peak_lr), X(warmup_steps), bottom, width=1, dash="2 3"),
             text(X(warmup_steps), Y(peak_lr) - 26, labels["warmup_end"], "middle", 12),
             text(X(warmup_steps), Y(peak_lr) - 10, labels["at_step"].format(step=format_number(warmup_steps, locale)), "middle", 12)]
    for i, (key, kind) in enumerate((("legend_v1", ACCENT), ("legend_v2", "currentColor"))):
        body += [line(left + 8, 20 + 20 * i, left + 38, 20 + 20 * i, width=2.5, color=kind, stroke_dasharray="7 5" if i == 0 else None),
                 text(left + 46, 25 + 20 * i, labels[key])]
    px, py, tx, ty = X(step), Y(lr_at_step), left + (right - left) * 0.3, bottom - (bottom - top) * 0.16
    body += [line(px, py, tx - 4, ty + 8, width=1), dot(px, py, 4, fill=ACCENT, stroke="currentColor"),
             text(tx, ty, labels["at_step"].format(step=format_number(step, locale)), font_weight="600"),
             text(tx, ty + 18, labels["lr_value"].format(lr=num(lr_at_step, locale)))]
    desc = labels["alt_warmup_schedule"].format(peak=num(peak_lr, locale), warmup=format_number(warmup_steps, locale),
                                                step=format_number(step, locale), lr=num(lr_at_step, locale))
    return svg("warmup-schedule", W, H, labels["title_warmup_schedule"], desc, body)


def reachable_region(sources, symbols, floors, caps, vertices, labels: dict, locale: str) -> str:
    """The simplex of three weights as a triangle, the floor and cap lines, the region cut out, its vertices."""
    W, H, side, cx, top = 640, 450, 380, 320, 56
    corners = [(cx, top), (cx - side / 2, top + side * math.sqrt(3) / 2), (cx + side / 2, top + side * math.sqrt(3) / 2)]
    at = lambda b: tuple(sum(float(w) * c[i] for w, c in zip(b, corners)) for i in (0, 1))
    body = [polygon(corners, width=1.5)]
    for (x, y), symbol, source, dx, dy, anchor in zip(corners, symbols, sources, (-12, 24, -24), (4, 24, 24), ("end", "end", "start")):
        body.append(text(x + dx, y + dy, f"{symbol} = {source}", anchor, font_weight="600"))
    points = [tuple(v) for v in vertices]
    centre = tuple(sum(at(p)[i] for p in points) / len(points) for i in (0, 1))
    ordered = sorted(points, key=lambda p: math.atan2(at(p)[1] - centre[1], at(p)[0] - centre[0]))
    middle, constraints = at((Fraction(1, 3),) * 3), []
    for bounds, key in ((floors, "floor"), (caps, "cap")):
        for symbol, value in bounds.items():
            i = list(symbols).index(symbol)
            ends = [at([value if k == i else (1 - value if k == j else 0) for k in range(3)]) for j in range(3) if j != i]
            constraints.append(labels[key].format(symbol=symbol, value=num(value, locale)))
            x, y = max(ends, key=lambda p: math.hypot(p[0] - centre[0], p[1] - centre[1]))
            dx, dy = x - middle[0], y - middle[1]
            dx, dy = dx / math.hypot(dx, dy), dy / math.hypot(dx, dy)
            anchor = "start" if dx > 0.75 else "end" if dx < -0.75 else "middle"
            body += [line(*ends[0], *ends[1], width=2, dash="6 4"),
                     text(x + 10 * dx, y + 16 * dy + 5, constraints[-1], anchor, 12, font_style="italic")]
    body.append(polygon([at(p) for p in ordered], ACCENT, 0.35, ACCENT, 2))
    body.append(line(*centre, 206, 120, width=1))
    body += [text(200, 116 + 17 * i, row, "end", font_weight="600") for i, row in enumerate(wrap(labels["region"], 150))]
    for p in ordered:
        x, y = at(p)
        dx, dy = x - centre[0], y - centre[1]
        norm = math.hypot(dx, dy) or 1
        dx, dy = dx / norm, dy / norm
        if abs(dx) < 0.35:  # above or below: write it beside, off the lines
            dx, dy = 0.8, (-0.4 if dy < 0 else 1.2)
        anchor = "start" if dx > 0.3 else "end" if dx < -0.3 else "middle"
        exact = ",".join(finite_decimal(c) or str(c) for c in p)
        body += [dot(x, y, 5, data_vertex=exact, stroke="currentColor"),
                 text(x + 12 * dx, y + 14 * dy + 5, point_text(p, locale), anchor, 12, style=HALO)]
    desc = labels["alt_reachable_region"].format(
        h=sources[0], g=sources[1], d=sources[2], constraints=separator(locale).join(constraints),
        count=len(points), vertices=separator(locale).join(point_text(p, locale) for p in ordered))
    return svg("reachable-region", W, H, labels["title_reachable_region"], desc, body)


def warmup_subsimplex(n_sources, warmup_sources, warmup_until, polish_from, polish_excluded, dims,
                      labels: dict, locale: str) -> str:
    """One row of `n_sources` coordinate cells per phase (warmup, full firehose, polish); `dims` = their dimensions."""
    n, (warm_dim, full_dim, polish_dim) = int(n_sources), dims
    dropped = [s for s in polish_excluded if s not in warmup_sources]
    cells = list(warmup_sources) + [None] * (n - len(warmup_sources) - len(dropped)) + dropped
    W, x0, size = 640, 24, (640 - 48) / n
    rows = [("row_warmup", {"until": format_number(warmup_until, locale)}, lambda c: c in warmup_sources, 60, warm_dim),
            ("row_full", {}, lambda c: True, 236, full_dim),
            ("row_polish", {"start": format_number(polish_from, locale)}, lambda c: c not in polish_excluded, 312, polish_dim)]
    body = []
    for key, params, in_play, y, dim in rows:
        body += [text(x0, y - 10, labels[key].format(**params), font_weight="600"),
                 text(W - x0, y - 10, labels["dimension"].format(n=format_number(dim, locale)), "end", font_weight="700", fill=ACCENT)]
        for i, cell in enumerate(cells):
            x = x0 + i * size
            body.append(rect(x + 3, y, size - 6, size - 6, 0.75 if in_play(cell) else 0.0, width=1.2))
            if key == "row_polish" and cell in polish_excluded:
                body += [line(x + 3, y, x + size - 3, y + size - 6, width=1.2), line(x + size - 3, y, x + 3, y + size - 6, width=1.2)]
            if key == "row_warmup" and cell in warmup_sources:
                cx, cy = x + size / 2, y + size + 4
                body.append(text(cx, cy, cell, size=12, font_family=MONO, transform=f"rotate(40 {_f(cx)} {_f(cy)})"))
    marked = [x0 + i * size + size / 2 for i, c in enumerate(cells) if c in polish_excluded]
    ybase = 312 + size
    if marked:
        body += [line(min(marked) - 8, ybase, min(marked) - 8, ybase + 6, width=1), line(max(marked) + 8, ybase, max(marked) + 8, ybase + 6, width=1),
                 line(min(marked) - 8, ybase + 6, max(marked) + 8, ybase + 6, width=1),
                 text(max(marked) + 8, ybase + 24, labels["excluded"].format(names=", ".join(polish_excluded)), "end", 12)]
    ly = ybase + 52
    body += [rect(x0, ly - 11, 13, 13, 0.75, width=1.2), text(x0 + 20, ly, labels["in_play"], size=12),
             rect(x0 + 180, ly - 11, 13, 13, 0.0, width=1.2), text(x0 + 200, ly, labels["pinned"], size=12),
             *(text(x0, ly + 24 + 17 * i, row, size=12) for i, row in enumerate(wrap(labels["cells_note"], W - 2 * x0, 12)))]
    ly += 17 * len(wrap(labels["cells_note"], W - 2 * x0, 12))
    desc = labels["alt_warmup_subsimplex"].format(
        n=n, full_dim=full_dim, warm_count=len(warmup_sources), warm_sources=", ".join(warmup_sources),
        pinned=n - len(warmup_sources), warm_dim=warm_dim, excluded=", ".join(polish_excluded),
        polish_count=sum(1 for c in cells if c not in polish_excluded), polish_dim=polish_dim)
    return svg("warmup-subsimplex", W, ly + 40, labels["title_warmup_subsimplex"], desc, body)


# ---- from the bank -----------------------------------------------------------------------------

EXERCISE_OF = dict(zip(FIGURES, ("embedding-distances", "attention-weights", "terrain-warmup",
                                 "reachable-vertices", "submanifold-dims")))


def draw(figure_id: str, labels: dict[str, str], locale: str) -> str:
    """One <svg> for `figure_id`: the bank's data and references, `labels` (the locale's [figures] table), `locale`'s numbers."""
    from grader.bank import EXERCISES

    ex = EXERCISES[EXERCISE_OF[figure_id]]  # KeyError for an unknown figure
    d, ref = ex.data, lambda part: ex.part(part).reference
    if figure_id == "embedding-distances":
        pairs = [tuple(p.id.split("-")) for p in ex.parts if p.id.count("-") == 1]
        return embedding_distances({k: tuple(v) for k, v in d.items()}, {p: ref("-".join(p)) for p in pairs}, labels, locale)
    if figure_id == "attention-weights":
        return attention_weights(tuple(d["q"]), [tuple(k) for k in d["keys"]], d["d_k"], tuple(ref("scaled")),
                                 tuple(ref("weights")), labels, locale)
    if figure_id == "warmup-schedule":
        return warmup_schedule(d["peak_lr"], d["warmup_steps"], d["step"], ref("lr-at-step"), labels, locale)
    if figure_id == "reachable-region":
        return reachable_region(d["sources"], d["symbols"], d["floors"], d["caps"], ref("vertices"), labels, locale)
    dims = tuple(ref(p) for p in ("warmup-dim", "full-dim", "polish-dim"))
    return warmup_subsimplex(d["n_sources"], d["warmup_sources"], d["warmup_until"], d["polish_from"],
                             d["polish_excluded"], dims, labels, locale)
