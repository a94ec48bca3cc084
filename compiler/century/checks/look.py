"""Checks of a game's look, as a printer would make them before printing.

Errors (the files, `files`): a file that is missing or unreadable, of a format the look does
not use, past the caps or reaching outside itself (see `century.base.assets`); a picture for a card
id, or an icon for a resource id, that the game does not have. Warnings: a picture that would
print under `MIN_DPI` at its size on the card (C319), text colours under 4.5 : 1 against their
background (C320), a font that lacks characters the game's texts use (C321), a back picture
that leaves part of the card or its bleed empty (C322).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from century.base.assets import Asset, probe
from century.base.colours import contrast, ink_on
from century.base.diagnostics import Diagnostic, DiagnosticError
from century.base.limits import MAX_LOOK_FILES
from century.checks.context import Context
from century.frontend.loader import Node, Path_
from century.frontend.sources import display_name
from century.model.cards import derived_id
from century.model.look import (
    BACK_BLEED_MM,
    ICON_MM,
    LOOK_DECKS,
    MIN_CONTRAST,
    MIN_DPI,
    TEXT_SYMBOLS,
    art_area,
    card_size,
)


def _files(ctx: Context) -> list[tuple[Path_, str, str]]:
    """(path in the tree, file, ``picture`` or ``font``) for every file the look names."""
    look = ctx.data.get("look") or {}
    found: list[tuple[Path_, str, str]] = []

    def picture(path: Path_, value: Any) -> None:
        if isinstance(value, dict):
            found.append(((*path, "file"), value["file"], "picture"))
        else:
            found.append((path, value, "picture"))

    for deck, given in (look.get("decks") or {}).items():
        for key in ("back", "art"):
            if key in given:
                picture(("look", "decks", deck, key), given[key])
    for card, value in (look.get("art") or {}).items():
        picture(("look", "art", card), value)
    for role, value in (look.get("fonts") or {}).items():
        found.append((("look", "fonts", role), value, "font"))
    for resource, value in (look.get("icons") or {}).items():
        found.append((("look", "icons", resource), value, "picture"))
    return found


def _probed(ctx: Context) -> dict[Path_, Asset]:
    """Each usable file of the look by its place in the tree (read once per game)."""
    if "look" not in ctx.memo:
        ctx.memo["look"] = {}
        ctx.memo["look_problems"] = []
        for path, file, want in _files(ctx)[:MAX_LOOK_FILES]:
            mark = ctx.tree.locate(path)
            try:
                ctx.memo["look"][path] = probe(Path(file), display_name(Path(file)), mark, want)
            except DiagnosticError as err:
                ctx.memo["look_problems"] += err.diagnostics
    found: dict[Path_, Asset] = ctx.memo["look"]
    return found


def files(ctx: Context) -> Iterator[Diagnostic]:
    """Every file the look names can be used; card art and icons name what the game has."""
    if "look" not in ctx.data:
        return
    named = _files(ctx)
    if len(named) > MAX_LOOK_FILES:
        yield ctx.diag(
            ("look",),
            f"the look names {len(named)} files, over the limit of {MAX_LOOK_FILES}",
            "give a deck one picture instead of one per card",
        )
    _probed(ctx)
    yield from ctx.memo["look_problems"]
    look = ctx.data["look"]
    ids = {derived_id(card) for _, _, card in ctx.cards()}
    for card in look.get("art") or {}:
        if card not in ids:
            yield Diagnostic.at(
                _key(ctx.tree, ("look", "art", card)),
                "C205",
                f"the game has no card {card!r} to give a picture",
                path=f"look.art.{card}",
                hint="name a card by its id (century show GAME lists them)",
            )
    resources = {r["id"] for r in ctx.data["resources"]}
    for resource in look.get("icons") or {}:
        if resource not in resources:
            yield Diagnostic.at(
                _key(ctx.tree, ("look", "icons", resource)),
                "C205",
                f"the game has no resource {resource!r} to give an icon",
                path=f"look.icons.{resource}",
                hint=f"known: {', '.join(sorted(resources))}",
            )


def _key(tree: Node, path: Path_) -> Any:
    return tree.locate(path, key=True)


def _dpi(asset: Asset, area: tuple[float, float], fit: str) -> float:
    """The resolution a raster picture prints at when it fills `area` (mm) with `fit`."""
    per_px = [mm / px for mm, px in zip(area, (asset.width, asset.height), strict=True)]
    mm_per_px = max(per_px) if fit == "cover" else min(per_px)
    return 25.4 / mm_per_px


def resolution(ctx: Context) -> Iterator[Diagnostic]:
    """Raster pictures print at `MIN_DPI` or more at their size on the card."""
    look = ctx.data.get("look")
    if not look:
        return
    size = card_size(look.get("card_size", "poker"))
    for path, asset in _probed(ctx).items():
        if not asset.raster:
            continue
        fit = _fit(look, path)
        if path[1] == "icons":
            area: tuple[float, float] = (ICON_MM, ICON_MM)
            fit = "contain"
        elif path[-1] == "back" or path[-2:] == ("back", "file"):
            area = (size[0] + 2 * BACK_BLEED_MM, size[1] + 2 * BACK_BLEED_MM)
        else:
            area = art_area(size)
        dpi = _dpi(asset, area, fit)
        if dpi < MIN_DPI - 0.5:
            need = [round(mm / 25.4 * MIN_DPI) for mm in area]
            yield ctx.diag(
                path,
                f"{asset.name} ({asset.width} × {asset.height} pixels) prints at {dpi:.0f} dpi "
                f"on a {area[0]:g} × {area[1]:g} mm area, under {MIN_DPI} dpi",
                f"use a picture of at least {need[0]} × {need[1]} pixels, or an SVG",
                severity="warning",
            )


def _fit(look: dict[str, Any], path: Path_) -> str:
    node: Any = look
    for part in path[1:]:
        node = node[part]
        if isinstance(node, dict) and "fit" in node:
            return str(node["fit"])
    return "cover"


def colours(ctx: Context) -> Iterator[Diagnostic]:
    """A deck's text colour reads on its background at `MIN_CONTRAST` or more."""
    look = ctx.data.get("look") or {}
    for deck in LOOK_DECKS:
        given = (look.get("decks") or {}).get(deck) or {}
        background = given.get("background", "#FFFFFF")
        text = given.get("text") or ink_on(background)
        ratio = contrast(text, background)
        if ratio < MIN_CONTRAST:
            where = "text" if "text" in given else "background"
            yield ctx.diag(
                ("look", "decks", deck, where),
                f"the {deck} cards' text ({text}) has a contrast of {ratio:.2f} : 1 with their "
                f"background ({background}), under {MIN_CONTRAST} : 1",
                "darken the text or lighten the background (or leave `text` out: then black "
                "or white is chosen)",
                severity="warning",
            )


