"""What each printed card shows, as JSON-ready data for ``faces.typ``.

A face is a dict with a ``kind`` (a merchant card's shape: a short form of `KINDS` or
``composed``; ``point`` or ``reference``), the deck colour, a title and the numbers to draw: a
merchant card's ``effect`` (its steps as JSON, `century.model.cards.steps_json`: the
template draws any composition of them with one walker), a point card's ``cost`` and
``points``. The rule sheet draws its card examples from the same faces, so cards and rules
always look alike.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from century.base.assets import Asset
from century.model.cards import KINDS, steps_json
from century.model.look import CARD_MARK, Picture, card_marks, default_regions
from century.model.ruleset import MerchantCard, PointCard, Ruleset
from century.model.steps import BUILT_IN, CUBES, OPTIONS, STEPS_OF, step_kind
from century.model.text import shown, term
from century.prose import MARK_CLOSE, MARK_OPEN, REFERENCE_KEYS, colon, punctuation
from century.shared.cards.layout import CARD_H, CARD_W
from century.shared.typst import asset_path
from century.shared.typst.colours import WHITE, ink_on, lighten

DECK_COLOURS: dict[str, str] = {
    "merchant": "#2F4858",
    "point": "#9A6B1E",
    "starting": "#5E7F5A",
    "reference": "#5E7F5A",
}
"""Frame and back colour per deck (a property of the print layout, not of a game). Decks of
one colour share their sheets: the reference cards fill the starting cards' last page."""
BACK_LIGHTEN = 0.5
"""Backs are the deck colour mixed with this much white (less ink than the full colour)."""


def frame_colour(ruleset: Ruleset | None, deck: str) -> str:
    """A deck's frame colour: the game's look's, else the print layout's (`DECK_COLOURS`).
    The reference cards take the starting cards' unless the look gives them their own."""
    look = ruleset.look if ruleset is not None else None
    if look is not None:
        for each in (deck, "starting") if deck == "reference" else (deck,):
            given = look.decks.get(each)
            if given is not None and given.frame:
                return given.frame
    return DECK_COLOURS[deck]


def deck_colour(deck: str, ruleset: Ruleset | None = None) -> dict[str, str]:
    """A deck's colour, its light tint (title bands) and its back tint, each with the ink
    (black or white) that reads on it."""
    colour = frame_colour(ruleset, deck)
    tint, back = lighten(colour, 0.82), lighten(colour, BACK_LIGHTEN)
    return {
        "colour": colour,
        "ink": ink_on(colour),
        "tint": tint,
        "tint_ink": ink_on(tint),
        "back": back,
        "back_ink": ink_on(back),
    }


def card_kinds(ruleset: Ruleset) -> list[str]:
    """The card kinds this game has, playable kinds first (in the model's order), then point."""
    present = {c.kind for c in (*ruleset.starting_cards, *ruleset.merchant_deck)}
    kinds = [k for k in KINDS if k in present]
    return kinds + (["point"] if ruleset.point_deck else [])


def merchant_face(ruleset: Ruleset, card: MerchantCard, lang: str, deck: str) -> dict[str, Any]:
    """The data a merchant card's front is drawn from: its kind, id, title, its effect (steps,
    cubes as counts per rank) and its deck's colours. A card without a name is titled by the
    term of its kind (``<kind>_card``), or ``merchant_card`` when the game has none."""
    title = shown(card.name, lang) or term(ruleset, kind_term(ruleset, card.kind), lang)
    return {
        "kind": card.kind,
        "id": card.id,
        "title": title,
        "effect": drawn_steps(steps_json(card.effect)),
        **deck_colour(deck, ruleset),
        **face_look(ruleset, deck, card.id, lang),
    }


