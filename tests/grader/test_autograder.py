"""`grader autograder`: the Gradescope zip, installed as its setup.sh installs it, and its run_autograder on
the submissions an instructor meets (a good file, several files, none, a damaged one, a variant by
identity, an assignment of one lesson, a grader that cannot start), in a temporary AUTOGRADER_ROOT."""
import base64
import glob
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from grader.cli import gradescope
from grader.cli.autograder import wheel
from grader.cli.gradescope import Config, Refused, candidates, choose, identity_seed
from tests.conftest import wait_seconds
from tests.grader.inprocess import in_process
from tests.grader.test_cli import GRADER, ROOT
from tests.grader.test_cli import here as run

ALICE = (ROOT / "examples" / "alice.toml").read_text(encoding="utf-8")
S0042 = '[reachable-vertices]\nvertices = "{(1,0,0), (2/3,0,1/3), (3/5,1/15,1/3), (3/5,2/5,0)}"\n'   # README
# a user as Gradescope documents submission_metadata.json's users: email, id, name, and no sid
# (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/)
ADA = {"email": "Ada@Example.org", "id": 1234, "name": "Ada Lovelace"}


def variant_answers(seed: str | None) -> str:
    """An answers.toml with every part of submanifold-dims right on the variant of ``seed``, as the site
    shows it to a student who typed that seed (the bank's own variant)."""
    from grader.bank import variant
    parts = variant("submanifold-dims", seed).parts
    return "[submanifold-dims]\n" + "".join(f'{p.id} = "{p.reference}"\n' for p in parts)


def touch(folder: Path, *names: str, text: str = "x") -> None:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def test_the_answer_files_are_answers_toml_first_then_by_depth_and_name(tmp_path):
    touch(tmp_path, "a.toml", "Answers (1).json", "answers.toml", "notes.txt", ".hidden.toml", "deep/answers.toml")
    assert [p.as_posix() for p in candidates(tmp_path)] == [
        "answers.toml", "Answers (1).json", "a.toml", "deep/answers.toml"]
    (tmp_path / "answers.toml").unlink()
    touch(tmp_path, "answers.json", "__MACOSX/answers.toml", ".git/x.toml")
    os.symlink("/etc/hostname", tmp_path / "link.toml")
    assert [p.as_posix() for p in candidates(tmp_path)][:2] == ["answers.json", "Answers (1).json"]
    assert not {"link.toml", "__MACOSX/answers.toml", ".git/x.toml"} & {p.as_posix() for p in candidates(tmp_path)}


def test_the_order_does_not_depend_on_the_order_files_are_listed_in(tmp_path):
    names = ["b.json", "B.toml", "a.toml", "x/a.toml", "é.toml", "e.toml"]
    touch(tmp_path, *names)
    first = candidates(tmp_path)
    shutil.rmtree(tmp_path)
    tmp_path.mkdir()
    touch(tmp_path, *reversed(names))
    assert candidates(tmp_path) == first and [p.as_posix() for p in first] == [
        "B.toml", "a.toml", "b.json", "e.toml", "é.toml", "x/a.toml"]


@pytest.mark.parametrize("files, graded, others", [
    (["answers.toml", "a.toml", "Answers (1).json", "notes.txt"], "answers.toml", ["Answers (1).json", "a.toml"]),
    (["answers.toml", "old/answers.toml"], "answers.toml", ["old/answers.toml"]),
    (["hw/answers.toml", "hw/draft.toml"], "hw/answers.toml", ["hw/draft.toml"]),   # a folder uploaded
    (["answers.json", "x.toml"], "answers.json", ["x.toml"]),
    (["answers.toml", "answers.json"], "answers.toml", ["answers.json"]),
    (["mine.toml", "notes.txt", ".answers.toml"], "mine.toml", []),
])
def test_the_file_graded_is_the_one_the_site_names_or_the_only_one(tmp_path, files, graded, others):
    touch(tmp_path, *files)
    chosen, rest = choose(tmp_path)
    assert (chosen.as_posix(), [p.as_posix() for p in rest]) == (graded, others)


