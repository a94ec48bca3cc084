"""Whether a game can end: some player must be able to reach the end threshold, or the point
row must be able to empty (the engine ends the game then too)."""

from __future__ import annotations

from collections.abc import Iterator

from century.base.diagnostics import Diagnostic
from century.checks.context import Context
from century.checks.effects import card_ways, ladder, merchant_cards
from century.model.cards import derived_id

Plays = list[tuple[frozenset[str], frozenset[str]]]
"""Per way to play a card: the codes it needs, and the codes its result holds."""


def plays(ctx: Context) -> Plays:
    """Every way to play every card of the merchant deck and the starting hand, as the codes
    it needs and the codes it leaves (upper case)."""
    codes = ladder(ctx).upper()
    found = {
        (
            frozenset(codes[r] for r, n in enumerate(way.need) if n),
            frozenset(codes[r] for r, n in enumerate(way.need) if n + way.delta[r] > 0),
        )
        for path, card, steps in merchant_cards(ctx)
        if path[1] != "point"
        for way in card_ways(ctx, card, steps) or ()
    }
    return sorted(found, key=lambda play: (sorted(play[0]), sorted(play[1])))


def reachable(found: Plays, start: str) -> frozenset[str]:
    """The resource codes a player starting with the cubes `start` can ever have, by the
    plays `found` (`plays`): a way whose needs are codes the player can have leaves the
    codes of its result."""
    have = frozenset(start.upper())
    while True:
        more = have.union(*(leaves for needs, leaves in found if needs <= have))
        if more == have:
            return have
        have = more


def _never_paid(card: dict, have: frozenset[str], limit: int) -> str:
    """Why a point card can never be paid by a player who can have the codes `have`, or ""."""
    cost = str(card["cost"]).upper()
    if len(cost) > limit:
        return f"its cost of {len(cost)} cubes is over the caravan limit {limit}"
    missing = sorted(set(cost) - have)
    if missing:
        return f"no card or starting caravan gives {', '.join(missing)}"
    return ""


def game_can_end(ctx: Context) -> Iterator[Diagnostic]:
    """One error for the player counts under which no game can end: no seat can ever pay as
    many point cards as the end threshold, and a card no one can pay keeps the point row
    from emptying. It stands at the caravan limit when that is what no one can pay."""
    data = ctx.data
    limit = data["caravan_limit"]
    points = data["decks"]["point"]["cards"]
    seats = data["setup"]["seats"]
    endless: list[tuple[int, int, int]] = []  # (players, most payable, threshold)
    found = plays(ctx)
    stuck = ""
    for players in range(data["players"]["min"], data["players"]["max"] + 1):
        threshold = data["end"]["point_cards"].get(str(players))
        if threshold is None or players > len(seats):
            continue  # reported by `end_thresholds` and `seats_cover_players`
        reach = {start: reachable(found, start) for start in set(seats[:players])}
        reasons = [
            [_never_paid(card, reach[start], limit) for card in points] for start in seats[:players]
        ]
        most = max(
            sum(card.get("copies", 1) for card, why in zip(points, seat, strict=True) if not why)
            for seat in reasons
        )
        never = [i for i in range(len(points)) if all(seat[i] for seat in reasons)]
        if most < threshold and never:
            endless.append((players, most, threshold))
            stuck = stuck or f"point card {derived_id(points[never[0]])!r}: {reasons[0][never[0]]}"
    if not endless:
        return
    counts = ", ".join(str(players) for players, _, _ in endless)
    first = str(endless[0][0])
    at = ("caravan_limit",) if "caravan limit" in stuck else ("end", "point_cards", first)
    yield ctx.diag(
        at,
        f"no game of {counts} players can end: no player can ever pay more than "
        f"{max(most for _, most, _ in endless)} point cards, below the end threshold "
        f"({', '.join(str(t) for _, _, t in endless)}), and the point row never empties "
        f"({stuck})",
        "make the point cards payable with the cards and caravans of the game, or lower the "
        "end threshold",
    )
