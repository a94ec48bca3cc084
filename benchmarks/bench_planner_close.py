"""The planner's finish: the planner as it plays against the same planner with `CLOSE` off
(it does not race for the cards that end a won game), on the same seeds. Both sides are the
planner as it was when `CLOSE` came (`GAMMA` 0.8 to the end, no `KEEP`), so the figures stay
reproducible; `bench_planner_keep.py` measures today's planner.

Usage (from the checkout, in the venv):

    python benchmarks/bench_planner_close.py                  # 1,000 + 2 × 400 games
    python benchmarks/bench_planner_close.py --head 200 --self 100 --game golem

Two-player games, one process:

- head to head, ``--head`` games, the seats alternating: the planner's wins with a Wilson
  95% interval;
- self-play of each side, ``--self`` games on the same seeds: mean rounds, the own turns
  from a seat's second-to-last point card to its last (the 5th to the 6th in Spice Road
  with two players, over the seats that reach the end), and CPU-seconds per game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.bots.planner import PlannerBot
from century.pipeline import compile_paths
from century.simulation.config import derive_seed
from century.simulation.game import game_engine, prime
from century.simulation.record import Recorder
from century.simulation.stats import wilson


class Closing(PlannerBot):
    """The planner as it raced to close a won game, before it kept cube value
    (`bench_planner_keep.py`)."""

    GAMMA = GAMMA_LATE = 0.8
    KEEP = 0.0


class Unclosing(Closing):
    """The planner before it raced to close a won game."""

    CLOSE = False


def play(engine, ruleset, classes, seed: int):
    """One game: its end and, per seat, the own turn of each point card claimed (as a
    simulation records them, `century.simulation.record.Recorder`)."""
    state = engine.new_game(2, seed)
    bots = [cls(engine, ruleset, derive_seed(seed, seat)) for seat, cls in enumerate(classes)]
    record = Recorder(engine, state)
    while not state.is_over():
        seat = state.current_player
        record.before(seat)
        state.play(bots[seat].choose(state))
        record.after(seat)
    return state, record.claim_turns


BLOCK = 50
"""Self-play games of one side before the other side's turn (the sides take turns, so the
memo tables one side builds serve both alike)."""


def self_play(engine, ruleset, sides: dict[str, type[PlannerBot]], games: int, seed: int):
    """Per side: its self-play figures on the same seeds, the sides in alternating blocks."""
    rounds: dict[str, list[int]] = {name: [] for name in sides}
    finish: dict[str, list[int]] = {name: [] for name in sides}
    cpu = dict.fromkeys(sides, 0.0)
    for block in range(0, games, BLOCK):
        order = list(sides) if block // BLOCK % 2 == 0 else list(reversed(sides))
        for name in order:
            start = time.process_time()
            for game in range(block, min(games, block + BLOCK)):
                cls = sides[name]
                state, claimed = play(engine, ruleset, [cls, cls], derive_seed(seed, game))
                view = state.view()
                rounds[name].append(view.rounds())
                end = view.end_threshold
                finish[name] += [t[end - 1] - t[end - 2] for t in claimed if len(t) >= end]
            cpu[name] += time.process_time() - start
    for name in sides:
        last = finish[name]
        print(
            f"{name}, self-play: rounds {mean_spread(rounds[name])}, own turns to the last "
            f"point card {mean_spread(last)} (n={len(last)}), {cpu[name] / games:.3f} CPU-s "
            "per game"
        )


def mean_spread(found: list[int]) -> str:
    """The mean of `found` ± the half-width of its normal 95% interval."""
    spread = 1.96 * statistics.stdev(found) / len(found) ** 0.5 if len(found) > 1 else 0.0
    return f"{statistics.mean(found):.2f} ± {spread:.2f}"


def head_to_head(
    engine, ruleset, bot: type[PlannerBot], other: type[PlannerBot], games: int, seed: int
) -> str:
    """`bot`'s wins against `other` in `games` games, the seats alternating, as a line with
    the Wilson 95% interval."""
    wins = 0
    for game in range(games):
        mine = game % 2
        classes = [bot, other] if mine == 0 else [other, bot]
        state, _ = play(engine, ruleset, classes, derive_seed(seed, game))
        wins += state.winner() == mine
    low, high = wilson(wins, games)
    return f"{wins} of {games} = {wins / games:.1%} [{low:.1%}-{high:.1%} Wilson 95%]"


def setup(doc: str, head: int, seed: int, self_games: int = 400, **more: int):
    """The command line (`--game`, `--head`, `--self`, `--seed`, and a count option for each
    of `more`, its default the value) and the game's ruleset and engine, its tables built."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--head", type=int, default=head, help="head-to-head games")
    parser.add_argument("--self", dest="self_games", type=int, default=self_games)
    parser.add_argument("--seed", type=int, default=seed)
    for name, default in more.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    args = parser.parse_args()
    ruleset = compile_paths().rulesets[args.game]
    engine = game_engine(ruleset)
    prime(engine, ruleset, 2)
    return args, ruleset, engine


def main() -> None:
    args, ruleset, engine = setup(__doc__, head=1000, seed=5)
    if args.head:
        line = head_to_head(engine, ruleset, Closing, Unclosing, args.head, args.seed)
        print(f"planner against CLOSE off: {line}")
    sides = {"planner": Closing, "CLOSE off": Unclosing}
    self_play(engine, ruleset, sides, args.self_games, args.seed + 1)


if __name__ == "__main__":
    main()
