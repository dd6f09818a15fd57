"""Benchmark: the translator's and the author's preview loop, on a copy of the project.

    python bench/preview_loop.py [--saves N] [--locale fr] [--ratio-runs N | --no-ratio] [--fresh]

Starts `make serve` (the copy's .venv and node_modules are this checkout's) and prints:

- the seconds from `make serve` to the first page, with `.cache/` kept (a second `make serve`) and with it
  empty (no checker packed yet);
- a page of the locale saved, a catalog message of the locale saved (grader.po) and an exercise module
  saved (grader/exercises/terrain_warmup.py): the seconds until the served HTML shows each change, the
  median of ``--saves`` saves of each (min and max beside it);
- the slowest answer to a page request made while those saves were being rebuilt (a request every half
  second to another page of the locale);
- the strict build's hook-on / hook-off ratio (bench/build_time.py).

``--fresh`` also times a fresh clone's first page: `git clone` of this checkout's HEAD, then `make serve`
(the venv made and `npm ci` run by make itself; pip's and npm's own caches are the machine's).
Targets: first page <= 60 s (fresh), <= 10 s (again); a page <= 1 s; a catalog message <= 2 s; an exercise
module <= 10 s; the ratio <= 1.15.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("premièrement", "deuxièmement", "troisièmement", "quatrièmement", "cinquièmement", "sixièmement",
         "septièmement", "huitièmement", "neuvièmement", "dixièmement", "onzièmement", "douzièmement")
PAGE = ("docs/{locale}/04-simplex-walk.md", "{locale}/04-simplex-walk/", "Les sommets sont les stratégies pures")
CATALOG = ("grader/locale/{locale}/LC_MESSAGES/grader.po", "{locale}/03-loss-terrain/",
           "part.terrain-warmup.lr-at-step.prompt")   # a part's prompt: the page shows it
MODULE = ("grader/exercises/terrain_warmup.py", "{locale}/03-loss-terrain/", '"step": Integer(50)')
OTHER_PAGE = "{locale}/01-semantic-distance/"   # asked for all along, to see whether a rebuild stalls it


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def copy_project(copy: Path, cache: bool) -> Path:
    """The checkout's tracked files; its .venv and node_modules linked; its .cache/ copied when ``cache``."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    for linked in (".venv", "node_modules"):
        if (ROOT / linked).exists():
            (copy / linked).symlink_to(ROOT / linked)
    if cache and (ROOT / ".cache").is_dir():
        shutil.copytree(ROOT / ".cache", copy / ".cache")
    return copy


def fetch(url: str, timeout: float = 600) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return reply.status, reply.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except OSError:
        return 0, ""


