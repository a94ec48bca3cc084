"""What differs between two rulesets: rules, cards and names (a re-theme), theme-blind.

Cards are matched by effect (rank vectors), not by id, so a re-theme that renames codes
and ids shows as renames only. `diff` describes every difference for `century diff`;
`changes` lists those a player meets at the table as `Change` items, which a variant's rule
sheet words in each language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from century.model.cards import COMPOSED, derived_id, short_fields
from century.model.ruleset import Change, MerchantCard, PointCard, Ruleset, Vector, frozen_map
from century.model.steps import OPTIONS, STEPS_OF, step_kind


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
        _diff_deck(deck, a, b, cards)
    return {"a": a.id, "b": b.id, "rules": rules, "cards": cards, "renames": _renames(a, b)}


def _key(card: MerchantCard | PointCard) -> tuple[Any, ...]:
    """A card's effect, theme-blind and independent of the number of ranks."""

    if isinstance(card, PointCard):
        return ("point", _trim(card.cost))
    return ("merchant", _trim_steps(card.effect))


def _trim_steps(steps: tuple[Any, ...]) -> tuple[Any, ...]:
    """Steps with every cube vector trimmed (`_trim`), nested steps too."""
    found: list[Any] = []
    for step in steps:
        takes = step_kind(step[0]).takes
        if takes == STEPS_OF:
            found.append((step[0], _trim_steps(step[1]), step[2]))
        elif takes == OPTIONS:
            found.append((step[0], tuple(_trim_steps(option) for option in step[1])))
        elif isinstance(step[1], tuple):
            found.append((step[0], _trim(step[1])))
        else:
            found.append(step)
    return tuple(found)


Card = MerchantCard | PointCard
Changed = tuple[Card, Card, dict[str, list[int]]]
"""A card in both decks whose copies or points differ: old, new, ``{field: [old, new]}``."""


def _match(
    a: tuple[Card, ...], b: tuple[Card, ...]
) -> tuple[list[Card], list[Card], list[Changed]]:
    """The cards of deck `b` against deck `a`, matched by effect: removed, added, changed."""
    left = {_key(c): c for c in a}
    right = {_key(c): c for c in b}
    removed = [card for key, card in left.items() if key not in right]
    added = [card for key, card in right.items() if key not in left]
    changed: list[Changed] = []
    for key, card in right.items():
        old = left.get(key)
        if old is None:
            continue
        fields = {
            name: [getattr(old, name), getattr(card, name)]
            for name in ("copies", "points")
            if hasattr(card, name) and getattr(old, name) != getattr(card, name)
        }
        if fields:
            changed.append((old, card, fields))
    return removed, added, changed


def _diff_deck(deck: str, a: Ruleset, b: Ruleset, out: dict[str, list[Any]]) -> None:
    """The cards of one deck (a ruleset's field) that `b` removes, adds and changes; a
    merchant card with its effect: kind, steps (`steps_json`) and the steps in the one-cell
    notation with its game's codes (``text``)."""
    removed, added, changed = _match(getattr(a, deck), getattr(b, deck))
    out["removed"] += [{"deck": deck, "id": card.id, **_effect(card, a)} for card in removed]
    out["added"] += [{"deck": deck, "id": card.id, **_effect(card, b)} for card in added]
    out["changed"] += [
        {"deck": deck, "id": card.id, "was": old.id, **fields, **_effect(card, b)}
        for old, card, fields in changed
    ]


def _effect(card: Card, ruleset: Ruleset) -> dict[str, Any]:
    """A merchant card's effect as `changes` gives it (kind, steps, short-form fields), with
    its steps in the notation (``text``) and the id they derive (``derived_id``)."""
    if not isinstance(card, MerchantCard):
        return {}
    found = {k: v for k, v in _card(card, ruleset).items() if k not in ("id", "copies", "name")}
    from century.model.notation import text_of, written  # only where a card is shown

    found["text"] = text_of(card.effect, ruleset.codes)
    found["derived_id"] = derived_id({"effect": written(card.effect, ruleset.codes)})
    return found


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


