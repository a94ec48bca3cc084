"""The model stage: resolved, checked data -> one frozen `Ruleset`.

The data's shape (``players.min``, ``decks.merchant.cards``, cube strings) is mapped here to
the model's JSON form, which `Ruleset.from_json` reads into the typed dataclasses; a merchant
card's effect goes from the data's steps to the model's step tuples once (`to_steps`), the card
made here as the model holds it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from century.model.cards import derived_id, effect_data, to_steps
from century.model.diff import changes
from century.model.look import build_look
from century.model.ruleset import MerchantCard, Ruleset, VariantOf, cube_vector, frozen_map


def build_ruleset(
    data: Mapping[str, Any],
    sources: Sequence[str],
    source_hash: str,
    extends: Sequence[str] = (),
    base: Ruleset | None = None,
) -> Ruleset:
    """Build the model from resolved data (decks and prose already loaded in place).

    `extends` is the chain of bases, the root game first; `base` is the model of the last of
    them (the game a variant names), whose differences the variant records (`variant_of`).
    """
    codes = "".join(r["code"] for r in data["resources"])

    def merchant(card: Mapping[str, Any]) -> MerchantCard:
        return MerchantCard(
            id=derived_id(card),
            copies=int(card.get("copies", 1)),
            effect=to_steps(effect_data(card), lambda cubes: cube_vector(codes, cubes)),
            name=frozen_map(card.get("name", {})),
        )

    def point(card: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "id": derived_id(card),
            "cost": cube_vector(codes, card["cost"]),
            "points": card["points"],
            "copies": card.get("copies", 1),
        }

    decks, coins, setup = data["decks"], data["coins"], data["setup"]
    ruleset = Ruleset.from_json(
        {
            "id": data["id"],
            "name": data["name"],
            "extends": extends,
            "languages": data["languages"],
            "sources": sources,
            "source_hash": source_hash,
            "resources": data["resources"],
            "players_min": data["players"]["min"],
            "players_max": data["players"]["max"],
            "caravan_limit": data["caravan_limit"],
            "merchant_row": setup["merchant_row"],
            "point_row": setup["point_row"],
            "coins": coins["piles"],
            "coin_runout": coins["runout"],
            "seats": [cube_vector(codes, cubes) for cubes in setup["seats"]],
            "starting_cards": [merchant(c) for c in decks["starting"]["cards"]],
            "merchant_deck": [merchant(c) for c in decks["merchant"]["cards"]],
            "point_deck": [point(c) for c in decks["point"]["cards"]],
            "end_threshold": data["end"]["point_cards"],
            "finish_round": data["end"]["finish_round"],
            "resource_points": data["scoring"]["resource_points"],
            "tie_break": data["scoring"]["tie_break"],
            "value_weights": data["balance"]["value_weights"],
            "variety_bonus": data["balance"]["variety_bonus"],
            "terms": data["terms"],
            "forms": {
                lang: {word: _forms(forms) for word, forms in words.items()}
                for lang, words in data.get("forms", {}).items()
            },
            "prose": {lang: doc["text"] for lang, doc in data["prose"].items()},
            "punctuation": {
                lang: doc["punctuation"]
                for lang, doc in data["prose"].items()
                if "punctuation" in doc
            },
        }
    )
    texts = {
        derived_id(card): dict(card["text"])
        for deck in ("starting", "merchant", "point")
        for card in decks[deck]["cards"]
        if card.get("text")
    }
    look = build_look(data.get("look"), texts)
    if look is not None:
        ruleset = dataclasses.replace(ruleset, look=look)
    if base is None:
        return ruleset
    lineage = VariantOf(base.id, base.name, changes(base, ruleset))
    return dataclasses.replace(ruleset, variant_of=lineage)


def _forms(forms: str | Mapping[str, str]) -> dict[str, str]:
    """A word's forms as the model keeps them (`Ruleset.forms`): one text for every form
    is kept under ``*``."""
    return {"*": forms} if isinstance(forms, str) else dict(forms)
