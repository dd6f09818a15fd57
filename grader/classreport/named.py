"""Which notes are a part's *named mistakes*, and the words of any note.

A named mistake is a misconception the grader recognises in one part (``squared-distance``,
``unscaled-softmax``, ``off-by-one-step``...). Other notes (``incorrect``,
``decimal-imprecise``, ``components-wrong``, a parse error, ``missing``...) say how an
answer failed, not which idea was wrong: the report shows them as categories of their own.
"""
from __future__ import annotations

from functools import cache

from grader.languages.messages import DEFAULT, catalog, message, placeholders

# What grader.judging.feedback's shared rules add to every part of a kind.
SHARED_KEYS = {"vector": ("wrong-order", "other-part"), "real": ("other-part",), "integer": ("other-part",),
               "set": ("duplicate-point", "missing-points")}


@cache
def named_mistakes(exercise_id: str, part_id: str) -> tuple[str, ...]:
    """The stable keys of the named mistakes of one part, in the order the grader tries them
    (empty for a part the bank does not know): the exercise module's named mistakes for the part,
    the keys of its own rules when they apply to the part (rules on this vector, notes on a point
    of this set), and the shared rules of the part's kind."""
    from grader import bank
    try:
        exercise = bank.get(exercise_id)
        part = exercise.part(part_id)
    except KeyError:
        return ()
    definition = exercise.definition
    tables = definition.mistakes(exercise) or {}
    keys = [key for key, _ in tables.get(part_id, [])]
    mistake_keys = {key for rows in tables.values() for key, _ in rows}
    own_rules = part_id in definition.answer_rules or (part.kind == "set" and definition.point_note is not None)
    if own_rules:
        keys += [k for k in definition.message_keys if k not in mistake_keys and not k.startswith("constraint-")]
    keys += SHARED_KEYS.get(part.kind, ())
    return tuple(dict.fromkeys(keys))


def report_key(key: str) -> str:
    """The catalog key of the report's own words for a named mistake: a noun phrase naming the
    misconception, which needs none of the values (a point, a sum...) of the feedback's template."""
    return f"report.named.{key}"


def note_text(key: str, lang: str) -> str:
    """A note's words in ``lang``: its feedback when that needs no values; otherwise the report's
    own words for it (:func:`report_key`), or, for a note that has none, the feedback with its
    particulars left as '…'."""
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        return key
    names = placeholders(template)
    if not names:
        return message(key, lang)
    if report_key(key) in catalog(DEFAULT):
        return message(report_key(key), lang)
    return message(key, lang, **{name: "\u2026" for name in names})
