"""The site's words (hooks/chapters/labels.py), in process on a small docs folder: every locale's labels.toml
flattened, checked against English's keys and placeholders, and read again only when a file changed."""
import os

import pytest

from hooks.chapters import labels
from hooks.chapters.readable import Unreadable


def docs_folder(tmp_path, **locales):
    for locale, text in locales.items():
        (tmp_path / locale).mkdir(exist_ok=True)
        (tmp_path / locale / "labels.toml").write_text(text, encoding="utf-8")
    return tmp_path


ENGLISH = '[parts]\ndistance = "Distance from {a} to {b}"\ncount = 3\n[figures]\nx = "x axis"\n'


def test_every_locale_is_flattened_and_values_are_text(tmp_path):
    docs = docs_folder(tmp_path, en=ENGLISH,
                       fr='[parts]\ndistance = "Distance de {a} à {b}"\ncount = 4\n[figures]\nx = "axe x"\n')
    assert labels.load_labels(docs) == {
        "en": {"parts.distance": "Distance from {a} to {b}", "parts.count": "3", "figures.x": "x axis"},
        "fr": {"parts.distance": "Distance de {a} à {b}", "parts.count": "4", "figures.x": "axe x"}}


def test_a_locale_missing_labels_or_placeholders_is_named_with_each_problem(tmp_path):
    docs = docs_folder(tmp_path, en=ENGLISH, fr='[parts]\ndistance = "Distance de {a}"\nextra = "en plus"\n')
    with pytest.raises(labels.LabelError) as error:
        labels.load_labels(docs)
    assert str(error.value).split("\n") == [
        "docs/fr/labels.toml: missing label 'figures.x' (English: 'x axis')",
        "docs/fr/labels.toml: missing label 'parts.count' (English: '3')",
        "docs/fr/labels.toml: label 'parts.distance' must use the placeholders ['a', 'b']"]


def test_an_unreadable_labels_file_is_named_as_the_translator_knows_it(tmp_path):
    docs = docs_folder(tmp_path, en=ENGLISH, fr='[parts\n')
    with pytest.raises(Unreadable) as error:
        labels.load_labels(docs)
    assert error.value.shown == "docs/fr/labels.toml" and error.value.line == 1


def test_labels_are_read_again_when_a_file_changes(tmp_path):
    docs = docs_folder(tmp_path, en='title = "One"\n')
    assert labels.load_labels(docs)["en"]["title"] == "One"
    path = docs / "en" / "labels.toml"
    path.write_text('title = "Two!"\n', encoding="utf-8")        # a new size
    assert labels.load_labels(docs)["en"]["title"] == "Two!"
    stat = path.stat()
    path.write_text('title = "Six!"\n', encoding="utf-8")        # the same size, a later time
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert labels.load_labels(docs)["en"]["title"] == "Six!"


def test_the_figures_table_is_the_labels_under_figures():
    assert labels.figure_labels({"figures.x": "1", "figuresy": "2", "parts.figures.z": "3", "figures.a.b": "4"}) == \
        {"x": "1", "a.b": "4"}


def test_an_exercise_title_is_the_catalogs_in_the_locale():
    assert labels.exercise_title("embedding-distances", "en") != "exercise.embedding-distances.title"
    assert "distance" in labels.exercise_title("embedding-distances", "en").lower()   # its title, not a word of the locale's
    assert "distance" in labels.exercise_title("embedding-distances", "fr").lower()
    assert labels.exercise_title("embedding-distances", "fr") != labels.exercise_title("embedding-distances", "en")


def test_without_english_labels_there_is_nothing_to_check_against(tmp_path):
    docs = docs_folder(tmp_path, fr='[parts]\ndistance = "Distance de {a}"\n')
    assert labels.load_labels(docs) == {"fr": {"parts.distance": "Distance de {a}"}}
