"""A check that a merchant card's moves, outcomes and bound agree (the engine with itself).

For every card of a generated engine and every caravan of at most `cubes` cubes, the moves a
play lists from the caravan (``effect_outcomes``) must all be among the card's moves
(``effect_moves``, the learning adapters' actions), in their order; every one of those moves
must be listed from some such caravan; and no caravan may list more than the bound
(``effect_most_moves``, the move tables' size) says. `disagreements` lists where they do not:
an empty list is agreement. Tests run it over every bundled game and composed cards; a
designer can run it on a variant (`century.engine.load_engine`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def caravans(ranks: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every caravan vector of `ranks` counts holding at most `most` cubes."""
    if ranks == 0:
        yield ()
        return
    for n in range(most + 1):
        for rest in caravans(ranks - 1, most - n):
            yield (n, *rest)


def disagreements(engine: Any, cubes: int) -> list[str]:
    """Where a card's moves, outcomes and bound disagree, for every card of `engine` (a
    generated engine module) and every caravan of at most `cubes` cubes."""
    found: list[str] = []
    codes = engine.CODES
    vectors = list(caravans(len(codes), cubes))
    for card in engine.CARDS:
        name = "play " + card.id.lower()
        listed = engine.effect_moves(card.effect, codes, name, cubes)
        order = {move: index for index, move in enumerate(listed)}
        ways = engine.effect_ways(card.effect, codes, cubes)
        seen: set[str] = set()
        most = 0
        for vector in vectors:
            table = list(engine.effect_outcomes(vector, ways, name))
            seen.update(table)
            most = max(most, len(table))
            places = [order.get(move, -1) for move in table]
            if places != sorted(places):
                found.append(f"{card.id}: {table} out of the order of its moves")
        if seen != set(listed):
            found.append(f"{card.id}: moves {sorted(set(listed) ^ seen)} apart from its plays")
        bound = engine.effect_most_moves(card.effect, codes, cubes)
        if most > bound:
            found.append(f"{card.id}: {most} moves from one caravan, over its bound {bound}")
    return found
