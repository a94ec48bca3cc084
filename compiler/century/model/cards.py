"""Card ids derived from a card's effect, so that they read well in moves and data.

gain ``+yyr`` · upgrade ``up3`` · trade ``yy-g`` (pay, then get) · point card ``yyrr`` (cost).
Letters are the resource codes in lower case, as written in the data. A card may name its own
id instead; derived ids follow a re-theme that changes the codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def derived_id(card: Mapping[str, Any]) -> str:
    """The id of a card as written in the data (``id`` wins over the derived form)."""
    if isinstance(card.get("id"), str):
        return card["id"]
    kind = card.get("kind")
    if kind == "gain":
        return "+" + str(card.get("get", "")).lower()
    if kind == "upgrade":
        return f"up{card.get('steps', '')}"
    if kind == "trade":
        return f"{str(card.get('pay', '')).lower()}-{str(card.get('get', '')).lower()}"
    return str(card.get("cost", "")).lower()
