"""An exercise as the command line and the page show it: its data as text, and the whole of it as
the JSON of ``grader show --format json``, words in a language."""
from __future__ import annotations

from grader.model.exercise import Exercise
from grader.reading.show import show


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
                       "example": p.example, "prompt": p.prompt_in(lang)} for p in ex.parts]}
