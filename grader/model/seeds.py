"""Seeds: the text a variant is drawn from, and the stream of choices it gives.

Kept apart from :mod:`grader.model.variants` (which needs SymPy) so the command line
can check a seed without importing SymPy. A seed (text, e.g. a student id) and
the exercise id are hashed with SHA-256; :class:`Draw` reads numbers from
SHA-256 of that key and a counter. That stream is ours: Python guarantees only
``random.random()`` across versions (not ``randint``/``choice``/``sample``) and
NumPy's ``Generator`` streams may change between releases, so neither would
promise "same seed, same data, on any machine".
"""
from __future__ import annotations

import hashlib
import unicodedata
from typing import Sequence

MAX_SEED_LENGTH = 100


class InvalidSeed(ValueError):
    """A seed that is empty, too long, or not text or an integer."""

    def __init__(self, seed: object):
        super().__init__(f"unusable seed {seed!r}: give a word or number of 1 to "
                         f"{MAX_SEED_LENGTH} printable characters, e.g. s0042")
        self.seed = seed


def seed_text(seed: str | int) -> str:
    """The canonical form of a seed: ``42`` and ``"42"`` are the same seed, and so are ``José`` typed
    with a combining accent and with the composed letter (Unicode NFC, as student ids are compared)."""
    if isinstance(seed, bool) or not isinstance(seed, (str, int)):
        raise InvalidSeed(seed)
    text = unicodedata.normalize("NFC", str(seed))
    if not text or len(text) > MAX_SEED_LENGTH or not text.isprintable() or text.strip() != text:
        raise InvalidSeed(seed)
    return text


class Draw:
    """A deterministic stream of choices for one (exercise, seed)."""

    def __init__(self, exercise_id: str, seed: str):
        self.key = hashlib.sha256(f"grader-variant\0{exercise_id}\0{seed}".encode()).digest()
        self.counter = 0

    def _u64(self) -> int:
        block = hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
        self.counter += 1
        return int.from_bytes(block[:8], "big")

    def integer(self, low: int, high: int) -> int:
        """Uniform in [low, high], without modulo bias."""
        span = high - low + 1
        limit = (1 << 64) - (1 << 64) % span
        while True:
            x = self._u64()
            if x < limit:
                return low + x % span

    def choice(self, options: Sequence):
        return options[self.integer(0, len(options) - 1)]

    def sample(self, options: Sequence, k: int) -> tuple:
        """``k`` distinct options, kept in the order ``options`` lists them."""
        pool = list(range(len(options)))
        chosen = []
        for _ in range(k):
            chosen.append(pool.pop(self.integer(0, len(pool) - 1)))
        return tuple(options[i] for i in sorted(chosen))
