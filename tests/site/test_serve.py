"""`make serve LOCALE=fr`, the translator's and the author's preview (hooks/site/serve.py), as a real
`mkdocs serve` on a copy of the project: a page, a catalog message and an exercise module saved are each
served; a request made while a rebuild runs gets a whole page at once (the last good one, or the new one);
the first page comes before the in-page checker's trace, which the pages get once it is made.
How fast each of these is, is measured by bench/preview_loop.py, not here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from hooks.checker import publish as checker
from tests.conftest import ROOT, wait_seconds
from tests.site.test_new_exercise import copy_project, free_port

PAGE, CATALOG, MODULE = ("docs/fr/04-simplex-walk.md", "grader/locale/fr/LC_MESSAGES/grader.po",
                         "grader/exercises/terrain_warmup.py")


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=wait_seconds(30)) as reply:
            return reply.status, reply.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


@contextmanager
def serving(project: Path, log: Path, **env):
    """`mkdocs serve` as `make serve LOCALE=fr` runs it, in ``project``; its base URL."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_LANG", "LC_", "LANG"))}
    environ.update(PYTHONPATH=str(project), NO_MKDOCS_2_WARNING="1", GRADER_CACHE_DIR=str(project / ".grader-cache"),
                   COURSE_SERVE_LOCALE="fr", **env)
    with log.open("w") as out:
        server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--no-strict", "--dev-addr", f"127.0.0.1:{port}"],
                                  cwd=project, env=environ, stdout=out, stderr=subprocess.STDOUT)
        try:
            yield server, f"http://127.0.0.1:{port}/"
        finally:
            server.terminate()
            try:
                server.wait(timeout=wait_seconds(30))
            except subprocess.TimeoutExpired:
                server.kill()


def wait_for(url: str, needle: str, server: subprocess.Popen, log: Path, seconds: float = 120) -> str:
    deadline = time.monotonic() + wait_seconds(seconds)
    while time.monotonic() < deadline:
        assert server.poll() is None, "mkdocs serve stopped:\n" + log.read_text(encoding="utf-8")[-3000:]
        status, text = fetch(url)
        if status == 200 and needle in text:
            return text
        time.sleep(0.5)
    raise AssertionError(f"{url} never showed {needle!r}:\n" + log.read_text(encoding="utf-8")[-3000:])


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path} lacks {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


class Asking(threading.Thread):
    """Asks for a page all along; keeps each answer's status and whether it was a whole page."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.answers, self.done = url, [], threading.Event()

    def run(self):
        while not self.done.is_set():
            status, text = fetch(self.url)
            self.answers.append((status, text.rstrip().endswith("</html>")))
            self.done.wait(0.2)


def test_a_saved_page_catalog_message_and_exercise_module_are_served_and_no_request_waits_for_a_rebuild(tmp_path):
    project = copy_project(tmp_path / "project")
    log = tmp_path / "serve.log"
    # a page no save touches links nowhere: each rebuild says so again, though that page is not converted again
    with (project / "docs/fr/01-semantic-distance.md").open("a", encoding="utf-8") as page:
        page.write("\n[lien](nulle-part.md)\n")
    # the checker's runtime left out: its trace is the other test's
    with serving(project, log, COURSE_PYODIDE_DIR=str(tmp_path / "no-runtime")) as (server, base):
        home = wait_for(base + "fr/", "ANDREA-120M", server, log)
        assert 'hreflang="ja"' not in home and 'hreflang="en"' in home   # English and French only
        assert fetch(base + "ja/")[0] == 404
        asking = Asking(base + "fr/01-semantic-distance/")
        asking.start()
        edit(project / PAGE, "Les sommets sont les stratégies pures", "Les sommets sont les stratégies pures (premièrement)")
        page = wait_for(base + "fr/04-simplex-walk/", "stratégies pures (premièrement)", server, log)
        assert "<title>Le mélange du curriculum" in page
        edit(project / CATALOG, 'msgstr "le taux d’apprentissage de v2 au pas {step}"',
             'msgstr "(deuxièmement) le taux d’apprentissage de v2 au pas {step}"')   # a part's prompt
        wait_for(base + "fr/03-loss-terrain/", "(deuxièmement) le taux d’apprentissage de v2 au pas 50", server, log)
        edit(project / MODULE, '"step": Integer(50)', '"step": Integer(70)')
        page = wait_for(base + "fr/03-loss-terrain/", "au pas 70", server, log)
        assert "au pas 50" not in page
        asking.done.set()
        asking.join()
    said = log.read_text(encoding="utf-8")
    assert said.count("Reloading browsers") >= 3, said[-3000:]
    builds = said.count("Reloading browsers") + 1
    assert said.count("contains a link 'nulle-part.md'") >= builds, said[-3000:]   # MkDocs' own, every build
    assert len(asking.answers) > 3 and all(answer == (200, True) for answer in asking.answers), asking.answers


def test_the_first_page_comes_before_the_checker_s_trace_and_the_pages_get_the_checker_once_it_is_made(tmp_path):
    runtime = checker.runtime_dir({})
    if checker.runtime_problem(runtime) or not shutil.which("node"):
        pytest.skip("no runtime (npm ci) or no Node.js: nothing is traced")
    project = copy_project(tmp_path / "project")
    (project / "node_modules").symlink_to(runtime.parent)
    compiled = project / ".cache" / "checker"
    compiled.mkdir(parents=True)
    for made in [*(ROOT / ".cache" / "checker").glob("libraries-*.zip"), *(ROOT / ".cache" / "checker").glob("python-stdlib-*.zip")]:
        shutil.copy(made, compiled / made.name)   # SymPy compiled once is enough; the trace is what is tested
    log = tmp_path / "serve.log"
    with serving(project, log) as (server, base):
        first = wait_for(base + "fr/02-attention-projection/", "exercise-attention-weights", server, log)
        assert not re.search(r'<script src="[^"]*assets/checker/checker-', first)
        assert "the in-page checker is being prepared in the background" in log.read_text(encoding="utf-8")
        page = wait_for(base + "fr/02-attention-projection/", "assets/checker/checker-", server, log, seconds=600)
        worker = re.search(r'data-worker="(worker-[0-9a-f]{16}\.js)"', page).group(1)
        assert fetch(base + f"assets/checker/{worker}")[0] == 200
    assert list(compiled.glob("trace-*.json"))
