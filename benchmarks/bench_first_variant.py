"""A new user's first variant, timed: from `century new` in an empty folder to built sheets.

Run: python benchmarks/bench_first_variant.py [--runs N]
Each run, in a fresh empty folder, runs as separate processes what a user types: `century new
house --from spice-road`, `century show house`, an edit (caravan_limit: 12), `century
validate`, `century build` and `century sheets house`; it prints the median wall time of each
step and of the whole journey over N runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STEPS = [
    ("new", ["new", "house", "--from", "spice-road"]),
    ("show", ["show", "house"]),
    ("edit", None),
    ("validate", ["validate"]),
    ("build", ["build"]),
    ("sheets", ["sheets", "house"]),
]


def journey() -> dict[str, float]:
    """One journey in a fresh folder: the seconds each step took."""
    taken: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, args in STEPS:
            start = time.perf_counter()
            if args is None:
                variant = folder / "rules" / "house.yaml"
                text = variant.read_text(encoding="utf-8")
                variant.write_text(
                    text.replace("# caravan_limit: 12", "caravan_limit: 12"), "utf-8"
                )
            else:
                done = subprocess.run(
                    [sys.executable, "-m", "century", *args], cwd=folder, capture_output=True
                )
                assert done.returncode == 0, (name, done.stderr)
            taken[name] = time.perf_counter() - start
        assert (folder / "build" / "house" / "rules-en-a4.pdf").is_file()
    return taken


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    results = [journey() for _ in range(runs)]
    for name, _ in STEPS:
        print(f"{name:>9}: {statistics.median(r[name] for r in results) * 1000:6.0f} ms")
    total = statistics.median(sum(r.values()) for r in results)
    print(f"new -> built sheets (median of {runs} journeys): {total:.2f} s")


if __name__ == "__main__":
    main()
