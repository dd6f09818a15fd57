"""From `pip install .` alone: a fresh virtual environment with the package and nothing else runs every
command an instructor's part of the README names (grade with --report, report, an assignment, the
Gradescope zip, --version). Slow: pip builds and installs the package."""
import json
import os
import shutil
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import wait_seconds
from tests.grader.test_cli import ROOT

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def grader(tmp_path_factory) -> Path:
    """The `grader` of a new virtual environment where only `pip install .` ran, from a copy of the tracked files."""
    folder = tmp_path_factory.mktemp("install")
    source = folder / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    proc = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(source)], capture_output=True,
                          text=True, timeout=wait_seconds(120))
    assert proc.returncode == 0, proc.stderr[-3000:]
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], capture_output=True, text=True)
    assert not {"mkdocs", "pytest"} & {p["name"].lower() for p in json.loads(listed.stdout)}   # the package alone
    return folder / "venv" / "bin" / "grader"


def run(grader: Path, *args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "LC_ALL", "LC_MESSAGES", "LANG",
                                                            "PYTHONPATH")}
    proc = subprocess.run([str(grader), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=wait_seconds(60))
    assert "Traceback" not in proc.stdout + proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def test_the_instructors_commands_run_from_the_package_alone(grader, tmp_path):
    from grader.bank import EXERCISES
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("alice", "bob"):
        shutil.copy(ROOT / "examples" / f"{name}.toml", folder / f"{name}.toml")
    (folder / "README.txt").write_text("the class of 2026")
    version = run(grader, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("grader (andrea-course) ")
    graded = run(grader, "grade", folder, "--out", tmp_path / "grades", "--report", cwd=tmp_path)
    assert graded.returncode == 1 and "report: " in graded.stdout and "README.txt" in graded.stdout
    assert (tmp_path / "grades" / "report.html").is_file()
    lesson = next(iter(EXERCISES))
    report = run(grader, "report", tmp_path / "grades", "--exercises", lesson, "--format", "json", cwd=tmp_path)
    assert report.returncode == 0
    tables = json.loads((tmp_path / "grades" / "report.json").read_text())
    assert [e["id"] for e in tables["exercises"]] == [lesson]
    assignment = run(grader, "grade", folder, "--out", tmp_path / "lesson", "--exercises", lesson, cwd=tmp_path)
    assert assignment.returncode in (0, 1)
    assert (tmp_path / "lesson" / "grades.csv").read_text().splitlines()[0] == f"student,{lesson},total,max_score,error"
    made = run(grader, "autograder", "--out", tmp_path / "autograder.zip", cwd=tmp_path)
    assert made.returncode == 0 and "autograder.json" in zipfile.ZipFile(tmp_path / "autograder.zip").namelist()
    assert json.loads(zipfile.ZipFile(tmp_path / "autograder.zip").read("autograder.json"))["engine"] in version.stdout

