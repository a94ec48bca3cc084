"""One game of a simulation: the bots play a generated engine to the end, and what the
report needs of the game is kept as plain data.

A long simulation builds the engine's move tables and the bots' knowledge before its first
game (`prime`, before the worker processes fork, where they can), so every worker plays at
warm speed.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from century.model.ruleset import Ruleset
from century.play.config import SimConfig, SimulationError, derive_seed

if TYPE_CHECKING:
    from century.engine import Engine
    from century.engine.runtime import State

GameResult = dict[str, Any]
"""The outcome of one game: plain data (picklable, JSON-ready)."""

MAX_PLIES = 100_000
"""A game still running after this many moves is reported instead of looping forever."""

WARM_GAMES = 200
"""Simulations of at least this many games build the move tables before the first game."""


def play_game(engine: Engine, ruleset: Ruleset, config: SimConfig, index: int) -> GameResult:
    """Play game number `index` of a simulation to its end and summarise it, with what the
    card figures of the report need: the merchant cards each seat had on offer at its turns
    (`offered`), the cards in each market slot at every turn and the slot of each card
    taken (`market`), the point cards in the row at every turn (`point_offers`), the seat's
    turn at each claim (`claim_turns`) and every seat's score at the end of each round
    (`round_scores`)."""
    from century.play.bots import make_bot

    seed = derive_seed(config.seed, index)
    state = engine.new_game(config.players, seed)
    seating = config.seating(index)
    bots = [
        make_bot(spec, engine, ruleset, derive_seed(seed, seat))
        for seat, spec in enumerate(seating)
    ]
    offered: list[set[int]] = [set() for _ in seating]  # merchant cards seen in the row
    slots: Counter = Counter()  # (card, slot) -> turns on offer there
    bought: Counter = Counter()  # (card, slot) -> times taken from there
    points_seen: Counter = Counter()  # point card -> turns in the row
    claim_turns: list[list[int]] = [[] for _ in seating]
    round_scores: list[list[int]] = []
    view, last = state.view(), len(seating) - 1
    # The rows change only when a card is taken: each row is counted once it is left, for
    # the turns that began while it lay (`turn` counts the turns begun so far).
    mrow, prow = view.merchant_row, view.point_row
    turn = mrow_since = prow_since = 0
    for _ in range(MAX_PLIES):
        if state.is_over():
            _count_row(slots, mrow, turn - mrow_since)
            for card in prow:
                points_seen[card] += turn - prow_since
            return {
                **summarise(engine, state, index, seed),
                "bots": list(seating),
                "offered": [sorted({engine.CARDS[c].id for c in seen}) for seen in offered],
                **_market(engine, slots, bought, points_seen),
                "claim_turns": claim_turns,
                "round_scores": round_scores,
            }
        seat = state.current_player
        if not view.discarding:
            offered[seat].update(mrow)
            turn += 1
        state.play(bots[seat].choose(state))
        after = view.merchant_row
        if after != mrow:  # a card taken: the first slot that differs held it
            slot = next(i for i, c in enumerate(mrow) if i >= len(after) or after[i] != c)
            bought[mrow[slot], slot] += 1
            _count_row(slots, mrow, turn - mrow_since)
            mrow, mrow_since = after, turn
        after = view.point_row
        if after != prow:
            claim_turns[seat].append(view.turns(seat))
            for card in prow:
                points_seen[card] += turn - prow_since
            prow, prow_since = after, turn
        if seat == last and not view.discarding and view.rounds() > len(round_scores):
            round_scores.append(state.scores())
    raise SimulationError(f"game {index} (seed {seed}) did not end within {MAX_PLIES} moves")


def _count_row(slots: Counter, row: tuple[int, ...], turns: int) -> None:
    """Add `turns` turns on offer to each card of `row` in its slot."""
    for slot, card in enumerate(row):
        slots[card, slot] += turns


def _market(engine: Engine, slots: Counter, bought: Counter, points: Counter) -> GameResult:
    """A game's market counts as JSON-ready data keyed by card id: per merchant card, its
    turns on offer and its takes by slot; per point card, its turns in the row."""
    cards, width = engine.CARDS, 1 + max((slot for _, slot in slots), default=0)
    market: dict[str, dict[str, list[int]]] = {}
    for (card, slot), n in sorted(slots.items()):
        if not n:
            continue
        entry = market.setdefault(cards[card].id, {"offers": [0] * width, "taken": [0] * width})
        entry["offers"][slot] += n
    for (card, slot), n in sorted(bought.items()):
        market[cards[card].id]["taken"][slot] += n
    seen = {engine.POINT_CARDS[c].id: n for c, n in sorted(points.items()) if n}
    return {"market": market, "point_offers": seen}


def summarise(engine: Engine, state: State, index: int, seed: int) -> GameResult:
    """The figures of a finished game of `engine` that the report needs: scores, winner,
    length, the cards and coins each seat took (ids)."""
    view = state.view()
    cards, points, piles = engine.CARDS, engine.POINT_CARDS, engine.COINS
    seats = range(view.players)
    return {
        "index": index,
        "seed": seed,
        "scores": list(state.scores()),
        "winner": state.winner(),
        "rounds": view.rounds(),
        "turns": [view.turns(seat) for seat in seats],
        "point_cards": [[points[c].id for c in view.point_cards(seat)] for seat in seats],
        "merchant_cards": [[cards[c].id for c in view.merchant_cards(seat)] for seat in seats],
        "coins": [
            {pile.id: n for pile, n in zip(piles, view.coins(seat), strict=True)} for seat in seats
        ],
    }


def game_engine(ruleset: Ruleset) -> Engine:
    """The generated engine module of `ruleset` (`load_engine` caches it per process)."""
    from century.engine import load_engine

    return load_engine(ruleset)


_PRIMED: set[tuple[str, tuple[int, ...]]] = set()


def prime(engine: Engine, ruleset: Ruleset, players: int) -> None:
    """Build the engine's move tables and the bots' knowledge of the game now (once per
    process), so that the games after run at warm speed from the first."""
    from century.play.knowledge import knowledge

    key = (engine.__name__, tuple(ruleset.value_weights))
    if key not in _PRIMED:
        engine.warm_up()
        knowledge(engine, ruleset)
        _PRIMED.add(key)
