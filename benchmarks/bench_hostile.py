"""Time and peak memory of `century` on the worst bounded input of each hostile class.

Each input is made in a fresh temporary folder (the generators of tests/project/test_hostile.py, at
the caps of century.base.limits) and the command runs in its own process, started from a small
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


def record_nested(folder: Path) -> None:
    """A record at the byte cap that is one array nested past the depth cap (10 MB)."""
    half = 5_000_000
    (folder / "game.json").write_text("[" * half + "]" * half, encoding="utf-8")


def record_of_long_numbers(folder: Path) -> None:
    """A record at the byte cap whose moves hold 100-digit numbers (the digit cap), then one
    of 101 digits at its end."""
    numbers = ", ".join(["9" * 100] * 98_000)
    text = '{"rules": "spice-road", "moves": [' + numbers + ", " + "9" * 101 + "]}"
    (folder / "game.json").write_text(text, encoding="utf-8")


def record_of_a_huge_move(folder: Path) -> None:
    """A record whose 21st move is 9 MB of text."""
    record = corpus.valid_record() | {"moves": [*corpus.valid_record()["moves"], "x" * 9_000_000]}
    (folder / "game.json").write_text(json.dumps(record), encoding="utf-8")


def big_manifest(folder: Path) -> None:
    """A game folder whose manifest, near its byte cap, lists 40,000 files and a YAML last."""
    entries = [f"f{i:06d}.pdf" for i in range(40_000)] + ["mine.yaml"]
    manifest = json.dumps({"generator": "century", "version": 1, "files": entries})
    (folder / "out" / "spice-road").mkdir(parents=True)
    (folder / "out" / "spice-road" / ".century-manifest.json").write_text(manifest, "utf-8")


def many_foreign_files(folder: Path) -> None:
    """A rules folder of 2,000 YAML files that are not rules data and one variant."""
    corpus.write(folder / "rules" / "mine.yaml", "id: mine\nextends: spice-road\n")
    for i in range(1999):
        corpus.write(folder / "rules" / f"notes{i:04d}.yaml", f"password: secret{i}\n")


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
        "input-never-output",
        "a 1 MB manifest of 40,001 entries (refused)",
        big_manifest,
        ["build", "--target", "ruleset", "--out", "out"],
    ),
    (
        "writes-inside",
        "build/reports links out (refused)",
        "writes-reports-folder-is-a-link",
        ["simulate", "spice-road", "--games", "100000", "-q"],
    ),
    (
        "never-quoted",
        "1,999 YAML files that are not rules data",
        many_foreign_files,
        ["validate", "rules"],
    ),
    (
        "bounded-json",
        "a 10 MB record nested 5 million deep",
        record_nested,
        ["replay", "game.json"],
    ),
    (
        "bounded-json",
        "a 10 MB record of 100-digit numbers",
        record_of_long_numbers,
        ["replay", "game.json"],
    ),
    ("bounded-json", "a record that is a FIFO", "json-replay-fifo", ["replay", "game.json"]),
    (
        "bounded-json",
        "ladder.json a FIFO before 100,000 games",
        "json-ladder-fifo-before-games",
        ["simulate", "spice-road", "--games", "100000", "-q", "--out", "out"],
    ),
    (
        "endless-games",
        "a caravan too small for any point card",
        "endless-simulate",
        ["validate", "rules"],
    ),
    (
        "library-api",
        "a record with a 9 MB move",
        record_of_a_huge_move,
        ["replay", "-q", "game.json"],
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
    print(f"{'class':18s} {'input':48s} exit  seconds  peak MB")
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
            f"{cls:18s} {about:48s} {shown:>4s} {statistics.median(times):8.2f} {max(peaks):8.1f}"
        )


if __name__ == "__main__":
    main()
