"""Inline SVG charts: a histogram, a horizontal bar chart, one stacked bar. Pure: data in, text out.

Each chart is drawn from numbers and from labels already written for the reader (numbers in
the locale's format); every label is escaped here. A chart is an ``<svg role="img">`` whose
``aria-label`` names it and says the table beside it holds the values: the page always
puts that table next to the chart. No script, no font: the page's own font is used.
"""
from __future__ import annotations

from html import escape

from grader.classreport.text import visible

WIDTH = 480
BAR = 18            # height of a horizontal bar
GAP = 6
CHAR = 7.0          # a rough width of one character of a label, in pixels
MAX_LABEL = 34      # characters of a bar's label shown (the table has it whole)


def _svg(width: float, height: float, label: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
            f'aria-label="{_text(label)}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'width="{width:.0f}" height="{height:.0f}">' + "".join(body) + "</svg>")


def _text(label: str) -> str:
    return escape(visible(label), quote=True)


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[:MAX_LABEL - 1] + "\u2026"


def histogram(counts: list[int], ticks: list[str], top_label: str, label: str) -> str:
    """Vertical bars of ``counts``; ``ticks`` are the labels under the bars (some may be ''),
    ``top_label`` the largest count as written."""
    height, left, bottom, top = 200, 36, 24, 10
    plot_w, plot_h = WIDTH - left - 8, height - bottom - top
    most = max(counts, default=0) or 1
    step = plot_w / max(1, len(counts))
    body = [f'<line class="axis" x1="{left}" y1="{top + plot_h}" x2="{WIDTH - 8}" y2="{top + plot_h}"/>',
            f'<text class="tick" x="{left - 4}" y="{top + 4}" text-anchor="end">{_text(top_label)}</text>',
            f'<text class="tick" x="{left - 4}" y="{top + plot_h}" text-anchor="end">0</text>']
    for i, count in enumerate(counts):
        h = plot_h * count / most
        x = left + i * step
        body.append(f'<rect class="bar" x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" '
                    f'width="{max(1.0, step - 2):.1f}" height="{h:.1f}"/>')
        if ticks[i]:
            body.append(f'<text class="tick" x="{x + step / 2:.1f}" y="{height - 8}" '
                        f'text-anchor="middle">{_text(ticks[i])}</text>')
    return _svg(WIDTH, height, label, body)


def bars(rows: list[tuple[str, float, str]], label: str) -> str:
    """Horizontal bars, one per ``(label, value in 0..1, value as written)``, in the given order."""
    names = [_short(visible(name)) for name, _, _ in rows]
    left = min(WIDTH // 2, 8 + CHAR * max((len(n) for n in names), default=4))
    plot_w = WIDTH - left - 64
    height = GAP + len(rows) * (BAR + GAP)
    body = []
    for i, ((_, value, shown), name) in enumerate(zip(rows, names)):
        y = GAP + i * (BAR + GAP)
        w = plot_w * max(0.0, min(1.0, value))
        body.append(f'<text class="name" x="{left - 6:.0f}" y="{y + BAR - 5}" '
                    f'text-anchor="end">{escape(name)}</text>')
        body.append(f'<rect class="track" x="{left:.0f}" y="{y}" width="{plot_w:.0f}" height="{BAR}"/>')
        body.append(f'<rect class="bar" x="{left:.0f}" y="{y}" width="{w:.1f}" height="{BAR}"/>')
        body.append(f'<text class="value" x="{left + w + 4:.1f}" y="{y + BAR - 5}">{_text(shown)}</text>')
    return _svg(WIDTH, height, label, body)


def stacked(segments: list[tuple[str, float, str]], label: str) -> str:
    """One bar split into ``(css class, share, share as written)`` segments, left to right; a
    segment wide enough shows its share."""
    height, y = 40, 8
    body, x = [], 0.0
    for css, share, shown in segments:
        w = WIDTH * max(0.0, share)
        if w <= 0:
            continue
        body.append(f'<rect class="seg {escape(css, quote=True)}" x="{x:.1f}" y="{y}" '
                    f'width="{w:.1f}" height="24"/>')
        if w >= 8 * len(shown):
            body.append(f'<text class="seg-label" x="{x + w / 2:.1f}" y="{y + 17}" '
                        f'text-anchor="middle">{_text(shown)}</text>')
        x += w
    return _svg(WIDTH, height, label, body)
