"""Benchmark the expert bot against the planner: its win rate in seeded two-player games
(seats alternating) with the 95% Wilson interval, and the CPU time a game takes.

Usage (from the checkout, in the venv):

    python benchmarks/bench_expert.py                       # 400 games, expert vs planner
    python benchmarks/bench_expert.py --games 40 --bot expert:3 --against planner
    python benchmarks/bench_expert.py --games 400 --seed 36000   # docs/explanation/bot-strength.md

The tables are built before the first game. A line per game gives the running totals (wins,
win rate with its interval, CPU seconds per game), so a run stopped early still counts; the
last line sums the run. A game's CPU time is the whole game's (both bots) in this process.
The pure bots against the compiled ones (the native build), on the same games:
``python benchmarks/bench_planner.py --native --bots expert,planner --games 2``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from century.bots.compiled import bots_build
from century.bots.registry import check_spec, make_bot
from century.pipeline import compile_paths
from century.simulation.config import derive_seed
from century.simulation.game import game_engine, prime
from century.simulation.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--bot", default="expert", help="the bot measured")
    parser.add_argument("--against", default="planner", help="its opponent")
    parser.add_argument("--game", default="spice-road", help="the bundled game")
    parser.add_argument("--seed", type=int, default=26000)
    args = parser.parse_args()
    for spec in (args.bot, args.against):
        check_spec(spec)
    ruleset = compile_paths().rulesets[args.game]
    engine = game_engine(ruleset)
    prime(engine, ruleset, 2)
    wins, rounds, cpu = 0, 0, []
    for game in range(args.games):
        seed = derive_seed(args.seed, game)
        seat = game % 2  # the measured bot's seat alternates
        specs = [args.against, args.against]
        specs[seat] = args.bot
        state = engine.new_game(2, seed)
        bots = [
            make_bot(spec, engine, ruleset, derive_seed(seed, i)) for i, spec in enumerate(specs)
        ]
        start = time.process_time()
        while not state.is_over():
            state.play(bots[state.current_player].choose(state))
        cpu.append(time.process_time() - start)
        wins += state.winner() == seat
        rounds += state.rounds()
        played = game + 1
        lo, hi = wilson(wins, played)
        print(
            f"game {played:4}: {args.bot} {wins}/{played} = {100 * wins / played:5.1f}% "
            f"[{100 * lo:.1f}-{100 * hi:.1f}]; CPU-s per game {statistics.mean(cpu):.2f} "
            f"(this one {cpu[-1]:.2f}, max {max(cpu):.2f}); rounds {rounds / played:.1f}",
            flush=True,
        )
    lo, hi = wilson(wins, args.games)
    print(
        f"{args.bot} against {args.against} ({args.game}, 2 players, seed {args.seed}): "
        f"{wins} of {args.games} games = {100 * wins / args.games:.1f}% "
        f"[{100 * lo:.1f}-{100 * hi:.1f} Wilson 95%]; CPU-s per game mean "
        f"{statistics.mean(cpu):.2f}, max {max(cpu):.2f}; mean rounds {rounds / args.games:.1f}; "
        f"bots {bots_build()}"
    )


if __name__ == "__main__":
    main()