DECKS = (("starting", "starting_cards"), ("merchant", "merchant_deck"), ("point", "point_deck"))
"""Each deck by the name a rule sheet gives it and the ruleset's field that holds it."""


def changes(base: Ruleset, variant: Ruleset) -> tuple[Change, ...]:
    """What `variant` changes from `base` that players meet at the table, in the order of a
    rule sheet: players, ladder, caravan, rows, seats, coins, end, scoring and ties, then the
    cards of each deck, then a re-theme's names. The balance weights and the languages, which
    do not change play, are `diff`'s alone. Values are JSON values (see `Change`)."""
    found: list[Change] = []

    def add(kind: str, **values: Any) -> None:
        found.append(Change(kind, frozen_map(values)))

    def was_now(kind: str, was: Any, now: Any) -> None:
        if was != now:
            add(kind, was=was, now=now)

    b, v = base, variant
    was_now("players", [b.players_min, b.players_max], [v.players_min, v.players_max])
    was_now("ranks", len(b.resources), len(v.resources))
    was_now("caravan_limit", b.caravan_limit, v.caravan_limit)
    was_now("merchant_row", b.merchant_row, v.merchant_row)
    was_now("point_row", b.point_row, v.point_row)
    seats = _rows(dict(enumerate(b.seats, 1)), dict(enumerate(v.seats, 1)), _vector, "seat")
    if seats:
        add("seats", seats=seats)
    piles = _coin_rows(b, v)
    if piles:
        add("coins", piles=piles)
    was_now("coin_runout", b.coin_runout, v.coin_runout)
    counts = _rows(dict(b.end_threshold), dict(v.end_threshold), int, "players")
    if counts:
        add("end_threshold", counts=counts)
    was_now("finish_round", b.finish_round, v.finish_round)
    points = _rows(
        dict(enumerate(b.resource_points, 1)), dict(enumerate(v.resource_points, 1)), int, "rank"
    )
    if points:
        add("resource_points", ranks=points)
    was_now("tie_break", b.tie_break, v.tie_break)
    for deck, field in DECKS:
        removed, added, changed = _match(getattr(b, field), getattr(v, field))
        if added:
            add("cards_added", deck=deck, count=_copies(added), cards=[_card(c, v) for c in added])
        if removed:
            add(
                "cards_removed",
                deck=deck,
                count=_copies(removed),
                cards=[_card(c, b) for c in removed],
            )
        if changed:
            rows = [{"card": _card(new, v), **fields} for _old, new, fields in changed]
            add("cards_changed", deck=deck, count=len(changed), cards=rows)
    renamed = _renamed(b, v)
    if renamed is not None:
        add("renamed", **renamed)
    return tuple(found)


def _vector(vector: Vector) -> list[int]:
    """A vector as a JSON list without the zeros of the top ranks (compared theme-blind)."""
    return list(_trim(vector))


def _trim(vector: Vector) -> Vector:
    end = len(vector)
    while end and not vector[end - 1]:
        end -= 1
    return vector[:end]


def _rows(a: dict[Any, Any], b: dict[Any, Any], plain: Callable[[Any], Any], key: str) -> list[Any]:
    """``[{key, was, now}]`` for each key of `a` or `b` whose values differ (None: not there)."""
    rows = []
    for each in sorted(set(a) | set(b)):
        was = None if each not in a else plain(a[each])
        now = None if each not in b else plain(b[each])
        if was != now:
            rows.append({key: each, "was": was, "now": now})
    return rows


