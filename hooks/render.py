"""Exercise and figure rendering from the grader's bank."""

from __future__ import annotations

FIGURES = ("embedding-distances", "attention-weights", "warmup-schedule", "reachable-region", "warmup-subsimplex")
EXERCISES = ("embedding-distances", "attention-weights", "terrain-warmup", "reachable-vertices", "submanifold-dims")


def exercise_ids():
    return EXERCISES


def figure_ids():
    return FIGURES


def make_renderers(settings, labels):
    def render_exercise(exercise_id, lang, hints):
        return ""

    def render_figure(figure_id, lang):
        return ""

    return render_exercise, render_figure
