"""Which notes are a part's *named mistakes*, and the words of any note.

A named mistake is a misconception the grader recognises in one part (``squared-distance``,
``unscaled-softmax``, ``off-by-one-step``...). Other notes (``incorrect``,
``decimal-imprecise``, ``components-wrong``, a parse error, ``missing``...) say how an
answer failed, not which idea was wrong: the report shows them as categories of their own.
"""
from __future__ import annotations

from functools import cache

from ..messages import DEFAULT, catalog, message, placeholders

# The keys grader.feedback's rules produce (they are functions, their keys are not data):
# kept here only until every exercise declares its named mistakes in its own module.
VECTOR_RULE_KEYS = ("wrong-order",)
PART_RULE_KEYS = {("attention-weights", "weights"): ("weights-not-normalized",)}
SET_RULE_KEYS = ("wrong-point-size", "not-a-vertex", "point-outside-region",
                 "removed-simplex-vertex", "duplicate-point", "missing-points")


@cache
def named_mistakes(exercise_id: str, part_id: str) -> tuple[str, ...]:
    """The stable keys of the named mistakes of one part, in the order the grader tries
    them (empty for a part the bank does not know).

    The one place that answers "is this note a named mistake of this part?": computed from
    :mod:`grader.feedback`'s mistake tables (every row, whatever the variant) and its vector
    and set rules, until each exercise module declares its own.
    """
    from .. import bank, feedback
    try:
        exercise = bank.get(exercise_id)
        kind = exercise.part(part_id).kind
    except KeyError:
        return ()
    table = feedback.MISTAKE_TABLES.get(exercise_id)
    keys = [key for key, _ in table(exercise).get(part_id, [])] if table else []
    if kind == "vector":
        keys += [*VECTOR_RULE_KEYS, *PART_RULE_KEYS.get((exercise_id, part_id), ())]
    if kind == "set":
        keys += SET_RULE_KEYS
    return tuple(dict.fromkeys(keys))


def note_text(key: str, lang: str) -> str:
    """A note's words in ``lang``, its particulars (a point, a value...) left as '…'."""
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        return key
    return message(key, lang, **{name: "\u2026" for name in placeholders(template)})
