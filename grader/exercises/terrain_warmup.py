"""Lesson 3, "Reading the terrain": a linear learning-rate warmup (v2) against none (v1).

Data: ``{"peak_lr": Rational, "warmup_steps": Integer, "step": Integer, "fraction": Rational,
"ratio_step": Integer}``. v2's learning rate at step s is ``peak_lr * s / warmup_steps`` up to
``warmup_steps`` (:func:`grader.model.geometry.linear_warmup_lr`); v1 used ``peak_lr`` from its first step.
"""
from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

from sympy import Integer, Rational

from grader.languages.numerals import Percent, exact_fraction, format_number, tex_number
from grader.model import drawing as d
from grader.model import geometry as g
from grader.model.exercise import Definition, Figure, Part


def _lr(data, step):
    return g.linear_warmup_lr(step, data["peak_lr"], data["warmup_steps"])


def parts(data, lesson: bool):
    peak, warm = data["peak_lr"], data["warmup_steps"]
    return (
        Part("lr-at-step", 1, "real", "form.lr", "1/1000", _lr(data, data["step"]),
             params=(("step", data["step"]),)),
        Part("step-at-fraction", 1, "integer", "form.steps", "1200", g.ceiling(data["fraction"] * warm),
             params=(("percent", Percent(exact_fraction(data["fraction"]))),)),
        Part("first-step-ratio", 1, "integer", "form.ratio", "50", peak / _lr(data, data["ratio_step"]),
             params=(("ratio_step", data["ratio_step"]),)),
    )


def mistakes(ex):
    data = ex.data
    peak, warm, step, k = data["peak_lr"], data["warmup_steps"], data["step"], data["ratio_step"]
    lr = lambda s: _lr(data, s)  # noqa: E731
    reach = g.ceiling(data["fraction"] * warm)
    return {
        "lr-at-step": [("off-by-one-step", lr(step + 1)), ("off-by-one-step", lr(step - 1)),
                       ("peak-not-ramped", peak), ("ramp-fraction-not-lr", step / warm)],
        "step-at-fraction": [("off-by-one-step", reach + 1), ("off-by-one-step", reach - 1),
                             ("percent-vs-fraction", data["fraction"] * 100 * warm),
                             ("lr-instead-of-step", data["fraction"] * peak)],
        "first-step-ratio": [("ratio-inverted", lr(k) / peak),
                             ("off-by-one-step", peak / lr(k + 1)),
                             ("off-by-one-step", peak / lr(k - 1))],
    }


# --- variants: a linear warmup ---------------------------------------------------

def draw(draw):
    return MappingProxyType({
        "peak_lr": Fraction(draw.integer(1, 6), 10000),
        "warmup_steps": Fraction(draw.choice((1000, 1500, 2000, 2500, 3000, 4000))),
        "step": Fraction(10 * draw.integer(2, 20)),
        "fraction": draw.choice((Fraction(1, 5), Fraction(1, 4), Fraction(2, 5), Fraction(1, 2),
                                 Fraction(3, 5), Fraction(3, 4))),
        "ratio_step": Fraction(draw.choice((5, 10, 20, 25, 40, 50)))})


