"""The Layout section of the course authors' page (docs/en/authors.md) matches the tree: every module of the grader and the hooks, and every
benchmark, is named there, and nothing it names is gone."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = (ROOT / "docs/en/authors.md").read_text(encoding="utf-8").split("## Layout", 1)[1].split("```", 2)[1]


def named(folder: str) -> str:
    """The Layout's lines for a top-level folder (its entry and the indented lines under it)."""
    block = re.search(rf"^{re.escape(folder)}/ .*?(?=^\S|\Z)", LAYOUT, re.M | re.S)
    assert block, f"{folder}/ is not in the Layout (docs/en/authors.md)"
    return block.group(0)


def test_every_module_is_in_the_layout():
    for folder in ("grader", "hooks", "bench"):
        text = named(folder)
        for path in (ROOT / folder).rglob("*.py"):
            inside = path.relative_to(ROOT / folder).parts
            if path.stem not in ("__init__", "__main__") and inside[0] not in ("exercises", "classreport") \
                    and "__pycache__" not in inside:
                assert re.search(rf"\b{path.stem}\b", text), f"{folder}/{'/'.join(inside)} is not in the Layout (docs/en/authors.md)"
        for package in (p for p in (ROOT / folder).iterdir() if (p / "__init__.py").exists()):
            assert re.search(rf"\b{package.name}\b", text), f"{folder}/{package.name}/ is not in the Layout (docs/en/authors.md)"


def test_the_layout_names_no_module_that_is_gone():
    for folder in ("grader", "hooks", "bench"):
        for name in re.findall(r"\b([a-z_]+)\.py\b", named(folder)):
            assert (ROOT / folder / f"{name}.py").exists(), f"the Layout names {folder}/{name}.py, which is gone"


def test_the_hooks_name_no_exercise():
    """The site's code works for any bank: what it knows of an exercise it reads from the bank (the checker's
    corpus picks its parts by kind), so an author adds, renames or removes an exercise without touching hooks/."""
    from grader import bank

    for path in (ROOT / "hooks").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for exercise_id in bank.EXERCISES:
            assert exercise_id not in text, f"hooks/{path.relative_to(ROOT / 'hooks')} names the exercise {exercise_id!r}: read it from the bank"