class Server:
    """`make serve` in ``project`` on a free port, its output in ``log``."""

    def __init__(self, project: Path, locale: str, log: Path, linked: bool = True):
        # a copy's .venv and node_modules are links to this checkout's: never installed again through them (an
        # npm ci cut short there left this checkout without its runtime); a fresh clone installs its own
        kept = ["-o", ".venv/.site-installed", "-o", "node_modules/.installed"] if linked else []
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(project),
               "GRADER_CACHE_DIR": str(project / ".grader-cache")}
        self.log = log.open("w")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            ["make", "-s", *kept, "serve", f"DEV_ADDR=127.0.0.1:{self.port}", f"LOCALE={locale}"],
            cwd=project, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def first_page(self, path: str, limit: float = 3600) -> float:
        """Seconds from the start to the first answer of ``path``."""
        while time.monotonic() - self.started < limit:
            if self.process.poll() is not None:
                raise SystemExit(f"make serve stopped: see {self.log.name}")
            status, _ = fetch(self.base + path, timeout=5)
            if status == 200:
                return time.monotonic() - self.started
            time.sleep(0.2)
        raise SystemExit(f"no first page in {limit} s: see {self.log.name}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)   # make and the mkdocs it started: their own group
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


def until_shown(server: Server, path: str, needle: str, limit: float = 900) -> float:
    """Seconds until the page at ``path`` holds ``needle`` (from now: the file was just saved)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        _, text = fetch(server.base + path)
        if needle in text:
            return time.monotonic() - start
        time.sleep(0.1)
    raise SystemExit(f"{path} never showed {needle!r} in {limit} s: see {server.log.name}")


class Watcher(threading.Thread):
    """Asks for a page every half second and keeps how long each answer took."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url, self.times, self.done = url, [], threading.Event()

    def run(self):
        while not self.done.is_set():
            start = time.monotonic()
            fetch(self.url)
            self.times.append(time.monotonic() - start)
            self.done.wait(0.5)


def saves(server: Server, project: Path, locale: str, count: int) -> dict[str, list[float]]:
    """Each kind of save ``count`` times: the seconds until the served page shows it."""
    found = {"page": [], "catalog": [], "module": []}
    page, page_url, sentence = (part.format(locale=locale) for part in PAGE)
    catalog, catalog_url, key = (part.format(locale=locale) for part in CATALOG)
    module, module_url, data = (part.format(locale=locale) for part in MODULE)
    prompt = re.search(rf'msgctxt "{re.escape(key)}"\nmsgid "[^"]*"\nmsgstr "([^"]*)\{{step\}}"',
                       (project / catalog).read_text(encoding="utf-8")).group(1)
    originals = {name: (project / name).read_text(encoding="utf-8") for name in (page, catalog, module)}
    for i in range(count):
        word = WORDS[i % len(WORDS)]
        edited = originals[page].replace(sentence, f"{sentence} ({word})", 1)
        (project / page).write_text(edited, encoding="utf-8")
        found["page"].append(until_shown(server, page_url, f"{sentence} ({word})"))
        print(f"  save {i + 1}: page {found['page'][-1]:.2f} s", end="", flush=True)
        time.sleep(2)
        text = originals[catalog].replace(f'msgstr "{prompt}{{step}}"', f'msgstr "({word}) {prompt}{{step}}"', 1)
        (project / catalog).write_text(text, encoding="utf-8")
        found["catalog"].append(until_shown(server, catalog_url, f"({word}) {prompt}"))
        print(f", catalog {found['catalog'][-1]:.2f} s", end="", flush=True)
        time.sleep(2)
        step = 70 + 20 * i   # 0 < ratio_step (10) < step < warmup_steps / 4 (500): the module's invariants
        (project / module).write_text(originals[module].replace(data, f'"step": Integer({step})', 1), encoding="utf-8")
        found["module"].append(until_shown(server, module_url, f"au pas {step}" if locale == "fr" else f" {step}"))
        print(f", module {found['module'][-1]:.2f} s", flush=True)
        time.sleep(2)
    return found


def summary(times: list[float]) -> str:
    return f"{statistics.median(times):7.2f} s  (median of {len(times)}; {min(times):.2f}-{max(times):.2f})"


def fresh_clone(tmp: Path, locale: str) -> float:
    """A fresh clone's `make serve`, to its first page."""
    clone = tmp / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    server = Server(clone, locale, tmp / "fresh.log", linked=False)
    try:
        return server.first_page(f"{locale}/")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=5, help="saves of each kind (default 5)")
    parser.add_argument("--locale", default="fr", help="the translator's locale (default fr)")
    parser.add_argument("--ratio-runs", type=int, default=3, help="builds of each variant for the ratio")
    parser.add_argument("--no-ratio", action="store_true", help="leave out the strict build's ratio")
    parser.add_argument("--fresh", action="store_true", help="also time a fresh clone's first page")
    parser.add_argument("--no-cold", action="store_true", help="leave out the start with .cache/ empty")
    args = parser.parse_args()
    if not (ROOT / ".cache").is_dir():
        raise SystemExit("build once first (make build): .cache/ is what a second `make serve` keeps")
    with tempfile.TemporaryDirectory(prefix="preview-loop-") as tmp:
        tmp = Path(tmp)
        if args.fresh:
            print(f"fresh clone, make serve -> first page:     {fresh_clone(tmp, args.locale):7.2f} s", flush=True)
        if not args.no_cold:
            cold = copy_project(tmp / "cold", cache=False)
            server = Server(cold, args.locale, tmp / "cold.log")
            try:
                print(f"make serve, .cache empty -> first page:    {server.first_page(f'{args.locale}/'):7.2f} s", flush=True)
            finally:
                server.stop()
        project = copy_project(tmp / "project", cache=True)
        server = Server(project, args.locale, tmp / "serve.log")
        try:
            print(f"make serve, .cache kept -> first page:     {server.first_page(f'{args.locale}/'):7.2f} s", flush=True)
            time.sleep(5)   # let what the start left in the background go on a little, as a person reading would
            watcher = Watcher(server.base + OTHER_PAGE.format(locale=args.locale))
            watcher.start()
            found = saves(server, project, args.locale, args.saves)
            watcher.done.set()
            watcher.join()
        except SystemExit:
            print((tmp / "serve.log").read_text(encoding="utf-8")[-3000:], file=sys.stderr)
            raise
        finally:
            server.stop()
    print(f"a page saved -> served:                    {summary(found['page'])}")
    print(f"a catalog message saved -> served:         {summary(found['catalog'])}")
    print(f"an exercise module saved -> served:        {summary(found['module'])}")
    print(f"slowest page request during the saves:     {max(watcher.times):7.2f} s  "
          f"(median {statistics.median(watcher.times):.2f} s of {len(watcher.times)})", flush=True)
    if not args.no_ratio:
        subprocess.run([sys.executable, str(ROOT / "bench" / "build_time.py"), "--runs", str(args.ratio_runs)], check=True)


if __name__ == "__main__":
    main()
