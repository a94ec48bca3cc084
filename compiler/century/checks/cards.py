"""Checks of the decks: card ids, effects, deck sizes and the point cards' value model."""

from __future__ import annotations

from collections.abc import Iterator

from century.base.diagnostics import Diagnostic
from century.checks.context import DECKS, Context
from century.model.cards import derived_id


def unique_card_ids(ctx: Context) -> Iterator[Diagnostic]:
    if len(ctx.codes) < len(ctx.data["resources"]):
        return  # shared codes make derived ids collide; `unique_resources` reports the cause
    first: dict[str, tuple[str, int]] = {}
    for deck, i, card in ctx.cards():
        card_id = derived_id(card)
        if card_id in first:
            other_deck, other = first[card_id]
            where = ctx.tree.locate(("decks", other_deck, "cards", other))
            yield ctx.diag(
                ("decks", deck, "cards", i),
                f"card id {card_id!r} is used twice (first at {where})",
                "use `copies` for several of the same card, or give one an explicit `id`",
                related=(where,),
            )
        else:
            first[card_id] = (deck, i)


def deck_kinds(ctx: Context) -> Iterator[Diagnostic]:
    for deck in DECKS:
        declared = ctx.data["decks"][deck]["deck"]
        if declared != deck:
            yield ctx.diag(
                ("decks", deck, "deck"),
                f"a {declared} deck is used as the {deck} deck",
            )


def decks_fill_rows(ctx: Context) -> Iterator[Diagnostic]:
    setup = ctx.data["setup"]
    for deck, row in (("merchant", "merchant_row"), ("point", "point_row")):
        size = sum(card.get("copies", 1) for card in ctx.data["decks"][deck]["cards"])
        if size < setup[row]:
            yield ctx.diag(
                ("setup", row),
                f"the {deck} deck has {size} cards, too few to fill a row of {setup[row]}",
                because=(("decks", deck, "cards"),),
            )
    if not ctx.data["decks"]["starting"]["cards"]:
        yield ctx.diag(("decks", "starting", "cards"), "the starting hand is empty")


def point_values(ctx: Context) -> Iterator[Diagnostic]:
    balance = ctx.data["balance"]
    weights = balance["value_weights"]
    bonus = {int(k): v for k, v in balance["variety_bonus"].items()}
    if len(weights) != len(ctx.data["resources"]):
        return
    for i, card in enumerate(ctx.data["decks"]["point"]["cards"]):
        ranks = [ctx.codes[c] for c in card["cost"].upper() if c in ctx.codes]
        value = sum(weights[r] for r in ranks) + bonus.get(len(set(ranks)), 0)
        if ranks and value != card["points"]:
            yield ctx.diag(
                ("decks", "point", "cards", i, "points"),
                f"point card {derived_id(card)!r} gives {card['points']} points; "
                f"the deck's value model says {value}",
                "check the card, or the `balance` section if the model changed",
                severity="warning",
                because=(("balance", "value_weights"), ("balance", "variety_bonus")),
            )
