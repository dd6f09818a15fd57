"""The manual: the README, its front door, and the site's pages for each of its readers, in the order a reader
meets them. Its examples are the grader's own: tests/grader/test_readme.py runs every `$ grader ...` of its
`console` blocks and compares what it prints, and the in-page checker is proved on every `grader check` of it
(hooks/checker/corpus.py). Read as text: nothing is imported."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = ("README.md", "docs/en/grader.md", "docs/en/instructors.md", "docs/en/authors.md", "docs/en/translators.md",
         "docs/en/publishing.md")


def paths(root: Path = ROOT) -> list[Path]:
    return [root / name for name in FILES]


def texts(root: Path = ROOT) -> dict[str, str]:
    """Each file of the manual (its name in the project) and its text."""
    return {name: (root / name).read_text(encoding="utf-8") for name in FILES}
