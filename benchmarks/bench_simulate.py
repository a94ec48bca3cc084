"""Benchmark `century simulate`: games per second per bot, worker speed-up, peak memory.

Usage (from the checkout, in the venv):

    python benchmarks/bench_simulate.py            # the full run (a few minutes on 2 cores)
    python benchmarks/bench_simulate.py --quick    # a smoke run with few games
    python benchmarks/bench_simulate.py --only speedup   # one measurement: rates, speedup, memory

Figures printed:
- games/s for each bot type playing every seat, 2 and 4 players, one process;
- the speed-up of 2 worker processes over 1 (greedy bots, 2 players);
- peak memory (max RSS of the main process and of the largest worker) of one simulation
  of --memory-games games (10,000 by default) with 2 workers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.pipeline import compile_paths
from century.play.simulate import SimConfig, simulate

GAME = "spice-road"


def timed(bot: str, players: int, games: int, workers: int = 1, seed: int = 1) -> tuple:
    """(wall seconds, CPU seconds of this process and its workers) of one simulation."""
    ruleset = compile_paths().rulesets[GAME]
    config = SimConfig(games=games, players=players, bots=(bot,) * players, seed=seed)
    simulate(ruleset, SimConfig(1, players, (bot,) * players, seed + 1))  # warm the engine
    before, start = os.times(), time.perf_counter()
    simulate(ruleset, config, workers=workers)
    wall, after = time.perf_counter() - start, os.times()
    cpu = (after.user + after.system + after.children_user + after.children_system) - (
        before.user + before.system + before.children_user + before.children_system
    )
    return wall, cpu


def rate(bot: str, players: int, games: int) -> float:
    """Games per second of `games` games with `bot` in every seat, one process."""
    return games / timed(bot, players, games)[0]


def peak_memory(games: int, workers: int) -> dict[str, float]:
    """Run one simulation in a fresh process; its max RSS (MiB) and its workers'."""
    code = (
        "import json, resource, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})\n"
        "from century.pipeline import compile_paths\n"
        "from century.play.report import build_report\n"
        "from century.play.simulate import SimConfig, simulate\n"
        f"rs = compile_paths().rulesets[{GAME!r}]\n"
        f"cfg = SimConfig({games}, 2, ('greedy', 'greedy'), 7)\n"
        f"report = build_report(simulate(rs, cfg, workers={workers}))\n"
        "self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps({'main_mib': round(self, 1), 'worker_mib': round(kids, 1),"
        " 'games': sum(s['wins'] for s in report['seats'])}))\n"
    )
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    figures = json.loads(out)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    return figures


def rates(scale: float) -> None:
    games = {"random": 200, "greedy": 200, "search": 10}
    print("games/s, one process, the same bot in every seat:")
    for players in (2, 4):
        for bot, n in games.items():
            n = max(2, int(n * scale))
            print(
                f"  {players} players  {bot:<7} {rate(bot, players, n):8.2f} games/s  ({n} games)"
            )


def speedup(scale: float) -> None:
    n = max(40, int(400 * scale))
    one = min(timed("greedy", 2, n, workers=1) for _ in range(3))
    two = min(timed("greedy", 2, n, workers=2) for _ in range(3))
    print(
        f"workers ({n} greedy games, best of 3): 1 -> {n / one[0]:.2f} games/s, "
        f"2 -> {n / two[0]:.2f} games/s, speed-up {one[0] / two[0]:.2f}x "
        f"(CPU seconds {one[1]:.1f} vs {two[1]:.1f}; load average {os.getloadavg()[0]:.1f})"
    )
    print(f"  machine ceiling: two independent processes together run {ceiling(n // 2):.2f}x")


def ceiling(games: int) -> float:
    """How much faster two independent single-process runs finish together than in turn."""
    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
        "from bench_simulate import timed\n"
        f"print(timed('greedy', 2, {games})[0])\n"
    )

    def run(copies: int) -> float:
        start = time.perf_counter()
        procs = [
            subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
            for _ in range(copies)
        ]
        for proc in procs:
            proc.communicate()
        return time.perf_counter() - start

    alone = min(run(1) for _ in range(2))
    together = min(run(2) for _ in range(2))
    return 2 * alone / together


def memory(games: int) -> None:
    figures = peak_memory(games, workers=2)
    print(
        f"peak memory, {games} greedy games with 2 workers: main process "
        f"{figures['main_mib']} MiB, largest worker {figures['worker_mib']} MiB "
        f"({figures['seconds']} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke run")
    parser.add_argument("--memory-games", type=int, default=10_000)
    parser.add_argument(
        "--only", choices=("rates", "speedup", "memory"), help="run one measurement only"
    )
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    print(f"game {GAME}; python {sys.version.split()[0]}; {os.cpu_count()} CPUs")
    if args.only in (None, "rates"):
        rates(scale)
    if args.only in (None, "speedup"):
        speedup(scale)
    if args.only in (None, "memory"):
        memory(max(100, int(args.memory_games * scale)))


if __name__ == "__main__":
    main()
