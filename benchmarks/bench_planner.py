"""Benchmark the planner's speed against another revision of the code: planner games per
CPU-second on the same seeds, the two sides interleaved in one run (so the load of a
shared machine falls on both alike), and a digest of every side's moves (equal digests: the
same play).

Usage (from the checkout, in the venv):

    python benchmarks/bench_planner.py                    # this checkout against `main`
    python benchmarks/bench_planner.py --ref 3d4178d~1 --games 40 --rounds 5

Each round runs one fresh process per side (in alternating order), which builds the tables
first and then plays `--games` seeded two-player planner games; its CPU time (of the games
only) is measured in the process. Printed: per side, the games per CPU-second of each round,
their median, and the digest of the moves; and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import hashlib, json, sys, time
from century.pipeline import compile_paths
from century.simulation.config import derive_seed
from century.bots.registry import make_bot
from century.simulation.game import game_engine, prime
rs = compile_paths().rulesets["spice-road"]
engine = game_engine(rs)
prime(engine, rs, 2)
digest, rounds = hashlib.sha256(), 0
start = time.process_time()
for game in range(int(sys.argv[1])):
    seed = derive_seed(int(sys.argv[2]), game)
    state = engine.new_game(2, seed)
    bots = [make_bot("planner", engine, rs, derive_seed(seed, seat)) for seat in range(2)]
    while not state.is_over():
        state.play(bots[state.current_player].choose(state))
    digest.update("\\n".join(state.moves()).encode() + b"\\n\\n")
    rounds += state.view().rounds()
cpu = time.process_time() - start
print(json.dumps({"cpu": cpu, "rounds": rounds, "digest": digest.hexdigest()[:16]}))
"""


def export(ref: str, into: Path) -> Path:
    """The `compiler` folder of git revision `ref` (and the data its package links to),
    written under `into`."""
    archive = subprocess.run(
        ["git", "archive", ref, "compiler", "rules", "cards", "schema"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "compiler"


def play(source: Path, games: int, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(source)}
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(games), str(seed)],
        env=env,
        cwd=source.parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", default="main", help="the revision to compare with")
    parser.add_argument("--games", type=int, default=30, help="games per process")
    parser.add_argument("--rounds", type=int, default=5, help="processes per side")
    parser.add_argument("--seed", type=int, default=6000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides = {args.ref: export(args.ref, Path(tmp)), "this checkout": ROOT / "compiler"}
        rates: dict[str, list[float]] = {name: [] for name in sides}
        seen: dict[str, tuple[str, float]] = {}
        for round_ in range(args.rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for name in order:
                found = play(sides[name], args.games, args.seed)
                rates[name].append(args.games / found["cpu"])
                seen[name] = (str(found["digest"]), found["rounds"] / args.games)
                print(
                    f"  round {round_ + 1} {name:<14} {rates[name][-1]:6.2f} games/CPU-s "
                    f"(load average {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
    for name, figures in rates.items():
        digest, rounds = seen[name]
        print(
            f"{name:<14} median {statistics.median(figures):6.2f} planner games per CPU-second "
            f"({args.rounds} x {args.games} games; mean rounds {rounds:.2f}; moves {digest})"
        )
    old, new = (statistics.median(rates[name]) for name in sides)
    print(f"this checkout / {args.ref}: {new / old:.3f}")


if __name__ == "__main__":
    main()
