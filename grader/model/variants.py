"""Variants: an exercise's data drawn from a seed, keeping the exercise's character.

:func:`grader.bank.variant` and :func:`grader.bank.numeric` are the entry points (and keep the variants drawn). Choices come from :class:`grader.model.seeds.Draw`, a
SHA-256 stream of the exercise id and the seed. Each exercise module declares its drawing
function and its invariants (which the lesson's own data satisfies too); a draw that breaks one
is drawn again, from the same stream, so the result is still a function of the seed.

A module may draw its data as plain numbers (Fractions, :class:`grader.model.geometry.Vector`); its
formulas (:mod:`grader.model.geometry`) then run on them too. :func:`drawn` is that variant: its
references and named mistakes as exact fractions or proven intervals (:mod:`grader.arithmetic.intervals`),
computed in well under a millisecond, which is what grading a class on variants needs.
:func:`in_sympy` builds the same variant in SymPy from the same data, for exact forms and for
display. A question the plain numbers cannot decide is decided on the SymPy data, so both
always agree on which data a seed gives.
"""
from __future__ import annotations

from functools import lru_cache

from grader.arithmetic.intervals import Undecided
from grader.model import geometry as g
from grader.model import targets
from grader.model.seeds import Draw

MAX_DRAWS = 200


def problems(exercise) -> list[str]:
    """The invariants ``exercise`` breaks: its character, and no example is correct."""
    return list(exercise.definition.invariants(exercise.data)) + _answers_apart(exercise)


def _answers_apart(exercise) -> list[str]:
    """The invariants on its answers: no example is correct, and (a variant, which can be redrawn) three
    significant figures tell every part's answer from each of its targets (other answers, named mistakes)."""
    found = [f"the example of {p.id} is not its answer" for p in exercise.parts
             if _example_is_correct(p)]
    if exercise.seed is not None:      # the lesson's own data cannot be redrawn: there the part asks for more figures
        found += [f"three significant figures tell the answer of {p.id} from its {name}"
                  for p in exercise.parts for name in targets.crowding(exercise, p.id)]
    return found


@lru_cache(maxsize=256)
def _example(text: str):
    from grader.reading.parse import parse_answer
    return parse_answer(text).value


def _example_is_correct(part) -> bool:
    from grader.arithmetic.compare import compare_scalar, compare_vector
    if part.kind == "set":
        return False      # a single point never covers a region's vertices
    parsed = _example(part.example)
    if part.kind == "vector":
        reference = tuple(part.reference)
        return len(parsed) == len(reference) and all(
            v.equal for v in compare_vector(parsed, reference, exact=part.whole))
    return compare_scalar(parsed, part.reference, exact=part.whole).equal


def _valid(definition, data, seed: str):
    """The exercise built from ``data`` when it keeps the exercise's character, else None.
    Decided on the data as drawn; where plain numbers cannot decide, on the same data in SymPy."""
    try:
        if definition.invariants(data):
            return None
        exercise = definition.build(data, seed)
        return None if _answers_apart(exercise) else exercise
    except Undecided:
        exact = g.to_sympy(data)
        if definition.invariants(exact) or problems(definition.build(exact, seed)):
            return None
        return definition.build(data, seed)


def drawn(definition, seed: str):
    """The variant ``seed`` of the exercise ``definition`` declares, as drawn: its data, references
    and named mistakes in plain numbers when its module draws them so (else in SymPy). The first
    draw that keeps the exercise's character, from the seed's stream (:class:`grader.model.seeds.Draw`)."""
    d = Draw(definition.id, seed)
    for _ in range(MAX_DRAWS):
        exercise = _valid(definition, definition.draw(d), seed)
        if exercise is not None:
            return exercise
    raise RuntimeError(f"no valid variant of {definition.id} for seed {seed!r} "
                       f"in {MAX_DRAWS} draws")   # a bug in a drawing function


def in_sympy(definition, drawn_exercise, seed: str):
    """A variant as :func:`drawn` gives it, built again from the same data as SymPy values."""
    return definition.build(g.to_sympy(drawn_exercise.data), seed)
