"""A playtest from a chosen position: cards dealt by hand into a new table (`century serve
--deal 'hand.1=market-day,row.3=up3'`, the form's "Deal" field).

``hand.N=CARD`` puts a merchant card into seat N's hand; ``row.N=CARD`` puts it into slot N
of the merchant row (the card that lay there goes to the bottom of the deck). A card dealt is
taken out of the deck when the deck holds it. The table then starts from that position, and
its record carries the position (``start``), so `century replay` plays the game back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import State

MAX_DEALS = 20
"""Cards one deal may place."""


class DealError(ValueError):
    """A deal that cannot be made, saying which part and why."""


def parse(text: str) -> list[tuple[str, int, str]]:
    """``hand.1=up2,row.3=+yy`` as ``[("hand", 1, "up2"), ("row", 3, "+yy")]``."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise DealError("a deal is PLACE.N=CARD, separated by commas (hand.1=up2,row.3=+yy)")
    if len(parts) > MAX_DEALS:
        raise DealError(f"a deal places at most {MAX_DEALS} cards")
    found = []
    for part in parts:
        where, equals, card = part.partition("=")
        place, dot, number = where.strip().partition(".")
        if not equals or not dot or place not in ("hand", "row") or not number.isdigit():
            raise DealError(f"{part[:40]!r}: write hand.N=CARD or row.N=CARD")
        if not card.strip():
            raise DealError(f"{part[:40]!r}: which card?")
        found.append((place, int(number), card.strip()))
    return found


def deal(engine: Engine, state: State, deals: list[tuple[str, int, str]]) -> State:
    """`state` (a game not yet begun) with the cards of `deals` placed: a new state that
    starts from that position (`DealError` naming the part that cannot be placed)."""
    known = {card.id for card in engine.CARDS}
    data: dict[str, Any] = state.to_dict(moves=False)
    deck: list[str] = data["merchant_deck"]
    players = data["players"]
    for place, number, card in deals:
        said = f"{place}.{number}={card}"
        if card not in known:
            raise DealError(f"{said[:60]!r}: no merchant card {card[:30]!r} in this game")
        if card in deck:
            deck.remove(card)
        if place == "hand":
            if not 1 <= number <= players:
                raise DealError(f"{said[:60]!r}: seats are 1 to {players}")
            data["seats"][number - 1]["hand"].append(card)
        else:
            row = data["merchant_row"]
            if not 1 <= number <= len(row):
                raise DealError(f"{said[:60]!r}: the merchant row has slots 1 to {len(row)}")
            deck.append(row[number - 1]["card"])
            row[number - 1] = {"card": card, "cubes": row[number - 1]["cubes"]}
    try:
        return type(state).from_dict(data)
    except ValueError as err:
        raise DealError(f"that position cannot be: {str(err)[:200]}") from None
