"""The card kinds: one definition of what each kind of merchant card holds and how its id reads.

`KINDS` is the registry every stage reads: the schema (`century.frontend.schema` builds the
merchant cards' part from it; a test keeps ``defs.schema.json`` in step), the checks
(`CardKind.problems`), the model (a card's `effect` holds the fields in `FIELDS`), the engine
generator (the engine's runtime must have rules for every kind, ``KIND_RULES``) and the
printed texts (prose keys ``card_<kind>`` and ``card_<kind>_title``, the term
``<kind>_card``). Adding a kind means adding it here (and a new field to `FIELDS`), its rules
to the engine runtime, its drawing to ``faces.typ`` and its texts; a kind missing from any
of them is an error, never a fall-through to another kind.

Card ids are derived from a card's effect so that they read well in moves and data:
gain ``+yyr`` · upgrade ``up3`` · trade ``yy-g`` (pay, then get) · point card ``yyrr`` (cost).
Letters are the resource codes in lower case, as written in the data. A card may name its own
id instead; derived ids follow a re-theme that changes the codes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

Card = Mapping[str, Any]
"""A card as written in the data."""

CUBES, COUNT = "cubes", "count"
"""The types of effect fields: a cube string (a vector in the model), a whole number."""

FIELDS: dict[str, str] = {"get": CUBES, "pay": CUBES, "steps": COUNT}
"""Every field a merchant card's effect can have, with its type, in the schema's order."""


@dataclass(frozen=True)
class CardKind:
    """One kind of merchant card."""

    name: str
    fields: tuple[str, ...]
    """The keys of its effect (names in `FIELDS`), as the schema requires them."""
    summary: str
    derive_id: Callable[[Card], str]
    problems: Callable[[Card], Iterator[tuple[str, str]]]
    """(field or "", message) for each way the effect is empty or does nothing."""
    reaches: Callable[[Card, frozenset[str], str], frozenset[str]]
    """The resource codes (upper case) a player can have after playing the card, given the
    codes they can have already and the ladder's codes in rank order (a game can end only if
    some player can pay enough point cards: `century.checks.ending`)."""


def _cubes(card: Card, key: str) -> str:
    return str(card.get(key, "")).lower()


def _gain_problems(card: Card) -> Iterator[tuple[str, str]]:
    if not card["get"]:
        yield "get", "the card gives nothing"


def _upgrade_problems(card: Card) -> Iterator[tuple[str, str]]:
    if card["steps"] < 1:
        yield "steps", "an upgrade card needs at least 1 step"


def _trade_problems(card: Card) -> Iterator[tuple[str, str]]:
    if not card["get"]:
        yield "get", "the card gives nothing"
    if not card["pay"]:
        yield "pay", "a trade card must take something"
    elif Counter(card["pay"].upper()) == Counter(card["get"].upper()):
        yield "", "the trade pays and gets the same cubes"


def _gets(card: Card) -> frozenset[str]:
    return frozenset(str(card.get("get", "")).upper())


def _trade_reaches(card: Card, have: frozenset[str], ladder: str) -> frozenset[str]:
    return _gets(card) if frozenset(str(card["pay"]).upper()) <= have else frozenset()


def _upgrade_reaches(card: Card, have: frozenset[str], ladder: str) -> frozenset[str]:
    if card["steps"] < 1:
        return frozenset()
    return frozenset(ladder[i + 1] for i, code in enumerate(ladder[:-1]) if code in have)


KINDS: dict[str, CardKind] = {
    kind.name: kind
    for kind in (
        CardKind(
            "gain",
            ("get",),
            "take the cubes shown",
            lambda card: "+" + _cubes(card, "get"),
            _gain_problems,
            lambda card, have, ladder: _gets(card),
        ),
        CardKind(
            "upgrade",
            ("steps",),
            "raise cubes by up to `steps` single ranks",
            lambda card: f"up{card.get('steps', '')}",
            _upgrade_problems,
            _upgrade_reaches,
        ),
        CardKind(
            "trade",
            ("pay", "get"),
            "pay `pay` for `get`, as many times as the caravan can pay",
            lambda card: f"{_cubes(card, 'pay')}-{_cubes(card, 'get')}",
            _trade_problems,
            _trade_reaches,
        ),
    )
}
"""Every kind of merchant card, by name."""


def cube_fields() -> tuple[str, ...]:
    """The effect fields written as cube strings (a re-theme renames their codes)."""
    return tuple(name for name, kind in FIELDS.items() if kind == CUBES)


class UnknownKind(ValueError):
    """A card of a kind `KINDS` does not define."""


def card_kind(name: str) -> CardKind:
    """The kind called `name`; `UnknownKind` for any other."""
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKind(f"unknown card kind {name!r} (kinds: {', '.join(KINDS)})") from None


def derived_id(card: Card) -> str:
    """The id of a card as written in the data (``id`` wins over the derived form); a card
    without a kind is a point card, named by its cost."""
    if isinstance(card.get("id"), str):
        return card["id"]
    if "kind" not in card:
        return _cubes(card, "cost")
    return card_kind(str(card["kind"])).derive_id(card)
