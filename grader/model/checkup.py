"""An author's check of one exercise (``grader check-exercise``): what breaks, in English words.

:func:`findings` builds the exercise on the lesson's data and on ``n`` variants (seeds ``check-0``,
``check-1``, ...: the same on every run) and says, one line each, naming the exercise, the seed
and the part: a reference that is not exact (a float in it), lesson data that breaks the invariants a
variant keeps, a variant whose shape or answers differ from the lesson's or between its plain numbers
and SymPy, an example answer that is correct, and (variants) a named mistake equal to the answer or
a target three significant figures cannot tell from it (:func:`grader.model.targets.crowding`).
"""
from __future__ import annotations

import sympy

from grader.arithmetic import compare, tolerance
from grader.arithmetic.intervals import Undecided
from grader.model import geometry as g
from grader.model import targets, variants
from grader.model.exercise import Definition, Exercise
from grader.model.seeds import Draw

VARIANTS = 200


def seeds(n: int) -> list[str]:
    """The seeds of the ``n`` variants checked: the same on every run."""
    return [f"check-{i}" for i in range(n)]


def findings(definition: Definition, n: int = VARIANTS) -> list[str]:
    """Every problem of the exercise on its lesson's data and on ``n`` variants, one line each."""
    lesson = definition.build(definition.data)
    found = [_line(definition.id, None, None, f"the lesson's data breaks an invariant: {text}")
             for text in definition.invariants(definition.data)]
    found += _exercise_findings(lesson)
    for seed in seeds(n):
        found += _variant_findings(definition, lesson, seed)
    return found


def _line(exercise_id: str, seed: str | None, part_id: str | None, what: str) -> str:
    where = "lesson" if seed is None else f"seed {seed!r}"
    return f"{exercise_id}, {where}" + (f", part {part_id}" if part_id else "") + f": {what}"


def _variant_findings(definition: Definition, lesson: Exercise, seed: str) -> list[str]:
    say = lambda part_id, what: _line(definition.id, seed, part_id, what)  # noqa: E731
    try:
        drawn = variants.drawn(definition, seed)
        exact = variants.in_sympy(definition, drawn, seed)
    except RuntimeError as exc:       # every draw broke something: say what the first one breaks
        first = definition.build(g.to_sympy(definition.draw(Draw(definition.id, seed))), seed)
        return [say(None, f"{exc}; the first draw breaks these:"),
                *(say(None, f"an invariant: {text}") for text in definition.invariants(first.data)),
                *variant_findings(first)]
    except Exception as exc:  # noqa: BLE001  (an author's bug: said, the other seeds still checked)
        return [say(None, f"no variant: {type(exc).__name__}: {exc}")]
    found = []
    if set(exact.data) != set(lesson.data):
        found.append(say(None, f"the variant's data names {sorted(exact.data)}, the lesson's {sorted(lesson.data)}"))
    shape = lambda ex: [(p.id, p.kind, p.points, p.form, p.entries) for p in ex.parts]  # noqa: E731
    if shape(exact) != shape(lesson):
        found.append(say(None, f"the variant's parts {shape(exact)} are not the lesson's {shape(lesson)}"))
    for plain, part in zip(drawn.parts, exact.parts):
        for value in _floats(plain.reference):
            found.append(say(part.id, f"the reference drawn in plain numbers is not exact: it holds the float {value!r}"))
        if not _same(plain.reference, part.reference, part.kind):
            found.append(say(part.id, f"the reference in plain numbers ({plain.reference}) is not the one in "
                                      f"SymPy ({part.reference})"))
    return found + variant_findings(exact)


def variant_findings(exact: Exercise) -> list[str]:
    """What breaks in a variant built in SymPy: a reference not exact, a correct example, a named mistake
    equal to an answer, a target three significant figures cannot tell from an answer."""
    found = _exercise_findings(exact)
    for part in exact.parts:
        for name in targets.crowding(exact, part.id, tolerance.SIGNIFICANT_FIGURES):
            what = f"the named {name} equals the answer" if name.startswith("mistake ") and _equal(exact, part.id, name) \
                else f"three significant figures cannot tell the answer from its {name}"
            found.append(_line(exact.id, exact.seed, part.id, what))
    return found


def _exercise_findings(ex: Exercise) -> list[str]:
    """On the lesson's data or a variant in SymPy: each reference is exact, no example is correct."""
    found = []
    for part in ex.parts:
        for value in _floats(part.reference):
            found.append(_line(ex.id, ex.seed, part.id, f"the reference {part.reference} is not exact: it holds "
                                                        f"the float {value!r} (write it as an Integer or a Rational)"))
        if variants._example_is_correct(part):
            found.append(_line(ex.id, ex.seed, part.id, f"the example answer {part.example!r} is the right answer"))
    return found


def _floats(value) -> list:
    """The floats (Python's or SymPy's) anywhere in a reference."""
    if isinstance(value, float):
        return [value]
    if isinstance(value, (tuple, list, frozenset, set)):
        return [f for item in value for f in _floats(item)]
    if isinstance(value, (sympy.Basic, sympy.MatrixBase)):
        return sorted(value.atoms(sympy.Float), key=float)
    return []


def _same(plain, exact, kind: str) -> bool:
    """Do a reference in plain numbers and the same in SymPy agree (as far as 30 digits can tell)?"""
    if kind == "set":
        a, b = [sorted(tuple(p) for p in points) for points in (plain, exact)]
        return len(a) == len(b) and all(_close(tuple(p), tuple(q)) for p, q in zip(a, b))
    return _close(targets.entries(plain), targets.entries(exact))


def _close(x: tuple, y: tuple) -> bool:
    if len(x) != len(y):
        return False
    bounds = compare.gap_bounds(x, y)
    return bounds is None or bounds[0] <= 0


def _equal(ex: Exercise, part_id: str, name: str) -> bool:
    reference = targets.entries(ex.part(part_id).reference)
    for found, value in targets.named_targets(ex, part_id):
        if found == name and len(value) == len(reference):
            bounds = compare.gap_bounds(value, reference)
            if bounds is None:
                raise Undecided("how far a named mistake lies from the reference")
            if bounds[0] <= 0:
                return True
    return False