def invariants(data) -> list[str]:
    out = []
    warm, step, k = data["warmup_steps"], data["step"], data["ratio_step"]
    if not (0 < k < step < warm // 4):
        out.append("0 < ratio_step < step < warmup_steps / 4: both steps are early in the ramp")
    if not g.is_integer(data["fraction"] * warm) or not 0 < data["fraction"] < 1:
        out.append("the fraction of peak is reached at a whole step")
    if warm % k:
        out.append("the first-step ratio warmup_steps / ratio_step is a whole number")
    if warm == 50 * k or data["fraction"] * warm == 1200:
        out.append("no answer equals its part's example")
    if not 0 < data["peak_lr"] <= Fraction(1, 1000):
        out.append("peak learning rate in (0, 1e-3]")
    return out


# --- what the site shows -------------------------------------------------------

def data_items(ex, locale: str):
    n = lambda v: tex_number(v, locale)  # noqa: E731
    return [
        rf"$\eta_{{\text{{peak}}}} = {n(ex.data['peak_lr'])}$",
        rf"$T_{{\text{{warmup}}}} = {n(ex.data['warmup_steps'])}$",
        r"$\eta_{\text{v2}}(s) = \eta_{\text{peak}} \cdot \frac{s}{T_{\text{warmup}}} \quad (s \le T_{\text{warmup}})$",
        r"$\eta_{\text{v1}}(s) = \eta_{\text{peak}}$",
    ]


def figure(ex, labels, locale: str, solutions: bool, narrow: bool = False) -> str:
    """v2 ramps linearly from 0 to the peak over the warmup, then stays flat; v1 is at the peak from step 1.
    With solutions, the asked step is marked with its learning rate. Narrow: fewer ticks, the same plot."""
    peak_lr, warmup_steps, step = ex.data["peak_lr"], ex.data["warmup_steps"], ex.data["step"]
    lr_at_step = ex.part("lr-at-step").reference
    W, H, left, right, top, bottom = (d.NARROW, 340, 84, 340, 64, 276) if narrow else (640, 380, 92, 610, 64, 316)
    xt = d.ticks(Fraction(int(warmup_steps)) * 6 / 5, 3 if narrow else 5)
    yt = d.ticks(Fraction(peak_lr.p, peak_lr.q) * 23 / 20, 4)
    X = lambda s: left + (right - left) * float(s) / float(xt[-1])  # noqa: E731
    Y = lambda v: bottom - (bottom - top) * float(v) / float(yt[-1])  # noqa: E731
    body = []
    for t in xt:
        body += [d.line(X(t), bottom, X(t), bottom + 5, width=1), d.text(X(t), bottom + 20, format_number(t, locale), "middle", 12)]
    for t in yt:
        body += [d.line(left - 5, Y(t), left, Y(t), width=1), d.text(left - 8, Y(t) + 4, format_number(t, locale), "end", 12),
                 d.line(left, Y(t), right, Y(t), width=1, stroke_opacity=0.15)]
    body += [d.axis(left, bottom, right + 14, bottom), d.axis(left, bottom, left, top - 16),
             d.text((left + right) / 2, H - 16, labels["axis_step"], "middle"),
             d.text(18, (top + bottom) / 2, labels["axis_lr"], "middle", transform=f"rotate(-90 18 {(top + bottom) / 2})")]
    body.append(d.line(X(1), Y(peak_lr), right, Y(peak_lr), width=2.5, dash="7 5", color=d.ACCENT))
    body.append(d.polyline([(X(0), Y(0)), (X(warmup_steps), Y(peak_lr)), (right, Y(peak_lr))], stroke_linejoin="round"))
    body += [d.line(X(warmup_steps), Y(peak_lr), X(warmup_steps), bottom, width=1, dash="2 3"),
             d.text(X(warmup_steps), Y(peak_lr) - 26, labels["warmup_end"], "middle", 12),
             d.text(X(warmup_steps), Y(peak_lr) - 10, labels["at_step"].format(step=format_number(warmup_steps, locale)),
                    "middle", 12)]
    key_x = 8 if narrow else left + 8  # the legend: from the figure's edge on a phone
    for i, (key, kind) in enumerate((("legend_v1", d.ACCENT), ("legend_v2", "currentColor"))):
        body += [d.line(key_x, 20 + 20 * i, key_x + 30, 20 + 20 * i, width=2.5, color=kind,
                        stroke_dasharray="7 5" if i == 0 else None),
                 d.text(key_x + 38, 25 + 20 * i, labels[key])]
    peak, warmup = d.num(peak_lr, locale), format_number(warmup_steps, locale)
    if solutions:
        px, py, tx, ty = X(step), Y(lr_at_step), left + (right - left) * (0.15 if narrow else 0.3), bottom - (bottom - top) * 0.16
        body += [d.line(px, py, tx - 4, ty + 8, width=1), d.dot(px, py, 4, fill=d.ACCENT, stroke="currentColor"),
                 d.text(tx, ty, labels["at_step"].format(step=format_number(step, locale)), font_weight="600"),
                 d.text(tx, ty + 18, labels["lr_value"].format(lr=d.num(lr_at_step, locale)))]
        desc = labels["alt_warmup_schedule"].format(peak=peak, warmup=warmup, step=format_number(step, locale),
                                                    lr=d.num(lr_at_step, locale))
    else:
        desc = labels["alt_warmup_ramp"].format(peak=peak, warmup=warmup)
    return d.svg("warmup-schedule", W, H, labels["title_warmup_schedule"], desc, body, narrow)


EXERCISE = Definition(
    id="terrain-warmup",
    lesson=3,
    data=MappingProxyType({"peak_lr": Rational(3, 10000), "warmup_steps": Integer(2000), "step": Integer(50),
                           "fraction": Rational(2, 5), "ratio_step": Integer(10)}),
    parts=parts,
    draw=draw,
    invariants=invariants,
    mistakes=mistakes,
    data_items=data_items,
    figure=Figure("warmup-schedule", figure),
    message_keys=("off-by-one-step", "peak-not-ramped", "ramp-fraction-not-lr", "percent-vs-fraction",
                  "lr-instead-of-step", "ratio-inverted"),
)
