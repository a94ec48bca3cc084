"""Benchmark: `century build` of the bundled games, every target, on A4 and Letter.

Measures the whole process (``python -m century build --out OUT --paper a4 --paper letter``:
interpreter start, loading the rules, the engines, every rule sheet and kit in every language
of each game), each run in a fresh interpreter with its own empty output folder and template
cache (cold), alternating with a baseline checkout when one is given so both see the same
load. Prints the languages and PDFs built, then the best and median wall time and the CPU
time of the children.

    python benchmarks/bench_build.py [--runs 3] [--baseline ../other-checkout]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(source: Path, out: Path, cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one cold `century build` of the checkout `source`."""
    env = {**os.environ, "PYTHONPATH": str(source / "compiler"), "CENTURY_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "century", "build", "--out", str(out)]
    command += ["--paper", "a4", "--paper", "letter"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=source, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    args = parser.parse_args()

    root = Path(__file__).resolve().parent.parent
    sources = [("this checkout", root)]
    if args.baseline:
        sources.insert(0, ("baseline", args.baseline.resolve()))
    walls: dict[str, list[float]] = {name: [] for name, _ in sources}
    cpus: dict[str, list[float]] = {name: [] for name, _ in sources}
    pdfs: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            for name, source in sources:
                out, cache = Path(tmp) / f"out-{run}-{name}", Path(tmp) / f"cache-{run}-{name}"
                wall, cpu = build(source, out, cache)
                walls[name].append(wall)
                cpus[name].append(cpu)
                pdfs[name] = len(list(out.rglob("*.pdf")))
    print(
        f"century build, bundled games, a4 + letter; {args.runs} runs,"
        f" Python {sys.version.split()[0]}"
    )
    for name, _ in sources:
        best, median = min(walls[name]), statistics.median(walls[name])
        print(
            f"[{name}] {pdfs[name]} PDFs: wall best {best:6.1f} s  median {median:6.1f} s"
            f"   CPU median {statistics.median(cpus[name]):6.1f} s"
        )


if __name__ == "__main__":
    main()
