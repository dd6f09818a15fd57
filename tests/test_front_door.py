"""The README is a front door: short, every relative link in it leads to a file, and it leads to every page of
the manual (hooks/checker/manual.py), each of them in the site's navigation."""
import re
from pathlib import Path

import yaml

from hooks.checker import manual

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINK = re.compile(r"\]\(([^)\s]+)\)")          # [text](target): the text may run over lines


def relative_links(text: str) -> list[str]:
    return [target for target in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:|#", target)]


def test_the_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250, "the manual's pages hold the rest: docs/en/*.md"


def test_every_relative_link_of_the_readme_leads_to_a_file():
    links = relative_links(README)
    assert links
    for target in links:
        assert (ROOT / target.split("#", 1)[0]).is_file(), f"README.md links to {target}, which is no file"


def test_the_readme_links_to_every_page_of_the_manual_and_each_is_in_the_navigation():
    linked = set(relative_links(README))
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)["nav"]
    listed = set(re.findall(r"[\w-]+\.md", str(nav)))
    for name in manual.FILES[1:]:
        assert name in linked, f"README.md does not link to {name}"
        assert Path(name).name in listed, f"{name} is not in mkdocs.yml's nav"


def test_the_links_are_found_over_lines_and_outside_addresses_are_left_out():
    text = "[The grader on your\ncomputer](docs/en/grader.md), <http://x.org>, [a](https://x.org/a.md), [b](#top)"
    assert relative_links(text) == ["docs/en/grader.md"]
