"""Benchmark of composed card effects: Spice Road beside a variant whose market is about half
composed cards (``tests/data/composed.yaml``: a dozen new cards as data, two copies each, in
place of 24 cards), in one process.

Per game: random playouts with full legal-move enumeration (decisions per CPU-second, moves
per decision) and planner self-play (games per CPU-second, moves per decision the planner
saw). Also the table-building cost: ``warm_up()`` of each engine (every caravan within the
limit, every card's plays), and the steps-written Spice Road against the bundled one.

    python benchmarks/bench_effects.py                 # 300 playouts, 20 planner games
    python benchmarks/bench_effects.py --playouts 1000 --planner 60
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "compiler"))

from century.bots.registry import make_bot  # noqa: E402
from century.engine import load_engine  # noqa: E402
from century.pipeline import compile_paths  # noqa: E402
from century.simulation.config import derive_seed  # noqa: E402


def rulesets():
    """Spice Road and the composed variant (compiled from a temporary rules folder)."""
    with tempfile.TemporaryDirectory() as folder:
        rules = Path(folder) / "rules"
        rules.mkdir()
        text = (ROOT / "tests" / "data" / "composed.yaml").read_text("utf-8")
        (rules / "composed.yaml").write_text(text, "utf-8")
        found = compile_paths([rules], with_bundled=True)
        return found.rulesets["spice-road"], found.rulesets["spice-road-composed"]


def playouts(engine, games: int) -> tuple[float, float]:
    """Decisions per CPU-second and moves per decision of random two-player playouts."""
    decisions = listed = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(2, seed)
        while not state.is_over():
            moves = state.legal_moves()
            listed += len(moves)
            state.play(moves[int(rng.random() * len(moves))])
            decisions += 1
    return decisions / (time.process_time() - start), listed / decisions


def planner_games(engine, ruleset, games: int) -> tuple[float, float, float]:
    """Planner self-play: games per CPU-second, moves per decision, rounds per game."""
    listed = decisions = rounds = 0
    start = time.process_time()
    for seed in range(games):
        state = engine.new_game(2, seed)
        bots = [make_bot("planner", engine, ruleset, derive_seed(seed, i)) for i in range(2)]
        while not state.is_over():
            listed += len(state.legal_moves())
            decisions += 1
            state.play(bots[state.current_player].choose(state))
        rounds += state.rounds()
    return games / (time.process_time() - start), listed / decisions, rounds / games


def warm(ruleset) -> float:
    """CPU-seconds of a fresh engine's ``warm_up()`` (every caravan's tables)."""
    engine = load_engine(ruleset)
    start = time.process_time()
    engine.warm_up()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--planner", type=int, default=20)
    args = parser.parse_args()
    base, composed = rulesets()
    for name, ruleset in (("spice-road", base), ("composed", composed)):
        deck = ruleset.merchant_deck
        composed_copies = sum(card.copies for card in deck if card.kind == "composed")
        total = sum(card.copies for card in deck)
        print(f"{name}: {composed_copies} of {total} merchant cards composed")
        print(f"  warm_up {warm(ruleset):.3f} CPU-s")
        engine = load_engine(ruleset)
        engine.warm_up()
        rate, moves = playouts(engine, args.playouts)
        print(f"  random playouts: {rate:,.0f} decisions/CPU-s, {moves:.1f} moves/decision")
        if args.planner:
            games, moves, rounds = planner_games(engine, ruleset, args.planner)
            print(
                f"  planner self-play: {games:.2f} games/CPU-s, {moves:.1f} moves/decision, "
                f"{rounds:.1f} rounds"
            )


if __name__ == "__main__":
    main()
