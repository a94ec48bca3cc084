"""The rest of the print-and-play kit: coin and cube tokens, and a caravan mat per player.

Everything is counted from the model: each coin pile as many times as the most players (or
``players``) need, and for each rank of the ladder enough cube tokens to fill every caravan
(``caravan_limit × players``). Tokens are laid out in rows, one pile or rank per row group,
and printed on both sides like the cards (the back page mirrored for duplex, or the right
half of a folded landscape page). A back token is drawn larger than its front, so a shifted
back does not show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from century.shared.cards.layout import PAPERS, PRINT_MARGIN, Layout

COIN_SIZE, COIN_GAP = 18.0, 2.0
CUBE_SIZE, CUBE_GAP = 10.0, 1.0
TOKEN_MARGIN = PRINT_MARGIN + 6.0
"""Space kept free around the tokens on a page."""
MATS_PER_PAGE = 2
MAT_MARGIN = PRINT_MARGIN + 6.0


@dataclass(frozen=True)
class Token:
    """One token to print: a coin of a pile or a cube of a rank."""

    kind: str  # "coin" or "cube"
    index: int  # into the document's coins or resources
    size: float
    gap: float  # to the next token; a back grows by half of it on every side


def tokens(coins: list[dict[str, Any]], ranks: int, per_rank: int) -> list[list[Token]]:
    """The tokens to print, one group per coin pile and per rank."""
    groups = [[Token("coin", i, COIN_SIZE, COIN_GAP)] * c["count"] for i, c in enumerate(coins)]
    groups += [[Token("cube", i, CUBE_SIZE, CUBE_GAP)] * per_rank for i in range(ranks)]
    return [g for g in groups if g]


def _region(layout: Layout) -> tuple[float, float, float, float]:
    """Where the fronts of tokens go: the page (duplex) or its left half (fold)."""
    w, h = layout.page
    if layout.fold:
        return TOKEN_MARGIN, TOKEN_MARGIN, w / 2 - TOKEN_MARGIN - COIN_GAP, h - 2 * TOKEN_MARGIN
    return TOKEN_MARGIN, TOKEN_MARGIN, w - 2 * TOKEN_MARGIN, h - 2 * TOKEN_MARGIN


def token_pages(layout: Layout, groups: list[list[Token]]) -> list[list[dict[str, Any]]]:
    """Token fronts placed page by page: rows of equal tokens, each group on new rows, its
    rows filled evenly (no token alone on a last row). The groups are a little apart, unless
    that costs a page: then they follow each other as closely as the rows of a group."""
    spaced = _token_pages(layout, groups, COIN_GAP)
    close = _token_pages(layout, groups, 0.0)
    return close if len(close) < len(spaced) else spaced


def _token_pages(
    layout: Layout, groups: list[list[Token]], between: float
) -> list[list[dict[str, Any]]]:
    """`token_pages` with `between` mm more between groups than between rows."""
    x0, y0, width, height = _region(layout)
    pages: list[list[dict[str, Any]]] = [[]]
    y = y0
    for group in groups:
        size, gap = group[0].size, group[0].gap
        most = max(1, int((width + gap) // (size + gap)))
        per_row = -(-len(group) // -(-len(group) // most))  # as many rows, filled evenly
        for start in range(0, len(group), per_row):
            row = group[start : start + per_row]
            if y + size > y0 + height:
                pages.append([])
                y = y0
            for i, token in enumerate(row):
                x = round(x0 + i * (size + gap), 3)
                pages[-1].append(
                    {"kind": token.kind, "index": token.index, "x": x, "y": round(y, 3)}
                    | {"size": size, "grow": gap / 2}
                )
            y += size + gap
        y += between
    return [page for page in pages if page]


def mirrored(layout: Layout, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The backs of `items`: mirrored about the page centre (duplex) or the fold line."""
    w = layout.page[0]
    return [{**item, "x": round(w - item["x"] - item["size"], 3)} for item in items]


def mat_pages(players: int, paper: str) -> list[list[dict[str, Any]]]:
    """Caravan mats, `MATS_PER_PAGE` to a portrait page: seat number and rectangle."""
    w, h = PAPERS[paper]
    mat_w = w - 2 * MAT_MARGIN
    mat_h = (h - (MATS_PER_PAGE + 1) * MAT_MARGIN) / MATS_PER_PAGE
    pages: list[list[dict[str, Any]]] = []
    for seat in range(1, players + 1):
        slot = (seat - 1) % MATS_PER_PAGE
        if slot == 0:
            pages.append([])
        y = MAT_MARGIN + slot * (mat_h + MAT_MARGIN)
        pages[-1].append({"seat": seat, "x": MAT_MARGIN, "y": y, "w": mat_w, "h": mat_h})
    return pages
