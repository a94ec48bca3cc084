"""Benchmark `century simulate` and the bots: speed per bot, the bot ladder, warm starts,
10,000-game runs and peak memory.

Usage (from the checkout, in the venv):

    python benchmarks/bench_simulate.py --only rates      # games/s per bot, players, workers
    python benchmarks/bench_simulate.py --only ladder     # win matrix and rounds per pairing
    python benchmarks/bench_simulate.py --only warm       # the first 100 games of a fresh process
    python benchmarks/bench_simulate.py --only ten-thousand   # wall time of 10,000 games, 2 workers
    python benchmarks/bench_simulate.py --only ten-thousand --strong-games 1000  # planner: 1,000
    python benchmarks/bench_simulate.py --only memory     # peak memory of 10,000 greedy games
    python benchmarks/bench_simulate.py --only experiment # 2,000 paired greedy games, 2 workers
    python benchmarks/bench_simulate.py --only report     # 1,000 greedy games and their report
    python benchmarks/bench_simulate.py --quick           # everything, with few games

Figures printed:
- games/s for each bot playing every seat, 2 and 4 players, with 1 and 2 worker processes:
  wall clock, and for one worker also per CPU second (the machine is shared: the load
  average is printed with each figure);
- the bot ladder (`century bots`): every bot against every other, win rates with 95%
  intervals and mean rounds per pairing, 2 players and one-against-three with 4;
- warm start: the first 100 greedy games of a fresh process without and with the tables
  built up front (and what building them costs);
- the wall time of 10,000 two-player games with 2 workers, the planner and greedy;
- peak memory (max RSS of the main process and of the largest worker) of 10,000 greedy games
  with 2 workers;
- the wall time of `century experiment` removing a card, 2,000 paired greedy games (4,000
  games) with 2 workers;
- the wall and CPU time of 1,000 greedy games in one process with their balance report
  (JSON and HTML), the best of three runs: what recording the report's figures costs.
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
from century.simulation.config import SimConfig
from century.simulation.game import prime
from century.simulation.simulate import simulate

GAME = "spice-road"
BOTS = ("random", "greedy", "search", "planner")
ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f}"


def timed(bot: str, players: int, games: int, workers: int = 1, seed: int = 1) -> tuple:
    """(wall seconds, CPU seconds of this process and its workers) of one simulation, with
    the tables built beforehand."""
    from century.engine import load_engine

    ruleset = compile_paths().rulesets[GAME]
    config = SimConfig(games=games, players=players, bots=(bot,) * players, seed=seed)
    prime(load_engine(ruleset), ruleset, players)
    before, start = os.times(), time.perf_counter()
    simulate(ruleset, config, workers=workers)
    wall, after = time.perf_counter() - start, os.times()
    cpu = (after.user + after.system + after.children_user + after.children_system) - (
        before.user + before.system + before.children_user + before.children_system
    )
    return wall, cpu


def rates(scale: float) -> None:
    games = {"random": 200, "greedy": 400, "search": 40, "planner": 40}
    print("games/s, the same bot in every seat (tables built first):")
    for players in (2, 4):
        for bot in BOTS:
            n = max(4, int(games[bot] * scale))
            wall1, cpu1 = timed(bot, players, n, workers=1)
            wall2, _ = timed(bot, players, 2 * n, workers=2)
            print(
                f"  {players} players  {bot:<8} 1 worker {n / wall1:8.2f}/s wall, "
                f"{n / cpu1:8.2f}/s per CPU second;  2 workers {2 * n / wall2:8.2f}/s wall "
                f"({n} and {2 * n} games; {load()})",
                flush=True,
            )


def ladder(scale: float) -> None:
    from century.simulation.ladder import format_ladder, run_ladder

    ruleset = compile_paths().rulesets[GAME]
    for players, games in ((2, 200), (4, 100)):
        n = max(4, int(games * scale))
        start = time.perf_counter()
        found = run_ladder(ruleset, BOTS, players, n, seed=1, workers=2)
        print(format_ladder(found))
        print(f"({time.perf_counter() - start:.0f} s with 2 workers; {load()})\n", flush=True)


def warm(games: int) -> None:
    """The first `games` greedy games of fresh processes, cold and with the tables built."""
    code = (
        "import json, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from century.pipeline import compile_paths\n"
        "from century.simulation.config import SimConfig\n"
        "from century.simulation.game import play_game, prime\n"
        "from century.engine import load_engine\n"
        f"rs = compile_paths().rulesets[{GAME!r}]\n"
        "engine = load_engine(rs)\n"
        "start = time.perf_counter()\n"
        "if sys.argv[1] == 'warm':\n"
        "    prime(engine, rs, 2)\n"
        "built = time.perf_counter() - start\n"
        f"config = SimConfig({games}, 2, ('greedy', 'greedy'), 3)\n"
        "start = time.perf_counter()\n"
        f"for i in range({games}):\n"
        "    play_game(engine, rs, config, i)\n"
        "print(json.dumps([built, time.perf_counter() - start]))\n"
    )
    for mode in ("cold", "warm", "cold", "warm"):
        out = subprocess.run(
            [sys.executable, "-c", code, mode], capture_output=True, text=True, check=True
        ).stdout
        built, played = json.loads(out)
        print(
            f"  fresh process, {mode}: tables built in {built:.2f} s, first {games} greedy games "
            f"in {played:.2f} s ({games / played:.0f} games/s; {load()})",
            flush=True,
        )


def ten_thousand(games: int, strong_games: int) -> None:
    """Wall time of `games` two-player greedy games and `strong_games` planner games with 2
    workers, as `century simulate` runs them (a whole process each); a shorter planner run
    is extrapolated to `games`."""
    for bot, count in (("greedy", games), ("planner", strong_games)):
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "century",
                "simulate",
                GAME,
                "--games",
                str(count),
                "--bots",
                bot,
                "--workers",
                "2",
                "--seed",
                "10",
                "-q",
                "--out",
                str(ROOT / "build" / "bench" / bot),
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - start
        scaled = (
            f"; {games} games at this rate: {wall * games / count:.0f} s" if count < games else ""
        )
        print(
            f"  {count} games, {bot} in both seats, 2 workers: {wall:.0f} s wall "
            f"({count / wall:.1f} games/s{scaled}; {load()} at the end)",
            flush=True,
        )


def peak_memory(games: int, workers: int) -> dict[str, float]:
    """Run one simulation in a fresh process; its max RSS (MiB) and its workers'."""
    code = (
        "import json, resource, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from century.pipeline import compile_paths\n"
        "from century.reports.report import build_report\n"
        "from century.simulation.config import SimConfig\n"
        "from century.simulation.simulate import simulate\n"
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


def memory(games: int) -> None:
    figures = peak_memory(games, workers=2)
    print(
        f"peak memory, {games} greedy games with 2 workers: main process "
        f"{figures['main_mib']} MiB, largest worker {figures['worker_mib']} MiB "
        f"({figures['seconds']} s; {load()})"
    )


def experiment(games: int) -> None:
    """Wall time of `century experiment` (a whole process): `games` paired greedy games."""
    out = str(ROOT / "build" / "bench" / "experiment")
    change = ["--remove", "yy-rr", "--games", str(games), "--workers", "2", "-q", "--out", out]
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "century", "experiment", GAME, *change],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    print(
        f"  experiment, {games} paired greedy games, 2 workers: {wall:.1f} s wall "
        f"({2 * games / wall:.0f} games/s; {load()} at the end)",
        flush=True,
    )


