"""The print-and-play kit: every card drawn from the model, with what else a game needs.

`render(ruleset, options)` returns one PDF, in this order:

1. a cover page (what to print and how: 100 % scale, long-edge flip or folding, a 50 mm
   scale bar, the printed card size, the contents with counts and page numbers, the cutting
   order) and a second page (each deck's front and back, using the mats, printing tips);
2. for each deck (merchant, point, starting cards with one reference card per player), its
   card pages: 3 × 3 fronts, each page followed by its backs mirrored for long-edge duplex,
   or with ``fold`` 2 × 2 fronts and their backs side by side on landscape pages;
3. tokens: each coin pile's coins for the most players (or ``players``), and cube tokens,
   ``caravan_limit × players`` of each rank, printed on both sides;
4. a caravan mat per player: seat, starting cubes, the caravan limit as slots, the ladder
   with the points per cube, the four actions.

Geometry lives in `century.render.cards.layout`, the card faces in `.faces`, the tokens
and mats in `.kit`; the templates (``cards.typ``, ``faces.typ``, ``kit.typ``) only place
what they are given. The PDF asks viewers to print at 100 % and in the right duplex mode,
and pages with bleed carry a trim box and a bleed box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.model.ruleset import Ruleset
from century.model.text import shown
from century.prose import render_prose
from century.render.cards import kit
from century.render.cards.faces import Deck, coins, deck_colour, decks, resources, term
from century.render.cards.layout import (
    MAX_BACK_OFFSET,
    PAPERS,
    Layout,
    LayoutError,
    layout,
)
from century.targets import BuildOptions, Target

TEMPLATE = "targets/cards/cards.typ"
SCALE_BAR = 50.0
"""Length of the scale bar on the cover, in mm."""


class CardOptionError(ValueError):
    """The options cannot be printed (paper unknown, bleed too large, players out of range)."""


@dataclass(frozen=True)
class CardOptions:
    """What the user chose for one kit."""

    paper: str = "a4"
    gap: float = 3.0
    bleed: float = 0.0
    backs: bool = True
    low_ink: bool = False
    fold: bool = False
    kit: bool = True
    players: int | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    lang: str | None = None


# -- pages ---------------------------------------------------------------------------------


def _mm(*values: float) -> list[float]:
    """Millimetres rounded to a micrometre: stable JSON, far below printer precision."""
    return [round(v, 3) + 0.0 for v in values]


def _segments(segments: list[tuple[float, float, float, float]]) -> list[list[float]]:
    return [_mm(*segment) for segment in segments]


def _back_face(deck: Deck) -> dict[str, Any]:
    """What every back of `deck` shows: its title, in its colours."""
    return {"kind": "back", "title": deck.back_title, **deck_colour(deck.kind)}


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _card_page(geo: Layout, deck: Deck, fronts: Sequence[dict[str, Any]], side: str) -> dict:
    """One page of cards: ``side`` is ``front``, ``back`` (duplex) or ``fold`` (both)."""
    w, h = geo.page
    colours = deck_colour(deck.kind)
    page: dict[str, Any] = {
        "type": "cards",
        "side": side,
        "deck": deck.kind,
        "width": w,
        "height": h,
        "fronts": [],
        "backs": [],
        "marks": [],
        "trims": [],
        "folds": [],
        "registration": [],
        "back_colour": colours["back"],
        "trim_colour": colours["ink"],
    }
    if side in ("front", "fold"):
        for i, face in enumerate(fronts):
            x, y = geo.slot(i)
            page["fronts"].append({"x": _mm(x)[0], "y": _mm(y)[0], "face": face})
        page["marks"] = _segments(geo.cut_marks())
        page["trims"] = _segments(geo.trim_lines())
        page["folds"] = _segments(geo.fold_marks())
    if side in ("back", "fold"):
        for i in range(len(fronts)):
            x, y = geo.slot(i, back=True)
            area = _mm(*geo.back_rect(i))
            back = {"x": _mm(x)[0], "y": _mm(y)[0], "area": area, "face": _back_face(deck)}
            page["backs"].append(back)
    if side in ("front", "back"):
        page["registration"] = [_mm(x, y) for x, y in geo.registration()]
    return page


def _offset_back(page: dict[str, Any], dx: float, dy: float) -> dict[str, Any]:
    """Move everything on a back page by (dx, dy), for a printer that shifts the back."""
    if page["side"] != "back":
        return page
    moved = dict(page)
    moved["backs"] = [
        {
            **c,
            "x": _mm(c["x"] + dx)[0],
            "y": _mm(c["y"] + dy)[0],
            "area": _mm(c["area"][0] + dx, c["area"][1] + dy, *c["area"][2:]),
        }
        for c in page["backs"]
    ]
    moved["registration"] = [_mm(x + dx, y + dy) for x, y in page["registration"]]
    return moved


def _token_pages(
    geo: Layout, options: CardOptions, coin_list: list[dict[str, Any]], ranks: int, per_rank: int
) -> list[dict[str, Any]]:
    """Token pages: fronts, then their mirrored backs (or both halves of a folded page)."""
    groups = kit.tokens(coin_list, ranks, per_rank)
    w, h = geo.page
    pages: list[dict[str, Any]] = []
    for fronts in kit.token_pages(geo, groups):
        backs = kit.mirrored(geo, fronts) if options.backs else []
        base = {"type": "tokens", "width": w, "height": h}
        if options.fold:
            pages.append({**base, "side": "fold", "fronts": fronts, "backs": backs})
            continue
        pages.append({**base, "side": "front", "fronts": fronts, "backs": []})
        if options.backs:
            pages.append({**base, "side": "back", "fronts": [], "backs": backs})
    dx, dy = options.back_offset
    for page in pages:
        if page["side"] == "back":
            page["backs"] = [{**t, "x": t["x"] + dx, "y": t["y"] + dy} for t in page["backs"]]
    return pages


def _mat_pages(ruleset: Ruleset, paper: str, seats: int) -> list[dict[str, Any]]:
    """Caravan mat pages, each mat with its seat's starting cubes."""
    w, h = PAPERS[paper]
    pages = []
    for mats in kit.mat_pages(seats, paper):
        for mat in mats:
            mat["start"] = list(ruleset.seats[mat["seat"] - 1])
        pages.append({"type": "mats", "width": w, "height": h, "mats": mats})
    return pages


