"""Benchmark the planner's speed against another revision of the code, or the pure-Python
bots against the compiled ones (``--native``): games per CPU-second on the same seeds, the
two sides interleaved in one run (so the load of a shared machine falls on both alike), and a
digest of every side's moves (equal digests: the same play).

Usage (from the checkout, in the venv):

    python benchmarks/bench_planner.py                    # this checkout against `main`
    python benchmarks/bench_planner.py --ref 3d4178d~1 --games 40 --rounds 5
    python benchmarks/bench_planner.py --native           # pure against compiled (mypyc)
    python benchmarks/bench_planner.py --native --bots expert,planner --games 2 --rounds 3

``--native`` builds this checkout's wheel with ``CENTURY_NATIVE=1`` (hatch_build.py; it needs
a C compiler) and unpacks it into a temporary folder: that side runs the compiled modules,
the other this checkout's sources. ``--bots`` gives the seats' bots (default
``planner,planner``); with two different bots they swap seats from game to game, so the
games are those of ``bench_expert.py``.

Each round runs one fresh process per side (in alternating order), which builds the tables
first and then plays `--games` seeded two-player games; its CPU time (of the games only) is
measured in the process. Printed: per side, the games per CPU-second of each round, their
median, and the digest of the moves; and the ratio of the medians.
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
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PLAY = """
import hashlib, json, sys, time
from century.pipeline import compile_paths
from century.simulation.config import derive_seed
from century.bots.registry import make_bot
try:
    from century.bots.compiled import bots_build
except ImportError:  # a revision from before the native build
    bots_build = lambda: "pure"
from century.simulation.game import game_engine, prime
specs = sys.argv[3].split(",")
rs = compile_paths().rulesets["spice-road"]
engine = game_engine(rs)
prime(engine, rs, 2)
digest, rounds = hashlib.sha256(), 0
start = time.process_time()
for game in range(int(sys.argv[1])):
    seed = derive_seed(int(sys.argv[2]), game)
    state = engine.new_game(2, seed)
    seating = specs if game % 2 == 0 else specs[::-1]
    bots = [make_bot(s, engine, rs, derive_seed(seed, i)) for i, s in enumerate(seating)]
    while not state.is_over():
        state.play(bots[state.current_player].choose(state))
    digest.update("\\n".join(state.moves()).encode() + b"\\n\\n")
    rounds += state.view().rounds()
cpu = time.process_time() - start
found = {"cpu": cpu, "rounds": rounds, "digest": digest.hexdigest()[:16], "build": bots_build()}
print(json.dumps(found))
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
    return into / "compiler" / "century"


def native(into: Path) -> Path:
    """This checkout's wheel built with ``CENTURY_NATIVE=1``, unpacked under `into`."""
    wheels = into / "wheels"
    env = {**os.environ, "CENTURY_NATIVE": "1"}
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), "."]
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(into / "compiled")
    for path in (into / "compiled").rglob("*.so"):
        path.chmod(0o755)
    return into / "compiled" / "century"


def play(source: Path, games: int, seed: int, bots: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(source.parent)}
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(games), str(seed), bots],
        env=env,
        cwd=source.parent.parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", default="main", help="the revision to compare with")
    parser.add_argument("--native", action="store_true", help="compare pure with compiled")
    parser.add_argument("--bots", default="planner,planner", help="the two seats' bots")
    parser.add_argument("--games", type=int, default=30, help="games per process")
    parser.add_argument("--rounds", type=int, default=5, help="processes per side")
    parser.add_argument("--seed", type=int, default=6000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        here = ROOT / "compiler" / "century"
        if args.native:
            sides = {"pure": here, "compiled": native(Path(tmp))}
        else:
            sides = {args.ref: export(args.ref, Path(tmp)), "this checkout": here}
        rates: dict[str, list[float]] = {name: [] for name in sides}
        seen: dict[str, tuple[str, float, str]] = {}
        for round_ in range(args.rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for name in order:
                found = play(sides[name], args.games, args.seed, args.bots)
                rates[name].append(args.games / found["cpu"])
                seen[name] = (found["digest"], found["rounds"] / args.games, found["build"])
                print(
                    f"  round {round_ + 1} {name:<14} {rates[name][-1]:6.3f} games/CPU-s "
                    f"(load average {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
    for name, figures in rates.items():
        digest, rounds, build = seen[name]
        print(
            f"{name:<14} median {statistics.median(figures):6.3f} games per CPU-second, "
            f"{args.bots} ({build}; {args.rounds} x {args.games} games; "
            f"mean rounds {rounds:.2f}; moves {digest})"
        )
    (old, new), names = (statistics.median(rates[name]) for name in sides), list(sides)
    print(f"{names[1]} / {names[0]}: {new / old:.3f}")


if __name__ == "__main__":
    main()
