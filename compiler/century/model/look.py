"""The look of a game: card size, deck colours and pictures, card art, fonts and icons, the
layout of a card's face and the cards' own texts.

A look is data like the rules (``look:`` in a game or variant file, inherited and changed key
by key by variants); a game without one is drawn as every game was before: poker-size
cards, the print layout's deck colours, cubes for the resources and the bundled font. The
files were checked by `century.checks.look`; here they are `century.base.assets.Asset` records
(path, format, digest, size), which the shared Typst library copies into Typst's sandbox.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from century.base.assets import Asset, probe
from century.base.diagnostics import WHOLE, Mark

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
}
"""The named card sizes, width × height in mm."""
DEFAULT_SIZE = "poker"
FITS = ("cover", "contain")
LOOK_DECKS = ("merchant", "point", "starting", "reference")
FONT_ROLES = ("title", "text")
"""Text roles a font may be given for: card titles and headings, and everything else."""

FRAME_MM, TITLE_MM, FOOT_MM = 2.6, 8.0, 4.0
"""A card front's frame, title band and small print, in mm (as ``faces.typ`` draws them):
the art area is what they leave of the card."""
ICON_MM = 13.0
"""The largest an icon is drawn (a gain of one on a card)."""
BACK_BLEED_MM = 3.0
"""The bleed a back picture should cover (what print services usually ask for)."""
MIN_DPI = 300
"""Raster pictures print sharp at this resolution or more."""
MIN_CONTRAST = 4.5
"""WCAG AA for normal text."""
TEXT_SYMBOLS = "×≤+/?0123456789"
"""Signs the card drawings set in the text font besides the game's texts."""


REGIONS = ("title", "art", "effect", "points", "index", "text", "footer")
"""The named regions of a card's face: the title band, the art area, the effect (a point
card's cost), a point card's points, the index corner, the card's text and the small print."""
BACKDROPS = ("art",)
"""Regions drawn behind the others, which any region may overlap."""
ALIGNS = ("left", "center", "right")
VALIGNS = ("top", "middle", "bottom")
SAFE_MM = 3.0
"""The safe area lies this far inside the trim by default: a region past it may be cut."""
LINE_EM = 1.414
"""The distance of two lines of a card's text, in ems (``faces.typ`` sets its text so)."""


@dataclass(frozen=True)
class Region:
    """A region of a card's face in mm from the trim's top left corner, with the text role
    (`FONT_ROLES`), size and smallest size (pt) and alignment of what it holds."""

    x: float
    y: float
    width: float
    height: float
    font: str = "text"
    size: float = 7.0
    min_size: float = 5.0
    align: str = "center"
    valign: str = "middle"

    def box(self) -> tuple[float, float, float, float]:
        """Left, top, right and bottom edges in mm."""
        return self.x, self.y, self.x + self.width, self.y + self.height


def default_regions(size: tuple[float, float], deck: str = "merchant") -> dict[str, Region]:
    """Today's face of a card of `size` as regions: the layout a game that declares none
    keeps, where a card with a text of its own gives the lower part of its art area to it (a
    point card's points above its cost; a reference card's aid, its effect, in the whole art
    area)."""
    width, height = size
    inner = width - 2 * FRAME_MM
    art_w, art_h = art_area(size)
    top = FRAME_MM + TITLE_MM
    text_h = min(22.0, art_h / 3)
    body_top = top + (24.0 if deck == "point" else 2.0)
    effect = Region(FRAME_MM + 10, body_top, inner - 20, top + art_h - text_h - body_top - 2)
    if deck == "reference":
        effect = Region(FRAME_MM, top, art_w, art_h)
    return {
        "title": Region(FRAME_MM, FRAME_MM, inner, TITLE_MM, "title", 9.5, 4.0),
        "art": Region(FRAME_MM, top, art_w, art_h),
        "effect": effect,
        "points": Region(FRAME_MM + 10, top + 2, inner - 20, 20, "title", 24.0, 8.0),
        "index": Region(
            FRAME_MM + 1.4, top + 1.4, 8.0, art_h - text_h - 3, "title", 7.5, valign="top"
        ),
        "text": Region(FRAME_MM + 3, top + art_h - text_h, inner - 6, text_h - 1, valign="top"),
        "footer": Region(FRAME_MM, height - FRAME_MM - FOOT_MM, inner, 2.8, size=5.0, min_size=3.0),
    }


