"""Benchmark of the bots on the C engine (``--backend c``) against the same bots on the Python
engine.

Bot games per CPU-second: seeded games with one bot in every seat (2 players), played in this
process on the Python engine (the pure bots, tables warmed up first: `warm_up` and the bots'
knowledge) and on the C engine generated and compiled from the same rules, in rounds, each
engine going first in every other round, on the same seeds. The digest of every game's moves
must be equal on both engines (the same play: tests/play/test_cbots.py). Prints per round
and the median of the ratios.

With ``--table``, also the planner-level reference table, `century experiment GAME --own-all
--levels planner --stop sure` on both engines (``--backend python`` and ``--backend c``) with
``--workers`` processes, each in a subprocess with its own empty cache folder: wall and CPU
seconds (children included), and whether the two tables' files are byte-identical.

    python benchmarks/bench_c_bots.py                             # greedy and planner, 3 rounds
    python benchmarks/bench_c_bots.py --bots planner --games 40 --rounds 5
    python benchmarks/bench_c_bots.py --table --workers 2         # and the reference table
    python benchmarks/bench_c_bots.py --table --only-c            # the table on the C engine only
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "compiler"))

from century.bots.knowledge import knowledge
from century.bots.registry import make_bot
from century.engine import load_engine
from century.pipeline import compile_paths
from century.simulation.backend import c_engine


def games(engine, ruleset, spec: str, seeds: range) -> tuple[float, str]:
    """Seeded 2-player games with `spec` in both seats: (CPU seconds, digest of the moves)."""
    digest = hashlib.sha256()
    clock = time.process_time
    start = clock()
    for seed in seeds:
        state = engine.new_game(2, seed)
        bots = [make_bot(spec, engine, ruleset, seed * 10 + seat) for seat in range(2)]
        while not state.is_over():
            state.play(bots[state.current_player].choose(state))
        digest.update("\n".join(state.moves()).encode())
    return clock() - start, digest.hexdigest()[:16]


def table(game: str, backend: str, workers: int) -> dict[str, object]:
    """The planner-level reference table on `backend`: wall, CPU (children), its files."""
    with tempfile.TemporaryDirectory(prefix="bench-c-bots-") as folder:
        out = Path(folder) / "out"
        env = {**os.environ, "CENTURY_CACHE_DIR": str(Path(folder) / "cache")}
        command = [
            *(sys.executable, "-m", "century", "experiment", game, "--own-all"),
            *("--levels", "planner", "--stop", "sure", "--workers", str(workers)),
            *("--backend", backend, "-q", "--out", str(out)),
        ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(f"{backend}: exit {done.returncode}\n{done.stdout}{done.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        files = hashlib.sha256()
        for path in sorted(out.rglob("*")):
            if path.is_file():
                files.update(path.relative_to(out).as_posix().encode() + path.read_bytes())
        return {"wall": wall, "cpu": cpu, "files": files.hexdigest()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--bots", default="greedy,planner", help="bot specs, comma-separated")
    parser.add_argument("--games", type=int, default=0, help="per round (0: 200 greedy, 20 else)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--table", action="store_true", help="also the planner-level table")
    parser.add_argument("--only-c", action="store_true", help="the table on the C engine only")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    pure = load_engine(ruleset)
    pure.warm_up()
    knowledge(pure, ruleset)
    start = time.process_time()
    fast = c_engine(ruleset)
    print(f"C engine generated and compiled: {time.process_time() - start:.1f} CPU-s here")
    knowledge(fast, ruleset)
    for spec in args.bots.split(","):
        count = args.games or (200 if spec == "greedy" else 20)
        for engine in (pure, fast):  # warm: the bots' memo tables of the first games
            games(engine, ruleset, spec, range(10_000, 10_002))
        ratios = []
        for number in range(args.rounds):
            seeds = range(number * count, (number + 1) * count)
            order = [("python", pure), ("c", fast)]
            if number % 2:
                order.reverse()
            found = {name: games(engine, ruleset, spec, seeds) for name, engine in order}
            (py_cpu, py_digest), (c_cpu, c_digest) = found["python"], found["c"]
            if py_digest != c_digest:
                raise SystemExit(f"{spec}: the engines played different games ({seeds})")
            ratio = py_cpu / c_cpu
            ratios.append(ratio)
            print(
                f"{spec} round {number + 1}: python {count / py_cpu:.1f} games/CPU-s, "
                f"c {count / c_cpu:.1f} games/CPU-s, c/python {ratio:.2f} (digest {c_digest})"
            )
        print(f"{spec}: median c/python {statistics.median(ratios):.2f} over {args.rounds} rounds")
    if args.table:
        backends = ("c",) if args.only_c else ("c", "python")
        results = {backend: table(args.game, backend, args.workers) for backend in backends}
        for backend, found in results.items():
            print(
                f"table at planner, {backend}: {found['wall']:.1f} s wall, "
                f"{found['cpu']:.1f} CPU-s, {args.workers} workers (files {found['files']})"
            )
        if len(results) == 2:
            same = results["c"]["files"] == results["python"]["files"]
            print(f"the tables' files are {'byte-identical' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
