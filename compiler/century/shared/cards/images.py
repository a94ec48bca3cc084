"""The decks as card images: each distinct card of a deck once, with a file name unique in
its deck, as the image targets (card images, the Tabletop Simulator kit) draw them with
``faces.typ``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from century.model.ruleset import Ruleset
from century.model.text import shown
from century.prose import prose_texts
from century.shared.cards.faces import back_face, coins, decks, look_data, resources
from century.shared.names import unique_stems

CARD_MM = (63.0, 88.0)
"""A card image's size without bleed, in mm, for a game whose look gives no other
(`century.shared.cards.faces.card_size`)."""


@dataclass(frozen=True)
class CardImage:
    """One distinct card of a deck: its file name (without extension), face and copies."""

    name: str
    face: dict[str, Any]
    copies: int


@dataclass(frozen=True)
class DeckImages:
    """One deck in one language: its kind, what it is called, its cards and back."""

    kind: str
    title: str
    cards: tuple[CardImage, ...]
    back: dict[str, Any]

    @property
    def count(self) -> int:
        """How many cards the deck has, copies included."""
        return sum(card.copies for card in self.cards)


def card_label(face: dict[str, Any]) -> str:
    """What names a card to players: its id, or its kind for a card without one."""
    return face["id"] or face["kind"]


def distinct(faces: tuple[dict[str, Any], ...]) -> list[tuple[dict[str, Any], int]]:
    """Each different face of a deck once, in deck order, with how often it occurs."""
    counts: dict[str, int] = {}
    first: dict[str, dict[str, Any]] = {}
    for face in faces:
        key = json.dumps(face, sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, face)
    return [(first[key], count) for key, count in counts.items()]


def deck_images(
    ruleset: Ruleset, lang: str, text: dict[str, str] | None = None
) -> list[DeckImages]:
    """The decks of `ruleset` in `lang`, as the print kit has them (starting cards for the
    most players), each distinct card once with a file name unique in its deck."""
    text = text if text is not None else prose_texts(ruleset, lang)
    found = []
    for deck in decks(ruleset, text, lang):
        cards = distinct(deck.faces)
        names = unique_stems(card_label(face) for face, _ in cards)
        found.append(
            DeckImages(
                kind=deck.kind,
                title=deck.label,
                cards=tuple(
                    CardImage(name, face, copies)
                    for name, (face, copies) in zip(names, cards, strict=True)
                ),
                back=back_face(deck),
            )
        )
    return found


def face_context(ruleset: Ruleset, lang: str) -> dict[str, Any]:
    """What every face template needs besides the faces: game name, ladder and coins."""
    return {
        "game": shown(ruleset.name, lang, ruleset.id),
        "lang": lang,
        "resources": resources(ruleset),
        "coins": coins(ruleset, ruleset.players_max),
        **look_data(ruleset),
    }


def pixels(mm: float, dpi: float) -> int:
    """How many pixels `mm` millimetres take at `dpi` (as Typst rounds a page)."""
    return round(mm / 25.4 * dpi)