def drawn_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps as JSON as ``faces.typ`` draws them: a built-in step as it is, a step added to the
    language as ``added`` with its record's drawing (``sign`` per unit of a count, or its
    ``cubes``, and ``pays``: the payment arrow after it)."""
    found: list[dict[str, Any]] = []
    for step in steps:
        name = next(key for key in step if key != "max")
        kind = step_kind(name)
        if kind.takes == STEPS_OF:
            found.append({**step, name: drawn_steps(step[name])})
        elif kind.takes == OPTIONS:
            found.append({name: [drawn_steps(option) for option in step[name]]})
        elif name in BUILT_IN:
            found.append(step)
        else:
            value = step[name]
            drawing = {"cubes": value} if kind.takes == CUBES else {"sign": kind.sign, "n": value}
            found.append({"added": {**drawing, "pays": kind.pays}})
    return found


def kind_term(ruleset: Ruleset, kind: str, plural: bool = False) -> str:
    """The term that names a merchant card of `kind`: ``<kind>_card`` (``_cards``) when the
    game defines it, else ``merchant_card`` (``merchant_cards``)."""
    end = "_cards" if plural else "_card"
    return f"{kind}{end}" if f"{kind}{end}" in ruleset.terms else f"merchant{end}"


def point_face(ruleset: Ruleset, card: PointCard, lang: str) -> dict[str, Any]:
    """The data a point card front is drawn from."""
    return {
        "kind": "point",
        "id": card.id,
        "title": term(ruleset, "point_card", lang),
        "cost": list(card.cost),
        "points": card.points,
        **deck_colour("point", ruleset),
        **face_look(ruleset, "point", card.id, lang),
    }


def reference_face(ruleset: Ruleset, text: Mapping[str, str], lang: str) -> dict[str, Any]:
    """The player aid: the four actions and the caravan limit in words, the end of the game
    per player count, and what scores."""
    counts = list(ruleset.player_counts)
    return {
        "kind": "reference",
        "id": "",
        "title": text["ref_title"],
        "text": {key: text[key] for key in REFERENCE_KEYS},
        "actions": actions(ruleset, text, lang),
        "players": counts,
        "thresholds": [ruleset.end_threshold.get(n) for n in counts],
        "resource_points": list(ruleset.resource_points),
        "coin_values": [c.value for c in sorted(ruleset.coins, key=lambda c: c.position)],
        **deck_colour("reference", ruleset),
        **face_look(ruleset, "reference", ""),
    }


ACTIONS = ("play", "acquire", "claim", "rest")
"""The four actions, in the order the reference card and the mats list them."""


def actions(ruleset: Ruleset, text: Mapping[str, str], lang: str) -> list[dict[str, str]]:
    """Each action's term, the colon after it (`century.prose.colon`) and its reference text."""
    return [
        {
            "name": term(ruleset, action, lang),
            "colon": colon(punctuation(ruleset, lang)),
            "text": text[f"ref_{action}"],
        }
        for action in ACTIONS
    ]


def mat_text(ruleset: Ruleset, lang: str, text: Mapping[str, str]) -> dict[str, Any]:
    """What ``kit.typ`` reads besides the pieces: the prose, the caravan limit and the points
    per cube, the caravan's term and the actions."""
    return {
        "text": text,
        "caravan_limit": ruleset.caravan_limit,
        "resource_points": list(ruleset.resource_points),
        "caravan_term": term(ruleset, "caravan", lang),
        "actions": actions(ruleset, text, lang),
    }


def picture(found: Picture) -> dict[str, str]:
    """A picture as a template draws it: its path in the Typst sandbox and its fit."""
    return {"path": asset_path(found.asset), "fit": found.fit}


def marked(text: str, codes: str) -> str:
    """A card's text with its marks (`century.model.look.card_marks`) as the markers the
    templates draw icons at (``rich`` in ``icons.typ``); an unknown mark stays as written."""

    def replace(match: re.Match[str]) -> str:
        [(kind, arg)] = card_marks(match.group(0), codes)
        if kind == "unknown":
            return match.group(0)
        return MARK_OPEN + (f"cubes:{arg}" if kind == "cubes" else kind) + MARK_CLOSE

    return CARD_MARK.sub(replace, text)


def regions(ruleset: Ruleset, deck: str, card_id: str) -> dict[str, dict[str, Any]] | None:
    """The regions a front of `deck` is laid out in, as JSON, when the look declares a
    layout or the card has a text of its own (today's face as regions); else None: the face
    is drawn as it always was. A reference card draws its aid in its effect region."""
    look = ruleset.look
    if look is None:
        return None
    found = look.layouts.get(deck)
    if found is None and card_id in look.texts:
        found = default_regions(look.card_size, deck)
    if found is None:
        return None
    return {name: dataclasses.asdict(r) for name, r in found.items()}


def face_look(ruleset: Ruleset, deck: str, card_id: str, lang: str = "") -> dict[str, Any]:
    """What a game's look adds to a front of `deck`: the face's background and text colours,
    the picture in its art area (the card's own, else its deck's), its regions and the
    card's own text in `lang`. Nothing without a look, so a game without one is drawn as
    before."""
    look = ruleset.look
    if look is None:
        return {}
    given = look.decks.get(deck)
    found: dict[str, Any] = {}
    layout = regions(ruleset, deck, card_id)
    if layout is not None:
        found["layout"] = layout
        text = shown(look.texts[card_id], lang) if card_id in look.texts else ""
        if text:
            found["text"] = marked(text, "".join(r.code for r in ruleset.resources))
    if given is not None and (given.background or given.text):
        background = given.background or WHITE
        found["background"] = background
        found["text_ink"] = given.text or ink_on(background)
    art = look.art.get(card_id) if card_id else None
    art = art or (given.art if given is not None else None)
    if art is not None:
        found["art"] = picture(art)
    return found


