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


def kind_rules_disagree(engine: Any, cubes: int) -> list[str]:
    """Where the rules record of a card's kind (`KIND_RULES`) disagrees with itself, for every
    card of `engine` and every caravan of at most `cubes` cubes: `moves` must list exactly the
    moves `outcomes` gives from those caravans, in the order `outcomes` gives them, and
    `most_moves` must bound how many it gives from one caravan."""
    found = []
    vectors = caravans(len(engine.CODES), cubes)
    for card in engine.CARDS:
        rules = engine.KIND_RULES[card.kind]
        name = "play " + card.id.lower()
        listed = rules.moves(card, name, cubes)
        order = {move: index for index, move in enumerate(listed)}
        seen: set[str] = set()
        most = 0
        for vector in vectors:
            table = list(rules.outcomes(vector, card, name))
            seen.update(table)
            most = max(most, len(table))
            if [order.get(move, -1) for move in table] != sorted(order.get(m, -1) for m in table):
                found.append(f"{card.id}: {table} out of the order of `moves`")
        if seen != set(listed):
            found.append(f"{card.id}: `moves` {sorted(set(listed) ^ seen)} apart from `outcomes`")
        if most > rules.most_moves(card, len(engine.CODES), cubes):
            found.append(f"{card.id}: {most} moves, over `most_moves`")
    return found
