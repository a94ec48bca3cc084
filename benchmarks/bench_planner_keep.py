"""The planner against its earlier selves: today's planner (`KEEP`: a move keeps a little of
the cube value it leaves; `GAMMA_LATE` 0.9 for its last two point cards) against the planner
before `KEEP` (`GAMMA` 0.8 to the end, `CLOSE` on) and the planner before `CLOSE` as well, on
the same seeds.

Usage (from the checkout, in the venv):

    python benchmarks/bench_planner_keep.py                   # 2 × 400 + 3 × 400 games
    python benchmarks/bench_planner_keep.py --head 200 --self 100 --game golem

Two-player games, one process:

- head to head against each earlier planner, ``--head`` games, the seats alternating: today's
  planner's wins with a Wilson 95% interval;
- self-play of each of the three, ``--self`` games on the same seeds, the sides in alternating
  blocks: mean rounds, the own turns from a seat's second-to-last point card to its last (the
  5th to the 6th in Spice Road with two players), and CPU-seconds per game.
"""

from __future__ import annotations

import argparse

from bench_planner_close import Closing, Unclosing, play, self_play

from century.pipeline import compile_paths
from century.play.config import derive_seed
from century.play.game import game_engine, prime
from century.play.planner import PlannerBot
from century.play.stats import wilson

EARLIER = {"before KEEP": Closing, "before CLOSE": Unclosing}
"""The earlier planners: as `CLOSE` came, and as the balance issue found it."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--head", type=int, default=400, help="head-to-head games per opponent")
    parser.add_argument("--self", dest="self_games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    ruleset = compile_paths().rulesets[args.game]
    engine = game_engine(ruleset)
    prime(engine, ruleset, 2)
    for name, other in EARLIER.items():
        wins = 0
        for game in range(args.head):
            mine = game % 2
            classes = [PlannerBot, other] if mine == 0 else [other, PlannerBot]
            state, _ = play(engine, ruleset, classes, derive_seed(args.seed, game))
            wins += state.winner() == mine
        if args.head:
            low, high = wilson(wins, args.head)
            print(
                f"planner against the planner {name}: {wins} of {args.head} = "
                f"{wins / args.head:.1%} [{low:.1%}-{high:.1%} Wilson 95%]",
                flush=True,
            )
    sides = {"planner": PlannerBot, **EARLIER}
    self_play(engine, ruleset, sides, args.self_games, args.seed + 1)


if __name__ == "__main__":
    main()
