"""One game of a simulation: the bots play a generated engine to the end, and what the
report needs of the game is kept as plain data.

A long simulation builds the engine's move tables and the bots' knowledge before its first
game (`prime`, before the worker processes fork, where they can), so every worker plays at
warm speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from century.model.ruleset import Ruleset
from century.simulation.config import SimConfig, SimulationError, derive_seed
from century.simulation.record import Recorder

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import State

GameResult = dict[str, Any]
"""The outcome of one game: plain data (picklable, JSON-ready)."""

MAX_PLIES = 100_000
"""A game still running after this many moves is reported instead of looping forever."""

WARM_GAMES = 200
"""Simulations of at least this many games build the move tables before the first game."""


def play_game(engine: Engine, ruleset: Ruleset, config: SimConfig, index: int) -> GameResult:
    """Play game number `index` of a simulation to its end and summarise it, with what the
    card and game-quality figures need (`century.simulation.record.Recorder.result`)."""
    from century.bots.registry import make_bot

    seed = derive_seed(config.seed, index)
    state = deal(engine, config, index, seed)
    seating = config.seating(index)
    bots = [
        make_bot(spec, engine, ruleset, derive_seed(seed, seat))
        for seat, spec in enumerate(seating)
    ]
    record = Recorder(engine, state)
    for _ in range(MAX_PLIES):
        if state.is_over():
            found = {**summarise(engine, state, index, seed), "bots": list(seating)}
            if config.row:  # who took the placed card, and on which of its turns
                found["row_taken"] = record.first_take(config.row)
            return {**found, **record.result()}
        seat = state.current_player
        record.before(seat)
        state.play(bots[seat].choose(state))
        record.after(seat)
    raise SimulationError(f"game {index} (seed {seed}) did not end within {MAX_PLIES} moves")


def deal(engine: Engine, config: SimConfig, index: int, seed: int) -> State:
    """Game `index`'s start: dealt from `seed`, then changed as `config` says (its `unseen`
    card taken out of the rows and decks, its `owned` card given to seat ``index % players``).
    A card taken out of a row is replaced from the deck, so the deal stays a shuffle."""
    state = engine.new_game(config.players, seed)
    if not (config.owned or config.unseen or config.row):
        return state
    data = state.to_dict(moves=False)
    for card in config.unseen_cards:
        _take_out(data, card)
    if config.owned:
        seat = data["seats"][index % config.players]
        if any(card.id == config.owned for card in engine.CARDS):
            seat["hand"] = [*seat["hand"], config.owned]
        elif any(card.id == config.owned for card in engine.POINT_CARDS):
            seat["point_cards"] = [*seat["point_cards"], config.owned]
        else:
            raise SimulationError(f"no card {config.owned!r} in {engine.GAME_ID}")
    if config.row:
        _place_in_row(data, config.row, config.slot)
    return engine.State.from_dict(data)


def _place_in_row(data: dict[str, Any], card: str, slot: int) -> None:
    """Put `card` in a dealt position's merchant row at `slot`, the cards from there on
    moving one slot along and the last going back on top of the deck."""
    row = data["merchant_row"]
    if not 0 <= slot < len(row):
        raise SimulationError(f"slot {slot + 1} is not in the merchant row (1 to {len(row)})")
    entry = {**row[slot], "card": card} if isinstance(row[slot], dict) else card
    if isinstance(entry, dict) and "cubes" in entry:
        entry["cubes"] = ""
    placed = [*row[:slot], entry, *row[slot:]]
    last = placed.pop()
    data["merchant_row"] = placed
    data["merchant_deck"] = [
        last["card"] if isinstance(last, dict) else last,
        *data["merchant_deck"],
    ]


def _take_out(data: dict[str, Any], card: str) -> None:
    """Take the first copy of `card` out of a dealt position's merchant or point cards (the
    row, then the deck), the row refilled from the deck."""
    for row_key, deck_key in (("merchant_row", "merchant_deck"), ("point_row", "point_deck")):
        row = [c["card"] if isinstance(c, dict) else c for c in data[row_key]]
        cards = [*row, *data[deck_key]]
        if card in cards:
            cards.remove(card)
            data[row_key], data[deck_key] = cards[: len(row)], cards[len(row) :]
            return


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
    """The generated engine module of `ruleset` (`load_engine` caches it per process), or its
    C engine where this process plays the C backend (`century.simulation.backend`)."""
    from century.engine import load_engine
    from century.simulation.backend import c_engine, chosen_backend

    if chosen_backend() == "c":
        return c_engine(ruleset)
    return load_engine(ruleset)


_PRIMED: set[tuple[str, tuple[int, ...]]] = set()


def prime(engine: Engine, ruleset: Ruleset, players: int) -> None:
    """Build the engine's move tables and the bots' knowledge of the game now (once per
    process), so that the games after run at warm speed from the first."""
    from century.bots.knowledge import knowledge

    key = (engine.__name__, tuple(ruleset.value_weights))
    if key not in _PRIMED:
        engine.warm_up()
        reference = getattr(engine, "REFERENCE", None)  # a C engine: the views the bots read
        if reference is not None:
            reference.warm_up()
        knowledge(engine, ruleset)
        _PRIMED.add(key)
