"""`make publish`'s check (hooks/site/publish.py) on folders made to be wrong; the real build it checks, under a
sub-path in a real browser, is tests/site/test_publish.py's."""

from __future__ import annotations

from pathlib import Path

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
