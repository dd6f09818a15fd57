"""The review record: what was reviewed against which English, read, written by --stamp, out of date once English
changes, shown on the status page."""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.chapters.pages import recorded_hash, source_hash
from hooks.translations import review

ROOT = Path(__file__).resolve().parents[2]
PAGE = "02-attention-projection.md"


@pytest.fixture
def docs(tmp_path) -> Path:
    for name in ("en", "ko"):
        shutil.copytree(ROOT / "docs" / name, tmp_path / "docs" / name)
    for record in review.record_files(tmp_path / "docs", "ko"):
        record.unlink()
    return tmp_path / "docs"


def english_hash(docs: Path, name: str) -> str:
    return source_hash((docs / "en" / name).read_text(encoding="utf-8"))


def kinds(docs: Path) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.kind) for f in review.check_record(docs, "ko", docs.parent)]


def test_an_entry_written_is_read_back_and_current(docs):
    path = review.append(docs, "ko", PAGE, english_hash(docs, PAGE), "ko reviewer", ["'scaled score' unified"],
                         today=datetime.date(2026, 11, 30))
    review.append(docs, "ko", "labels.toml", english_hash(docs, "labels.toml"), "ko reviewer", [])
    reviews, problems = review.read_records(docs, "ko", docs.parent)
    assert problems == [] and path == docs / "ko" / "review.toml"
    first = reviews[0]
    assert (first.surface, first.english_hash, first.date, first.reviewer, first.changes) == \
        (PAGE, english_hash(docs, PAGE), "2026-11-30", "ko reviewer", ("'scaled score' unified",))
    assert first.line == path.read_text(encoding="utf-8").splitlines().index("[[page]]") + 1
    assert kinds(docs) == []
    assert review.reviewed_pages(docs, "ko", docs.parent) == {PAGE}


def test_a_review_goes_out_of_date_when_english_changes(docs):
    review.append(docs, "ko", "labels.toml", english_hash(docs, "labels.toml"), "ko reviewer", [])
    labels = docs / "en" / "labels.toml"
    labels.write_text(labels.read_text(encoding="utf-8").replace('hint = "Hint"', 'hint = "A hint"'), encoding="utf-8")
    line = (docs / "ko" / "review.toml").read_text(encoding="utf-8").splitlines().index("[[labels]]") + 1
    assert kinds(docs) == [("docs/ko/review.toml", line, "review-stale")]
    html = review.review_html(docs, docs.parent)
    assert "labels.toml" in html and "out of date" in html and english_hash(docs, "labels.toml") in html


def test_the_newest_entry_of_a_file_is_its_review(docs):
    old = review.Review("r", 1, PAGE, "aaaaaa", "2026-01-01", "a", ())
    new = review.Review("r", 9, PAGE, "bbbbbb", "2026-02-01", "b", ())
    assert review.latest([new, old])[PAGE] is new and review.latest([old, new])[PAGE] is new


@pytest.mark.parametrize("entry, problem", [
    ('[[page]]\nfile = "06-nowhere.md"\nenglish_hash = "abcdef"\ndate = "2026-11-30"\nreviewer = "r"\nchanges = []',
     "no English page"),
    ('[[labels]]\nenglish_hash = "abcdef"\ndate = "2026-11-30"\nchanges = []', "missing reviewer"),
    ('[[catalog]]\nenglish_hash = "not a hash"\ndate = "2026-11-30"\nreviewer = "r"\nchanges = []', "english_hash"),
    ('[[catalog]]\nenglish_hash = "abcdef"\ndate = "30/11/2026"\nreviewer = "r"\nchanges = []', "YYYY-MM-DD"),
    ('[[labels]]\nenglish_hash = "abcdef"\ndate = 2026-11-30\nreviewer = "r"\nchanges = "all"', "list"),
    ('[[glossary]]\nreviewer = "r"', "unknown table"),
    ('[[labels]\nreviewer = "r"', "not valid TOML"),
])
def test_a_malformed_record_is_an_error_at_its_line(docs, entry, problem):
    (docs / "ko" / "review-extra.toml").write_text("# reviews\n\n" + entry + "\n", encoding="utf-8")
    found = review.check_record(docs, "ko", docs.parent)
    assert [(f.path, f.line, f.kind) for f in found] == [("docs/ko/review-extra.toml", 3 if "glossary" not in entry
                                                          else 1, "review")], found
    assert problem in found[0].message


