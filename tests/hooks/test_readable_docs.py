"""What a translator saved, read in process (hooks/chapters/readable.py) and the docs folder's small helpers
(hooks/translations/docs.py): the place a slip names is its file, its line and its column."""
from pathlib import Path

import pytest

from hooks.chapters import readable
from hooks.translations import docs

UTF8_FIX = "save it as UTF-8 (in your editor: save with encoding, UTF-8)"
TOML_FIX = ("each line is `key = \"value\"` or a `[table]`; a quote inside a value is written \\\" and a "
            "backslash \\\\")


@pytest.mark.parametrize("data, line, byte, column", [
    (b"ok\nab\xe9c\n", 2, "e9", 3),
    (b"\xff", 1, "ff", 1),
    (b"one\ntwo\nthree \xe9t\xe9\n", 3, "e9", 7),
    (b"\n\xe9", 2, "e9", 1),
])
def test_a_page_not_in_utf8_is_named_at_its_line_and_column(tmp_path, data, line, byte, column):
    page = tmp_path / "page.md"
    page.write_bytes(data)
    with pytest.raises(readable.Unreadable) as error:
        readable.read_text(page, "docs/fr/page.md")
    what = f"the file is not UTF-8 (byte 0x{byte} at column {column}): {UTF8_FIX}"
    assert (error.value.shown, error.value.line, error.value.what) == ("docs/fr/page.md", line, what)
    assert str(error.value) == f"docs/fr/page.md:{line}: {what}"


def test_without_a_name_the_path_is_shown(tmp_path):
    page = tmp_path / "page.md"
    page.write_bytes(b"\xe9")
    with pytest.raises(readable.Unreadable) as error:
        readable.read_text(page)
    assert error.value.shown == str(page)
    page.write_text("déjà vu\n", encoding="utf-8")
    assert readable.read_text(page) == "déjà vu\n"


@pytest.mark.parametrize("text, line, reason", [
    ('a = "1"\n\nb = "x\n', 3, "Illegal character '\\n'"),
    ('a = "1"\na = "2"\n', 2, "Cannot overwrite a value"),
    ('a = "1"\n\nb = "x', 3, "Unterminated string"),          # tomllib says "at end of document": the last line
    ('[x', 1, "Expected ']' at the end of a table declaration"),
    ('a = "x\nb = "1"\n', 1, "Illegal character '\\n'"),      # its own line, not the last
])
def test_a_toml_slip_is_named_at_its_line_with_the_usual_fix(tmp_path, text, line, reason):
    labels = tmp_path / "labels.toml"
    labels.write_text(text, encoding="utf-8")
    with pytest.raises(readable.Unreadable) as error:
        readable.read_toml(labels, "docs/fr/labels.toml")
    assert str(error.value) == f"docs/fr/labels.toml:{line}: not valid TOML ({reason}): {TOML_FIX}"
    with pytest.raises(readable.Unreadable) as error:
        readable.read_toml(labels)
    assert error.value.shown == str(labels)


def test_a_toml_file_not_saved_as_utf_8_is_named_as_shown(tmp_path):
    labels = tmp_path / "labels.toml"
    labels.write_bytes('a = "é"\n'.encode("latin-1"))
    with pytest.raises(readable.Unreadable) as error:
        readable.read_toml(labels, "docs/fr/labels.toml")
    assert error.value.shown == "docs/fr/labels.toml" and str(error.value).startswith("docs/fr/labels.toml:1: ")


def test_good_toml_is_its_table(tmp_path):
    labels = tmp_path / "labels.toml"
    labels.write_text('[x]\na = "1"\n', encoding="utf-8")
    assert readable.read_toml(labels) == {"x": {"a": "1"}}


def test_a_page_is_named_relative_to_the_project_when_it_is_inside(tmp_path):
    inside = tmp_path / "docs" / "fr" / "a.md"
    assert docs.relative(inside, tmp_path.resolve()) == "docs/fr/a.md"
    assert docs.relative(Path("/elsewhere/a.md"), tmp_path.resolve()) == "/elsewhere/a.md"


def test_a_staff_page_is_english_only():
    assert docs.english_only("---\ntranslate: false\n---\n# Status\n")
    assert not docs.english_only("---\ntranslate: true\n---\n# Status\n")
    assert not docs.english_only("# A lesson\n")


def test_a_labels_files_keys_are_located_line_by_line(tmp_path):
    labels = tmp_path / "labels.toml"
    labels.write_text('title = "Course"\n\n[frame]\nheader = "Header"\n  footer-x = "F"\ncount = 3\n'
                      "[figures.axes]\nx = \"x axis\"\n[ other ]\n", encoding="utf-8")
    assert docs.label_lines(labels) == {"title": (1, "Course"), "frame.header": (4, "Header"),
                                        "frame.footer-x": (5, "F"), "figures.axes.x": (8, "x axis")}


def test_the_locales_are_english_first_then_the_folders_with_labels(tmp_path):
    for name, labelled in (("zh", True), ("en", True), ("fr", True), ("assets", False), ("id", True)):
        (tmp_path / name).mkdir()
        if labelled:
            (tmp_path / name / "labels.toml").write_text("", encoding="utf-8")
    (tmp_path / "ko").write_text("a file, not a folder", encoding="utf-8")
    assert docs.locales(tmp_path) == ["en", "fr", "id", "zh"]
