"""Hand-made positions for the generated engine."""

from __future__ import annotations

from typing import Any


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