def _coin_rows(a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    """The coin piles added, removed or changed (value, count per player, position), in the
    order of their position in `b` (removed piles after)."""

    def fields(coin: Any) -> dict[str, int] | None:
        if coin is None:
            return None
        return {"value": coin.value, "per_player": coin.per_player, "position": coin.position}

    old = {c.id: c for c in a.coins}
    new = {c.id: c for c in b.coins}
    order = [c.id for c in sorted(b.coins, key=lambda c: (c.position, c.id))]
    order += [c.id for c in sorted(a.coins, key=lambda c: (c.position, c.id)) if c.id not in new]
    rows = []
    for coin_id in order:
        was, now = fields(old.get(coin_id)), fields(new.get(coin_id))
        if was != now:
            name = (new.get(coin_id) or old[coin_id]).name
            rows.append({"id": coin_id, "name": dict(name), "was": was, "now": now})
    return rows


def _copies(cards: list[Card]) -> int:
    return sum(card.copies for card in cards)


def _card(card: Card, ruleset: Ruleset) -> dict[str, Any]:
    """A card as JSON: its kind, copies, name and effect (cubes as vectors by rank; a
    merchant card's steps, and its short form's fields)."""
    if isinstance(card, PointCard):
        return {
            "id": card.id,
            "kind": "point",
            "copies": card.copies,
            "cost": list(card.cost),
            "points": card.points,
            "name": {},
        }
    fields = short_fields(card.effect, len(ruleset.codes))
    return {
        "kind": card.kind,
        **card.to_json(),
        **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()},
    }


def _renamed(a: Ruleset, b: Ruleset) -> dict[str, Any] | None:
    """The resources and coins a re-theme renames (``[{rank|id, was, now}]``), or None when
    nothing of the theme (names, codes, colours, terms) changes."""
    resources = [
        {"rank": rank, "was": dict(ra.name), "now": dict(rb.name)}
        for rank, (ra, rb) in enumerate(zip(a.resources, b.resources, strict=False), start=1)
        if dict(ra.name) != dict(rb.name)
    ]
    coins_a = {c.id: c for c in a.coins}
    coins = [
        {"id": c.id, "was": dict(coins_a[c.id].name), "now": dict(c.name)}
        for c in b.coins
        if c.id in coins_a and dict(coins_a[c.id].name) != dict(c.name)
    ]
    themed = any(r["what"] != "name" for r in _renames(a, b))
    return {"resources": resources, "coins": coins} if themed else None


def format_text(result: dict[str, Any]) -> str:
    """The diff for people: one line per difference, grouped."""
    lines = [f"--- {result['a']}", f"+++ {result['b']}"]
    if result["rules"]:
        lines.append("rules:")
        lines += [f"  {r['field']}: {r['a']} -> {r['b']}" for r in result["rules"]]
    cards = result["cards"]
    if any(cards.values()):
        lines.append("cards:")
        lines += [f"  + {c['deck']}: {_card_text(c)}" for c in cards["added"]]
        lines += [f"  - {c['deck']}: {_card_text(c)}" for c in cards["removed"]]
        for c in cards["changed"]:
            renamed = [f"id {c['was']} -> {c['id']}"] if c["was"] != c["id"] else []
            details = ", ".join(
                renamed
                + [
                    f"{k} {v[0]} -> {v[1]}"
                    for k, v in c.items()
                    if isinstance(v, list) and k in ("copies", "points")
                ]
            )
            lines.append(f"  ~ {c['deck']}: {_card_text(c)} ({details})")
    if result["renames"]:
        lines.append("names (re-theme):")
        for r in result["renames"]:
            lines.append(f"  {r['what']}: {_short(r['a'])} -> {_short(r['b'])}")
    if len(lines) == 2:
        lines.append("no differences")
    return "\n".join(lines)


def _card_text(card: dict[str, Any]) -> str:
    """A card of the diff for people: its id, and a merchant card's steps in the notation
    where the id does not say them (a composed card, an id of the card's own)."""
    text = card.get("text")
    if text and (card.get("kind") == COMPOSED or card.get("derived_id") != card["id"]):
        return f"{card['id']} = {text}"
    return str(card["id"])


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return " / ".join(f"{k}: {v}" for k, v in value.items()) or "-"
    return str(value)
