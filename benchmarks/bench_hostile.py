"""Time and peak memory of `century` on the worst bounded input of each hostile class.

Each input is made in a fresh temporary folder (the generators of tests/project/test_hostile.py, at
the caps of century.limits) and the command runs in its own process, started from a small
Python wrapper that reads the child's peak resident memory (`getrusage(RUSAGE_CHILDREN)`) and
wall-clock time; each is repeated and the median time and the largest peak are printed.

    python benchmarks/bench_hostile.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "project")]  # helpers, the corpus

import test_hostile as corpus  # noqa: E402

WRAPPER = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(done.returncode, f"{seconds:.3f}", f"{peak:.1f}")
"""


def measure(args: list[str], cwd: Path, stdin: Path | None = None) -> tuple[int, float, float]:
    command = [sys.executable, "-c", WRAPPER, sys.executable, "-m", "century", *args]
    with open(stdin or os.devnull, "rb") as typed:
        out = subprocess.run(command, cwd=cwd, stdin=typed, capture_output=True, text=True)
    code, seconds, peak = out.stdout.split()
    return int(code), float(seconds), float(peak)


def case(name: str) -> dict:
    return corpus.load_case(ROOT / "tests" / "cases" / "hostile" / f"{name}.yaml")


def big_deck(folder: Path) -> None:
    """A project whose merchant deck has 500 cards with long names in two languages."""
    cards = "".join(
        f"  - {{kind: trade, pay: {'Y' * (1 + i % 4)}, get: {'B' * (1 + i % 3)}, id: t{i}, "
        f"name: {{en: {'a' * 150}, de: {'b' * 150}}}}}\n"
        for i in range(500)
    )
    corpus.write(folder / "rules" / "deck.yaml", "deck: merchant\ncards:\n" + cards)
    corpus.write(
        folder / "rules" / "big.yaml",
        "id: big\nextends: spice-road\ndecks: {merchant: deck.yaml}\n",
    )


def record_of_rests(folder: Path) -> None:
    """A record at the size cap: about a million moves."""
    record = corpus.valid_record() | {"moves": ["rest"] * 1_000_000}
    (folder / "game.json").write_text(json.dumps(record), encoding="utf-8")


def long_input(folder: Path) -> None:
    """100 MB typed at the prompt without a line break."""
    with open(folder / "stdin.txt", "wb") as fh:
        for _ in range(100):
            fh.write(b"x" * 1_000_000)


Setup = Callable[[Path], None]
INPUTS: list[tuple[str, str, Setup | str, list[str]]] = [
    (
        "limits-data",
        "12 files of 19,000 YAML values (the run's cap)",
        "limits-yaml-values-per-run",
        ["validate", "rules"],
    ),
    ("limits-data", "a 1.2 MB file", "limits-file-size", ["validate", "rules/big.yaml"]),
    ("limits-data", "500 variants in one chain", "limits-variant-chain", ["validate", "rules"]),
    (
        "limits-data",
        "a merchant deck of 500 cards with long names",
        big_deck,
        ["validate", "rules"],
    ),
    (
        "limits-prose",
        "a loop of cheap steps stopped by the deadline",
        "prose-slow-loop",
        ["validate", "rules/bomb.yaml"],
    ),
    ("limits-prose", "9**(9**9)", "prose-power", ["validate", "rules/bomb.yaml"]),
    ("limits-prose", "output of 10**8 characters", "prose-output", ["validate", "rules/bomb.yaml"]),
    (
        "limits-engine",
        "a 12-card row with 20-cube caravans",
        "engine-acquire-moves",
        ["validate", "rules/big.yaml"],
    ),
    (
        "schema",
        "control characters, escaped",
        "schema-escaped-terminal-title",
        ["validate", "rules/bad.yaml"],
    ),
    ("paths", "a FIFO as a deck", "paths-fifo", ["validate", "proj/rules/mine.yaml"]),
    (
        "determinism",
        "printing generator objects",
        "prose-memory-address",
        ["validate", "rules/bomb.yaml"],
    ),
    (
        "engine-api",
        "a record of a million moves (replay)",
        record_of_rests,
        ["replay", "-q", "game.json"],
    ),
    (
        "output",
        "build over a user's file (refused)",
        "output-build-over-a-users-file",
        ["build", "--out", "out"],
    ),
    (
        "terminal",
        "100 MB typed without a line break (play)",
        long_input,
        ["play", "spice-road", "--seed", "1", "--record", "g.json"],
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'class':14s} {'input':48s} exit  seconds  peak MB")
    for cls, about, setup, command in INPUTS:
        times, peaks, codes = [], [], set()
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as scratch:
                folder = Path(scratch)
                if isinstance(setup, str):
                    corpus.prepare(folder, case(setup))
                else:
                    setup(folder)
                stdin = folder / "stdin.txt" if (folder / "stdin.txt").exists() else None
                code, seconds, peak = measure(command, folder, stdin)
            codes.add(code)
            times.append(seconds)
            peaks.append(peak)
        shown = ",".join(map(str, sorted(codes)))
        print(
            f"{cls:14s} {about:48s} {shown:>4s} {statistics.median(times):8.2f} {max(peaks):8.1f}"
        )


if __name__ == "__main__":
    main()
