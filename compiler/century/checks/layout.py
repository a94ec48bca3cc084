"""Checks of a card layout and the cards' own texts, as a printer would make them.

Warnings: two regions of a deck's faces that overlap (C323; the art area lies behind the
others and may), a region that reaches into the margin the cut may take (C324: the safe area
lies `century.model.look.SAFE_MM` inside the trim unless the look says ``safe_margin``), a
card's text that does not fit its region even at the region's smallest size (C325, with the
size it would need). Errors: a mark in a card's text that names no resource code or symbol
(C326), a region whose ``extends`` chain comes back to it (C328). Only regions the look
declares are checked for overlap and the margin; the default regions are today's face.

A text is measured as ``faces.typ`` sets it: words broken into lines at the region's width
with the font's advance widths, a mark one em wide, lines `LINE_EM` apart.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from century.base.diagnostics import Diagnostic
from century.base.resources import package_dir
from century.checks.context import Context
from century.frontend.loader import Path_
from century.model.look import (
    BACKDROPS,
    CARD_MARK,
    DEFAULT_SIZE,
    LINE_EM,
    LOOK_DECKS,
    SAFE_MM,
    SYMBOL_MARKS,
    Region,
    card_marks,
    card_size,
    common_layout,
    deck_regions,
    default_regions,
    extends_chain,
    used,
)

BUNDLED_FONTS = {"title": "DejaVuSans-Bold.ttf", "text": "DejaVuSans.ttf"}
"""The bundled font of each text role."""
POINT_MM = 25.4 / 72


def _look(ctx: Context) -> dict[str, Any]:
    look: dict[str, Any] = ctx.data.get("look") or {}
    return look


def _declared(look: Mapping[str, Any], deck: str) -> dict[str, Path_]:
    """The regions `deck`'s faces take from the look's data, each with where it is written
    (the deck's own layout before the look's)."""
    found: dict[str, Path_] = {}
    for name in common_layout(look, deck) if deck in LOOK_DECKS else ():
        found[name] = ("look", "layout", name)
    for name in ((look.get("decks") or {}).get(deck) or {}).get("layout") or {}:
        found[name] = ("look", "decks", deck, "layout", name)
    return found


def _regions(look: Mapping[str, Any], deck: str) -> dict[str, Region]:
    size = card_size(look.get("card_size", DEFAULT_SIZE))
    own = ((look.get("decks") or {}).get(deck) or {}).get("layout") or {}
    return deck_regions(size, common_layout(look, deck), own, deck)


def extends_cycle(ctx: Context) -> Iterator[Diagnostic]:
    """No region's ``extends`` chain comes back to it: each cycle is named once, where the
    first of its regions the layout names says ``extends``."""
    look = _look(ctx)
    seen: set[frozenset[tuple[str, str]]] = set()
    for deck in LOOK_DECKS:
        declared = _declared(look, deck)
        own = ((look.get("decks") or {}).get(deck) or {}).get("layout") or {}
        for name in declared:
            chain = extends_chain(common_layout(look, deck), own, name)
            if not chain or chain[-1] != name:
                continue
            # a cycle of the look's layout is every deck's: named once
            cycle = frozenset((m, deck if "extends" in (own.get(m) or {}) else "") for m in chain)
            if cycle in seen:
                continue
            seen.add(cycle)
            where: Path_ = ("look", "decks", deck, "layout", name)
            if "extends" not in (own.get(name) or {}):
                where = ("look", "layout", name)
            said = ", which extends ".join(chain)
            yield ctx.diag(
                (*where, "extends"),
                f"the {name} region of the {deck} cards extends {said}: a cycle, so no region "
                "of it has values to start from",
                "let one region of the cycle start from its own default: drop its `extends`",
            )


def _overlap(a: Region, b: Region) -> float:
    """The area two regions share, in mm²."""
    left, top, right, bottom = a.box()
    other = b.box()
    width = min(right, other[2]) - max(left, other[0])
    height = min(bottom, other[3]) - max(top, other[1])
    return max(0.0, width) * max(0.0, height)


def _placed(look: Mapping[str, Any], path: Path_) -> bool:
    """Whether the region at `path` was given a place or size (not only a font or size)."""
    node: Any = look
    for part in path[1:]:
        node = node[part]
    return any(k in node for k in ("x", "y", "width", "height", "extends"))


def overlaps(ctx: Context) -> Iterator[Diagnostic]:
    """No two regions a deck's faces draw overlap (the art area lies behind them; the text
    region counts for a deck with a card that has a text)."""
    look = _look(ctx)
    seen: set[tuple[Path_, Path_]] = set()
    for deck in ("merchant", "starting", "point", "reference"):
        declared = _declared(look, deck)
        if not declared:
            continue
        regions = _regions(look, deck)
        texts = any(card.get("text") for each, _, card in ctx.cards() if each == deck)
        names = [n for n in used(deck) if n not in BACKDROPS and (texts or n != "text")]
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                if first not in declared and second not in declared:
                    continue
                shared = _overlap(regions[first], regions[second])
                if shared < 0.01:
                    continue
                at = declared.get(second) or declared[first]
                pair = (declared.get(first, ()), declared.get(second, ()))
                if pair in seen:
                    continue
                seen.add(pair)
                yield ctx.diag(
                    at,
                    f"the {first} and {second} regions of the {deck} cards overlap "
                    f"({shared:.1f} mm²): {_show(regions[first])} and {_show(regions[second])}",
                    "move or shrink one of them; only `art` lies behind the others",
                    severity="warning",
                    key=True,
                )


def _show(region: Region) -> str:
    return f"{region.width:g} × {region.height:g} mm at ({region.x:g}, {region.y:g})"


def safe_area(ctx: Context) -> Iterator[Diagnostic]:
    """Every region the look places stays inside the safe area."""
    look = _look(ctx)
    margin = float(look.get("safe_margin", SAFE_MM))
    width, height = card_size(look.get("card_size", DEFAULT_SIZE))
    seen: set[Path_] = set()
    for deck in ("merchant", "starting", "point", "reference"):
        regions = _regions(look, deck)
        for name, path in _declared(look, deck).items():
            if path in seen or name in BACKDROPS or not _placed(look, path):
                continue
            seen.add(path)
            left, top, right, bottom = regions[name].box()
            reach = max(
                margin - left, margin - top, right - (width - margin), bottom - (height - margin)
            )
            if reach > 0.005:
                yield ctx.diag(
                    path,
                    f"the {name} region ({_show(regions[name])}) reaches {reach:.1f} mm into "
                    f"the {margin:g} mm margin of the {width:g} × {height:g} mm card, which the "
                    "cut may take",
                    f"keep it between {margin:g} and {width - margin:g} mm across and "
                    f"{margin:g} and {height - margin:g} mm down",
                    severity="warning",
                    key=True,
                )


@functools.cache
def _advances(font: str) -> tuple[dict[int, float], float]:
    """The advance width of each character of a font file in ems, and a default width."""
    from fontTools.ttLib import TTFont

    with TTFont(font, lazy=True) as found:
        per_em = found["head"].unitsPerEm
        metrics = found["hmtx"].metrics
        widths = {
            code: metrics[name][0] / per_em
            for code, name in found.getBestCmap().items()
            if name in metrics
        }
    return widths, widths.get(ord("n"), 0.55)


def _font(look: Mapping[str, Any], role: str) -> str:
    given = (look.get("fonts") or {}).get(role)
    if given and Path(given).is_file():
        return str(given)
    return str(package_dir("shared", "typst", "fonts", BUNDLED_FONTS[role]))


def text_height(text: str, width_mm: float, size_pt: float, font: str) -> float:
    """The height in mm of `text` set at `size_pt` in a column `width_mm` wide."""
    widths, default = _advances(font)
    em = size_pt * POINT_MM
    space = widths.get(32, 0.32) * em
    lines = 0
    for paragraph in text.split("\n"):
        lines += 1
        used_mm = 0.0
        for word in paragraph.split():
            icons = sum(_mark_em(m) for m in CARD_MARK.findall(word))
            rest = CARD_MARK.sub("", word)
            length = (sum(widths.get(ord(c), default) for c in rest) + icons) * em
            if used_mm and used_mm + space + length > width_mm:
                lines += 1
                used_mm = length
            else:
                used_mm += (space if used_mm else 0.0) + length
    return lines * LINE_EM * em


def _mark_em(body: str) -> float:
    """The width of a mark in ems (``rich`` in ``icons.typ``: icons 0.92 em, a group's
    cubes 0.1 em apart)."""
    count = 1 if body in SYMBOL_MARKS else len(body)
    return count * 0.92 + (count - 1) * 0.1


def _needed(text: str, region: Region, font: str) -> float | None:
    """The largest size (pt, in steps of 0.25, from the region's smallest down) at which
    `text` fits `region`, or None under 2 pt."""
    size = region.min_size - 0.25
    while size >= 2.0:
        if text_height(text, region.width, size, font) <= region.height + 1e-6:
            return size
        size -= 0.25
    return None


def text_fit(ctx: Context) -> Iterator[Diagnostic]:
    """A card's text fits its region at the region's smallest size or larger."""
    look = _look(ctx)
    for deck, i, card in ctx.cards():
        texts = card.get("text")
        if not isinstance(texts, dict):
            continue
        region = (
            _regions(look, deck)["text"]
            if look
            else default_regions(card_size(DEFAULT_SIZE), deck)["text"]
        )
        font = _font(look, region.font)
        for lang, text in texts.items():
            if not isinstance(text, str) or not text.strip():
                continue
            tall = text_height(text, region.width, region.min_size, font)
            if tall <= region.height + 1e-6:
                continue
            need = _needed(text, region, font)
            size = f"{need:g} pt" if need is not None else "under 2 pt"
            yield ctx.diag(
                ("decks", deck, "cards", i, "text", lang),
                f"the {lang!r} text does not fit the {region.width:g} × {region.height:g} mm "
                f"text region even at {region.min_size:g} pt: it needs {size}, or "
                f"{tall:.1f} mm of height at {region.min_size:g} pt",
                "shorten it, or give the `text` region more room or a smaller `min_size`",
                severity="warning",
            )


def marks(ctx: Context) -> Iterator[Diagnostic]:
    """Every mark in a card's text names resource codes or a symbol."""
    codes = "".join(r["code"] for r in ctx.data["resources"])
    for deck, i, card in ctx.cards():
        texts = card.get("text")
        if not isinstance(texts, dict):
            continue
        for lang, text in texts.items():
            for kind, body in card_marks(str(text), codes):
                if kind == "unknown":
                    yield ctx.diag(
                        ("decks", deck, "cards", i, "text", lang),
                        f"the mark [{body}] names no resource code or symbol",
                        f"write cubes by their codes ({codes}), or one of [up], [any], "
                        "[arrow], [pay]",
                    )
