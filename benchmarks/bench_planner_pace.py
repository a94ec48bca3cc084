"""Where the rounds of two planners go: each bot's own pace alone, and how much shorter a game
gets when the planner races for point cards instead of points.

Usage (from the checkout, in the venv):

    python benchmarks/bench_planner_pace.py                   # 600 + 2 × 2,000 + 2 × 400 games
    python benchmarks/bench_planner_pace.py --head 0 --self 400 --solo 100 --expert 20

Two-player games, one process, the same seeds for every side:

- the racer (below) against the planner, ``--head`` games, the seats alternating: the racer's
  wins with a Wilson 95% interval;
- self-play, ``--self`` games: mean rounds with a 95% interval, the own turns from a seat's
  5th to its 6th point card (Spice Road, two players), CPU-seconds per game; for the planner
  and for a *racer*: the planner with every point card in the row worth the same (the row's
  mean) and no waiting for a better end, so it heads for the nearest card, whatever its
  points;
- alone, ``--solo`` games against a seat that only rests: the own turn at which the bot
  claims each of its point cards (mean), the seats alternating;
- ``--expert N``: the same for the expert (N self-play games, ~8 CPU-seconds each, and N games
  alone, which take longer).
"""

from __future__ import annotations

import statistics
import time

from bench_planner_close import head_to_head, mean_spread, play, self_play, setup

from century.bots.expert import ExpertBot
from century.bots.knowledge import knowledge
from century.bots.planner import Candidate, Plan, PlannerBot
from century.runtime.engine import State
from century.simulation.config import derive_seed


class Passive:
    """A seat that only rests (and discards what it must): a bot's pace alone."""

    def __init__(self, *_: object) -> None:
        pass

    def choose(self, state: State) -> str:
        view = state.view()
        return view.discards()[0][0] if view.discarding else "rest"


class RacingPlan(Plan):
    """The planner's decision with every row card worth the same, ending the game whenever
    it can."""

    def __init__(self, bot: PlannerBot, know, view) -> None:
        super().__init__(bot, know, view)
        same = statistics.mean(self.values) if self.values else 0.0
        self.values = [same] * len(self.values)

    def ending(self, candidate: Candidate) -> float:
        return max(super().ending(candidate), 0.0)


class Racer(PlannerBot):
    """The planner aiming at point cards, not points."""

    def choose(self, state: State) -> str:
        return RacingPlan(self, knowledge(self.engine, self.ruleset), state.view()).best()


def alone(engine, ruleset, cls, games: int, seed: int) -> str:
    """`cls` against a `Passive` seat: the mean own turn of each of its point cards."""
    turns: dict[int, list[int]] = {}
    start = time.process_time()
    for game in range(games):
        seat = game % 2
        classes = [cls, Passive] if seat == 0 else [Passive, cls]
        _, claimed = play(engine, ruleset, classes, derive_seed(seed, game))
        for index, turn in enumerate(claimed[seat]):
            turns.setdefault(index, []).append(turn)
    cpu = (time.process_time() - start) / games
    cards = ", ".join(f"{statistics.mean(found):.1f}" for _, found in sorted(turns.items()))
    last = turns[max(turns)]
    return (
        f"own turn of each point card {cards} (the last {mean_spread(last)}, n={len(last)}), "
        f"{cpu:.2f} CPU-s per game"
    )


def main() -> None:
    args, ruleset, engine = setup(__doc__, head=600, seed=21, self_games=2000, solo=400, expert=0)
    if args.head:
        line = head_to_head(engine, ruleset, Racer, PlannerBot, args.head, args.seed + 2)
        print(f"racer against the planner: {line}", flush=True)
    sides = {"planner": PlannerBot, "racer": Racer}
    self_play(engine, ruleset, sides, args.self_games, args.seed)
    for name, cls in sides.items():
        if args.solo:
            line = alone(engine, ruleset, cls, args.solo, args.seed + 1)
            print(f"{name}, alone: {line}", flush=True)
    if args.expert:
        self_play(engine, ruleset, {"expert": ExpertBot}, args.expert, args.seed)
        print(f"expert, alone: {alone(engine, ruleset, ExpertBot, args.expert, args.seed + 1)}")


if __name__ == "__main__":
    main()
