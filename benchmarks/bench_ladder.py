"""Estimate what `century bots` costs: each pairing of a ladder timed on a few seeded games in
this process (CPU seconds per game), projected to the ladder's games per pairing and to the
wall time on the machine's cores.

Usage (from the checkout, in the venv):

    python benchmarks/bench_ladder.py                                # today's default bots
    python benchmarks/bench_ladder.py --bots random,greedy,search,planner,expert --sample 2

The tables are built first. A line per pairing gives its CPU seconds per game and its
projection; the last lines sum the ladder: CPU seconds, and the wall time on `--cores`
processes as `century bots` runs it (each pairing's games split across the workers, so the
wall time is about the CPU time over the cores; a loaded machine takes longer).
"""

from __future__ import annotations

import argparse
import time

from century.bots.registry import check_spec
from century.cli.screen.progress import duration
from century.pipeline import compile_paths
from century.simulation.config import SimConfig, derive_seed
from century.simulation.game import game_engine, play_game, prime
from century.simulation.ladder import default_bots, pairings


def main() -> None:
    from century.cli.bots import LADDER_GAMES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=",".join(default_bots()), help="the ladder's bots")
    parser.add_argument("--games", type=int, default=LADDER_GAMES, help="games per pairing")
    parser.add_argument("--sample", type=int, default=6, help="games timed per pairing")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--game", default="spice-road", help="the bundled game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bots = [spec.strip() for spec in args.bots.split(",") if spec.strip()]
    for spec in bots:
        check_spec(spec)
    ruleset = compile_paths().rulesets[args.game]
    engine = game_engine(ruleset)
    prime(engine, ruleset, args.players)
    total = 0.0
    for bot, other in pairings(bots, args.players):
        seats = (bot,) + (other,) * (args.players - 1)
        config = SimConfig(
            args.sample, args.players, seats, derive_seed(args.seed, bot, other), True
        )
        start = time.process_time()
        for index in range(args.sample):
            play_game(engine, ruleset, config, index)
        per_game = (time.process_time() - start) / args.sample
        total += per_game * args.games
        print(
            f"{bot:>10} vs {other:<10} {per_game:8.3f} CPU-s per game; "
            f"{args.games} games {per_game * args.games:8.1f} CPU-s",
            flush=True,
        )
    print(
        f"ladder of {','.join(bots)} ({args.game}, {args.players} players, {args.games} games "
        f"per pairing, timed on {args.sample} each): {total:.0f} CPU-s, about "
        f"{duration(total / args.cores)} wall on {args.cores} free cores"
    )


if __name__ == "__main__":
    main()
