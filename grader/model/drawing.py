"""SVG drawing for the exercises' figures: shapes, text, axes, and numbers as a figure shows them.

Pure functions from coordinates to markup (standard library only). Text, axes and outlines use
`currentColor` and shading is semi-transparent, so a figure reads in light and dark themes; each
figure has a <title> (its accessible name) and a <desc> (its text alternative).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from grader.languages.numerals import SERIES_SEPARATORS, exact_fraction, finite_decimal, format_number, list_separator


def escape(text: str, quote: bool = False) -> str:
    """``&``, ``<``, ``>`` (and ``"`` in an attribute) as entities: what xml.sax.saxutils.escape
    does, without its import of urllib, http and ssl (every check loads this module)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text

ACCENT = "#e8590c"  # orange: enough contrast on both the light and the dark page background
# a label over lines gets a halo in the page's background colour (mkdocs-material's variable, else the canvas)
HALO = "paint-order: stroke; stroke: var(--md-default-bg-color, Canvas); stroke-width: 4px; stroke-linejoin: round"
MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
SANS = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK JP', 'Hiragino Sans', 'Microsoft YaHei', 'Malgun Gothic', sans-serif"


# ---- numbers -----------------------------------------------------------------------------------

def num(value, locale: str, digits: int = 3) -> str:
    """An exact decimal as is ('0.25'); anything else rounded, with '≈'."""
    if not isinstance(value, float) and finite_decimal(value) is not None:
        return format_number(value, locale)
    return "≈ " + format_number(float(value), locale, digits)


def point_text(coords, locale: str) -> str:
    """'(0.5, 0.25, 0.25)' in the locale's notation ('(0,5 ; 0,25 ; 0,25)' in French)."""
    return "(" + list_separator(locale).join(num(c, locale) for c in coords) + ")"


def ticks(high, count: int = 5) -> list[Fraction]:
    """0 and round steps (1, 2 or 5 times a power of ten) up to at least `high`, exactly."""
    high = exact_fraction(high) if exact_fraction(high) is not None else Fraction(str(high))
    raw = high / count
    base = Fraction(10) ** math.floor(math.log10(raw))
    step = next(base * m for m in (1, 2, 5, 10) if base * m >= raw)
    return [step * i for i in range(math.ceil(high / step) + 1)]


# ---- SVG helpers -------------------------------------------------------------------------------

def _attrs(attributes: dict) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), quote=True)}"'
                   for k, v in attributes.items() if v is not None)


def coord(x: float) -> str:
    """A coordinate as SVG writes it: one decimal at most."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def text(x, y, content, anchor="start", size=13, **attributes) -> str:
    return (f'<text x="{coord(x)}" y="{coord(y)}" text-anchor="{anchor}" font-size="{size}"{_attrs(attributes)}>'
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


def within(x, content: str, anchor: str, size, figure_width, margin=4) -> tuple[float, str]:
    """(x, anchor) for a label at ``x`` that would run past an edge of the figure: held at that edge."""
    w = width(content, size)
    left = x - {"start": 0, "middle": w / 2, "end": w}[anchor]
    if left < margin:
        return margin, "start"
    if left + w > figure_width - margin:
        return figure_width - margin, "end"
    return x, anchor


def line(x1, y1, x2, y2, width=1.5, dash=None, color="currentColor", **attributes) -> str:
    return (f'<line x1="{coord(x1)}" y1="{coord(y1)}" x2="{coord(x2)}" y2="{coord(y2)}" stroke="{color}" '
            f'stroke-width="{width}"{_attrs({"stroke_dasharray": dash, **attributes})}/>')


def polygon(points, fill="currentColor", opacity=0.0, stroke="currentColor", width=1.5, **attributes) -> str:
    coords = " ".join(f"{coord(x)},{coord(y)}" for x, y in points)
    return (f'<polygon points="{coords}" fill="{fill}" fill-opacity="{opacity}" stroke="{stroke}" '
            f'stroke-width="{width}"{_attrs(attributes)}/>')


def rect(x, y, w, h, opacity=0.0, fill="currentColor", stroke="currentColor", **attributes) -> str:
    return polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill, opacity, stroke, **attributes)


def dot(x, y, r=4.5, fill="currentColor", **attributes) -> str:
    return f'<circle cx="{coord(x)}" cy="{coord(y)}" r="{r}" fill="{fill}"{_attrs(attributes)}/>'


def polyline(points, width=2.5, color="currentColor", **attributes) -> str:
    coords = " ".join(f"{coord(x)},{coord(y)}" for x, y in points)
    return f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="{width}"{_attrs(attributes)}/>'


def axis(x1, y1, x2, y2, name="", anchor="start", dx=6, dy=4) -> str:
    """An axis with an arrow head at (x2, y2) and its name just past it."""
    angle = math.atan2(y2 - y1, x2 - x1)
    head = [(x2, y2)] + [(x2 - 9 * math.cos(angle + s), y2 - 9 * math.sin(angle + s)) for s in (0.4, -0.4)]
    return line(x1, y1, x2, y2) + polygon(head, opacity=1, width=1) + (text(x2 + dx, y2 + dy, name, anchor) if name else "")


# a narrow layout is drawn NARROW wide, for a column under 560 px (a phone's is ~343): its labels, 12 or 13
# units, stay above 11 px there; the page shows one of the two layouts (course.css)
NARROW = 360


def svg(figure_id: str, width: int, height: int, title: str, desc: str, body: list[str], narrow: bool = False) -> str:
    """The figure: named by its title, described by its desc (a screen reader reads the name first,
    the description on request). The narrow layout's ids end in ``-narrow`` (both layouts are on the page)."""
    if narrow:
        figure_id += "-narrow"
    kind = "course-svg course-svg--narrow" if narrow else "course-svg"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-labelledby="{figure_id}-title" aria-describedby="{figure_id}-desc" class="{kind}" '
            f'fill="currentColor" font-family="{escape(SANS)}">'
            f'<title id="{figure_id}-title">{escape(title)}</title><desc id="{figure_id}-desc">{escape(desc)}</desc>'
            + "".join(body) + "</svg>")


def list_text(items, locale: str) -> str:
    """Items of a figure's text (its constraints, its rows, its points), separated as the locale separates a list:
    its enumeration comma where it has one of its own (、 in ja and zh), else as it separates numbers (``;`` where
    the decimal mark is a comma)."""
    return (SERIES_SEPARATORS.get(locale) or list_separator(locale)).join(items)
