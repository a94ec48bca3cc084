"""Benchmark of the generated engine: random playouts with full legal-move enumeration.

Every decision calls `legal_moves()` (the whole list, no sampling shortcut) and plays one
of its moves chosen uniformly at random. Prints, per player count: decisions per second,
games per second, legal moves per decision, decisions per game; and the process's peak
memory. "cold" is the first games in a fresh process (the move tables are built lazily as
caravans are met); "warm" is the games after them. "untabled" (with --untabled N) plays N
games while wiping the current caravan's memo tables before every decision, so every move
list is derived from the rules tables again, as an interpreter of the data would: the gap
to "warm" is what the compiled tables buy.

    python benchmarks/bench_engine.py                       # spice-road, 2 and 4 players
    python benchmarks/bench_engine.py --game golem --games 2000 --players 2 3 4 5

A/B against another generated engine (say, the engine of an earlier commit): both are timed
in this process, in rounds on the same seeds, each going first in every other round; the
median ratio is printed. Comparing an engine with a copy of itself shows the noise.

    git worktree add /tmp/old main
    PYTHONPATH=/tmp/old/compiler python -m century engine spice-road --out /tmp/ab
    python benchmarks/bench_engine.py --ab /tmp/ab/spice_road.py --rounds 7

`--ab` also takes a compiled engine (``century engine GAME --native`` writes one beside the
.py), and ``--native`` compiles this tree's engine with mypyc into a temporary folder and
times it as B against the pure module (A), printing the compile time and the module's size:

    python benchmarks/bench_engine.py --native --rounds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.engine import load_engine
from century.pipeline import compile_paths


def forget(node) -> None:
    """Wipe a caravan's memoised move tables (they are rebuilt on the next look-up)."""
    node._plays, node._play_moves, node._acquire_moves = [], [], {}
    if hasattr(node, "_acquire_choices"):
        node._acquire_choices = {}
    node._claims, node._minus, node.affordable = (), {}, -1
    node._discards, node._discard_moves = {}, ()


def playouts(engine, players: int, seeds: range, untabled: bool = False):
    """Play one random game per seed; return (decisions, legal moves seen, seconds)."""
    decisions = listed = 0
    clock = time.process_time
    start = clock()
    for seed in seeds:
        rng = random.Random(seed)
        pick = rng.random
        state = engine.new_game(players, seed)
        while not state.is_over():
            if untabled:
                forget(state._caravans[state.current_player])
            moves = state.legal_moves()
            listed += len(moves)
            state.play(moves[int(pick() * len(moves))])
            decisions += 1
    return decisions, listed, clock() - start


def peak_memory_mb() -> float | None:
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def report(label: str, players: int, games: int, result: tuple[int, int, float]) -> None:
    decisions, listed, seconds = result
    print(
        f"{label:8s} {players}p  {games:6d} games  {decisions:9d} decisions  "
        f"{decisions / seconds:10,.0f} decisions/s  {games / seconds:8,.1f} games/s  "
        f"{listed / decisions:6.1f} moves/decision  {decisions / games:6.0f} decisions/game"
    )


def load_file(path: Path):
    """A generated engine imported from its file (its own module and tables); a compiled
    one keeps its own name, which its init function is named after."""
    compiled = path.suffix != ".py"
    name = path.name.split(".")[0] if compiled else f"bench_{path.stem}_other"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def clones(engine, players: int, seeds: range) -> float:
    """Seconds for 200 clones per decision of one random game per seed (search bots clone)."""
    clock = time.process_time
    spent = 0.0
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_game(players, seed)
        while not state.is_over():
            start = clock()
            for _ in range(200):
                state.clone()
            spent += clock() - start
            moves = state.legal_moves()
            state.play(moves[int(rng.random() * len(moves))])
    return spent


def ab(engine, other, args) -> None:
    """Alternate timed rounds of `engine` (A, this tree) and `other` (B) on the same seeds."""
    for players in args.players:
        for module in (engine, other):  # warm both tables first
            playouts(module, players, range(args.warmup))
        ratios, clone_ratios = [], []
        for round_ in range(args.rounds):
            seeds = range(
                args.warmup + round_ * args.games, args.warmup + (round_ + 1) * args.games
            )
            if round_ % 2:  # alternate which goes first: the second runs on a warmer machine
                b = playouts(other, players, seeds)
                a = playouts(engine, players, seeds)
            else:
                a = playouts(engine, players, seeds)
                b = playouts(other, players, seeds)
            assert a[:2] == b[:2], "the two engines played different games"
            ratios.append((a[0] / a[2]) / (b[0] / b[2]))
            few = range(seeds.start, seeds.start + 5)
            clone_ratios.append(clones(other, players, few) / clones(engine, players, few))
            print(
                f"round {round_ + 1} {players}p  A {a[0] / a[2]:10,.0f}  B {b[0] / b[2]:10,.0f} "
                f"decisions/s  A/B {ratios[-1]:.3f}  clones A/B {clone_ratios[-1]:.3f}"
            )
        print(
            f"{players}p median A/B speed: playouts {statistics.median(ratios):.3f}, "
            f"clones {statistics.median(clone_ratios):.3f} (above 1: A faster)"
        )


def compiled(ruleset, folder: Path) -> Path:
    """The engine of `ruleset` compiled with mypyc into `folder`; prints time and size."""
    from century.engine import generate, module_name
    from century.engine.native import compile_native

    start, cpu = time.perf_counter(), children_cpu()
    name, data = compile_native(generate(ruleset), module_name(ruleset))
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    path = folder / name
    path.write_bytes(data)
    print(f"compiled {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, {len(data) / 1e6:.2f} MB")
    return path


def children_cpu() -> float:
    """CPU seconds of the finished child processes (the compiler's), where known."""
    times = os.times()
    return times.children_user + times.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road", help="game or variant id")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=1000, help="timed (warm) games per count")
    parser.add_argument("--warmup", type=int, default=200, help="cold games per count first")
    parser.add_argument("--untabled", type=int, default=0, help="games without memo tables")
    parser.add_argument("--ab", type=Path, help="another generated engine file to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds for --ab")
    parser.add_argument(
        "--native", action="store_true", help="A/B against this engine compiled with mypyc"
    )
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    engine = load_engine(ruleset)
    if args.native:
        args.ab = compiled(ruleset, Path(tempfile.mkdtemp(prefix="bench-native-")))
    if args.ab:
        print(f"A/B: {args.game} of this tree (A) against {args.ab} (B)")
        ab(engine, load_file(args.ab), args)
        return
    print(f"{args.game}: Python {sys.version.split()[0]}, random playouts, full enumeration")
    for players in args.players:
        cold = playouts(engine, players, range(args.warmup))
        report("cold", players, args.warmup, cold)
        seeds = range(args.warmup, args.warmup + args.games)
        report("warm", players, args.games, playouts(engine, players, seeds))
        if args.untabled:
            result = playouts(engine, players, range(args.untabled), untabled=True)
            report("untabled", players, args.untabled, result)
    print(f"caravans interned: {len(engine._CARAVANS)}")
    peak = peak_memory_mb()
    if peak is not None:
        print(f"peak memory (max RSS of the process): {peak:.1f} MB")


if __name__ == "__main__":
    main()
