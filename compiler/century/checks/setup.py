"""Checks of players, seats, coin piles and the end of the game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from century.base.diagnostics import Diagnostic
from century.checks.context import Context


def player_range(ctx: Context) -> Iterator[Diagnostic]:
    players = ctx.data["players"]
    if players["min"] > players["max"]:
        yield ctx.diag(
            ("players",),
            f"players.min {players['min']} is above max {players['max']}",
            because=(("players", "min"), ("players", "max")),
        )


def seats_cover_players(ctx: Context) -> Iterator[Diagnostic]:
    seats = ctx.data["setup"]["seats"]
    most = ctx.data["players"]["max"]
    if len(seats) < most:
        yield ctx.diag(
            ("setup", "seats"),
            f"starting caravans are given for {len(seats)} seats, but up to {most} players play",
            "give one entry per seat",
            because=(("players", "max"),),
        )
    limit = ctx.data["caravan_limit"]
    for seat, cubes in enumerate(seats):
        if len(cubes) > limit:
            yield ctx.diag(
                ("setup", "seats", seat),
                f"seat {seat + 1} starts with {len(cubes)} cubes, over the caravan limit {limit}",
                because=(("caravan_limit",),),
            )


def end_thresholds(ctx: Context) -> Iterator[Diagnostic]:
    players = ctx.data["players"]
    given = {int(k) for k in ctx.data["end"]["point_cards"]}
    wanted = set(range(players["min"], players["max"] + 1))
    for count in sorted(wanted - given):
        yield ctx.diag(
            ("end", "point_cards"),
            f"no end threshold for {count} players",
            f"add `{count}: <point cards>` under end.point_cards",
            because=(("players", "max"), ("players", "min")),
        )
    for count in sorted(given - wanted):
        yield ctx.diag(
            ("end", "point_cards", str(count)),
            f"end threshold for {count} players, outside "
            f"players {players['min']}..{players['max']}",
            severity="warning",
            key=True,
            because=(("players", "min" if count < players["min"] else "max"),),
        )
    deck = sum(card.get("copies", 1) for card in ctx.data["decks"]["point"]["cards"])
    for count in sorted(wanted & given):
        if ctx.data["end"]["point_cards"][str(count)] > deck:
            yield ctx.diag(
                ("end", "point_cards", str(count)),
                f"the end threshold for {count} players is more than the {deck} point cards",
                severity="warning",
                because=(("decks", "point", "cards"),),
            )


def coin_positions(ctx: Context) -> Iterator[Diagnostic]:
    row = ctx.data["setup"]["point_row"]
    seen: dict[int, str] = {}
    for i, pile in enumerate(ctx.data["coins"]["piles"]):
        position = pile["position"]
        if position > row:
            yield ctx.diag(
                ("coins", "piles", i, "position"),
                f"coin pile {pile['id']!r} is above position {position}, "
                f"but the point row has {row} cards",
                because=(("setup", "point_row"),),
            )
        if position in seen:
            yield ctx.diag(
                ("coins", "piles", i, "position"),
                f"coin piles {seen[position]!r} and {pile['id']!r} share position {position}",
            )
        seen[position] = pile["id"]
    ids = Counter(pile["id"] for pile in ctx.data["coins"]["piles"])
    for pile_id, n in ids.items():
        if n > 1:
            yield ctx.diag(("coins", "piles"), f"coin pile id {pile_id!r} is used twice")
