"""Hand-made positions for the generated engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_DECISIONS = 20_000
"""The decisions a test's playout may take: a game ends long before (a random five-player game
takes about a thousand); the cap fails a test whose game would not end."""


def position(engine: Any, players: int = 2, seats: list[dict] | None = None, **fields: Any):
    """A hand-made state: empty merchant row, decks and hands unless given; the point row
    holds one card nobody can pay (an empty point row would end the game)."""
    fields.setdefault("point_row", ["bbbbb"])
    if seats is None:
        seats = [{} for _ in range(players)]
    seats = [{"caravan": "", "hand": [], **seat} for seat in seats]
    data = {"players": players, "seats": seats, **fields}
    return engine.State.from_dict(data)


def caravans(ranks: int, most: int) -> list[tuple[int, ...]]:
    """Every caravan vector of `ranks` counts holding at most `most` cubes."""
    if ranks == 0:
        return [()]
    return [(n, *rest) for n in range(most + 1) for rest in caravans(ranks - 1, most - n)]


def decisions(state: Any, cap: int = MAX_DECISIONS) -> Iterator[int]:
    """The decisions of a playout, counted until `state` is over: ``for _ in
    decisions(state): state.play(...)``; an AssertionError after `cap` of them."""
    for decision in range(cap):
        if state.is_over():
            return
        yield decision
    raise AssertionError(f"the game did not end in {cap} decisions")