def _range(first: int, count: int) -> list[int]:
    return [first, first + count - 1]


def document(ruleset: Ruleset, options: CardOptions) -> dict[str, Any]:
    """Everything ``cards.typ`` draws, as JSON-ready data."""
    try:
        geo = layout(options.paper, options.gap, options.bleed, options.fold)
    except LayoutError as err:
        raise CardOptionError(str(err)) from None
    lang = options.lang or ruleset.languages[0]
    if lang not in ruleset.languages:
        known = ", ".join(ruleset.languages)
        raise CardOptionError(f"{ruleset.id} has no language {lang!r} (known: {known})")
    if options.players is not None and options.players not in ruleset.player_counts:
        raise CardOptionError(
            f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players, "
            f"not {options.players}"
        )
    if not all(abs(v) <= MAX_BACK_OFFSET for v in options.back_offset):
        raise CardOptionError(f"a back offset is at most {MAX_BACK_OFFSET:g} mm each way")
    if options.fold and not options.backs:
        raise CardOptionError("folding puts each back beside its front: it needs the backs")
    text = render_prose(ruleset, lang)  # a TextError names what is missing
    seats = options.players if options.players is not None else ruleset.players_max
    coin_list = coins(ruleset, seats)
    w, h = PAPERS[options.paper]

    pages: list[dict[str, Any]] = []
    contents: list[dict[str, Any]] = []
    samples: list[dict[str, Any]] = []
    first = 3 if options.kit else 1  # after the cover and its second page
    for deck in decks(ruleset, text, lang, options.players):
        samples.append({"label": deck.back_title, "front": deck.faces[0], "back": _back_face(deck)})
        deck_pages: list[dict[str, Any]] = []
        for faces in _chunks(deck.faces, geo.per_page):
            if options.fold:
                deck_pages.append(_card_page(geo, deck, faces, "fold"))
                continue
            deck_pages.append(_card_page(geo, deck, faces, "front"))
            if options.backs:
                back = _card_page(geo, deck, faces, "back")
                deck_pages.append(_offset_back(back, *options.back_offset))
        contents.append(
            {
                "part": "cards",
                "label": deck.back_title,
                "count": len(deck.faces),
                "pages": _range(first + len(pages), len(deck_pages)),
            }
        )
        pages += deck_pages
    if options.kit:
        per_rank = ruleset.caravan_limit * seats
        tokens = _token_pages(geo, options, coin_list, len(ruleset.resources), per_rank)
        contents.append(
            {
                "part": "tokens",
                "label": "",
                "coins": [c["count"] for c in coin_list],
                "cubes": per_rank,
                "pages": _range(first + len(pages), len(tokens)),
            }
        )
        pages += tokens
        mats = _mat_pages(ruleset, options.paper, seats)
        contents.append(
            {
                "part": "mats",
                "label": "",
                "count": seats,
                "pages": _range(first + len(pages), len(mats)),
            }
        )
        pages += mats
        cover = {"type": "cover", "width": w, "height": h, "contents": contents}
        guide = {"type": "guide", "width": w, "height": h, "samples": samples}
        pages = [cover, guide, *pages]

    cw, ch = geo.card
    return {
        "game": shown(ruleset.name, lang, ruleset.id),
        "lang": lang,
        "text": text,
        "resources": resources(ruleset),
        "coins": coin_list,
        "caravan_limit": ruleset.caravan_limit,
        "resource_points": list(ruleset.resource_points),
        "caravan_term": term(ruleset, "caravan", lang),
        "actions": [
            {"name": term(ruleset, action, lang), "text": text[f"ref_{action}"]}
            for action in ("play", "acquire", "claim", "rest")
        ],
        "card": {"width": _mm(cw)[0], "height": _mm(ch)[0], "scale": geo.scale},
        "layout": {
            "paper": options.paper,
            "gap": geo.gap,
            "bleed": geo.bleed,
            "fold": geo.fold,
            "cols": geo.cols,
            "rows": geo.rows,
            "front_cols": geo.front_cols,
            "page": _mm(*geo.page),
            "cells": [_mm(*geo.cell(r, c)) for r in range(geo.rows) for c in range(geo.cols)],
        },
        "backs": options.backs,
        "low_ink": options.low_ink,
        "scale_bar": SCALE_BAR,
        "reg_radius": _mm(geo.reg_radius())[0],
        "pages": pages,
    }


