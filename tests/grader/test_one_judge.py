"""What the outside tests of the grader found, each as a test: one answer never stops a class, the
reading belongs to the student and the words to the reader, one rule set for every kind, a correctly
rounded answer is accepted, seeds and unquoted numbers are read as written."""
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from grader.cli.main import main
from grader.grading.submission import load_bytes
from grader.judging.check import check_part, grade_submission

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["exp(exp(20))", "exp(-exp(100))", "exp(10**999)", "e^-1/2", "e^1/2", "√2/2√77", "2e+1-5",
           "1/2√2", "0,3", "1,871", "(1,1,0)", "9**9**9**9", "exp(exp(exp(exp(10))))", "1e999999999",
           "sqrt(" * 60 + "2" + ")" * 60, "__import__('os')", "\x1b[2J", "1.87", "sqrt(9)/10*(1+1/10^6)"]


def code_of(*args: str, capsys) -> tuple[int, str]:
    code = main([*args])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("answer", HOSTILE)
@pytest.mark.parametrize("part", ["parakeet-monkey", "monkey-fourier"])
def test_every_hostile_answer_gets_a_verdict_or_a_refusal(answer, part, capsys):
    code, said = code_of("check", "embedding-distances", part, answer, capsys=capsys)
    assert code in (0, 1, 2), said
    assert "internal" not in said.lower() and "Traceback" not in said


@pytest.mark.parametrize("answer", ["(0.5, 0.5, exp(-10))", "(1,1,0)", "(0,5 ; 0,5 ; 0)", "e^-1/2", "exp(exp(20))"])
def test_a_vector_answer_too(answer, capsys):
    code, said = code_of("check", "attention-weights", "scaled", answer, capsys=capsys)
    assert code in (0, 1, 2), said


def test_one_rule_for_every_entry_of_every_kind():
    """A decimal beside an exact form lends it no tolerance; an exact form of rational value is an
    exact form; a number holding a decimal is a number wherever it stands."""
    assert check_part("attention-weights", "scaled", "(0.5, 0.5, exp(-10))").score == 2   # two of three
    assert check_part("attention-weights", "scaled", "(0.5, 0.5, 0.0001)").correct
    assert not check_part("embedding-distances", "parakeet-monkey", "sqrt(9)/10*(1+1/10^6)").correct
    assert check_part("embedding-distances", "parakeet-monkey", "0.3*(1+1/10^6)").correct
    near = "sqrt(0.0065)"          # 1/sqrt(154) is 0.08058...; sqrt(0.0065) is 0.08062...: a number
    assert check_part("embedding-distances", "cos-monkey-fourier", near).correct


def test_a_correctly_rounded_answer_is_accepted_or_told_how_many_figures():
    told = check_part("embedding-distances", "monkey-fourier", "1.87")
    assert told.note == "other-part" and "figures-needed" in told.notes and "4 significant" in told.feedback
    for answer in ("1.868", "1.8682", "1.86824"):
        assert check_part("embedding-distances", "monkey-fourier", answer).correct, answer
    assert check_part("embedding-distances", "parakeet-fourier", "1.87").correct


FRENCH = """lang = "fr"
[attention-weights]
scores = "(1,1,0)"
scaled = "(0,5 ; 0,5 ; 0)"
weights = "(0,3837 ; 0,3837 ; 0,2327)"
[embedding-distances]
parakeet-monkey = "0,3"
monkey-fourier = "1,868"
[terrain-warmup]
lr-at-step = "0,0000075"
"""


def scores(result) -> dict:
    return {(e.id, p.id): p.score for e in result.exercises for p in e.parts}


def test_a_files_lang_reads_its_answers_whatever_the_words(tmp_path):
    submission = load_bytes(tmp_path / "ada.toml", FRENCH.encode())
    assert submission.lang == "fr"
    graded = [scores(grade_submission(submission.answers, lang, convention=submission.lang))
              for lang in ("en", "fr", "ja")]
    assert graded[0] == graded[1] == graded[2]
    assert sum(graded[0].values()) == 3 + 3 + 3 + 1 + 1 + 1


def test_the_command_line_reads_a_files_lang_too(tmp_path, capsys):
    path = tmp_path / "ada.toml"
    path.write_text(FRENCH, encoding="utf-8")
    totals = []
    for lang in ("en", "fr", "ja"):
        code, said = code_of("submit", str(path), "--lang", lang, "--format", "json", capsys=capsys)
        totals.append(json.loads(said)["score"])
    assert totals == [12, 12, 12]


@pytest.mark.parametrize("lang", ["en", "ja", "zh", "ko", "fr", "id"])
def test_a_decimal_comma_that_cannot_be_misread_is_a_decimal_comma_everywhere(lang):
    assert check_part("embedding-distances", "parakeet-monkey", "0,3", lang).correct