@dataclass(frozen=True)
class Deck:
    """One deck as printed: its kind, the title on its backs, every card front, and what
    the deck is called (in the kit's contents, the contact sheet, Tabletop Simulator); its
    colours and back picture when the game's look gives them."""

    kind: str
    back_title: str
    faces: tuple[dict[str, Any], ...]
    label: str
    colours: tuple[tuple[str, Any], ...] = ()


def back_face(deck: Deck) -> dict[str, Any]:
    """What every back of `deck` shows: its title, in its colours (``kind`` is ``back``),
    or the look's back picture."""
    colours = dict(deck.colours) or deck_colour(deck.kind)
    return {"kind": "back", "title": deck.back_title, **colours}


def _back_colours(ruleset: Ruleset, deck: str) -> tuple[tuple[str, Any], ...]:
    """A deck's back as the look gives it (empty without a look)."""
    look = ruleset.look
    if look is None:
        return ()
    found: dict[str, Any] = deck_colour(deck, ruleset)
    given = look.decks.get(deck)
    if given is not None and given.back is not None:
        found["art"] = picture(given.back)
    return tuple(sorted(found.items()))


def _expanded(faces: Iterable[tuple[dict[str, Any], int]]) -> tuple[dict[str, Any], ...]:
    return tuple(face for face, copies in faces for _ in range(copies))


def decks(
    ruleset: Ruleset, text: Mapping[str, str], lang: str, players: int | None = None
) -> list[Deck]:
    """The decks to print, copies expanded; empty decks are left out.

    Starting cards are printed ``copies × players`` times (the box amount without
    `players`); the reference cards, one per player, are a deck of their own with a back of
    their own.
    """
    seats = players if players is not None else ruleset.players_max
    merchant = _expanded(
        (merchant_face(ruleset, c, lang, "merchant"), c.copies) for c in ruleset.merchant_deck
    )
    point = _expanded((point_face(ruleset, c, lang), c.copies) for c in ruleset.point_deck)
    starting = _expanded(
        (merchant_face(ruleset, c, lang, "starting"), c.copies * seats)
        for c in ruleset.starting_cards
    )
    reference = (reference_face(ruleset, text, lang),) * seats
    merchant_title = term(ruleset, "merchant_cards", lang)
    point_title = term(ruleset, "point_cards", lang)
    starting_title = term(ruleset, "starting_cards", lang)
    found = [
        Deck("merchant", merchant_title, merchant, merchant_title),
        Deck("point", point_title, point, point_title),
        Deck("starting", starting_title, starting, starting_title),
        Deck("reference", text["ref_title"], reference, text["ref_cards"]),
    ]
    found = [dataclasses.replace(d, colours=_back_colours(ruleset, d.kind)) for d in found]
    return [deck for deck in found if deck.faces]


def resources(ruleset: Ruleset) -> list[dict[str, str]]:
    """The ladder as the cards draw it: code, colour and the ink for its letter, and the
    look's icon drawn instead of the cube. No names: the drawings are the same in every
    language (and Typst reuses them)."""
    icons = ruleset.look.icons if ruleset.look is not None else {}
    found = []
    for r in ruleset.resources:
        entry = {"code": r.code, "colour": r.colour, "ink": ink_on(r.colour)}
        if r.id in icons:
            entry["icon"] = asset_path(icons[r.id])
        found.append(entry)
    return found


def look_data(ruleset: Ruleset) -> dict[str, Any]:
    """What every template that draws cards reads of the look besides the faces (as
    ``data.look``: `card_size` and the font family per role), or nothing for a game without
    a look."""
    look = ruleset.look
    if look is None:
        return {}
    return {
        "look": {
            "card_size": list(look.card_size),
            "fonts": {role: font.family for role, font in look.fonts.items()},
        }
    }


def look_assets(ruleset: Ruleset) -> list[Asset]:
    """The files a template of this game may read (its look's), for Typst's sandbox."""
    return ruleset.look.assets() if ruleset.look is not None else []


def card_size(ruleset: Ruleset) -> tuple[float, float]:
    """The game's card size: a card's width and height in mm at full size (poker size
    without a look). Every target means this by `card_size`; a kit may print it smaller
    (`century.shared.cards.layout.Layout.printed`)."""
    return ruleset.look.card_size if ruleset.look is not None else (CARD_W, CARD_H)


def coins(ruleset: Ruleset, players: int) -> list[dict[str, Any]]:
    """Coin piles by position, with the ink for their value and the count for `players`."""
    return [
        {
            "id": c.id,
            "colour": c.colour,
            "ink": ink_on(c.colour),
            "value": c.value,
            "position": c.position,
            "count": c.count(players),
        }
        for c in sorted(ruleset.coins, key=lambda c: (c.position, c.id))
    ]