def _duplex_mode(options: CardOptions) -> str:
    return "DuplexFlipLongEdge" if options.backs and not options.fold else "Simplex"


def render(ruleset: Ruleset, options: CardOptions) -> bytes:
    """The print-and-play PDF for `ruleset`."""
    from century.render.typst import render_pdf
    from century.render.typst.pdf import print_settings

    doc = document(ruleset, options)
    pdf = render_pdf(TEMPLATE, doc)
    boxes = {}
    if options.bleed > 0:
        geo = layout(options.paper, options.gap, options.bleed, options.fold)
        trim, bleed = geo.trim_box(), geo.bleed_box()
        boxes = {i: (trim, bleed) for i, p in enumerate(doc["pages"]) if p["type"] == "cards"}
    return print_settings(pdf, _duplex_mode(options), boxes)


def file_name(lang: str, paper: str) -> str:
    return f"cards-{lang}-{paper}.pdf"


def write(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    """Build target: ``cards-<lang>-<paper>.pdf`` for every language and paper asked for
    (every language of the game unless the build names some)."""
    languages = [
        lang for lang in options.languages or ruleset.languages if lang in ruleset.languages
    ]
    written = []
    for lang in languages:
        for paper in options.papers:
            path = out / file_name(lang, paper)
            path.write_bytes(render(ruleset, CardOptions(paper=paper, lang=lang)))
            written.append(path)
    return written


TARGET = Target(
    "cards", "print-and-play kits per language and paper (cards-<lang>-<paper>.pdf)", write
)
