"""Lesson 2, "Reading a projection": the scores of three keys against a query, scaled, and softmaxed.

Data: ``{"q": column, "keys": (column, column, column), "d_k": Integer}``; entries 0 or 1, and two
keys tie for the top score.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

import sympy
from sympy import ImmutableMatrix, Integer

from grader.arithmetic import compare
from grader.languages.numerals import exact_fraction, format_number
from grader.model import drawing as d
from grader.model import geometry as g
from grader.model.exercise import Definition, Figure, Part, finding
from grader.model.tex import tex_vector

FORM = "form.key-order"


def _bits(*values) -> ImmutableMatrix:
    return ImmutableMatrix([Integer(v) for v in values])


def _scores(data):
    scores = [g.dot(data["q"], k) for k in data["keys"]]
    return scores, [s / g.sqrt(data["d_k"]) for s in scores]


def parts(data, lesson: bool):
    scores, scaled = _scores(data)
    return (
        Part("scores", 3, "vector", FORM, "(0, 1, 2)", g.vector(scores), entries="integer"),
        Part("scaled", 3, "vector", FORM, "(0, 1, 2)", g.vector(scaled)),
        Part("weights", 3, "vector", FORM, "(1/3, 1/3, 1/3)", g.vector(g.softmax(scaled))),
    )


def mistakes(ex):
    scores, scaled = _scores(ex.data)
    by_dk = tuple(s / ex.data["d_k"] for s in scores)
    return {
        "scores": [("scaled-as-scores", tuple(scaled))],
        "scaled": [("scores-as-scaled", tuple(scores)), ("divided-by-dk", by_dk)],
        "weights": [("unscaled-softmax", g.softmax(scores)), ("scores-as-weights", tuple(scores)),
                    ("scaled-as-weights", tuple(scaled)), ("softmax-divided-by-dk", g.softmax(by_dk)),
                    ("exp-not-normalized", tuple(g.exp(s) for s in scaled))],
    }


def sums_to_one(answer, figures):
    """Weights must add up to 1: say what the student's add up to when they do not."""
    total = sum(answer, sympy.S.Zero)
    if compare.compare_scalar(total, sympy.S.One).equal:
        return None
    return finding("weights-not-normalized", total=sum_as_written(total, answer, figures))


def sum_as_written(total, answer, figures):
    """The sum of the student's numbers at the precision they wrote: decimals with as many places as
    the answer's longest decimal (a Decimal keeps them: 0.50 + 0.20 + 0.20 is 0.90), exact fractions as
    a fraction, anything else (an exact form with e or sqrt) to 4 figures."""
    fraction = exact_fraction(total)
    places = [_places(exact_fraction(v), f) for v, f in zip(answer, figures) if f is not None]
    if fraction is not None and places:
        exact = Decimal(fraction.numerator) / Decimal(fraction.denominator)
        return exact.quantize(Decimal(1).scaleb(-max(places)))
    if fraction is not None:
        return fraction.numerator if fraction.denominator == 1 else fraction
    try:
        value = compare.evaluated(total, 4)
    except compare.TooLarge:
        value = None
    return value if value is not None else total


def _places(value: Fraction | None, figures: int) -> int:
    """Decimal places of a decimal typed with ``figures`` significant figures: 0.0500 has 4, 12.50 has 2."""
    if not value:
        return max(figures - 1, 0)
    magnitude = (Decimal(abs(value.numerator)) / Decimal(value.denominator)).adjusted()   # 0.05: -2
    return max(figures - 1 - magnitude, 0)


# --- variants: a query, three keys, a tie ------------------------------------

def draw(draw):
    bits = lambda: g.vector([Fraction(draw.integer(0, 1)) for _ in range(4)])  # noqa: E731
    return MappingProxyType({"q": bits(), "keys": (bits(), bits(), bits()), "d_k": Fraction(4)})


def invariants(data) -> list[str]:
    out = []
    q, keys = data["q"], data["keys"]
    if data["d_k"] != len(q) or any(len(k) != len(q) for k in keys):
        out.append("d_k is the dimension of q and of every key")
    if any(x not in (0, 1) for v in (q, *keys) for x in v):
        out.append("entries are 0 or 1")
    if all(x == 0 for x in q) or any(all(x == 0 for x in k) for k in keys):
        out.append("no zero query or key")
    if len(set(tuple(k) for k in keys)) < 3:
        out.append("three different keys")
    scores = sorted(int(g.dot(q, k)) for k in keys)
    if not scores[0] < scores[1] == scores[2]:
        out.append("two keys tie for the highest score, the third scores lower")
    return out


# --- what the site shows -------------------------------------------------------

