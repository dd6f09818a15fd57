"""The exercise bank: the registry of the exercise modules in :mod:`grader.exercises`.

Every module of that package whose name does not start with ``_`` declares one exercise as
``EXERCISE`` (a :class:`grader.model.exercise.Definition`); this module finds them, in lesson order,
and builds each exercise from its data the first time it is asked for. The command line, the
batch grader, the site's hook and its figures iterate over this registry and never name an
exercise: a new exercise is one new module (plus its chapter text and catalog entries).

Every reference answer is computed by the exercise's module from its ``data`` with SymPy; none
is typed. :func:`variant` gives an exercise drawn from a seed (:mod:`grader.model.variants`).
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Iterator

from grader import exercises as _package
from grader.model import variants
from grader.model.exercise import KINDS, Definition, Exercise, Figure, Part, UnknownExercise, UnknownPart  # noqa: F401
from grader.model.seeds import seed_text


@cache
def definitions() -> tuple[Definition, ...]:
    """Every exercise module's declaration, in lesson order."""
    found = []
    for info in pkgutil.iter_modules(_package.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{_package.__name__}.{info.name}")
        definition = getattr(module, "EXERCISE", None)
        if not isinstance(definition, Definition):
            raise TypeError(f"{module.__name__} declares no EXERCISE = Definition(...)")
        found.append(definition)
    ids = [d.id for d in found]
    if len(set(ids)) != len(ids):
        raise ValueError(f"two exercise modules declare the same id: {sorted(ids)}")
    return tuple(sorted(found, key=lambda d: (d.lesson, d.id)))


@cache
def definition(exercise_id: str) -> Definition:
    for found in definitions():
        if found.id == exercise_id:
            return found
    raise UnknownExercise(exercise_id, [d.id for d in definitions()])


class _Lessons(Mapping):
    """{id: the exercise on its lesson's own data}, in lesson order, each built when first used."""

    def __getitem__(self, exercise_id: str) -> Exercise:
        return _lesson(exercise_id)

    def __iter__(self) -> Iterator[str]:
        return iter(d.id for d in definitions())

    def __len__(self) -> int:
        return len(definitions())

    def __contains__(self, exercise_id: object) -> bool:
        return any(d.id == exercise_id for d in definitions())


EXERCISES: Mapping[str, Exercise] = _Lessons()


@cache
def _lesson(exercise_id: str) -> Exercise:
    found = definition(exercise_id)
    return found.build(found.data)


def get(exercise_id: str) -> Exercise:
    """The exercise with this id, on the lesson's data; :class:`UnknownExercise` (a KeyError) if none."""
    return _lesson(exercise_id)


def variant(exercise_id: str, seed: str | int | None) -> Exercise:
    """The exercise drawn from ``seed``; ``None``: the lesson's own (:func:`get`).

    ``seed`` is any non-empty text (a student id such as ``s0042``) or an integer; ``42`` and
    ``"42"`` are the same seed. The same seed gives the same data on every machine
    (:mod:`grader.model.seeds` draws with SHA-256). Raises :class:`UnknownExercise` for an unknown id
    and :class:`grader.model.seeds.InvalidSeed` (a ValueError) for an unusable seed. Cached: the same
    call returns the same object.
    """
    exercise = get(exercise_id)
    if seed is None:
        return exercise
    return _variant(exercise_id, seed_text(seed))


@lru_cache(maxsize=4096)
def _variant(exercise_id: str, seed: str) -> Exercise:
    return variants.in_sympy(definition(exercise_id), _drawn(exercise_id, seed), seed)


def numeric(exercise_id: str, seed: str | None) -> Exercise:
    """The variant ``seed`` (any text :func:`grader.model.seeds.seed_text` accepts) as drawn: its
    data, references and named mistakes in plain numbers when its module draws them so (else in
    SymPy, like :func:`variant`); ``None``: the lesson's own exercise. Cached."""
    if seed is None:
        return get(exercise_id)
    return _drawn(exercise_id, seed_text(seed))


@lru_cache(maxsize=1024)
def _drawn(exercise_id: str, seed: str) -> Exercise:
    return variants.drawn(definition(exercise_id), seed)


def figures() -> dict[str, Definition]:
    """{figure id: the exercise that draws it}."""
    return {d.figure.id: d for d in definitions() if d.figure is not None}


def catalog_needs() -> dict[str, str]:
    """{message key: the exercise module that uses it}: every key the exercises need in the catalogs
    (their titles, prompts, data labels, forms and feedback), for the catalog check."""
    needs = {}
    for found in definitions():
        module = found.parts.__module__.replace(".", "/") + ".py"
        for key in found.catalog_keys():
            needs.setdefault(key, module)
    return needs
