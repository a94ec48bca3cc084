"""The card images of a game for the table, drawn as `century images` draws them (the print
kit's faces, so a variant's own look and its composed cards' drawings come along), at a
screen's resolution, once per game and language, kept in memory."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from century.model.text import shown

if TYPE_CHECKING:
    from century.engine import Engine
    from century.model.ruleset import Ruleset

DPI = 110
"""The images' resolution: 272 × 381 pixels, sharp at the size the table shows them."""
MAX_GAMES = 16
"""Games whose images one server keeps."""


@dataclass(frozen=True)
class GameCards:
    """One game's pictures and texts: PNG bytes by file name, and per card id what the page
    shows (its image's name, its effect in words)."""

    images: dict[str, bytes]
    merchant: dict[str, dict[str, Any]]
    point: dict[str, dict[str, Any]]
    backs: dict[str, str]


_CACHE: dict[tuple[str, str], GameCards] = {}
_LOCK = threading.Lock()


def game_cards(ruleset: Ruleset, engine: Engine, lang: str) -> GameCards:
    """The pictures and texts of `ruleset`'s cards in `lang` (drawn on first use)."""
    key = (ruleset.source_hash, lang)
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            found = _draw(ruleset, engine, lang)
            if len(_CACHE) >= MAX_GAMES:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[key] = found
    return found


def _draw(ruleset: Ruleset, engine: Engine, lang: str) -> GameCards:
    from century.serve.names import effect_words, title
    from century.targets.images import ImageOptions, plan, render

    images: dict[str, bytes] = {}
    by_id: dict[tuple[str, str], str] = {}
    backs: dict[str, str] = {}
    options = ImageOptions(languages=(lang,), dpi=DPI)
    try:
        planned = plan(ruleset, options)
        files = render(ruleset, options, planned)
    except Exception as err:  # a face that cannot be drawn: the table shows the cards as text
        print(f"century serve: {ruleset.id}: no card images ({str(err)[:200]})", file=sys.stderr)
        planned, files = [], {}
    decks = planned[0].decks if planned else []
    paths = iter(planned[0].paths if planned else [])
    for deck in decks:
        for card in deck.cards:
            path = next(paths)
            name = f"{len(images)}.png"
            images[name] = files[path]
            by_id.setdefault(
                ("point" if deck.kind == "point" else "merchant", card.face["id"]), name
            )
        path = next(paths)
        name = f"{len(images)}.png"
        images[name] = files[path]
        backs[deck.kind] = name
    merchant = {
        card.id: {
            "image": by_id.get(("merchant", card.id)),
            "name": title(ruleset, card.id, lang),
            "words": effect_words(ruleset, engine, card.effect, lang),
        }
        for card in engine.CARDS
    }
    point = {}
    for point_card in engine.POINT_CARDS:
        cost = "".join(code * n for code, n in zip(engine.CODES, point_card.cost, strict=True))
        point[point_card.id] = {
            "image": by_id.get(("point", point_card.id)),
            "name": shown(ruleset.terms.get("point_card", {}), lang, "point card"),
            "words": f"pay {' '.join(cost.upper())} for {point_card.points} points",
        }
    return GameCards(images, merchant, point, backs)


def legend(ruleset: Ruleset, lang: str) -> dict[str, Any]:
    """What the page needs to draw cubes and coins: per resource code its name and colours,
    per coin its name, value and colours."""
    from century.shared.typst.colours import ink_on

    return {
        "resources": [
            {
                "code": r.code.lower(),
                "name": shown(r.name, lang, r.id),
                "colour": r.colour,
                "ink": ink_on(r.colour),
            }
            for r in ruleset.resources
        ],
        "coins": [
            {
                "id": c.id,
                "name": shown(c.name, lang, c.id),
                "value": c.value,
                "colour": c.colour,
                "ink": ink_on(c.colour),
            }
            for c in ruleset.coins
        ],
    }