def report_cost(games: int) -> None:
    """Best of three: `games` two-player greedy games played here (tables built first),
    aggregated, and their report built and rendered."""
    from century.engine import load_engine
    from century.reports.report import build_report, report_html

    ruleset = compile_paths().rulesets[GAME]
    prime(load_engine(ruleset), ruleset, 2)
    runs = []
    for _ in range(3):
        start, cpu = time.perf_counter(), time.process_time()
        report = build_report(simulate(ruleset, SimConfig(games, 2, ("greedy", "greedy"), 3)))
        report_html([report])
        runs.append((time.perf_counter() - start, time.process_time() - cpu))
    wall = min(w for w, _ in runs)
    print(
        f"  {games} greedy games and their report, 1 process: {wall:.2f} s wall, "
        f"{min(c for _, c in runs):.2f} s CPU (best of 3; {load()})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke run")
    parser.add_argument("--games", type=int, default=10_000, help="games of the long runs")
    parser.add_argument(
        "--strong-games", type=int, help="planner games of the long run (default: --games)"
    )
    parser.add_argument(
        "--only",
        choices=("rates", "ladder", "warm", "ten-thousand", "memory", "experiment", "report"),
        help="run one measurement only",
    )
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    long_games = max(100, int(args.games * scale))
    print(f"game {GAME}; python {sys.version.split()[0]}; {os.cpu_count()} CPUs; {load()}")
    if args.only in (None, "rates"):
        rates(scale)
    if args.only in (None, "ladder"):
        ladder(scale)
    if args.only in (None, "warm"):
        warm(100)
    if args.only in (None, "ten-thousand"):
        ten_thousand(long_games, min(long_games, args.strong_games or long_games))
    if args.only in (None, "memory"):
        memory(long_games)
    if args.only in (None, "experiment"):
        experiment(max(100, int(2000 * scale)))
    if args.only in (None, "report"):
        report_cost(max(100, int(1000 * scale)))


if __name__ == "__main__":
    main()
