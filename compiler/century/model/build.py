"""The model stage: resolved, checked data -> one frozen `Ruleset`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from century.model.cards import derived_id
from century.model.ruleset import Coin, MerchantCard, PointCard, Resource, Ruleset, frozen_map


def build_ruleset(
    data: Mapping[str, Any],
    sources: Sequence[str],
    source_hash: str,
    extends: Sequence[str] = (),
) -> Ruleset:
    """Build the model from resolved data (decks and prose already loaded in place).

    `extends` is the chain of bases, the root game first.
    """
    codes = [r["code"].upper() for r in data["resources"]]
    index = {c: i for i, c in enumerate(codes)}

    def vector(cubes: str) -> tuple[int, ...]:
        counts = [0] * len(codes)
        for letter in cubes.upper():
            counts[index[letter]] += 1
        return tuple(counts)

    def texts(m: Mapping[str, str] | None) -> Mapping[str, str]:
        return frozen_map(m or {})

    def merchant(card: Mapping[str, Any]) -> MerchantCard:
        kind = card["kind"]
        return MerchantCard(
            id=derived_id(card),
            kind=kind,
            copies=card.get("copies", 1),
            get=vector(card.get("get", "")),
            pay=vector(card.get("pay", "")),
            steps=card.get("steps", 0),
            name=texts(card.get("name")),
        )

    decks = data["decks"]
    coins = data["coins"]
    return Ruleset(
        id=data["id"],
        name=texts(data["name"]),
        extends=tuple(extends),
        languages=tuple(data["languages"]),
        sources=tuple(sources),
        source_hash=source_hash,
        resources=tuple(
            Resource(r["id"], r["code"], r["colour"], texts(r["name"])) for r in data["resources"]
        ),
        players_min=data["players"]["min"],
        players_max=data["players"]["max"],
        caravan_limit=data["caravan_limit"],
        merchant_row=data["setup"]["merchant_row"],
        point_row=data["setup"]["point_row"],
        coins=tuple(
            Coin(c["id"], c["value"], c["per_player"], c["position"], c["colour"], texts(c["name"]))
            for c in coins["piles"]
        ),
        coin_runout=coins["runout"],
        seats=tuple(vector(s) for s in data["setup"]["seats"]),
        starting_cards=tuple(merchant(c) for c in decks["starting"]["cards"]),
        merchant_deck=tuple(merchant(c) for c in decks["merchant"]["cards"]),
        point_deck=tuple(
            PointCard(derived_id(p), vector(p["cost"]), p["points"], p.get("copies", 1))
            for p in decks["point"]["cards"]
        ),
        end_threshold=frozen_map({int(k): v for k, v in data["end"]["point_cards"].items()}),
        finish_round=data["end"]["finish_round"],
        resource_points=tuple(data["scoring"]["resource_points"]),
        tie_break=data["scoring"]["tie_break"],
        value_weights=tuple(data["balance"]["value_weights"]),
        variety_bonus=frozen_map({int(k): v for k, v in data["balance"]["variety_bonus"].items()}),
        terms=frozen_map({k: texts(v) for k, v in data["terms"].items()}),
        prose=frozen_map({lang: texts(doc["text"]) for lang, doc in data["prose"].items()}),
    )
