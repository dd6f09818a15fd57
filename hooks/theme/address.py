"""The site's address: `site_url` in mkdocs.yml, or `SITE_URL` for one build, checked; and what hangs on it.

MkDocs writes the sitemap's absolute addresses (with each page's language alternates, by
mkdocs-static-i18n), the canonical links and the 404 pages' links from it: a 404 page is served at any
address, so its stylesheets, scripts and links are absolute paths under the site's own (`/<repo>/` on a
GitHub Pages project site). A host serves one 404 page for every missing address (GitHub Pages, Netlify:
the root's) or the nearest folder's (Cloudflare Pages): each locale gets its own, `<locale>/404.html`, and
the root's sends a reader whose address is in a locale's folder to that locale's (`locale_choice`).
"""

from __future__ import annotations

import json
from typing import Mapping
from urllib.parse import urlsplit

ENVIRONMENT = "SITE_URL"
EXAMPLE = "https://<org>.github.io/<repo>/"


class AddressError(ValueError):
    """The site's address cannot be used; the message names the setting and the fix."""


def site_address(configured: str | None, environ: Mapping[str, str]) -> str:
    """The site's address: `SITE_URL` when it is set (mkdocs.yml's `site_url` reads it with `!ENV`), else
    `site_url` as MkDocs read it; checked: http or https, a host, a path that ends in '/', no query or
    fragment. The message names the setting the value came from."""
    if ENVIRONMENT in environ:
        value, where = environ[ENVIRONMENT], f"{ENVIRONMENT}={environ[ENVIRONMENT]!r}"
    else:
        value, where = configured, f"site_url: {configured!r} in mkdocs.yml"
    if not value:
        raise AddressError(f"{where}: the site's address is empty: set site_url in mkdocs.yml, or "
                           f"{ENVIRONMENT}={EXAMPLE} for one build")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AddressError(f"{where}: the site's address starts with https:// (or http://) and names its host, "
                           f"e.g. {EXAMPLE}")
    if parts.query or parts.fragment:
        raise AddressError(f"{where}: the site's address has no ?query or #fragment: write "
                           f"{parts.scheme}://{parts.netloc}{parts.path}")
    if not parts.path.endswith("/"):
        raise AddressError(f"{where}: the site's address is a folder and ends with '/': write {value}/")
    return value


def base_path(address: str) -> str:
    """The path every page of the site is under: '/' at a host's root, '/<repo>/' on a project site."""
    return urlsplit(address).path or "/"


def locale_home(address: str, link: str) -> str:
    """A locale's home page as an absolute path (its `link` in mkdocs-static-i18n's languages: '/', '/fr/')."""
    return base_path(address).rstrip("/") + link


# the root 404 page, served for a missing address in a locale's folder, sends the reader to that locale's own;
# the locale's 404 page is served as is (a host that finds it where the address is never runs this)
LOCALE_CHOICE = ('<script>(function(){var homes=%s,path=location.pathname;for(var i=0;i<homes.length;i++){'
                 'var page=homes[i]+"404.html";if(path.indexOf(homes[i])===0&&path!==page){location.replace(page);'
                 'return;}}})();</script>')


def locale_choice(homes: list[str]) -> str:
    """The script the root 404 page runs first: the other locales' home paths ('/repo/fr/') it sends readers to."""
    return LOCALE_CHOICE % json.dumps(sorted(homes, key=len, reverse=True))


def with_locale_choice(output: str, homes: list[str]) -> str:
    head, sep, body = output.partition("</head>")
    return head + locale_choice(homes) + sep + body if sep and homes else output
