"""Benchmark: the whole site built with and without the hook's work (blocks, math, figures, checks).

    python bench/build_time.py [--runs N]

Prints the median wall time of each and their ratio. The bare build uses the
same configuration with the hook removed, so blocks stay as plain paragraphs.
Target: the hook adds at most 15 % to the build.

The hook also saves the build some of MkDocs' own work: the theme's templates are compiled once for the
six locales, not once per locale (hooks/theme/templates.py). A third build, bare but with only that saving
(a hook of two lines), shows what the hook's own work (blocks, math, figures, checks) costs on its own.
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


KEEP_TEMPLATES = f"""import sys
sys.path.insert(0, {str(ROOT)!r})
from hooks.theme.templates import keep_theme


def on_pre_build(config):
    keep_theme()
"""


def bare_config(folder: Path, keep_templates: bool = False) -> Path:
    """mkdocs.yml without the hook (with ``keep_templates``, with a hook that only compiles the theme once)."""
    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config.pop("hooks", None)
    config["docs_dir"] = str(ROOT / "docs")
    path = folder / "mkdocs-bare.yml"
    if keep_templates:
        (folder / "keep_templates.py").write_text(KEEP_TEMPLATES, encoding="utf-8")
        config["hooks"] = [str(folder / "keep_templates.py")]
        path = folder / "mkdocs-bare-kept.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bare, kept = bare_config(tmp), bare_config(tmp, keep_templates=True)
        shutil.rmtree(ROOT / ".cache" / "bank", ignore_errors=True)
        cold = build(ROOT / "mkdocs.yml", tmp / "cold", strict=True)
        full, without, only_kept = [], [], []
        for i in range(args.runs):  # interleaved, so a busy moment of the machine weighs on all alike
            without.append(build(bare, tmp / f"bare{i}", strict=False))
            full.append(build(ROOT / "mkdocs.yml", tmp / f"full{i}", strict=True))
            only_kept.append(build(kept, tmp / f"kept{i}", strict=False))
    full_s, bare_s, kept_s = (statistics.median(times) for times in (full, without, only_kept))
    print(f"runs per variant:              {args.runs}")
    print(f"build without the hook:        {bare_s:.2f} s (median)")
    print(f"build with the hook:           {full_s:.2f} s (median, bank cache warm)")
    print(f"build with the hook, cold:     {cold:.2f} s (bank cache empty: SymPy imported, exercises and figures rendered)")
    print(f"build without the hook, theme compiled once: {kept_s:.2f} s (median)")
    print(f"ratio with/without:            {full_s / bare_s:.3f}  (hook adds {100 * (full_s / bare_s - 1):.1f} %; target <= 15 %)")
    print(f"the hook's own work:           {full_s / kept_s:.3f}  (with ÷ without, both compiling the theme once)")


if __name__ == "__main__":
    main()
