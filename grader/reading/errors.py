"""Why an answer cannot be read: a message key, its parameters and a column in what was typed."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ParseError:
    """Why an answer was rejected: a message key, its parameters, a column."""
    key: str
    column: int
    params: tuple[tuple[str, str], ...] = field(default=())

    @property
    def param_dict(self) -> dict[str, str]:
        return dict(self.params)


class AnswerSyntaxError(ValueError):
    def __init__(self, error: ParseError):
        super().__init__(f"{error.key} at column {error.column}")
        self.error = error


def fail(key: str, column: int, **params: object) -> AnswerSyntaxError:
    return AnswerSyntaxError(ParseError(key, column, tuple((k, str(v)) for k, v in params.items())))
