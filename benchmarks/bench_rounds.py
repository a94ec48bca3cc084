"""How few rounds two planners can need: the floor under the rounds of their games.

Usage (from the checkout, in the venv):

    python benchmarks/bench_rounds.py                 # 200 games per setup, spice-road
    python benchmarks/bench_rounds.py --sizes 5,6 --depths 3,4,5
    python benchmarks/bench_rounds.py --games 60 --game golem

Two-player games, seats as dealt, the same deals in every setup:

- ``greedy``: two greedy bots (the reference: the aim is 25% fewer rounds than these);
- ``planner``: two planners as they play;
- ``handed engine``: each planner starts with an engine in hand (for each size of
  ``--sizes``), the merchant cards that raise its pace most (`PlannerBot.rate`, added one at
  a time, the best first; the second seat takes the best of the cards left), and plays on
  as usual;
- ``handed engine, no acquiring``: the same, but the planners never acquire: what the
  engine alone gives, at the search depths asked for (``--depths``).

A card costs a turn to acquire, even when it lies free in the first slot, so a planner
that had to acquire such an engine would need at least the rounds of the last setup plus
the engine's size: the floor printed last, the least over the sizes. The cards are chosen
from the game's own data, so this runs on any variant.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.bots.knowledge import knowledge
from century.bots.planner import PlannerBot
from century.bots.registry import GreedyBot
from century.engine import load_engine
from century.pipeline import compile_paths
from century.simulation.config import derive_seed


class SettledPlanner(PlannerBot):
    """A planner that never acquires a merchant card."""

    OPENING = 0
    ACQUIRE = 0


def handed_engines(engine: Any, ruleset: Any, size: int) -> list[list[int]]:
    """Per seat, `size` merchant cards (engine indices) that raise the planner's pace most
    over the starting hand, added one at a time; the second seat chooses from what is
    left of the deck."""
    know, bot = knowledge(engine, ruleset), PlannerBot(engine, ruleset, 0)
    left = list(engine.MERCHANT_DECK)
    engines = []
    for _ in range(2):
        owned: list[int] = list(engine.STARTING_HAND)
        for _ in range(size):
            pace = {card: bot.rate(know, tuple(sorted((*owned, card))))[0] for card in set(left)}
            best = max(sorted(pace), key=pace.__getitem__)
            owned.append(best)
            left.remove(best)
        engines.append(owned[len(engine.STARTING_HAND) :])
    return engines


def hand_over(engine: Any, state: Any, engines: Sequence[Sequence[int]]) -> Any:
    """The position with each seat's engine added to its hand and taken out of the
    merchant deck (a card lying in the row is replaced there by the deck's next card)."""
    data = state.to_dict(moves=False)
    names = [card.id for card in engine.CARDS]
    for seat, cards in zip(data["seats"], engines, strict=True):
        for card in cards:
            name = names[card]
            if name in data["merchant_deck"]:
                data["merchant_deck"].remove(name)
            else:
                slot = next(s for s in data["merchant_row"] if s["card"] == name)
                slot["card"] = data["merchant_deck"].pop(0)
            seat["hand"].append(name)
    return engine.State.from_dict(data)


def rounds(
    engine: Any,
    ruleset: Any,
    make: Callable[[int], Any],
    games: int,
    seed: int,
    engines: Sequence[Sequence[int]] = (),
) -> list[int]:
    """The rounds of `games` two-player games between the bots `make(seat)` builds."""
    found = []
    for game in range(games):
        state = engine.new_game(2, derive_seed(seed, game))
        if engines:
            state = hand_over(engine, state, engines)
        bots = [make(seat) for seat in range(2)]
        while not state.is_over():
            state.play(bots[state.current_player].choose(state))
        found.append(state.rounds())
    return found


def line(label: str, found: list[int], seconds: float) -> str:
    mean = statistics.fmean(found)
    half = 1.96 * statistics.stdev(found) / len(found) ** 0.5 if len(found) > 1 else 0.0
    return f"  {label:<44} {mean:5.1f} rounds ± {half:.1f}   ({len(found)} games, {seconds:.0f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sizes", default="2,3,4,5,6", help="cards in the handed engines")
    parser.add_argument("--depths", default="3", help="planner depths without acquiring")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ruleset = compile_paths().rulesets[args.game]
    engine = load_engine(ruleset)
    names = [card.id for card in engine.CARDS]

    def run(label: str, make: Callable[[int], Any], engines: Sequence[Sequence[int]] = ()) -> float:
        start = time.perf_counter()
        found = rounds(engine, ruleset, make, args.games, args.seed, engines)
        print(line(label, found, time.perf_counter() - start), flush=True)
        return statistics.fmean(found)

    print(f"Two-player games of {args.game}, the same deals in each setup (seed {args.seed}):")
    greedy = run("greedy", lambda seat: GreedyBot(engine, ruleset, seat))
    run("planner", lambda seat: PlannerBot(engine, ruleset, seat))
    floor: dict[int, float] = {}
    for size in (int(n) for n in args.sizes.split(",")):
        engines = handed_engines(engine, ruleset, size)
        print(f"Handed {size} cards: " + "; ".join(", ".join(names[c] for c in e) for e in engines))
        run("planner, handed engine", lambda seat: PlannerBot(engine, ruleset, seat), engines)
        for depth in (int(d) for d in args.depths.split(",")):
            found = run(
                f"planner:{depth}, handed engine, no acquiring",
                lambda seat, depth=depth: SettledPlanner(engine, ruleset, seat, depth),
                engines,
            )
            floor[size] = min(floor.get(size, found + size), found + size)
    size = min(floor, key=floor.__getitem__)
    print(
        f"Aim, 25% fewer rounds than greedy: {0.75 * greedy:.1f}. Floor, the handed engine "
        f"acquired at a turn per card: {floor[size]:.1f} rounds ({size} cards; "
        + ", ".join(f"{n}: {r:.1f}" for n, r in sorted(floor.items()))
        + ")."
    )


if __name__ == "__main__":
    main()
