"""What differs between two rulesets: rules, cards and names (a re-theme), theme-blind.

Cards are matched by effect (rank vectors), not by id, so a re-theme that renames codes
and ids shows as renames only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from century.model.ruleset import MerchantCard, PointCard, Ruleset


def _by_rank(vector: tuple[int, ...]) -> str:
    """Counts per rank, theme-blind: (3, 1, 0, 0) -> "3x1 1x2" (three of rank 1, one of 2)."""
    return " ".join(f"{n}x{rank}" for rank, n in enumerate(vector, start=1) if n) or "-"


RULE_FIELDS: dict[str, Callable[[Ruleset], Any]] = {
    "ranks": lambda r: len(r.resources),
    "players": lambda r: [r.players_min, r.players_max],
    "caravan_limit": lambda r: r.caravan_limit,
    "merchant_row": lambda r: r.merchant_row,
    "point_row": lambda r: r.point_row,
    "seats": lambda r: [_by_rank(s) for s in r.seats],
    "coins": lambda r: [[c.id, c.value, c.per_player, c.position] for c in r.coins],
    "coin_runout": lambda r: r.coin_runout,
    "end_threshold": lambda r: dict(r.end_threshold),
    "finish_round": lambda r: r.finish_round,
    "resource_points": lambda r: list(r.resource_points),
    "tie_break": lambda r: r.tie_break,
    "value_weights": lambda r: list(r.value_weights),
    "variety_bonus": lambda r: dict(r.variety_bonus),
    "languages": lambda r: list(r.languages),
}


def diff(a: Ruleset, b: Ruleset) -> dict[str, Any]:
    """A JSON-ready description of what changes from `a` to `b`."""
    rules = [
        {"field": name, "a": get(a), "b": get(b)}
        for name, get in RULE_FIELDS.items()
        if get(a) != get(b)
    ]
    cards: dict[str, list[Any]] = {"added": [], "removed": [], "changed": []}
    for deck in ("starting_cards", "merchant_deck", "point_deck"):
        _diff_deck(deck, getattr(a, deck), getattr(b, deck), cards)
    return {"a": a.id, "b": b.id, "rules": rules, "cards": cards, "renames": _renames(a, b)}


def _key(card: MerchantCard | PointCard) -> tuple[Any, ...]:
    """A card's effect, theme-blind and independent of the number of ranks."""

    def trim(vector: tuple[int, ...]) -> tuple[int, ...]:
        end = len(vector)
        while end and not vector[end - 1]:
            end -= 1
        return vector[:end]

    if isinstance(card, PointCard):
        return ("point", trim(card.cost))
    return (card.kind, *(trim(v) if isinstance(v, tuple) else v for v in card.effect.values()))


def _diff_deck(
    deck: str, a: tuple[Any, ...], b: tuple[Any, ...], out: dict[str, list[Any]]
) -> None:
    left = {_key(c): c for c in a}
    right = {_key(c): c for c in b}
    for key, card in left.items():
        if key not in right:
            out["removed"].append({"deck": deck, "id": card.id})
    for key, card in right.items():
        if key not in left:
            out["added"].append({"deck": deck, "id": card.id})
            continue
        old = left[key]
        changes = {
            name: [getattr(old, name), getattr(card, name)]
            for name in ("copies", "points")
            if hasattr(card, name) and getattr(old, name) != getattr(card, name)
        }
        if changes:
            out["changed"].append({"deck": deck, "id": card.id, "was": old.id, **changes})


def _renames(a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def note(what: str, old: Any, new: Any) -> None:
        if old != new:
            found.append({"what": what, "a": old, "b": new})

    note("name", dict(a.name), dict(b.name))
    for rank, (ra, rb) in enumerate(zip(a.resources, b.resources, strict=False), start=1):
        note(f"resource {rank} name", dict(ra.name), dict(rb.name))
        note(f"resource {rank} code", ra.code, rb.code)
        note(f"resource {rank} colour", ra.colour, rb.colour)
    coins_b = {c.id: c for c in b.coins}
    for coin in a.coins:
        if coin.id in coins_b:
            note(f"coin {coin.id} name", dict(coin.name), dict(coins_b[coin.id].name))
            note(f"coin {coin.id} colour", coin.colour, coins_b[coin.id].colour)
    for term in sorted(set(a.terms) | set(b.terms)):
        note(f"term {term}", dict(a.terms.get(term, {})), dict(b.terms.get(term, {})))
    return found


def format_text(result: dict[str, Any]) -> str:
    """The diff for people: one line per difference, grouped."""
    lines = [f"--- {result['a']}", f"+++ {result['b']}"]
    if result["rules"]:
        lines.append("rules:")
        lines += [f"  {r['field']}: {r['a']} -> {r['b']}" for r in result["rules"]]
    cards = result["cards"]
    if any(cards.values()):
        lines.append("cards:")
        lines += [f"  + {c['deck']}: {c['id']}" for c in cards["added"]]
        lines += [f"  - {c['deck']}: {c['id']}" for c in cards["removed"]]
        for c in cards["changed"]:
            details = ", ".join(
                f"{k} {v[0]} -> {v[1]}" for k, v in c.items() if isinstance(v, list)
            )
            lines.append(f"  ~ {c['deck']}: {c['id']} ({details})")
    if result["renames"]:
        lines.append("names (re-theme):")
        for r in result["renames"]:
            lines.append(f"  {r['what']}: {_short(r['a'])} -> {_short(r['b'])}")
    if len(lines) == 2:
        lines.append("no differences")
    return "\n".join(lines)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " / ".join(f"{k}: {v}" for k, v in value.items()) or "-"
    return str(value)