@pytest.mark.parametrize("files, key, says", [
    (["answers_draft.toml", "answers_final.toml"], "autograder-several-files",
     "Several answer files (answers_draft.toml, answers_final.toml), and not one named answers.toml"),
    (["a/answers.toml", "b/answers.toml"], "autograder-several-files", "(a/answers.toml, b/answers.toml)"),
    (["answers.toml.txt"], "autograder-no-file", "Found answers.toml.txt: rename it to answers.toml and upload"),
    (["answers.json.rtf", "photo.png"], "autograder-no-file", "Found answers.json.rtf: rename it to answers.json"),
    (["Answers.txt"], "autograder-no-file", "Found Answers.txt: rename it to answers.toml"),
    (["notes.txt", "__MACOSX/answers.toml", ".answers.toml"], "autograder-no-file", "Your upload holds: notes.txt.\n"),
])
def test_an_upload_no_rule_decides_is_refused_with_every_name_and_the_fix(tmp_path, files, key, says):
    touch(tmp_path, *files)
    with pytest.raises(Refused) as refused:
        choose(tmp_path)
    assert refused.value.key == key and says in refused.value.text("en") + "\n"
    assert "upload" in refused.value.text("en").lower()


def test_two_drafts_uploaded_are_refused_by_the_autograders_own_process(tmp_path):
    root = lay_out(tmp_path, Config(), {"answers_draft.toml": ALICE, "answers_final.toml": ALICE}, [ADA])
    proc, results = grade_in_process(root)
    assert proc.returncode == 2 and results["score"] == 0 and results["tests"] == []
    assert "answers_draft.toml, answers_final.toml" in results["output"]
    assert "Upload only one file, named answers.toml." in results["output"]


@pytest.mark.parametrize("users, field, seed", [
    ([{"sid": "s0042", "email": "ada@example.org", "id": 7}], "sid", "s0042"),
    ([{"sid": "s0042", "email": "ada@example.org", "id": 7}], "email", "ada@example.org"),
    ([{"sid": "s0042", "email": "ada@example.org", "id": 7}], "id", "7"),
    ([{"sid": "s9"}, {"sid": "s1"}], "sid", "s1"),                 # a group: the first in order, whatever the list's
    ([{"sid": ""}, {"sid": "s3"}], "sid", "s3"),
    ([ADA], "email", "ada@example.org"),                           # an email in lower case, as typed on the site
    ([{**ADA, "email": " Zoe@x.org "}, ADA], "email", "ada@example.org"),
    ([ADA], "id", "1234"),
])
def test_the_variant_is_seeded_by_the_gradescope_identity(tmp_path, users, field, seed):
    path = tmp_path / "submission_metadata.json"
    path.write_text(json.dumps({"users": users}))
    assert identity_seed(path, field) == seed


@pytest.mark.parametrize("metadata", [None, "{", '{"users": []}', '{"users": [{"sid": null}]}', '{"users": [{"sid": "x\\u0000"}]}'])
def test_no_identity_to_seed_a_variant_is_said(tmp_path, metadata):
    path = tmp_path / "submission_metadata.json"
    if metadata is not None:
        path.write_text(metadata)
    with pytest.raises(Refused) as refused:
        identity_seed(path, "sid")
    assert refused.value.key == "autograder-no-identity"


def test_no_sid_in_gradescopes_documented_metadata_names_what_it_sent(tmp_path):
    path = tmp_path / "submission_metadata.json"
    path.write_text(json.dumps({"users": [ADA, {**ADA, "sid": None}]}))
    with pytest.raises(Refused) as refused:
        identity_seed(path, "sid")
    assert refused.value.params == {"field": "sid", "sent": "email, id, name"}
    assert identity_seed(path, Config().seed_from) == "ada@example.org"       # the default: what is always sent


def lay_out(root: Path, config: Config, files: dict[str, str], users) -> Path:
    """An AUTOGRADER_ROOT as Gradescope lays it out: source/autograder.json, submission/, the metadata."""
    (root / "source").mkdir(parents=True)
    (root / "source" / "autograder.json").write_text(config.text(), encoding="utf-8")
    (root / "submission").mkdir()
    for name, text in files.items():
        touch(root / "submission", name, text=text)
    (root / "submission_metadata.json").write_text(json.dumps({"users": list(users)}))
    return root


