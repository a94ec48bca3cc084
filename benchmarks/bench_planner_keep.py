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

from bench_planner_close import Closing, Unclosing, head_to_head, self_play, setup

from century.bots.planner import PlannerBot

EARLIER = {"before KEEP": Closing, "before CLOSE": Unclosing}
"""The earlier planners: as `CLOSE` came, and as the balance issue found it."""


def main() -> None:
    args, ruleset, engine = setup(__doc__, head=400, seed=7)
    for name, other in EARLIER.items():
        if args.head:
            line = head_to_head(engine, ruleset, PlannerBot, other, args.head, args.seed)
            print(f"planner against the planner {name}: {line}", flush=True)
    sides = {"planner": PlannerBot, **EARLIER}
    self_play(engine, ruleset, sides, args.self_games, args.seed + 1)


if __name__ == "__main__":
    main()