def test_unquoted_numbers_are_read_from_their_text(tmp_path):
    """0.30150000000000000001 is past the boundary: quoted or not, never rounded to binary first."""
    for text in ('[embedding-distances]\nparakeet-monkey = 0.30150000000000000001\n',
                 '{"embedding-distances": {"parakeet-monkey": 0.30150000000000000001}}'):
        name = "a.json" if text.startswith("{") else "a.toml"
        submission = load_bytes(tmp_path / name, text.encode())
        assert submission.answers["embedding-distances"]["parakeet-monkey"] == "0.30150000000000000001"
        result = grade_submission(submission.answers)
        assert scores(result)[("embedding-distances", "parakeet-monkey")] == 0
    boundary = load_bytes(tmp_path / "b.toml", b'[embedding-distances]\nparakeet-monkey = 0.3015\n')
    assert scores(grade_submission(boundary.answers))[("embedding-distances", "parakeet-monkey")] == 1


def test_a_seed_is_one_seed_however_its_letters_are_composed(capsys):
    composed, decomposed = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    assert composed != decomposed
    shown = [code_of("show", "reachable-vertices", "--seed", seed, "--format", "json", capsys=capsys)[1]
             for seed in (composed, decomposed)]
    assert json.loads(shown[0]) == json.loads(shown[1])


@pytest.mark.slow
def test_a_class_with_every_hostile_answer_is_graded_to_the_end(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice", "bob"):
        (folder / f"{name}.toml").write_text((ROOT / "examples" / f"{name}.toml").read_text())
    for i, answer in enumerate(HOSTILE):
        quoted = json.dumps(answer)
        (folder / f"hostile{i:02d}.toml").write_text(
            f"[embedding-distances]\nparakeet-monkey = {quoted}\nmonkey-fourier = {quoted}\n"
            f"[attention-weights]\nscaled = {quoted}\n", encoding="utf-8")
    (folder / "ada-fr.toml").write_text(FRENCH, encoding="utf-8")
    out = tmp_path / "out"
    ran = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(folder), "--out", str(out),
                          "--jobs", "2", "--format", "json"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert ran.returncode == 1, ran.stderr                # someone is wrong; no one stopped the run
    records = {json.loads(line)["student"]: json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()}
    from grader.bank import EXERCISES
    assert records["alice"]["score"] == sum(ex.max_score for ex in EXERCISES.values()) and records["bob"]["score"] == 12 and records["ada-fr"]["score"] == 12
    assert len(records) == len(HOSTILE) + 3 and all(r["error"] is None for r in records.values())
    notes = {p["note"] for r in records.values() for e in r["exercises"] for p in e["parts"]}
    assert "internal-error" not in notes and {"too-large", "ambiguous-reading", "ambiguous-exponent"} <= notes


@pytest.mark.parametrize("answer, second", [
    ("e^-1/2", "e^(-1/2)"), ("2*e^-1/2", "2*e^(-1/2)"), ("-e^-1/2", "-e^(-1/2)"), ("2^e^-1/2", "2^(e^(-1/2))"),
])
def test_a_refusal_names_both_readings_of_the_whole_answer(answer, second):
    """The second reading is the whole answer with the exponent taking the quotient, not the power alone."""
    from grader.reading.errors import AnswerSyntaxError
    from grader.reading.parse import read
    with pytest.raises(AnswerSyntaxError) as refused:
        read(answer)
    params = dict(refused.value.error.params)
    assert (refused.value.error.key, params["text"], params["second"]) == ("ambiguous-reading", answer, second)


@pytest.mark.parametrize("answer", ["(e^-1)/2", "(2*e^-1)/2", "2*(3*e^-1)/2", "e^(-1)/2"])
def test_a_bracket_that_closes_before_the_quotient_settles_the_reading(answer):
    from grader.reading.parse import read
    assert read(answer).kind == "scalar"


@pytest.mark.parametrize("part, answer", [
    (("embedding-distances", "parakeet-monkey"), "0.3837"), (("embedding-distances", "parakeet-monkey"), "0.3"),
    (("embedding-distances", "parakeet-monkey"), "1/3"), (("reachable-vertices", "vertices"), "{(1, 0, 0)}"),
])
def test_a_plain_answer_on_the_lessons_data_is_judged_without_sympy(part, answer, tmp_path):
    """Plain numbers are judged on the reference table, exactly, and the part's facts come from it too:
    SymPy is imported only where a number needs it (checked in a fresh process, the table built first)."""
    script = ("import sys; from grader.judging.check import check_part\n"
              f"r = check_part({part[0]!r}, {part[1]!r}, {answer!r}); print(r.note or 'correct', 'sympy' in sys.modules)")
    env = {**__import__("os").environ, "GRADER_CACHE_DIR": str(tmp_path)}
    tmp_path.chmod(0o700)
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    again = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    note = first.stdout.split()[0]
    assert again.stdout.split() == [note, "False"], (first.stdout, again.stdout, again.stderr)
