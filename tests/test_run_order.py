"""How `make test` hands the test files to its workers (tests/conftest.py): the longest first, the longest of
them in parts, every other file whole; the names it lists are files that exist (a renamed file would drop out
of the order without a word)."""
import subprocess
import sys

from tests.conftest import LONGEST_FIRST, ROOT, SPLIT, run_groups, run_order, scopes


def test_every_file_named_in_the_order_exists():
    for name in (*LONGEST_FIRST, *SPLIT):
        assert (ROOT / "tests" / name).is_file(), f"tests/conftest.py names tests/{name}, which is not there"
    assert set(SPLIT) <= set(LONGEST_FIRST)   # a file in parts starts first, its parts one after the other


def test_a_file_in_parts_is_runs_of_consecutive_tests_of_about_the_same_length():
    name, parts = next(iter(SPLIT.items()))
    groups = run_groups(name, 10 * parts + 1)
    assert groups == sorted(groups) and len(set(groups)) == parts
    sizes = [groups.count(group) for group in dict.fromkeys(groups)]
    assert max(sizes) - min(sizes) <= 1, sizes
    assert run_groups(name, 1) == [name]                           # fewer tests than parts: one group
    assert set(run_groups("grader/test_cli.py", 30)) == {"grader/test_cli.py"}   # any other file: whole


def test_the_grader_s_files_come_first_then_the_listed_ones_then_the_slow_ones_then_the_rest():
    tests = ROOT / "tests"
    first, slow, quick = tests / LONGEST_FIRST[0], tests / "site" / "test_serve.py", tests / "test_layout.py"
    grader = tests / "grader" / "test_cli.py"
    ordered = sorted([quick, slow, tests / LONGEST_FIRST[1], first, grader], key=lambda path: run_order(path, {slow}))
    assert ordered == [grader, first, tests / LONGEST_FIRST[1], slow, quick]


def test_the_collected_order_keeps_each_file_together():
    ran = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider", "tests/test_layout.py",
                          "tests/test_timeouts.py", "tests/site/test_build.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    files = [line.split("::")[0] for line in ran.stdout.splitlines() if "::" in line]
    assert files, ran.stdout + ran.stderr
    runs = [name for i, name in enumerate(files) if i == 0 or files[i - 1] != name]
    assert runs == ["tests/site/test_build.py", "tests/test_layout.py", "tests/test_timeouts.py"], runs


def test_under_loadfile_each_test_s_unit_of_work_is_its_file_or_its_file_s_part():
    name, parts = next(iter(SPLIT.items()))
    split = [f"tests/{name}::test_{i}" for i in range(2 * parts)]
    whole = ["tests/test_layout.py::test_a", "tests/test_layout.py::test_b"]
    units = scopes(whole + split)
    assert [units[n] for n in whole] == ["test_layout.py"] * 2
    assert [units[n] for n in split] == [f"{name}#{i // 2 + 1}" for i in range(2 * parts)]
