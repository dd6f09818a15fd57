"""`make publish`'s check (hooks/site/publish.py) on folders made to be wrong; the real build it checks, under a
sub-path in a real browser, is tests/site/test_publish.py's."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from hooks.site import publish

ADDRESS = "https://org.github.io/course/"


def sitemap(*urls: str) -> str:
    entries = "".join(f"<url><loc>{url}</loc></url>" for url in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'


def a_site(folder: Path, urls=(ADDRESS, ADDRESS + "fr/"), solution: bool = False) -> Path:
    (folder / "fr").mkdir(parents=True)
    (folder / "sitemap.xml").write_text(sitemap(*urls), encoding="utf-8")
    (folder / "index.html").write_text("<p>home</p>", encoding="utf-8")
    exercise = '<details class="course-solution"><summary>Worked solution</summary></details>' if solution else ""
    (folder / "fr" / "index.html").write_text(f"<p>accueil</p>{exercise}", encoding="utf-8")
    return folder


def test_a_site_built_for_the_address_with_the_settings_is_ready(tmp_path):
    assert publish.check_site(a_site(tmp_path), ADDRESS, solutions=False) == []
    assert publish.check_site(a_site(tmp_path / "with", solution=True), ADDRESS, solutions=True) == []


def test_solutions_off_but_a_page_holds_one(tmp_path):
    (problem,) = publish.check_site(a_site(tmp_path, solution=True), ADDRESS, solutions=False)
    assert "worked solutions are off" in problem and "1 page(s)" in problem and "fr/index.html" in problem


@pytest.mark.parametrize("urls, words", [
    (("http://127.0.0.1:8000/", "http://127.0.0.1:8000/fr/"), "was built for another address than "
     f"SITE_URL={ADDRESS} (", ),
    ((), "lists no page"),
])
def test_a_site_built_for_another_address(tmp_path, urls, words):
    (problem,) = publish.check_site(a_site(tmp_path, urls), ADDRESS, solutions=True)
    assert words in problem and problem.endswith("build it again for this one")
    assert f"sitemap.xml lists {urls[0] if urls else 'no page'}):" in problem   # the first page elsewhere


def test_a_folder_that_is_no_build(tmp_path):
    assert publish.check_site(tmp_path, ADDRESS, True) == [f"{tmp_path / 'sitemap.xml'} is missing: build the site "
                                                           "first (make publish builds it)"]
    (tmp_path / "sitemap.xml").write_text("<urlset", encoding="utf-8")
    assert "cannot be read" in publish.check_site(tmp_path, ADDRESS, True)[0]


def test_the_command_needs_the_address_and_says_what_it_publishes(tmp_path, capsys):
    site = a_site(tmp_path / "site")
    assert publish.main([str(site), "--check"], {}) == 1
    assert "make publish: SITE_URL is not set" in capsys.readouterr().err
    assert publish.main([str(site), "--check"], {"SITE_URL": ADDRESS.rstrip("/")}) == 1
    assert "ends with '/': write https://org.github.io/course/" in capsys.readouterr().err
    assert publish.main([str(site), "--check"], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "maybe"}) == 1
    assert "COURSE_SOLUTIONS='maybe'" in capsys.readouterr().err
    assert publish.main([str(site), "--check"], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "off"}) == 0
    out = capsys.readouterr().out
    assert f"is ready to publish at {ADDRESS}" in out and "worked solutions are left out (COURSE_SOLUTIONS=off)" in out
    assert not (site / "_headers").exists()   # --check writes nothing
    with_solution = a_site(tmp_path / "graded", solution=True)
    assert publish.main([str(with_solution), "--check"], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "off"}) == 1
    assert "hold one, e.g. fr/index.html" in capsys.readouterr().err


def test_the_headers_keep_the_checkers_files_a_year():
    rules = publish.HEADERS.splitlines()
    assert "/assets/checker/*" in rules and "  Cache-Control: public, max-age=31536000, immutable" in rules


def test_the_first_page_named_is_the_first_in_order_and_a_page_not_in_utf_8_is_read(tmp_path):
    site = a_site(tmp_path)
    (site / "b").mkdir()
    (site / "b" / "page.html").write_bytes(b'<p>\xff\xfe</p><div class="course-solution">')
    (site / "a.html").write_bytes(b'<p>\xe9t\xe9</p><div class="course-solution">')
    (problem,) = publish.check_site(site, ADDRESS, solutions=False)
    assert "2 page(s)" in problem and "e.g. a.html:" in problem


def test_a_sitemap_entry_without_an_address_is_another_address(tmp_path):
    (problem,) = publish.check_site(a_site(tmp_path, (ADDRESS, "")), ADDRESS, solutions=True)
    assert "was built for another address" in problem


@pytest.mark.parametrize("solutions, environ, line", [
    (True, {}, "worked solutions are published (extra.course.solutions in mkdocs.yml); a course graded for "
               "credit publishes with COURSE_SOLUTIONS=off make publish"),
    (True, {"COURSE_SOLUTIONS": "on"}, "worked solutions are published (COURSE_SOLUTIONS=on); a course graded for "
                                       "credit publishes with COURSE_SOLUTIONS=off make publish"),
    (False, {"COURSE_SOLUTIONS": " "}, "worked solutions are left out (extra.course.solutions in mkdocs.yml)"),
    (False, {"COURSE_SOLUTIONS": "off"}, "worked solutions are left out (COURSE_SOLUTIONS=off)"),
])
def test_the_line_says_what_decided_the_solutions(solutions, environ, line):
    assert publish.solutions_line(solutions, environ) == line


def test_the_settings_are_read_from_mkdocs_yml(tmp_path, monkeypatch):
    monkeypatch.setattr(publish, "ROOT", tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    assert publish.course_settings({}).solutions is True
    (tmp_path / "mkdocs.yml").write_text("extra:\n  course:\n    solutions: false\n", encoding="utf-8")
    assert publish.course_settings({}).solutions is False
    assert publish.course_settings({"COURSE_SOLUTIONS": "on"}).solutions is True
    for text, words in (("extra:\n  course:\n    solutions: 'false'\n", "extra.course.solutions: 'false' is a string"),
                        ("extra: [\n", "error parsing the configuration file")):
        (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
        with pytest.raises(publish.PublishError) as raised:
            publish.course_settings({})
        assert str(raised.value).startswith("the course's settings are wrong:\n") and words in str(raised.value)


def test_the_build_is_strict_into_the_folder_from_the_project(tmp_path, monkeypatch):
    ran = []
    monkeypatch.setattr(publish.subprocess, "run", lambda command, cwd, env: ran.append((command, cwd, env)) or
                        SimpleNamespace(returncode=4))
    assert publish.build(tmp_path / "out") == 4
    ((command, cwd, env),) = ran
    assert command == [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str((tmp_path / "out").resolve())]
    assert cwd == publish.ROOT and env["NO_MKDOCS_2_WARNING"] == "1"


def test_the_command_builds_checks_and_writes_the_headers(tmp_path, monkeypatch, capsys):
    site = tmp_path / "site"
    built = []
    monkeypatch.setattr(publish, "build", lambda folder: built.append(folder) or a_site(folder) and 0)
    assert publish.main([str(site)], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "off"}) == 0
    assert built == [site] and (site / "_headers").read_text(encoding="utf-8") == publish.HEADERS
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{site}/ is ready to publish at {ADDRESS}: upload the folder as it is.",
                   "  worked solutions are left out (COURSE_SOLUTIONS=off)",
                   f"  {site}/_headers: the headers Netlify and Cloudflare Pages read (the README's Hosting)"]


def test_a_failed_build_publishes_nothing(tmp_path, monkeypatch, capsys):
    site = tmp_path / "site"
    monkeypatch.setattr(publish, "build", lambda folder: 1)
    assert publish.main([str(site)], {"SITE_URL": ADDRESS}) == 1
    assert capsys.readouterr().err == "make publish: the build failed (above): nothing to publish\n"
    assert not site.exists()


def test_every_problem_is_said_and_nothing_is_written(tmp_path, monkeypatch, capsys):
    site = tmp_path / "site"
    monkeypatch.setattr(publish, "build", lambda folder: a_site(folder, urls=("http://127.0.0.1:8000/",),
                                                                solution=True) and 0)
    assert publish.main([str(site)], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "off"}) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("make publish: ") for line in err)
    assert not (site / "_headers").exists()


def test_the_command_says_how_it_is_used(capsys):
    with pytest.raises(SystemExit) as done:
        publish.main(["--help"], {})
    assert done.value.code == 0
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith("usage: python -m hooks.site.publish [-h] [--check] [site_dir] ")
    assert publish.__doc__.splitlines()[0].split()[0] in said and " ".join(publish.__doc__.splitlines()[0].split()) in said
    assert "site_dir the folder to build and publish (site)" in said
    assert "--check check a folder already built; build and write nothing" in said


def test_the_folder_is_site_unless_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    built = []
    monkeypatch.setattr(publish, "build", lambda folder: built.append(folder) or a_site(tmp_path / folder) and 0)
    assert publish.main([], {"SITE_URL": ADDRESS}) == 0
    assert built == [Path("site")] and (tmp_path / "site" / "_headers").is_file()
    assert "worked solutions are " in capsys.readouterr().out


def test_with_solutions_on_a_page_may_hold_one(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(publish, "build", lambda folder: a_site(folder, solution=True) and 0)
    assert publish.main([str(tmp_path / "site")], {"SITE_URL": ADDRESS, "COURSE_SOLUTIONS": "on"}) == 0
    assert "  worked solutions are published (COURSE_SOLUTIONS=on); a course graded" in capsys.readouterr().out
