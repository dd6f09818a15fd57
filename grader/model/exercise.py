"""What an exercise is: the interface every module in :mod:`grader.exercises` declares.

An exercise module holds everything about one exercise, and nothing outside it names the
exercise: its lesson data; how the reference answers are computed from that data (``parts``);
the variant draw and the invariants a variant keeps (``draw``, ``invariants``); its named
mistakes (``mistakes``: stable key -> wrong value, computed from the data) and the rules that
explain other wrong answers (``answer_rules``, ``point_note``); what the site shows (``data_items``,
``derivation``, ``figure``); and the message keys it uses (``message_keys``).
:mod:`grader.bank` finds the modules and builds :class:`Exercise` objects from them.

Words live in the catalogs (:mod:`grader.languages.messages`) under keys derived from the ids:
``exercise.<id>.title``, ``part.<id>.<part>.prompt``, ``data.<id>.<name>``, plus the keys the
module lists. A prompt may hold ``$TeX$``: the site renders it as math, the command line as text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from grader.languages.messages import message, plain_math
from grader.languages.numerals import plain_value

if TYPE_CHECKING:
    import sympy

    from grader.model.seeds import Draw

KINDS = frozenset({"real", "integer", "vector", "set"})
ENTRIES = frozenset({"real", "integer"})   # what a vector's components or a set's coordinates are


@dataclass(frozen=True)
class Finding:
    """What a check finds: a stable message key and its parameters (the words come later, in a
    language). An exercise's rules return them; so does the judge. A parameter is text, another
    message (``key:...``) or a value, numbers kept as numbers: the message writes them in the
    reader's format (:func:`grader.languages.numerals.format_value`)."""
    key: str
    params: tuple[tuple[str, object], ...] = field(default=())


def finding(key: str, **params: object) -> Finding:
    return Finding(key, tuple((k, plain_value(v)) for k, v in params.items()))


@dataclass(frozen=True)
class Part:
    """One answer to give. ``reference`` is a SymPy number, an ``ImmutableMatrix`` column
    (a vector, in the stated order) or a ``FiniteSet`` of ``Tuple`` points (a set).

    ``kind`` decides the rules (:mod:`grader.arithmetic.compare`): 'integer' (a whole number: exact), 'real' (a
    number: within the tolerance, or an exact form equal to it), 'vector' and 'set', whose entries
    are ``entries`` ('real' or 'integer')."""
    id: str
    points: int
    kind: str
    form: str        # message key of how to type it, e.g. "form.key-order"
    example: str     # a valid answer of the right shape that is NOT correct
    reference: "sympy.Basic"
    exercise: str = ""
    params: tuple[tuple[str, object], ...] = ()   # fill the prompt from the data
    entries: str = "real"

    @property
    def whole(self) -> bool:
        """Are the part's numbers whole numbers (compared exactly)?"""
        return self.kind == "integer" or self.entries == "integer"

    def prompt_markup(self, lang: str) -> str:
        """What to compute, in ``lang``, with its ``$TeX$`` (the site renders it); the parameters'
        numbers in the locale's format."""
        return message(f"part.{self.exercise}.{self.id}.prompt", lang, **dict(self.params))

    def prompt_in(self, lang: str) -> str:
        """What to compute, in ``lang``, as plain text (the command line)."""
        return plain_math(self.prompt_markup(lang))

    def form_in(self, lang: str) -> str:
        return message(self.form, lang)

    @property
    def prompt(self) -> str:
        return self.prompt_in("en")


@dataclass(frozen=True)
class Figure:
    """A figure drawn from an exercise: ``draw(exercise, labels, locale, solutions, narrow=False)`` gives SVG,
    ``narrow`` the layout for a phone's column (drawing.NARROW wide, from the same data).

    ``labels`` is the locale's ``[figures]`` table of labels.toml. With ``solutions`` False the
    figure draws the data only, never a reference answer."""
    id: str
    draw: Callable[..., str]                                       # (exercise, labels, locale, solutions, narrow=False)