def grade_in_process(root: Path) -> tuple[subprocess.CompletedProcess, dict]:
    """What run_autograder runs (``python -m grader.cli.gradescope ROOT``: gradescope.run), here, and the
    results.json it wrote; the zip installed and run in its own process is the slow tests' below."""
    proc = in_process(gradescope.run, root)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc, json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def test_the_default_seed_is_the_email_gradescope_always_sends(tmp_path):
    root = lay_out(tmp_path, Config(variants=True, exercises=["submanifold-dims"]),
                   {"answers.toml": variant_answers("ada@example.org")}, [ADA])
    proc, results = grade_in_process(root)
    assert proc.returncode == 0 and results["score"] > 0
    assert {t["status"] for t in results["tests"]} == {"passed"}           # the variant the site shows her
    assert "Your variant: ada@example.org (" in results["output"] and "--seed ada@example.org" in results["output"]


def test_a_sid_the_roster_lacks_says_what_is_missing_and_what_to_do(tmp_path):
    root = lay_out(tmp_path, Config(variants=True, seed_from="sid"), {"answers.toml": S0042}, [ADA])
    proc, results = grade_in_process(root)
    assert results["score"] == 0 and results["tests"] == [] and proc.returncode == 2
    said = results["output"]
    assert "Gradescope sid" in said and "(it sent: email, id, name)" in said and "tell your instructor" in said
    assert "--seed-from email" in said and "roster" in said
    assert "--seed-from email" in proc.stderr                              # the instructor's log says it too


def test_control_and_bidirectional_characters_of_a_file_name_are_escaped_in_the_feedback(tmp_path):
    """A file name holding ESC and U+202E: Gradescope's feedback and the log show them as escapes, never raw."""
    name = "\x1b[31mans\u202ewers.toml"
    root = lay_out(tmp_path, Config(exercises=["terrain-warmup"]), {name: "[terrain-warmup]\nlr-at-step = \"1\"\n"},
                   [ADA])
    proc, results = grade_in_process(root)
    written = (root / "results" / "results.json").read_text(encoding="utf-8")
    for text in (proc.stdout, written, results["output"], *(t["output"] for t in results["tests"])):
        assert "\x1b" not in text and "\u202e" not in text, text
    assert "\\x1b[31mans\\u202ewers.toml" in results["output"], results["output"]