PRINTED_SIGNS = ".,:;!?()%&–—„“”‘’«»…·×→⇓↓≤"
"""Signs the texts print (the prose's template syntax, such as ``{{ }}``, is never printed)."""


def _texts(ctx: Context) -> set[str]:
    """The characters the game's printed texts use (letters, digits and signs)."""
    data = ctx.data
    found: set[str] = set(TEXT_SYMBOLS)

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.update(c for c in value if c.isalnum() or c in PRINTED_SIGNS)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(data["name"])
    walk(data["terms"])
    walk([r["name"] for r in data["resources"]])
    walk([card.get("name", {}) for _, _, card in ctx.cards()])
    walk([card.get("text", {}) for _, _, card in ctx.cards()])
    walk([doc.get("text", {}) for doc in data["prose"].values()])
    return found


def _letters_first(char: str) -> tuple[bool, bool, str]:
    """Letters beyond ASCII first (ä, ß), then other letters, then signs and digits."""
    return (not char.isalpha(), char.isascii(), char)


def glyphs(ctx: Context) -> Iterator[Diagnostic]:
    """Every font has the characters of the game's texts (else the bundled font stands in)."""
    chars = None
    for path, asset in _probed(ctx).items():
        if asset.format not in ("ttf", "otf"):
            continue
        chars = chars if chars is not None else _texts(ctx)
        missing = sorted((c for c in chars if ord(c) not in asset.chars), key=_letters_first)
        if missing:
            shown = " ".join(missing[:12]) + (" …" if len(missing) > 12 else "")
            yield ctx.diag(
                path,
                f"{asset.name} ({asset.family}) lacks {len(missing)} character"
                f"{'s' if len(missing) != 1 else ''} the game's texts use: {shown}",
                "choose a font that covers them; until then the bundled DejaVu Sans prints "
                "them, in another style",
                severity="warning",
            )


def bleed(ctx: Context) -> Iterator[Diagnostic]:
    """A back picture covers the card and its bleed (a contained picture of another shape
    leaves bands of the tint, which a miscut shows)."""
    look = ctx.data.get("look")
    if not look:
        return
    width, height = card_size(look.get("card_size", "poker"))
    area = (width + 2 * BACK_BLEED_MM) / (height + 2 * BACK_BLEED_MM)
    for path, asset in _probed(ctx).items():
        back = path[-1] == "back" or path[-2:] == ("back", "file")
        if not back or _fit(look, path) != "contain" or not asset.width or not asset.height:
            continue
        shape = asset.width / asset.height
        if abs(shape / area - 1) > 0.01:
            yield ctx.diag(
                path,
                f"{asset.name} is {asset.width} × {asset.height} and fits the back with "
                f"`contain`: it leaves part of the card and its {BACK_BLEED_MM:g} mm bleed empty",
                f"use `fit: cover`, or a picture of the shape {width + 2 * BACK_BLEED_MM:g} × "
                f"{height + 2 * BACK_BLEED_MM:g} mm",
                severity="warning",
            )
