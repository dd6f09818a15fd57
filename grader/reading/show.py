"""Values written back as a student would type them: the inverse of reading an answer."""
from __future__ import annotations


def show(value) -> str:
    """How a value is written back to a student: '(1/2, 1/4, 1/4)', 'sqrt(14)/2'."""
    if isinstance(value, (tuple, list)) or getattr(value, "is_Matrix", False):
        return "(" + ", ".join(show(v) for v in value) + ")"
    return str(value).replace("**", "^")
