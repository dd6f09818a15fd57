"""`make publish` (`python -m hooks.site.publish [--check] [SITE_DIR]`): the site built for the address it is
published at, checked against the course's settings, with the headers a static host reads.

1. The address: `SITE_URL`, required (mkdocs.yml's default is the local preview's), checked as the build
   checks it (hooks/theme/address.py).
2. The build: `mkdocs build --strict` into SITE_DIR (site/), with the environment as it is: SITE_URL, and
   COURSE_SOLUTIONS when it is set.
3. The check, on the folder built: its sitemap lists the pages under SITE_URL (it was built for that
   address), and it holds what the course's settings say (extra.course, COURSE_SOLUTIONS applied): with
   worked solutions off, no page holds one. What it publishes is said in one line.
4. `_headers` in the folder, which Netlify and Cloudflare Pages read: the in-page checker's files, each
   named by its content, kept a year.

`--check` checks a folder already built (3), and builds and writes nothing. It exits 1 with every problem
and its fix, without a traceback.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Mapping
from xml.etree import ElementTree

from mkdocs.exceptions import ConfigurationError
from mkdocs.utils.yaml import yaml_load

from hooks.checker.publish import PUBLISHED
from hooks.site.settings import ENVIRONMENT as SOLUTIONS_ENVIRONMENT
from hooks.site.settings import Settings, SettingsError
from hooks.theme.address import ENVIRONMENT, EXAMPLE, AddressError, site_address

ROOT = Path(__file__).resolve().parents[2]
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
SOLUTION = 'class="course-solution'   # a worked solution as hooks/chapters/render.py writes it (its figure too)
HEADERS = f"""# Read by Netlify and Cloudflare Pages (written by `make publish`): every file in {PUBLISHED}/ is named by
# its content, so a browser may keep it for a year without asking again.
/{PUBLISHED}/*
  Cache-Control: public, max-age=31536000, immutable
"""


class PublishError(ValueError):
    """What stops the site from being published; the message says the fix."""


def published_address(environ: Mapping[str, str]) -> str:
    if ENVIRONMENT not in environ:
        raise PublishError(f"{ENVIRONMENT} is not set: the site is built for the address it is published at, e.g. "
                           f"{ENVIRONMENT}={EXAMPLE} make publish")
    try:
        return site_address(None, environ)
    except AddressError as error:
        raise PublishError(str(error)) from None


def course_settings(environ: Mapping[str, str]) -> Settings:
    try:
        config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
        return Settings.from_config((config.get("extra") or {}).get("course"), environ)
    except (ConfigurationError, SettingsError) as error:
        raise PublishError(f"the course's settings are wrong:\n{error}") from None


def check_site(site: Path, address: str, solutions: bool) -> list[str]:
    """What is wrong with the built folder for publishing at `address` with the course's settings."""
    sitemap = site / "sitemap.xml"
    if not sitemap.is_file():
        return [f"{sitemap} is missing: build the site first (make publish builds it)"]
    try:
        listed = [loc.text or "" for loc in ElementTree.parse(sitemap).getroot().iter(f"{SITEMAP}loc")]
    except ElementTree.ParseError as error:
        return [f"{sitemap} cannot be read ({error}): build the site again"]
    problems = []
    elsewhere = [url for url in listed if not url.startswith(address)]
    if not listed or elsewhere:
        problems.append(f"{site} was built for another address than {ENVIRONMENT}={address} "
                        f"({sitemap} lists {elsewhere[0] if elsewhere else 'no page'}): build it again for this one")
    if not solutions:
        leaked = sorted(str(path.relative_to(site)) for path in site.rglob("*.html")
                        if SOLUTION in path.read_text(encoding="utf-8", errors="replace"))
        if leaked:
            problems.append(f"worked solutions are off ({SOLUTIONS_ENVIRONMENT}=off or extra.course.solutions: false), "
                            f"but {len(leaked)} page(s) of {site} hold one, e.g. {leaked[0]}: build it again")
    return problems


def solutions_line(solutions: bool, environ: Mapping[str, str]) -> str:
    where = (f"{SOLUTIONS_ENVIRONMENT}={environ[SOLUTIONS_ENVIRONMENT]}" if environ.get(SOLUTIONS_ENVIRONMENT, "").strip()
             else "extra.course.solutions in mkdocs.yml")
    if solutions:
        return (f"worked solutions are published ({where}); a course graded for credit publishes with "
                f"{SOLUTIONS_ENVIRONMENT}=off make publish")
    return f"worked solutions are left out ({where})"


def build(site: Path) -> int:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site.resolve())]
    return subprocess.run(command, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}).returncode


def main(argv: list[str] | None = None, environ: Mapping[str, str] = os.environ) -> int:
    parser = argparse.ArgumentParser(prog="python -m hooks.site.publish", description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", nargs="?", default="site", help="the folder to build and publish (site)")
    parser.add_argument("--check", action="store_true", help="check a folder already built; build and write nothing")
    args = parser.parse_args(argv)
    site = Path(args.site_dir)
    try:
        address = published_address(environ)
        settings = course_settings(environ)
    except PublishError as error:
        print(f"make publish: {error}", file=sys.stderr)
        return 1
    if not args.check and build(site) != 0:
        print("make publish: the build failed (above): nothing to publish", file=sys.stderr)
        return 1
    problems = check_site(site, address, settings.solutions)
    for problem in problems:
        print(f"make publish: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"{site}/ is ready to publish at {address}: upload the folder as it is.")
    print(f"  {solutions_line(settings.solutions, environ)}")
    if not args.check:
        (site / "_headers").write_text(HEADERS, encoding="utf-8")
        print(f"  {site}/_headers: the headers Netlify and Cloudflare Pages read (the README's Hosting)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
