"""The look of a game: card size, deck colours and pictures, card art, fonts and icons.

A look is data like the rules (``look:`` in a game or variant file, inherited and changed key
by key by variants); a game without one is drawn as every game was before: poker-size
cards, the print layout's deck colours, cubes for the resources and the bundled font. The
files were checked by `century.checks.look`; here they are `century.base.assets.Asset` records
(path, format, digest, size), which the shared Typst library copies into Typst's sandbox.
"""

from __future__ import annotations

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


def build_look(data: Mapping[str, Any] | None) -> Look | None:
    """The look of resolved data (`look` with absolute paths), or None when it has none.

    Raises `century.base.diagnostics.DiagnosticError` when a file changed since it was checked.
    """
    if not data:
        return None

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
    )
