"""The fast path's reference cache: where it lives, and every damaged field makes it computed again."""
import copy
from pathlib import Path

import pytest

from grader.judging import table as fast


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "here"))
    assert fast.cache_dir() == tmp_path / "here"
    monkeypatch.delenv("GRADER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fast.cache_dir() == tmp_path / "xdg" / "andrea-grader"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert fast.cache_dir() == Path(tmp_path / "home" / ".cache" / "andrea-grader")


@pytest.fixture(scope="module")
def table():
    return fast.table()


def entry(data, kind):
    """The first part of that kind (real, vector, integer, set) that has mistake targets, if any kind does."""
    parts = [(e, p) for e, ps in data.items() for p, v in ps.items() if v["kind"] == kind]
    return next(((e, p) for e, p in parts if data[e][p].get("targets")), parts[0])


@pytest.mark.parametrize("damage", [
    lambda e: e.pop("points"), lambda e: e.pop("form"), lambda e: e.pop("whole"), lambda e: e.pop("reference"),
    lambda e: e.update(points="two"), lambda e: e["reference"][0].update(decimal="0.3.1"),
    lambda e: e["reference"][0].update(exact="3/0"), lambda e: e["targets"][0].pop("key"),
    lambda e: e["targets"][0].pop("params"), lambda e: e["targets"][0].pop("mistake"),
    lambda e: e["targets"][0]["values"][0].update(decimal="x"),
], ids=["no-points", "no-form", "no-whole", "no-reference", "points-not-a-number", "decimal-damaged",
        "exact-divides-by-zero", "target-no-key", "target-no-params", "target-no-mistake", "target-value-damaged"])
def test_each_damaged_field_is_not_trusted(table, damage):
    assert fast._well_formed(table)
    for kind in ("real", "vector", "integer"):
        data = copy.deepcopy(table)
        exercise, part = entry(data, kind)
        damage(data[exercise][part])
        assert not fast._well_formed(data), (kind, exercise, part)


def test_a_damaged_set_reference_is_not_trusted(table):
    data = copy.deepcopy(table)
    exercise, part = entry(data, "set")
    data[exercise][part]["reference"][0][0].update(exact="1/x")
    assert not fast._well_formed(data)
