"""``grader autograder``: a Gradescope autograder zip, made from the grader that runs the command.

The zip holds what Gradescope asks for (https://gradescope-autograders.readthedocs.io/en/latest/specs/):

* ``setup.sh``: run once, as root, when Gradescope builds the image (Ubuntu 22.04, whose Python is
  3.10, the oldest the grader runs on): a virtual environment with the grader, from the wheel beside it;
  ``python3 -m venv`` needs Debian's ``python3-venv``, installed first where it is missing;
* ``run_autograder``: run for each submission; it runs :mod:`grader.cli.gradescope`, which writes
  ``results/results.json`` in every case, and writes one itself if the grader cannot even start;
* the grader as a wheel, packed from the running package's own files (:func:`grader.files.package_files`:
  its modules and catalogs, the very files its grading engine's version is the hash of) with its
  installed metadata. So the zip grades as the grader that made it, from a checkout (``pip install -e``)
  or an installed package alike; its dependencies come from PyPI, within pyproject.toml's bounds;
* ``autograder.json``: the assignment (:class:`grader.cli.gradescope.Config`).

Both scripts take their root from ``AUTOGRADER_ROOT`` (default ``/autograder``) and setup.sh its Python
from ``PYTHON`` (default ``python3``), so that tests run them in a temporary folder. The zip is the same,
byte for byte, for the same grader and options.
"""
from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from importlib import metadata
from pathlib import Path

from grader.cli.gradescope import CONFIG, Config
from grader.files import package_files

PACKAGE = "andrea-course"
STAMP = (1980, 1, 1, 0, 0, 0)          # every member's date: the same grader gives the same bytes

SETUP = """#!/usr/bin/env bash
# setup.sh: Gradescope runs it once, as root, when it builds the autograder's image (Ubuntu 22.04:
# Python 3.10). It installs the grader, from the wheel beside it, in a virtual environment.
# Made by `grader autograder`.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
PYTHON="${{PYTHON:-python3}}"
if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends python3 python3-venv
fi
"$PYTHON" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$HERE/{wheel}"
"$ROOT/venv/bin/grader" --version
"""

RUN = """#!/usr/bin/env bash
# run_autograder: Gradescope runs it for each submission. It grades the student's file as
# autograder.json says and writes results/results.json, in every case. Made by `grader autograder`.
ROOT="${AUTOGRADER_ROOT:-/autograder}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
"$ROOT/venv/bin/python" -m grader.cli.gradescope "$ROOT"
code=$?
if [ ! -s "$RESULTS" ]; then    # the grader could not start (a broken image): say so, score 0
    printf '{"score": 0, "output": "The autograder could not run (exit code %s): tell your instructor.", "tests": []}\\n' \\
        "$code" > "$RESULTS"
fi
exit 0
"""


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel() -> tuple[str, bytes]:
    """(file name, bytes) of a wheel of the running grader: its package files and installed metadata
    (PEP 427: ``*.dist-info`` with METADATA, WHEEL, entry_points.txt and RECORD)."""
    import grader
    dist = metadata.distribution(PACKAGE)
    name, version = dist.metadata["Name"].replace("-", "_"), dist.version
    info = f"{name}-{version}.dist-info"
    root = Path(grader.__file__).parent
    members = {f"grader/{path.relative_to(root).as_posix()}": path.read_bytes() for path in package_files(root)}
    # an installed package's METADATA; setuptools' egg-info (a checkout on sys.path) calls it PKG-INFO
    members[f"{info}/METADATA"] = (dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "").encode()
    members[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: grader autograder\nRoot-Is-Purelib: true\n"
                                b"Tag: py3-none-any\n")
    members[f"{info}/entry_points.txt"] = (dist.read_text("entry_points.txt") or "").encode()
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in members.items())
    members[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    return f"{name}-{version}-py3-none-any.whl", _zip(members)


def _zip(members: dict[str, bytes], executable: frozenset[str] = frozenset()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in members.items():
            entry = zipfile.ZipInfo(path, STAMP)
            entry.external_attr = (0o755 if path in executable else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return buffer.getvalue()


def autograder_zip(lang: str, exercises: tuple[str, ...] | None, variants: bool, seed_from: str,
                   visibility: str | None = None, feedback_format: str = "text",
                   tests_visibility: str | None = None) -> tuple[bytes, Config]:
    """The autograder zip's bytes, and the configuration it holds."""
    from grader.judging.table import engine_version
    wheel_name, wheel_bytes = wheel()
    config = Config(lang=lang, exercises=None if exercises is None else list(exercises), variants=variants,
                    seed_from=seed_from, version=metadata.version(PACKAGE), engine=engine_version(), wheel=wheel_name,
                    visibility=visibility, feedback_format=feedback_format, tests_visibility=tests_visibility)
    members = {"setup.sh": SETUP.format(wheel=wheel_name).encode(), "run_autograder": RUN.encode(),
               wheel_name: wheel_bytes, CONFIG: config.text().encode()}
    return _zip(members, frozenset({"setup.sh", "run_autograder"})), config
