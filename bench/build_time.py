"""Benchmark: the whole site built with and without the hook's work (blocks, math, figures, checks).

    python bench/build_time.py [--runs N]

Prints the median wall time of each and their ratio. The bare build uses the
same configuration with the hook removed, so blocks stay as plain paragraphs.
Target: the hook adds at most 15 % to the build.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parent.parent


def build(config: Path, site: Path, strict: bool) -> float:
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    if strict:
        command.append("--strict")
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def bare_config(folder: Path) -> Path:
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config.pop("hooks", None)
    config["docs_dir"] = str(ROOT / "docs")
    path = folder / "mkdocs-bare.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bare = bare_config(tmp)
        shutil.rmtree(ROOT / ".cache" / "bank", ignore_errors=True)
        cold = build(ROOT / "mkdocs.yml", tmp / "cold", strict=True)
        full, without = [], []
        for i in range(args.runs):  # interleaved, so a busy moment of the machine weighs on both alike
            without.append(build(bare, tmp / f"bare{i}", strict=False))
            full.append(build(ROOT / "mkdocs.yml", tmp / f"full{i}", strict=True))
    full_s, bare_s = statistics.median(full), statistics.median(without)
    print(f"runs per variant:              {args.runs}")
    print(f"build without the hook:        {bare_s:.2f} s (median)")
    print(f"build with the hook:           {full_s:.2f} s (median, bank cache warm)")
    print(f"build with the hook, cold:     {cold:.2f} s (bank cache empty: SymPy imported, exercises and figures rendered)")
    print(f"ratio with/without:            {full_s / bare_s:.3f}  (hook adds {100 * (full_s / bare_s - 1):.1f} %; target <= 15 %)")


if __name__ == "__main__":
    main()
