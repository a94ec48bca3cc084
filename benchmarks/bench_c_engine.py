"""Benchmark of the C engine (``century engine GAME --backend c``) against the Python engine
and, given a checkout, the hand-written C++ engine of github.com/dwerbin/spiceroad.

Random play, decisions per CPU-second: every decision lists the legal moves (the whole list)
and plays one drawn uniformly; a decision is a choice point with more than one option. The
Python engine is warmed up first (its move tables built: `warm_up`); the C engine's tables are
compiled in. Both are driven from Python in this process, in rounds, each going first in every
other round, on the same seeds (the two play the same games: the C engine is checked against
the Python one by tests/engine/test_cbackend.py); "c in c" is the C engine's own random
playouts (`playouts`: the moves listed and played in C, drawn with its own generator), the
engine without a Python loop around it, as the C++ engine is driven; "loop alone" is the
same Python loop around an engine that does nothing (19 moves a decision), the ceiling of
any engine driven from Python. The C++ engine is built here with g++ from
the checkout given (its library sources, with ``cpp/drive_dwerbin.cpp``, a random-play driver
listing every legal action the same way, and ``cpp/windows.h``, the console calls of its
Windows build as no-ops) and run as a separate process per round. Prints per round and the
median of the ratios of one run.

    python benchmarks/bench_c_engine.py                        # spice-road, 2 and 4 players
    python benchmarks/bench_c_engine.py --dwerbin ~/src/spiceroad --rounds 5
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.engine import generate, load_engine, module_name
from century.engine.cbuild import compile_c
from century.engine.cgen import generate_c
from century.pipeline import compile_paths

HERE = Path(__file__).resolve().parent


def playouts(engine, players: int, seeds: range) -> tuple[int, float]:
    """Random games, one per seed: (decisions, CPU seconds)."""
    decisions = 0
    clock = time.process_time
    start = clock()
    for seed in seeds:
        state = engine.new_game(players, seed)
        chooser = random.Random(seed)
        while not state.is_over():
            moves = state.legal_moves()
            if len(moves) > 1:
                decisions += 1
            state.play(moves[chooser.randrange(len(moves))])
    return decisions, clock() - start


class _Floor:
    """An engine that does nothing: 19 moves (a Spice Road decision's average), 420 decisions
    a game. Driven by `playouts`, it times the Python loop alone, the ceiling of any engine
    driven from Python."""

    MOVES = tuple(f"move {i}" for i in range(19))

    def __init__(self, players: int, seed: int) -> None:
        self.left = 420

    def legal_moves(self) -> list[str]:
        return list(self.MOVES)

    def play(self, move: str) -> None:
        self.left -= 1

    def is_over(self) -> bool:
        return self.left == 0


class _FloorEngine:
    new_game = _Floor


def c_playouts(engine, players: int, games: int, seed: int) -> tuple[int, float]:
    """Random games played inside the C engine (`playouts`: no Python per move)."""
    start = time.process_time()
    row = engine.playouts(players, games, seed)
    return row["decisions"], time.process_time() - start


def build_c_engine(ruleset, folder: Path):
    """The C engine of `ruleset` compiled into `folder` and imported."""
    name = module_name(ruleset)
    start = time.perf_counter()
    extension, data, _ = compile_c(generate_c(ruleset), name)
    print(f"C engine generated and compiled in {time.perf_counter() - start:.1f} s (wall)")
    (folder / extension).write_bytes(data)
    (folder / f"{name}.py").write_text(generate(ruleset), encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


def build_dwerbin(checkout: Path, folder: Path) -> Path:
    """The random-play driver linked with the C++ engine's library sources."""
    sources = sorted((checkout / "spicelib").glob("*.cpp"))
    if not sources:
        raise SystemExit(f"{checkout}: no spicelib/*.cpp (a checkout of dwerbin/spiceroad?)")
    binary = folder / "drive_dwerbin"
    command = ["g++", "-O2", "-std=c++17", "-include", "climits", "-w"]
    command += [f"-I{HERE / 'cpp'}", f"-I{checkout / 'spicelib'}"]
    command += [str(HERE / "cpp" / "drive_dwerbin.cpp"), *map(str, sources), "-o", str(binary)]
    subprocess.run(command, check=True)
    return binary


def dwerbin(binary: Path, players: int, games: int, seed: int) -> tuple[int, float]:
    done = subprocess.run(
        [str(binary), str(players), str(games), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    row = json.loads(done.stdout)
    return row["choices"], row["cpu_s"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=200, help="Python engine games per round")
    parser.add_argument("--c-games", type=int, default=2000, help="C engine games per round")
    parser.add_argument("--dwerbin", type=Path, help="a checkout of dwerbin/spiceroad")
    parser.add_argument("--dwerbin-games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    pure = load_engine(ruleset)
    pure.warm_up()
    with tempfile.TemporaryDirectory(prefix="century-bench-c-") as folder:
        fast = build_c_engine(ruleset, Path(folder))
        binary = build_dwerbin(args.dwerbin, Path(folder)) if args.dwerbin else None
        playouts(fast, 2, range(50))  # both warm: first calls, caches
        playouts(pure, 2, range(20))
        for players in args.players:
            ratios: dict[str, list[float]] = {
                "C / Python (both driven from Python)": [],
                "C in C / Python": [],
                "C in C / C++": [],
                "C / the Python loop alone": [],
            }
            for round_ in range(args.rounds):
                sides = [
                    ("python", partial(playouts, pure, players, range(args.games))),
                    ("c", partial(playouts, fast, players, range(args.c_games))),
                    ("c in c", partial(c_playouts, fast, players, args.c_games * 5, round_)),
                    ("loop alone", partial(playouts, _FloorEngine, players, range(args.c_games))),
                ]
                if round_ % 2:
                    sides.reverse()
                rates = {}
                for label, run in sides:
                    decisions, seconds = run()
                    rates[label] = decisions / seconds
                if binary is not None:
                    decisions, seconds = dwerbin(binary, players, args.dwerbin_games, round_ + 1)
                    rates["c++"] = decisions / seconds
                    ratios["C in C / C++"].append(rates["c in c"] / rates["c++"])
                ratios["C / Python (both driven from Python)"].append(rates["c"] / rates["python"])
                ratios["C in C / Python"].append(rates["c in c"] / rates["python"])
                ratios["C / the Python loop alone"].append(rates["c"] / rates["loop alone"])
                shown = "  ".join(f"{label} {rate / 1000:8.0f}k/s" for label, rate in rates.items())
                print(f"{players}p round {round_ + 1}: decisions per CPU-second  {shown}")
            for name, values in ratios.items():
                if values:
                    each = ", ".join(f"{v:.2f}" for v in values)
                    print(f"{players}p {name}: median {statistics.median(values):.2f}x ({each})")


if __name__ == "__main__":
    main()