def test_the_status_page_escapes_what_the_record_says(docs):
    review.append(docs, "ko", PAGE, english_hash(docs, PAGE), "<script>alert(1)</script>", ["a < b & c"])
    html = review.review_html(docs, docs.parent)
    assert "<script>" not in html and "&lt;script&gt;" in html and "a &lt; b &amp; c" in html
    assert "up to date" in html


def test_the_status_page_lists_pages_in_course_order_then_the_labels_and_the_catalog():
    assert sorted(["grader.po", "translators.md", "labels.toml", "02-x.md", "index.md", "01-x.md"],
                  key=review._surface_order) == \
        ["index.md", "01-x.md", "02-x.md", "translators.md", "labels.toml", "grader.po"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hooks.translations", *args], cwd=cwd, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.slow
def test_stamping_records_the_review_of_a_page_the_labels_and_the_catalog(docs):
    root = docs.parent
    page = docs / "ko" / PAGE
    page.write_text(page.read_text(encoding="utf-8").replace("translation_of:", "translation_of: 0000\nold:"),
                    encoding="utf-8")
    refused = run("--stamp", f"docs/ko/{PAGE}", cwd=root)
    assert refused.returncode == 2 and "--reviewer" in refused.stderr and "Traceback" not in refused.stderr
    assert not (docs / "ko" / "review.toml").exists()
    done = run("--stamp", f"docs/ko/{PAGE}", "docs/ko/labels.toml", str(ROOT / "grader/locale/ko/LC_MESSAGES/grader.po"),
               "--reviewer", "ko reviewer", "--change", "one term", cwd=root)
    assert done.stdout.splitlines()[:4] == [f"stamped docs/ko/{PAGE}", f"recorded the review of {PAGE} in "
                                            "docs/ko/review.toml", "recorded the review of labels.toml in "
                                            "docs/ko/review.toml", "recorded the review of grader.po in "
                                            "docs/ko/review.toml"], done.stdout + done.stderr
    assert recorded_hash(page.read_text(encoding="utf-8")) == english_hash(docs, PAGE)
    reviews, _ = review.read_records(docs, "ko", root)
    catalog = source_hash((ROOT / "grader/locale/en/LC_MESSAGES/grader.po").read_text(encoding="utf-8"))
    assert [(r.surface, r.english_hash, r.reviewer, r.changes) for r in reviews] == [
        (PAGE, english_hash(docs, PAGE), "ko reviewer", ("one term",)),
        ("labels.toml", english_hash(docs, "labels.toml"), "ko reviewer", ("one term",)),
        ("grader.po", catalog, "ko reviewer", ("one term",))]


# --- --stamp in process (the command above runs it in a subprocess, in the slow suite)


def test_stamp_refuses_what_it_cannot_record_and_writes_nothing(docs):
    root = docs.parent
    for locales, named, reviewer, said in [
        ([], [], None, "--stamp needs the locale"),
        (["en"], [], None, "--stamp needs the locale"),
        (["en", "ko"], [], None, "--stamp needs the locale"),
        ([], [str(docs / "ko" / PAGE)], None, "--stamp FILE needs --reviewer NAME"),
        ([], [str(docs / "ko" / PAGE)], "  ", "--stamp FILE needs --reviewer NAME"),
        ([], [str(docs / "en" / PAGE)], "r", "not a translated file"),
        ([], [str(docs / "ko" / "glossary.toml")], "r", "not a translated file"),
        ([], [str(docs / "ko" / "nowhere.md")], "r", "not a translated file"),
    ]:
        with pytest.raises(ValueError) as error:
            review.stamp(docs, root, locales, named, reviewer, [])
        assert said in str(error.value)
    assert not (docs / "ko" / "review.toml").exists()
    with pytest.raises(ValueError) as error:
        review.stamp(docs, root, [], [], None, [])
    assert str(error.value) == ("--stamp needs the locale whose reviewed pages to stamp (e.g. `ja --stamp`), or the "
                                "files you reviewed (`--stamp docs/ja/02-attention-projection.md --reviewer NAME`)")
    with pytest.raises(ValueError) as error:
        review.stamp(docs, root, [], [str(docs / "ko" / PAGE)], None, [])
    assert str(error.value) == ("--stamp FILE needs --reviewer NAME (a name or a role): the review record says who "
                                "checked the translation against English")


def test_stamp_records_each_file_named_and_a_page_s_translation_of(docs):
    root, page = docs.parent, docs / "ko" / PAGE
    page.write_text(page.read_text(encoding="utf-8").replace("translation_of:", "translation_of: 0000\nold:"),
                    encoding="utf-8")
    catalog = ROOT / "grader" / "locale" / "ko" / "LC_MESSAGES" / "grader.po"
    lines = review.stamp(docs, root, [], [str(page), str(docs / "ko" / "labels.toml"), str(catalog)], " ko reviewer ",
                         ["one term"])
    assert lines == [f"stamped docs/ko/{PAGE}", f"recorded the review of {PAGE} in docs/ko/review.toml",
                     "recorded the review of labels.toml in docs/ko/review.toml",
                     "recorded the review of grader.po in docs/ko/review.toml"]
    text = page.read_text(encoding="utf-8")
    assert recorded_hash(text) == english_hash(docs, PAGE) and text.count("translation_of:") == 1
    assert text.startswith("---\nold:") and "\n---\n" in text
    reviews, problems = review.read_records(docs, "ko", root)
    english_catalog = source_hash((ROOT / "grader/locale/en/LC_MESSAGES/grader.po").read_text(encoding="utf-8"))
    assert problems == [] and [(r.surface, r.english_hash, r.reviewer, r.changes) for r in reviews] == [
        (PAGE, english_hash(docs, PAGE), "ko reviewer", ("one term",)),
        ("labels.toml", english_hash(docs, "labels.toml"), "ko reviewer", ("one term",)),
        ("grader.po", english_catalog, "ko reviewer", ("one term",))]
    assert review.surface_of(catalog, docs) == ("ko", "grader.po")
    assert review.surface_of(ROOT / "grader/locale/en/LC_MESSAGES/grader.po", docs) is None


def test_a_locale_s_stamp_stamps_the_pages_reviewed_against_the_current_english_only(docs):
    root = docs.parent
    reviewed, stale, current = docs / "ko" / PAGE, docs / "ko" / "01-semantic-distance.md", docs / "ko" / "index.md"
    for page in (reviewed, stale):
        page.write_text(page.read_text(encoding="utf-8").replace("translation_of:", "translation_of: 0000\nold:"),
                        encoding="utf-8")
    current.write_text(f"---\ntranslation_of: {english_hash(docs, 'index.md')}\n---\n\nx\n", encoding="utf-8")
    review.append(docs, "ko", PAGE, english_hash(docs, PAGE), "r", [])
    review.append(docs, "ko", "01-semantic-distance.md", "abcdef", "r", [])        # against an older English
    before = {p: p.read_text(encoding="utf-8") for p in (stale, current)}
    lines = review.stamp(docs, root, ["ko"], [], None, [])
    assert f"stamped docs/ko/{PAGE}" in lines and recorded_hash(reviewed.read_text(encoding="utf-8")) == \
        english_hash(docs, PAGE)
    assert ("not stamped docs/ko/01-semantic-distance.md: its review against the current English is not in the "
            "record (docs/ko/review*.toml): review it, then `--stamp docs/ko/01-semantic-distance.md --reviewer NAME`"
            ) in lines
    assert not any("index.md" in line for line in lines)               # current already: nothing to say
    assert {p: p.read_text(encoding="utf-8") for p in (stale, current)} == before
    assert review.stamp(docs, root, ["ko"], [], None, []) == [line for line in lines if line.startswith("not")]


def test_stamping_a_page_writes_its_front_matter_once_and_keeps_the_rest(docs):
    bare, page = docs / "ko" / "03-loss-terrain.md", docs / "ko" / "04-simplex-walk.md"
    bare.write_text("# 제목\n\n본문\n", encoding="utf-8")
    page.write_text("---\ndraft: true\ntranslation_of: 1234\n---\n# 제목\n", encoding="utf-8")
    assert review.stamp_pages(docs, [bare, page]) == [bare, page]
    assert bare.read_text(encoding="utf-8") == \
        f"---\ntranslation_of: {english_hash(docs, '03-loss-terrain.md')}\n---\n\n# 제목\n\n본문\n"
    assert page.read_text(encoding="utf-8") == \
        f"---\ndraft: true\ntranslation_of: {english_hash(docs, '04-simplex-walk.md')}\n---\n# 제목\n"
    assert review.stamp_pages(docs, [bare, page]) == []                 # stamped already: left as it is


def test_the_status_page_shows_each_review_against_the_english_it_was_made_on(docs, tmp_path):
    assert review.review_html(docs, docs.parent) == '<p class="course-review">No review is recorded yet.</p>'
    catalogs = tmp_path / "catalogs"                           # an English catalog of its own: its hash is known
    (catalogs / "grader/locale/en/LC_MESSAGES").mkdir(parents=True)
    (catalogs / "grader/locale/en/LC_MESSAGES/grader.po").write_text("msgid \"x\"\n", encoding="utf-8")
    catalog = source_hash("msgid \"x\"\n")
    day = datetime.date(2026, 11, 30)
    review.append(docs, "ko", "grader.po", catalog, "정 리뷰어", ["c"], today=day)
    review.append(docs, "ko", "labels.toml", "abcdef", "r", [], today=day)
    review.append(docs, "ko", PAGE, english_hash(docs, PAGE), "r", ["a", "b"], today=day)
    assert '"정 리뷰어"' in (docs / "ko" / "review.toml").read_text(encoding="utf-8")   # as written, for its reader
    labels = english_hash(docs, "labels.toml")
    row = "<tr><td>ko</td><td><code>{}</code></td><td>2026-11-30, {}</td><td>{}</td><td>{}</td></tr>".format
    assert review.review_html(docs, docs.parent, catalog_root=catalogs) == (
        '<table class="course-review"><caption>Reviews: which English version each translation was reviewed against'
        "</caption><thead><tr><th>locale</th><th>file</th><th>reviewed</th><th>against English</th><th>review</th>"
        "</tr></thead><tbody>"
        + row(PAGE, "r", f"<code>{english_hash(docs, PAGE)}</code>", "up to date")
        + row("labels.toml", "r", f"<code>abcdef</code> (now <code>{labels}</code>)", "out of date")
        + row("grader.po", "정 리뷰어", f"<code>{catalog}</code>", "up to date")
        + "</tbody></table><details><summary>ko: what the reviews changed</summary><ul>"
        f"<li><code>{PAGE}</code>: a</li><li><code>{PAGE}</code>: b</li><li><code>grader.po</code>: c</li>"
        "</ul></details>")
    reviews, _ = review.read_records(docs, "ko", docs.parent)
    assert [(r.surface, r.changes) for r in reviews] == [(PAGE, ("a", "b")), ("labels.toml", ()), ("grader.po", ("c",))]


def test_a_stale_review_says_where_the_translation_to_review_is(docs, tmp_path):
    catalogs = tmp_path / "catalogs"
    (catalogs / "grader/locale/en/LC_MESSAGES").mkdir(parents=True)
    (catalogs / "grader/locale/en/LC_MESSAGES/grader.po").write_text("msgid \"x\"\n", encoding="utf-8")
    review.append(docs, "ko", "grader.po", "abcdef", "r", [])
    review.append(docs, "ko", "labels.toml", "abcdef", "r", [])
    found = review.check_record(docs, "ko", docs.parent, catalog_root=catalogs)
    assert [f.message.rsplit("(", 1)[1] for f in found] == [
        "--stamp grader/locale/ko/LC_MESSAGES/grader.po --reviewer NAME)", "--stamp docs/ko/labels.toml --reviewer NAME)"]
    now = source_hash('msgid "x"\n')
    assert found[0].message.startswith(f"grader.po was reviewed against English abcdef; English is now {now}")


def test_the_record_is_written_as_a_reviewer_reads_it(docs):
    day = datetime.date(2026, 11, 30)
    review.append(docs, "ko", "labels.toml", "abcdef", "r", [], today=day)
    path = review.append(docs, "ko", PAGE, "123456", "정 리뷰어", ["'점수' 통일", "b"], today=day)
    assert path.read_text(encoding="utf-8") == (
        "# Review record of this locale (hooks/translations/review.py; the translators' guide explains it).\n\n"
        '[[labels]]\nenglish_hash = "abcdef"\ndate = "2026-11-30"\nreviewer = "r"\nchanges = []\n\n'
        f'[[page]]\nfile = "{PAGE}"\nenglish_hash = "123456"\ndate = "2026-11-30"\nreviewer = "정 리뷰어"\n'
        "changes = [\n  \"'점수' 통일\",\n  \"b\",\n]\n")


def test_an_entry_missing_fields_names_them_all(docs):
    (docs / "ko" / "review.toml").write_text('[[labels]]\nenglish_hash = "abcdef"\ndate = "2026-11-30"\n',
                                             encoding="utf-8")
    [found] = review.check_record(docs, "ko", docs.parent)
    assert found.message == "[[labels]] labels.toml: missing reviewer, changes"
    (docs / "ko" / "review.toml").write_text('[[page]]\nenglish_hash = "abcdef"\n', encoding="utf-8")
    [found] = review.check_record(docs, "ko", docs.parent)
    assert found.message == "[[page]] file = '': no English page of this name"


def test_a_catalogs_review_is_stamped_against_the_english_catalog_beside_it(docs, tmp_path):
    """With the catalogs elsewhere (catalog_root), `--stamp …/grader.po` finds the locale's catalog there and records
    the hash of the English catalog there."""
    catalogs = tmp_path / "catalogs"
    for locale, text in (("en", 'msgid "x"\n'), ("ko", 'msgid "x"\nmsgstr "엑스"\n')):
        (catalogs / f"grader/locale/{locale}/LC_MESSAGES").mkdir(parents=True)
        (catalogs / f"grader/locale/{locale}/LC_MESSAGES/grader.po").write_text(text, encoding="utf-8")
    catalog = catalogs / "grader/locale/ko/LC_MESSAGES/grader.po"
    assert review.surface_of(catalog, docs, catalogs) == ("ko", "grader.po")
    review.stamp(docs, docs.parent, [], [str(catalog)], "r", [], catalog_root=catalogs)
    reviews, _ = review.read_records(docs, "ko", docs.parent)
    assert [(r.surface, r.english_hash) for r in reviews] == [("grader.po", source_hash('msgid "x"\n'))]


def test_a_stamp_of_two_locales_says_what_it_did_in_each(docs):
    shutil.copytree(ROOT / "docs" / "fr", docs / "fr")
    for record in review.record_files(docs, "fr"):
        record.unlink()
    stale = docs / "ko" / "01-semantic-distance.md"
    stale.write_text(stale.read_text(encoding="utf-8").replace("translation_of:", "translation_of: 0000\nold:"),
                     encoding="utf-8")
    page = docs / "fr" / PAGE
    page.write_text(page.read_text(encoding="utf-8").replace("translation_of:", "translation_of: 0000\nold:"),
                    encoding="utf-8")
    review.append(docs, "fr", PAGE, english_hash(docs, PAGE), "r", [])
    lines = review.stamp(docs, docs.parent, ["ko", "fr"], [], None, [])
    assert any(line.startswith("not stamped docs/ko/01-semantic-distance.md") for line in lines), lines
    assert f"stamped docs/fr/{PAGE}" in lines


def test_a_page_stamped_already_is_passed_over_and_the_next_is_stamped(docs):
    done, bare = docs / "ko" / "03-loss-terrain.md", docs / "ko" / "04-simplex-walk.md"
    done.write_text(f"---\ntranslation_of: {english_hash(docs, '03-loss-terrain.md')}\n---\n# 제목\n", encoding="utf-8")
    bare.write_text("# 제목\n", encoding="utf-8")
    assert review.stamp_pages(docs, [done, bare]) == [bare]


def test_the_status_page_orders_each_locales_reviews_and_says_when_english_is_gone(docs, tmp_path):
    """Whatever order the reviews were recorded in: pages, then the labels, then the catalog; a review of a catalog
    whose English is not there is out of date against '?'; each locale's changes in a list of its own."""
    shutil.copytree(ROOT / "docs" / "fr", docs / "fr")
    for record in review.record_files(docs, "fr"):
        record.unlink()
    review.append(docs, "ko", "grader.po", "abcdef", "r", [])
    review.append(docs, "ko", "labels.toml", english_hash(docs, "labels.toml"), "r", ["l"])
    review.append(docs, "ko", PAGE, english_hash(docs, PAGE), "r", ["p"])
    review.append(docs, "fr", PAGE, english_hash(docs, PAGE), "r", ["f"])
    html_text = review.review_html(docs, docs.parent, catalog_root=tmp_path / "no-catalogs")
    rows = re.findall(r"<tr><td>(\w+)</td><td><code>([^<]+)</code>", html_text)
    assert [row for row in rows if row[0] == "ko"] == [("ko", PAGE), ("ko", "labels.toml"), ("ko", "grader.po")]
    assert "<code>abcdef</code> (now <code>?</code>)</td><td>out of date" in html_text
    assert "</ul></details><details><summary>" in html_text
