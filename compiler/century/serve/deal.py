"""A playtest from a chosen position: cards dealt by hand into a new table (`century serve
--deal 'hand.1=CARD,row.3=CARD'`, the form's "Deal" field; CARD a merchant card's id).

``hand.N=CARD`` puts a merchant card into seat N's hand; ``row.N=CARD`` puts it into slot N
of the merchant row (the card that lay there goes to the bottom of the deck). A card dealt is
taken out of the deck when the deck holds it. The table then starts from that position, and
its record carries the position (``start``), so `century replay` plays the game back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from century.engine import Engine
    from century.model.ruleset import Ruleset
    from century.runtime.engine import State

MAX_DEALS = 20
"""Cards one deal may place."""


class DealError(ValueError):
    """A deal that cannot be made, saying which part and why: in English, and as the page's
    words (``error.KEY`` with `slots`) that say it in another language."""

    def __init__(self, message: str, key: str, **slots: Any) -> None:
        super().__init__(message)
        self.key = key
        self.slots = slots


EXAMPLE_SLOT = 3
"""The merchant row's slot an example deals into (the row's last when it is shorter)."""


def example_deal(ruleset: Ruleset) -> str:
    """A deal of `ruleset`'s own cards, to show the form: its merchant deck's first card
    into seat 1's hand, and the deck's next other card into a slot of the row."""
    ids = list(dict.fromkeys(card.id for card in ruleset.merchant_deck + ruleset.starting_cards))
    if not ids:
        return "hand.1=CARD"
    dealt = f"hand.1={ids[0]}"
    if ruleset.merchant_row:
        dealt += f",row.{min(EXAMPLE_SLOT, ruleset.merchant_row)}={ids[min(1, len(ids) - 1)]}"
    return dealt


def parse(text: str, example: str) -> list[tuple[str, int, str]]:
    """``hand.1=A,row.3=B`` as ``[("hand", 1, "A"), ("row", 3, "B")]``; a deal of no part
    is refused with `example` (the game's `example_deal`) as the form to follow."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        said = f"a deal is PLACE.N=CARD, separated by commas ({example})"
        raise DealError(said, "deal_form", example=example)
    if len(parts) > MAX_DEALS:
        raise DealError(f"a deal places at most {MAX_DEALS} cards", "deal_most", most=MAX_DEALS)
    found = []
    for part in parts:
        where, equals, card = part.partition("=")
        place, dot, number = where.strip().partition(".")
        if not equals or not dot or place not in ("hand", "row") or not number.isdigit():
            said = repr(part[:40])
            raise DealError(f"{said}: write hand.N=CARD or row.N=CARD", "deal_part", part=said)
        if not card.strip():
            said = repr(part[:40])
            raise DealError(f"{said}: which card?", "deal_which", part=said)
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
        said = repr(f"{place}.{number}={card}"[:60])
        if card not in known:
            named = repr(card[:30])
            message = f"{said}: no merchant card {named} in this game"
            raise DealError(message, "deal_card", part=said, card=named)
        if card in deck:
            deck.remove(card)
        if place == "hand":
            if not 1 <= number <= players:
                message = f"{said}: seats are 1 to {players}"
                raise DealError(message, "deal_seat", part=said, n=players)
            data["seats"][number - 1]["hand"].append(card)
        else:
            row = data["merchant_row"]
            if not 1 <= number <= len(row):
                message = f"{said}: the merchant row has slots 1 to {len(row)}"
                raise DealError(message, "deal_slot", part=said, n=len(row))
            deck.append(row[number - 1]["card"])
            row[number - 1] = {"card": card, "cubes": row[number - 1]["cubes"]}
    try:
        return type(state).from_dict(data)
    except ValueError as err:
        reason = str(err)[:200]
        message = f"that position cannot be: {reason}"
        raise DealError(message, "deal_position", reason=reason) from None