def used(deck: str) -> tuple[str, ...]:
    """The regions a deck's faces draw (only point cards have points; a reference card has
    no index corner and no text of its own: its aid is its effect)."""
    if deck == "reference":
        return tuple(r for r in REGIONS if r not in ("points", "index", "text"))
    return tuple(r for r in REGIONS if r != "points" or deck == "point")


def region(data: Mapping[str, Any], base: Region) -> Region:
    """`base` with the keys `data` gives (a region of the look's data)."""
    keys = ("x", "y", "width", "height", "font", "size", "min_size", "align", "valign")
    return dataclasses.replace(base, **{k: data[k] for k in keys if k in data})


def deck_regions(
    size: tuple[float, float],
    layout: Mapping[str, Mapping[str, Any]],
    deck_layout: Mapping[str, Mapping[str, Any]],
    deck: str = "merchant",
) -> dict[str, Region]:
    """The regions of one deck: each region's default, changed by the look's `layout` and
    then by the deck's own, key by key. A region that ``extends`` another starts from that
    region's values (as resolved here: it may extend a third, to any depth) instead of its
    own default. A chain that comes back to a region (an error, `extends_cycle`) stops there,
    at that region's default."""
    defaults = default_regions(size, deck)

    def resolved(name: str, seen: tuple[str, ...]) -> Region:
        given = {**layout.get(name, {}), **deck_layout.get(name, {})}
        start = given.get("extends")
        if start in defaults and start not in seen:
            return region(given, resolved(start, (*seen, start)))
        return region(given, defaults[name])

    return {name: resolved(name, (name,)) for name in REGIONS}


def extends_chain(
    layout: Mapping[str, Mapping[str, Any]],
    deck_layout: Mapping[str, Mapping[str, Any]],
    name: str,
) -> list[str]:
    """The regions `name` extends, nearest first, as the two layouts give them; when the
    chain comes back to a region, it ends with that region again (a cycle)."""
    chain = [name]
    while True:
        start = {**layout.get(name, {}), **deck_layout.get(name, {})}.get("extends")
        if start not in REGIONS:
            return chain[1:]
        chain.append(start)
        if chain.count(start) > 1:
            return chain[1:]
        name = start


CARD_MARK = re.compile(r"\[([^\[\]\s]{1,40})\]")
"""A mark in a card's text: ``[Y]`` (a cube by its code, ``[YYR]`` a group) or a symbol."""
SYMBOL_MARKS = ("up", "any", "arrow", "pay")
"""The symbols a card's text may set inline, by name."""


def card_marks(text: str, codes: str) -> list[tuple[str, str]]:
    """Each mark of a card's `text` as (kind, argument): ``cubes`` and the codes, a symbol
    of `SYMBOL_MARKS` and ``""``, or ``unknown`` and what the brackets hold."""
    found = []
    for match in CARD_MARK.finditer(text):
        body = match.group(1)
        if body in SYMBOL_MARKS:
            found.append((body, ""))
        elif all(c in codes for c in body):
            found.append(("cubes", body))
        else:
            found.append(("unknown", body))
    return found


def art_area(size: tuple[float, float]) -> tuple[float, float]:
    """The art area of a card of `size` (mm): inside the frame, below the title band and
    above the small print."""
    width, height = size
    return width - 2 * FRAME_MM, height - 2 * FRAME_MM - TITLE_MM - FOOT_MM


@dataclass(frozen=True)
class Picture:
    """A picture and how it fills its area (``cover`` crops, ``contain`` leaves room)."""

    asset: Asset
    fit: str = "cover"


@dataclass(frozen=True)
class DeckLook:
    """One deck's colours (#RRGGBB; None: the default) and pictures."""

    frame: str | None = None
    background: str | None = None
    text: str | None = None
    back: Picture | None = None
    art: Picture | None = None