def data_items(ex, locale: str):
    items = [f"$q = {tex_vector(ex.data['q'], locale)}$"]
    items += [f"$k_{i} = {tex_vector(k, locale)}$" for i, k in enumerate(ex.data["keys"], 1)]
    d_k = ex.data["d_k"]
    return items + [rf"$d_k = {format_number(d_k, locale)}, \quad \sqrt{{d_k}} = {sympy.latex(sympy.sqrt(d_k))}$"]


def derivation(ex, locale: str):
    _, scaled = _scores(ex.data)
    return [r"w_i = \frac{e^{s_i}}{\sum_j e^{s_j}}, \quad s = " + tex_vector(scaled, locale)]


def figure(ex, labels, locale: str, solutions: bool, narrow: bool = False) -> str:
    """Per key: its vector and, with solutions, its scaled score q·kᵢ/√d_k and softmax weight as bars.
    Narrow: each key's vector on a line of its own, its bars under it."""
    q, keys, d_k = tuple(ex.data["q"]), [tuple(k) for k in ex.data["keys"]], ex.data["d_k"]
    scaled, weights = tuple(ex.part("scaled").reference), tuple(ex.part("weights").reference)
    W, top, row, bar = (d.NARROW, 96, 66, 20) if narrow else (640, 96, 46, 20)
    H = top + row * len(keys) + 34
    # column starts (scores, weights), the longest bar, and how far under its key's line a row's bars are
    xs, xw, span, under = (20, 190, 100, 22) if narrow else (215, 430, 120, 0)
    values = [float(v) for v in scaled]
    low, high = min(0.0, *values), max(0.0, *values)
    zero = xs + (span * -low / (high - low) if high > low else 0)
    unit = span / (high - low) if high > low else 0
    body = [d.text(20, 24, labels["query"].format(q=d.point_text(q, locale), d_k=d.num(d_k, locale)), font_weight="600"),
            *([] if narrow else [d.text(20, 62, labels["col_key"], font_weight="600")]),  # each key's line names it
            d.text(xs, 62, labels["col_scaled"], font_weight="600"), d.text(xs, 80, "q · kᵢ / √dₖ", size=12),
            d.text(xw, 62, labels["col_weight"], font_weight="600"), d.text(xw, 80, "softmax", size=12),
            d.line(20, 88, W - 20, 88, width=1)]
    for i, (key, s, w) in enumerate(zip(keys, scaled, weights)):
        body.append(d.text(20, top + i * row + 15, f"k{chr(0x2081 + i)} = {d.point_text(key, locale)}"))
        y = top + i * row + under
        body.append(d.rect(xw, y, span, bar, 0.0, stroke_opacity=0.35, stroke_dasharray="2 2"))
        if solutions:
            body.append(d.rect(min(zero, zero + float(s) * unit), y, abs(float(s)) * unit, bar, 0.2))
            body.append(d.text(max(zero, zero + float(s) * unit) + 6, y + 15, d.num(s, locale)))
            body.append(d.rect(xw, y, float(w) * span, bar, 0.55, d.ACCENT, d.ACCENT))
            body.append(d.text(xw + span + 8, y + 15, d.num(w, locale)))
    if solutions:
        body.append(d.line(zero, top + under - 4, zero, top + row * len(keys) - row + under + bar + 4, width=1))
        body.append(d.text(xw + span + 8, top + row * len(keys) + 8,
                           "Σ = " + d.num(sum(weights, sympy.S.Zero).simplify(), locale), size=12))
        rows = [labels["attention_row"].format(key=f"k{chr(0x2081 + i)}", score=d.num(s, locale), weight=d.num(w, locale))
                for i, (s, w) in enumerate(zip(scaled, weights))]
        alt = "alt_attention_weights"
    else:
        rows = [f"k{chr(0x2081 + i)} = {d.point_text(key, locale)}" for i, key in enumerate(keys)]
        alt = "alt_attention_keys"
    desc = labels[alt].format(q=d.point_text(q, locale), d_k=d.num(d_k, locale), rows=d.list_text(rows, locale))
    return d.svg("attention-weights", W, H, labels["title_attention_weights"], desc, body, narrow)


EXERCISE = Definition(
    id="attention-weights",
    lesson=2,
    data=MappingProxyType({"q": _bits(1, 0, 1, 0), "keys": (_bits(1, 0, 0, 0), _bits(0, 0, 1, 0), _bits(0, 1, 0, 1)),
                           "d_k": Integer(4)}),
    parts=parts,
    draw=draw,
    invariants=invariants,
    mistakes=mistakes,
    answer_rules=MappingProxyType({"weights": (sums_to_one,)}),
    data_items=data_items,
    derivation=derivation,
    figure=Figure("attention-weights", figure),
    message_keys=("scaled-as-scores", "scores-as-scaled", "divided-by-dk", "unscaled-softmax", "scores-as-weights",
                  "scaled-as-weights", "softmax-divided-by-dk", "exp-not-normalized", "weights-not-normalized"),
)
