"""An exercise as the command line and the page show it: its data as text, and the whole of it as
the JSON of ``grader show --format json``, words in a language."""
from __future__ import annotations

from grader.arithmetic.tolerance import SIGNIFICANT_FIGURES
from grader.languages.messages import message, plain_math
from grader.model import targets
from grader.model.exercise import Exercise
from grader.reading.show import show


def prompt_markup(ex: Exercise, part, lang: str) -> str:
    """What to compute, in ``lang`` (with its ``$TeX$``), and how many figures to give when the part
    asks for more than the tolerance's three (a target lies too near its answer)."""
    text = part.prompt_markup(lang)
    digits = targets.figures(ex, part.id)
    if digits <= SIGNIFICANT_FIGURES:
        return text
    asked = message("part-figures", lang, digits=digits)
    return text + ("" if asked.startswith("\uff08") else " ") + asked     # （ needs no space before it


def prompt_text(ex: Exercise, part, lang: str) -> str:
    """:func:`prompt_markup` as plain text (the command line)."""
    return plain_math(prompt_markup(ex, part, lang))


def _value(v) -> str:
    return show(v)


def data_text(value) -> str:
    if hasattr(value, "items"):
        return ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) or "-"
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        return ", ".join(value)
    return _value(value)


def _data_json(value):
    if hasattr(value, "items"):
        return {k: _value(v) for k, v in value.items()}
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        return list(value)
    return _value(value)


def exercise_dict(ex: Exercise, lang: str) -> dict:
    """``grader show --format json``: ids and data as in the bank, words in ``lang``."""
    return {"id": ex.id, "lesson": ex.lesson, "title": ex.title_in(lang), "seed": ex.seed,
            "data": {k: _data_json(v) for k, v in ex.data.items()},
            "data_labels": {k: ex.label_in(k, lang) for k in ex.data},
            "parts": [{"id": p.id, "points": p.points, "kind": p.kind,
                       "entries": p.entries if p.kind in ("vector", "set") else None, "form": p.form_in(lang),
                       "example": p.example, "prompt": prompt_text(ex, p, lang)} for p in ex.parts]}