def _none(*_args) -> tuple:
    return ()


@dataclass(frozen=True)
class Definition:
    """Everything one exercise module declares (see the module docstring)."""
    id: str
    lesson: int
    data: Mapping[str, object]                                    # the lesson's own data
    parts: Callable[[Mapping, bool], Sequence[Part]]              # (data, lesson?) -> parts
    draw: Callable[["Draw"], Mapping[str, object]]                # a variant's data from a seed
    invariants: Callable[[Mapping], list[str]]                    # what a variant must keep
    data_items: Callable[["Exercise", str], Sequence[str]]        # (exercise, locale) -> prose
    mistakes: Callable[["Exercise"], Mapping[str, Sequence[tuple[str, object]]]] = _none
    answer_rules: Mapping[str, tuple[Callable[[Sequence, Sequence], "Finding | None"], ...]] = \
        field(default_factory=lambda: MappingProxyType({}))       # part id -> rules on a vector (values, figures)
    point_note: Callable[["Exercise", tuple], "Finding"] | None = None   # set parts: a wrong point
    derivation: Callable[["Exercise", str], Sequence[str]] = _none   # display TeX of the working
    figure: Figure | None = None
    message_keys: tuple[str, ...] = ()                            # the keys its feedback uses

    def build(self, data: Mapping, seed: str | None = None) -> "Exercise":
        from dataclasses import replace
        parts = tuple(replace(p, exercise=self.id) for p in self.parts(data, seed is None))
        return Exercise(self.id, self.lesson, data, parts, seed, self)

    def catalog_keys(self, data: Mapping | None = None) -> tuple[str, ...]:
        """Every message key this exercise needs in the catalogs."""
        exercise = self.build(self.data if data is None else data)
        keys = [f"exercise.{self.id}.title", *(f"data.{self.id}.{name}" for name in exercise.data)]
        keys += [f"part.{self.id}.{p.id}.prompt" for p in exercise.parts]
        keys += [p.form for p in exercise.parts]
        return tuple(dict.fromkeys([*keys, *self.message_keys]))


@dataclass(frozen=True)
class Exercise:
    """An exercise built from data: the lesson's own (``seed`` None) or a variant's."""
    id: str
    lesson: int
    data: Mapping[str, object]
    parts: tuple[Part, ...]
    seed: str | None = None
    definition: Definition | None = field(default=None, compare=False, repr=False)

    def part(self, part_id: str) -> Part:
        for part in self.parts:
            if part.id == part_id:
                return part
        raise UnknownPart(self.id, part_id, tuple(p.id for p in self.parts))

    @property
    def max_score(self) -> int:
        return sum(p.points for p in self.parts)

    def title_in(self, lang: str) -> str:
        return message(f"exercise.{self.id}.title", lang)

    @property
    def title(self) -> str:
        return self.title_in("en")

    def label_in(self, name: str, lang: str) -> str:
        """How the data item ``name`` is called in ``lang``, e.g. 'peak learning rate (peak_lr)'."""
        return message(f"data.{self.id}.{name}", lang)


class UnknownExercise(KeyError):
    def __init__(self, exercise_id: str, known: Sequence[str] = ()):
        super().__init__(exercise_id)
        self.exercise_id, self.known = exercise_id, tuple(known)

    def __str__(self) -> str:
        return f"unknown exercise {self.exercise_id!r}; known: {', '.join(self.known)}"


class UnknownPart(KeyError):
    def __init__(self, exercise_id: str, part_id: str, known: Sequence[str] = ()):
        super().__init__(part_id)
        self.exercise_id, self.part_id, self.known = exercise_id, part_id, tuple(known)

    def __str__(self) -> str:
        return f"unknown part {self.part_id!r} of {self.exercise_id}; known: {', '.join(self.known)}"
