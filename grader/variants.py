"""Variants: an exercise's data drawn from a seed, keeping the exercise's character.

:func:`grader.bank.variant` is the entry point. Choices come from :class:`grader.seeds.Draw`, a
SHA-256 stream of the exercise id and the seed. Each exercise module declares its drawing
function and its invariants (which the lesson's own data satisfies too); a draw that breaks one
is drawn again, from the same stream, so the result is still a function of the seed.
"""
from __future__ import annotations

from .seeds import Draw

MAX_DRAWS = 200


def problems(exercise) -> list[str]:
    """The invariants ``exercise`` breaks: its character, and no example is correct."""
    found = list(exercise.definition.invariants(exercise.data))
    found += [f"the example of {p.id} is not its answer" for p in exercise.parts
              if _example_is_correct(p)]
    if exercise.seed is not None:      # the lesson's own data cannot be redrawn: there the nearest reference decides
        found += [f"the answers of {a.id} and {b.id} are at least twice the tolerance apart"
                  for a, b in _too_close(exercise.parts)]
    return found


def _too_close(parts):
    """Pairs of parts whose references differ but lie within twice the tolerance of each other."""
    from .compare import within
    numbers = [(p, tuple(p.reference) if p.kind == "vector" else (p.reference,))
               for p in parts if p.kind in ("real", "integer", "vector")]
    for i, (a, va) in enumerate(numbers):
        for b, vb in numbers[i + 1:]:
            if len(va) == len(vb) and va != vb and all(within(x, y, 2) for x, y in zip(va, vb)):
                yield a, b


def _example_is_correct(part) -> bool:
    from .compare import compare_scalar, compare_vector
    from .parse import parse_answer
    parsed = parse_answer(part.example).value
    if part.kind == "set":
        return False      # a single point never covers a region's vertices
    if part.kind == "vector":
        reference = tuple(part.reference)
        return len(parsed) == len(reference) and all(
            v.equal for v in compare_vector(parsed, reference, exact=part.whole))
    return compare_scalar(parsed, part.reference, exact=part.whole).equal


def draw_valid(definition, seed: str):
    """Draw until the data keeps the exercise's character; build the exercise from it."""
    d = Draw(definition.id, seed)
    for _ in range(MAX_DRAWS):
        data = definition.draw(d)
        if definition.invariants(data):
            continue
        exercise = definition.build(data, seed)
        if not problems(exercise):
            return exercise
    raise RuntimeError(f"no valid variant of {definition.id} for seed {seed!r} "
                       f"in {MAX_DRAWS} draws")   # a bug in a drawing function