@dataclass(frozen=True)
class Look:
    """Everything a game's printed pieces take from its data besides the rules."""

    card_size: tuple[float, float] = CARD_SIZES[DEFAULT_SIZE]
    decks: Mapping[str, DeckLook] = field(default_factory=dict)
    art: Mapping[str, Picture] = field(default_factory=dict)
    """Pictures by card id."""
    fonts: Mapping[str, Asset] = field(default_factory=dict)
    """Fonts by role (`FONT_ROLES`)."""
    icons: Mapping[str, Asset] = field(default_factory=dict)
    """Icons by resource id."""
    layouts: Mapping[str, Mapping[str, Region]] = field(default_factory=dict)
    """The regions of each deck's faces (`LOOK_DECKS`), for a look that declares a layout;
    empty: today's face (`default_regions`)."""
    texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The cards' own texts (rules or flavour) by card id, per language."""

    def assets(self) -> list[Asset]:
        """Every file of the look, each once, in a stable order."""
        found: dict[str, Asset] = {}
        pictures = [p for d in self.decks.values() for p in (d.back, d.art) if p is not None]
        pictures += list(self.art.values())
        for asset in [p.asset for p in pictures] + [*self.fonts.values(), *self.icons.values()]:
            found.setdefault(asset.digest + asset.format, asset)
        return [found[k] for k in sorted(found)]


def card_size(value: Any) -> tuple[float, float]:
    """A `card_size` value (a name, or [width, height] in mm) in mm."""
    if isinstance(value, str):
        return CARD_SIZES[value]
    width, height = value
    return float(width), float(height)


def _file(path: str, want: str) -> Asset:
    """The file checked before (a memo hit), read again only if it changed since."""
    name = Path(path).name
    return probe(Path(path), name, Mark(name, WHOLE, WHOLE), want)


def common_layout(data: Mapping[str, Any], deck: str) -> Mapping[str, Mapping[str, Any]]:
    """The part of the look's `layout` (its data `data`) that holds for `deck`: all of it for
    the cards of the game, none for the reference cards, whose aid is laid out by their own
    deck's ``layout`` alone."""
    common: Mapping[str, Mapping[str, Any]] = data.get("layout") or {}
    return {} if deck == "reference" else common


def layouts(data: Mapping[str, Any]) -> dict[str, dict[str, Region]]:
    """Every deck's regions when the look (its data `data`) declares a layout, else none;
    the reference cards' only when their own deck declares one (else they keep their face)."""
    decks = data.get("decks") or {}
    if not data.get("layout") and not any("layout" in (d or {}) for d in decks.values()):
        return {}
    size = card_size(data.get("card_size", DEFAULT_SIZE))
    found = {}
    for deck in LOOK_DECKS:
        own = (decks.get(deck) or {}).get("layout") or {}
        if deck != "reference" or own:
            found[deck] = deck_regions(size, common_layout(data, deck), own, deck)
    return found


def build_look(
    data: Mapping[str, Any] | None, texts: Mapping[str, Mapping[str, str]] | None = None
) -> Look | None:
    """The look of resolved data (`look` with absolute paths) and the cards' own `texts` by
    card id, or None when the game has neither.

    Raises `century.base.diagnostics.DiagnosticError` when a file changed since it was checked.
    """
    if not data and not texts:
        return None
    data = data or {}

    def picture(value: Any) -> Picture:
        if isinstance(value, str):
            return Picture(_file(value, "picture"))
        return Picture(_file(value["file"], "picture"), value.get("fit", "cover"))

    decks = {}
    for deck, given in sorted((data.get("decks") or {}).items()):
        decks[deck] = DeckLook(
            frame=given.get("frame"),
            background=given.get("background"),
            text=given.get("text"),
            back=picture(given["back"]) if "back" in given else None,
            art=picture(given["art"]) if "art" in given else None,
        )
    return Look(
        card_size=card_size(data.get("card_size", DEFAULT_SIZE)),
        decks=decks,
        art={card: picture(v) for card, v in sorted((data.get("art") or {}).items())},
        fonts={role: _file(v, "font") for role, v in sorted((data.get("fonts") or {}).items())},
        icons={r: _file(v, "picture") for r, v in sorted((data.get("icons") or {}).items())},
        layouts=layouts(data),
        texts=dict(sorted((texts or {}).items())),
    )