@pytest.mark.parametrize("field, says", [("email", "in lower case"), ("sid", "roster"), ("id", "do not see")])
def test_the_build_says_where_the_seed_comes_from(tmp_path, field, says):
    proc = run("autograder", "--out", tmp_path / "a.zip", "--variants", "--seed-from", field, "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    assert f"seeded by their Gradescope {field}\n" in proc.stdout and says in proc.stdout


def test_the_wheel_is_the_running_package_with_a_valid_record():
    name, data = wheel()
    assert name.endswith("-py3-none-any.whl") and name.startswith("andrea_course-")
    members = zipfile.ZipFile(io.BytesIO(data))
    files = {info.filename: members.read(info) for info in members.infolist()}
    package = Path(__import__("grader").__file__).parent
    assert files["grader/cli/gradescope.py"] == (package / "cli" / "gradescope.py").read_bytes()
    assert "grader/locale/fr/LC_MESSAGES/grader.po" in files and not any("__pycache__" in f for f in files)
    info = name.removesuffix("-py3-none-any.whl") + ".dist-info"
    assert "Requires-Python: >=3.10" in files[f"{info}/METADATA"].decode()
    assert "grader = grader.cli.main:run" in files[f"{info}/entry_points.txt"].decode()
    for line in files[f"{info}/RECORD"].decode().splitlines():
        path, digest, size = line.split(",")
        if path.endswith("RECORD"):
            continue
        expected = base64.urlsafe_b64encode(hashlib.sha256(files[path]).digest()).rstrip(b"=").decode()
        assert (digest, int(size)) == (f"sha256={expected}", len(files[path])), path
    assert set(files) - {f"{info}/RECORD"} == {line.split(",")[0] for line in files[f"{info}/RECORD"].decode().splitlines()} - {f"{info}/RECORD"}


def test_the_command_writes_the_same_zip_for_the_same_grader_and_options(tmp_path):
    first, second = tmp_path / "a.zip", tmp_path / "b" / "b.zip"
    for path in (first, second):
        proc = run("autograder", "--out", path, "--exercises", "attention-weights", "--lang", "fr", "--variants")
        assert proc.returncode == 0, proc.stderr
    assert first.read_bytes() == second.read_bytes()
    archive = zipfile.ZipFile(first)
    assert sorted(archive.namelist()) == sorted(["setup.sh", "run_autograder", "autograder.json",
                                                 json.loads(archive.read("autograder.json"))["wheel"]])
    config = Config(**json.loads(archive.read("autograder.json")))
    assert (config.exercises, config.lang, config.variants, config.seed_from) == (["attention-weights"], "fr", True, "email")
    assert config.engine in run("--version").stdout
    for script in ("setup.sh", "run_autograder"):
        assert archive.getinfo(script).external_attr >> 16 == 0o755


@pytest.mark.parametrize("visibility", gradescope.VISIBILITY)
def test_the_visibility_is_packed_and_set_on_the_results_and_every_test(tmp_path, visibility):
    zipped = tmp_path / "a.zip"
    proc = run("autograder", "--out", zipped, "--visibility", visibility, "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["visibility"] == visibility, proc.stderr
    config = Config(**json.loads(zipfile.ZipFile(zipped).read("autograder.json")))
    assert config.visibility == visibility
    root = lay_out(tmp_path / "root", config, {"answers.toml": S0042}, [{"sid": "s0042"}])
    _, results = grade_in_process(root)
    assert results["visibility"] == visibility and results["tests"]
    assert {t["visibility"] for t in results["tests"]} == {visibility}
    refused = lay_out(tmp_path / "none", config, {}, [{"sid": "s0042"}])     # no file: said when Gradescope says
    assert grade_in_process(refused)[1]["visibility"] == visibility


def test_without_a_visibility_gradescope_s_default_stands_and_a_wrong_one_is_refused(tmp_path):
    root = lay_out(tmp_path / "root", Config(), {"answers.toml": S0042}, [{"sid": "s0042"}])
    results = grade_in_process(root)[1]
    assert "visibility" not in results and not [t for t in results["tests"] if "visibility" in t]
    proc = run("autograder", "--out", tmp_path / "a.zip", "--visibility", "later")
    assert proc.returncode == 2 and "after_published" in proc.stderr and not (tmp_path / "a.zip").exists()


def test_the_tests_can_stay_hidden_while_the_score_is_shown(tmp_path):
    """Gradescope's usual split: the whole result ``visible``, each part's test (its feedback) ``after_due_date``."""
    zipped = tmp_path / "a.zip"
    proc = run("autograder", "--out", zipped, "--visibility", "visible", "--tests-visibility", "after_due_date",
               "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert (json.loads(proc.stdout)["visibility"], json.loads(proc.stdout)["tests_visibility"]) == ("visible", "after_due_date")
    config = Config(**json.loads(zipfile.ZipFile(zipped).read("autograder.json")))
    assert (config.visibility, config.tests_visibility) == ("visible", "after_due_date")
    results = grade_in_process(lay_out(tmp_path / "root", config, {"answers.toml": S0042}, [{"sid": "s0042"}]))[1]
    assert results["visibility"] == "visible" and results["tests"]
    assert {t["visibility"] for t in results["tests"]} == {"after_due_date"}
    alone = Config(tests_visibility="hidden")          # tests hidden, the result's visibility Gradescope's own
    results = grade_in_process(lay_out(tmp_path / "alone", alone, {"answers.toml": S0042}, [{"sid": "s0042"}]))[1]
    assert "visibility" not in results and {t["visibility"] for t in results["tests"]} == {"hidden"}
    proc = run("autograder", "--out", tmp_path / "b.zip", "--tests-visibility", "later")
    assert proc.returncode == 2 and "after_due_date" in proc.stderr and not (tmp_path / "b.zip").exists()


def test_the_text_feedback_says_how_an_answer_was_read(tmp_path):
    """As ``grader check`` says it: an answer read by a convention (a decimal comma) says so under its verdict."""
    answers = '[embedding-distances]\nparakeet-fourier = "1,87"\nmonkey-fourier = "1.868"\n'
    results = grade_in_process(lay_out(tmp_path / "root", Config(), {"answers.toml": answers}, [ADA]))[1]
    said = {t["name"]: t["output"] for t in results["tests"]}
    assert said["embedding-distances: parakeet-fourier"] == "Correct.\nRead as: 1.87"
    assert said["embedding-distances: monkey-fourier"] == "Correct."           # plain arithmetic: nothing to say


MD_ANSWERS = '[attention-weights]\nweights = "(1/2, 1/4, 1/8)"\nscores = "(1, 1, `0`)"\n'


def test_markdown_feedback_escapes_the_words_and_sets_the_answer_and_reading_in_code_spans(tmp_path):
    zipped = tmp_path / "a.zip"
    assert run("autograder", "--out", zipped, "--format", "md").returncode == 0
    config = Config(**json.loads(zipfile.ZipFile(zipped).read("autograder.json")))
    assert config.feedback_format == "md"
    root = lay_out(tmp_path / "root", config, {"answers.toml": MD_ANSWERS}, [{"sid": "s0042"}])
    results = grade_in_process(root)[1]
    assert results["test_output_format"] == "md"
    tests = {t["name"]: t["output"] for t in results["tests"]}
    weights = tests["attention-weights: weights"]
    assert weights.startswith("\\[weights\\-not\\-normalized\\] Weights must sum to 1; yours sum to 7/8\\.")
    assert "Your answer: ` (1/2, 1/4, 1/8) `" in weights
    assert "Your answer: `` (1, 1, `0`) ``" in tests["attention-weights: scores"]


def test_text_feedback_stays_text(tmp_path):
    root = lay_out(tmp_path / "root", Config(), {"answers.toml": MD_ANSWERS}, [{"sid": "s0042"}])
    results = grade_in_process(root)[1]
    assert "test_output_format" not in results
    assert {t["name"]: t["output"] for t in results["tests"]}["attention-weights: weights"].startswith(
        "[weights-not-normalized] Weights must sum to 1; yours sum to 7/8.")


def test_an_unknown_exercise_in_the_assignment_is_refused_before_anything_is_written(tmp_path):
    proc = run("autograder", "--out", tmp_path / "a.zip", "--exercises", "attention-weights,nope")
    assert proc.returncode == 2 and "nope" in proc.stderr and not (tmp_path / "a.zip").exists()


def test_a_damaged_configuration_still_writes_results(tmp_path):
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "autograder.json").write_text("{")
    assert gradescope.run(tmp_path) == 3
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["tests"] == [] and "JSONDecodeError" in results["output"]


# --- the zip installed as setup.sh installs it, and run_autograder on each case (slow: pip installs)


def pythons() -> list[str]:
    """This Python, and a Python 3.10 where the machine has one (Gradescope's Ubuntu 22.04 has 3.10)."""
    found = [sys.executable]
    for candidate in [shutil.which("python3.10"), *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.10*/bin/python3.10")))]:
        if candidate and subprocess.run([candidate, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
            return found + [candidate]
    return found


CONFIGS = {"all": [], "variants": ["--variants", "--seed-from", "sid"], "lesson-2": ["--exercises", "attention-weights"],
           "email": ["--variants"], "after-due-date": ["--visibility", "after_due_date"], "md": ["--format", "md"],
           "hidden-tests": ["--visibility", "visible", "--tests-visibility", "after_due_date"]}


@pytest.fixture(scope="module", params=pythons(), ids=lambda p: "this-python" if p == sys.executable else "python3.10")
def installed(request, tmp_path_factory):
    """A virtual environment set up by the zip's own setup.sh (the zips of each configuration share it)."""
    folder = tmp_path_factory.mktemp("autograder")
    zips = {}
    for name, options in CONFIGS.items():
        zips[name] = folder / f"{name}.zip"
        proc = subprocess.run([GRADER, "autograder", "--out", str(zips[name]), "--lang", "en", *options],
                              capture_output=True, text=True, timeout=wait_seconds(30))
        assert proc.returncode == 0, proc.stderr
    root = folder / "root"
    zipfile.ZipFile(zips["all"]).extractall(root / "source")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "PYTHON": request.param}
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True,
                           timeout=wait_seconds(120))
    assert setup.returncode == 0, setup.stdout[-2000:] + setup.stderr[-3000:]
    assert "grading engine" in setup.stdout
    return root / "venv", zips


def autograde(installed, tmp_path, config: str, files: dict[str, str], users=({"sid": "s0042"},), venv=None):
    """Lay out an AUTOGRADER_ROOT as Gradescope does, run its run_autograder, and read results.json."""
    venv_dir, zips = installed
    root = tmp_path / "autograder"
    zipfile.ZipFile(zips[config]).extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")   # where Gradescope puts it
    (root / "venv").symlink_to(venv or venv_dir)
    (root / "submission").mkdir()
    for name, text in files.items():
        touch(root / "submission", name, text=text)
    (root / "submission_metadata.json").write_text(json.dumps({"users": list(users)}))
    proc = subprocess.run(["bash", str(root / "run_autograder")], env={**os.environ, "AUTOGRADER_ROOT": str(root)},
                          capture_output=True, text=True, timeout=wait_seconds(60))
    assert proc.returncode == 0 and "Traceback" not in proc.stdout + proc.stderr, proc.stderr[-3000:]
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def points(results) -> dict[str, float]:
    return {test["name"]: test["score"] for test in results["tests"]}


@pytest.mark.slow
def test_a_good_file(installed, tmp_path):
    from grader.bank import EXERCISES
    results = autograde(installed, tmp_path, "all", {"answers.toml": ALICE})      # every answer right
    top = sum(ex.max_score for ex in EXERCISES.values())
    assert results["score"] == top and f"Score: {top}/{top}" in results["output"]
    assert results["output"].splitlines()[0] == "Graded: answers.toml"
    assert [t["number"] for t in results["tests"]] == [f"{ex.lesson}.{i}" for ex in EXERCISES.values()
                                                       for i in range(1, len(ex.parts) + 1)]


@pytest.mark.slow
def test_several_candidate_files(installed, tmp_path):
    wrong = '[attention-weights]\nscores = "(1, 1, 1)"\n'
    results = autograde(installed, tmp_path, "all", {"a.toml": wrong, "Answers (1).json": "{", "answers.toml": ALICE})
    from grader.bank import EXERCISES
    assert results["score"] == sum(ex.max_score for ex in EXERCISES.values())      # answers.toml's: every answer right
    assert results["output"].splitlines()[:2] == [
        "Graded: answers.toml", "Also found, not graded (only the file named answers.toml is graded): Answers (1).json, a.toml"]
    results = autograde(installed, tmp_path / "2", "all", {"answers_draft.toml": wrong, "answers_final.toml": ALICE})
    assert results["score"] == 0 and results["tests"] == []               # the draft is not graded by name order
    assert results["output"] == ("Several answer files (answers_draft.toml, answers_final.toml), and not one named "
                                 "answers.toml at the top of the upload: nothing was graded. Upload only one file, "
                                 "named answers.toml.")
    results = autograde(installed, tmp_path / "3", "all", {"mine.json": '{"attention-weights": {"scores": "(1,1,0)"}}'})
    assert results["output"].startswith("Graded: mine.json\n") and results["score"] == 3


@pytest.mark.slow
def test_no_file(installed, tmp_path):
    results = autograde(installed, tmp_path, "all", {"notes.txt": "my answers are on paper"})
    assert results == {"score": 0, "tests": [], "output": results["output"]}
    assert "answers.toml" in results["output"] and "Your upload holds: notes.txt." in results["output"]
    results = autograde(installed, tmp_path / "2", "all", {"answers.toml.txt": ALICE})
    assert results["score"] == 0 and "Found answers.toml.txt: rename it to answers.toml" in results["output"]


@pytest.mark.slow
def test_a_damaged_file(installed, tmp_path):
    results = autograde(installed, tmp_path, "all", {"answers.toml": "[attention-weights]\nscores = (1, 1, 0\n"})
    assert results["score"] == 0 and results["tests"] == []
    assert results["output"].startswith("Graded: answers.toml\nanswers.toml: line 2: not valid TOML")


@pytest.mark.slow
def test_a_variant_by_identity(installed, tmp_path):
    mine = autograde(installed, tmp_path / "1", "variants", {"answers.toml": S0042}, users=[{"sid": "s0042"}])
    assert points(mine)["reachable-vertices: vertices"] == 4 and "Your variant: s0042" in mine["output"]
    other = autograde(installed, tmp_path / "2", "variants", {"answers.toml": S0042}, users=[{"sid": "s0043"}])
    assert points(other)["reachable-vertices: vertices"] < 4                # the identity decides, not the file
    typed = autograde(installed, tmp_path / "3", "variants", {"answers.toml": 'seed = "s0042"\n' + S0042},
                      users=[{"sid": "s0043"}])
    assert typed["score"] == 0 and "s0042" in typed["output"] and "s0043" in typed["output"]
    same = autograde(installed, tmp_path / "4", "variants", {"answers.toml": 'seed = "s0042"\n' + S0042},
                     users=[{"sid": "s0042"}])
    assert points(same)["reachable-vertices: vertices"] == 4
    lesson = autograde(installed, tmp_path / "5", "all", {"answers.toml": 'seed = "s0042"\n' + S0042})
    assert lesson["score"] == 0 and "lessons' own data" in lesson["output"]
    nobody = autograde(installed, tmp_path / "6", "variants", {"answers.toml": S0042}, users=[ADA])
    assert nobody["score"] == 0 and "Gradescope sid" in nobody["output"] and "--seed-from email" in nobody["output"]


@pytest.mark.slow
def test_a_variant_by_the_documented_metadata(installed, tmp_path):
    """Gradescope's users[{email, id, name}], no sid: the default zip grades Ada on the variant of her email."""
    ada = autograde(installed, tmp_path / "1", "email", {"answers.toml": variant_answers("ada@example.org")}, users=[ADA])
    sub = {name: score for name, score in points(ada).items() if name.startswith("submanifold-dims")}
    assert len(sub) == 4 and all(t["status"] == "passed" for t in ada["tests"] if t["name"] in sub)
    assert "Your variant: ada@example.org" in ada["output"]
    lesson = autograde(installed, tmp_path / "2", "email", {"answers.toml": variant_answers(None)}, users=[ADA])
    assert not any(t["status"] == "passed" for t in lesson["tests"] if t["name"].startswith("submanifold-dims"))


@pytest.mark.slow
def test_an_assignment_of_one_lesson(installed, tmp_path):
    results = autograde(installed, tmp_path, "lesson-2", {"answers.toml": ALICE})
    assert points(results) == {"attention-weights: scores": 3, "attention-weights: weights": 3,
                               "attention-weights: scaled": 3} and results["score"] == 9
    assert "Score: 9/9" in results["output"] and {t["number"] for t in results["tests"]} == {"2.1", "2.2", "2.3"}


@pytest.mark.slow
def test_a_grader_that_cannot_start_still_writes_results(installed, tmp_path):
    results = autograde(installed, tmp_path, "all", {"answers.toml": ALICE}, venv=tmp_path / "no-venv")
    assert results["score"] == 0 and results["tests"] == [] and "could not run" in results["output"]


@pytest.mark.slow
def test_a_visibility_set_by_the_build(installed, tmp_path):
    results = autograde(installed, tmp_path, "after-due-date", {"answers.toml": S0042})
    assert results["visibility"] == "after_due_date" and results["tests"]
    assert {t["visibility"] for t in results["tests"]} == {"after_due_date"}


@pytest.mark.slow
def test_tests_hidden_until_the_due_date_set_by_the_build(installed, tmp_path):
    results = autograde(installed, tmp_path, "hidden-tests", {"answers.toml": S0042})
    assert results["visibility"] == "visible" and results["tests"]
    assert {t["visibility"] for t in results["tests"]} == {"after_due_date"}


@pytest.mark.slow
def test_markdown_feedback_set_by_the_build(installed, tmp_path):
    results = autograde(installed, tmp_path, "md", {"answers.toml": S0042})
    assert results["test_output_format"] == "md" and results["tests"]
    vertices = {t["name"]: t["output"] for t in results["tests"]}["reachable-vertices: vertices"]
    assert "Your answer: ` {(1,0,0), (2/3,0,1/3)" in vertices, vertices
