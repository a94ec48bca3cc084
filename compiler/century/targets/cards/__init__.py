"""The print-and-play kit: every card drawn from the model, with what else a game needs.

`render(ruleset, options)` returns one PDF, in this order:

1. a cover page (what to print and how: 100 % scale, long-edge flip or folding, a 50 mm
   scale bar, the printed card size, the contents with counts and page numbers, the cutting
   order) and a second page (each deck's front and back, using the mats, printing tips);
2. for each deck (merchant, point, starting cards, one reference card per player), its
   card pages: 3 × 3 fronts, each page followed by its backs mirrored for long-edge duplex,
   or with ``fold`` 2 × 2 fronts and their backs side by side on landscape pages (decks of
   one colour share pages: the reference cards, with a back of their own, follow the
   starting cards);
3. tokens: each coin pile's coins for the most players (or ``players``), and cube tokens,
   ``caravan_limit × players`` of each rank, printed on both sides;
4. a caravan mat per player: seat, starting cubes, the caravan limit as slots, the ladder
   with the points per cube, the four actions.

Geometry lives in `century.shared.cards.layout`, the card faces in `.faces`, the tokens
and mats in `.kit`; the templates (``cards.typ``, ``faces.typ``, ``kit.typ``) only place
what they are given. The PDF asks viewers to print at 100 % and in the right duplex mode,
and card pages carry a trim box (the fronts' outer cut lines) and a bleed box (the frame
colour past them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from century.model.ruleset import Ruleset
from century.model.text import shown
from century.prose import prose_texts, punctuation, symbol_keys, typeset
from century.shared.cards import kit
from century.shared.cards.faces import (
    Deck,
    back_face,
    card_size,
    coins,
    deck_colour,
    decks,
    frame_colour,
    look_assets,
    look_data,
    mat_text,
    resources,
)
from century.shared.cards.layout import (
    CARD_H,
    CARD_W,
    DEFAULT_BLEED,
    DEFAULT_GAP,
    MARK_MIN,
    MAX_BACK_OFFSET,
    PAPERS,
    PRINT_MARGIN,
    Layout,
    LayoutError,
    fit_summary,
    layout,
)
from century.targets import (
    Languages,
    Papers,
    Target,
    TargetError,
    check_language,
    languages,
    option,
)

TEMPLATE = "targets/cards/cards.typ"
SCALE_BAR = 50.0
"""Length of the scale bar on the cover, in mm."""


class CardError(TargetError):
    """A kit that cannot be printed: options (paper unknown, bleed too large, players out of
    range; a usage error) or data."""


def parse_offset(value: str) -> tuple[float, float]:
    """``"X,Y"`` in mm, e.g. ``"1.5,-0.5"``."""
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"expected X,Y in mm (e.g. 1.5,-0.5), not {value!r}") from None
    return x, y


@dataclass(frozen=True)
class CardOptions(Languages, Papers):
    """What the user chose: the kit's options, the languages and papers to print it in (one
    PDF each), and `paper` and `lang` of one kit (`render`)."""

    gap: float = option(
        DEFAULT_GAP,
        "--gap",
        metavar="MM",
        help="Space between cards in mm; 0 puts them edge to edge (guillotine).",
    )
    bleed: float | None = option(
        None,
        "--bleed",
        metavar="MM",
        help="Extend the card frames this many mm past the cut lines "
        "(with a gap, on every side, up to (gap - 1) / 2; 0 for none). "
        "Default: 1 mm, or what the gap allows.",
    )
    """None: the layout's default for the gap."""
    backs: bool = option(True, "--backs/--no-backs", help="Print the card backs.")
    low_ink: bool = option(
        False, "--low-ink", help="White backs with an outlined motif instead of tinted ones."
    )
    fold: bool = option(
        False, "--fold", help="For printers without duplex: fronts and backs side by side, to fold."
    )
    kit: bool = option(
        True, "--kit/--no-kit", help="Add the cover page, coin and cube tokens and caravan mats."
    )
    players: int | None = option(
        None,
        "--players",
        metavar="N",
        help="Print starting cards, tokens and mats for this many players "
        "(default: the most players).",
    )
    back_offset: tuple[float, float] = option(
        (0.0, 0.0),
        "--back-offset",
        metavar="X,Y",
        parse=parse_offset,
        help="Move the backs X mm right and Y mm down (as seen on the back) to correct "
        "a printer that shifts the back side.",
    )
    paper: str = "a4"
    lang: str | None = None
    """One kit's language (None: the game's first)."""


# -- pages ---------------------------------------------------------------------------------


def _mm(*values: float) -> list[float]:
    """Millimetres rounded to a micrometre: stable JSON, far below printer precision."""
    return [round(v, 3) + 0.0 for v in values]


def _segments(segments: list[tuple[float, float, float, float]]) -> list[list[float]]:
    return [_mm(*segment) for segment in segments]


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


Card = tuple[dict[str, Any], dict[str, Any]]
"""A card as printed: its front face and its back face."""


def _card_page(
    geo: Layout, kind: str, cards: Sequence[Card], side: str, trim_colour: str
) -> dict[str, Any]:
    """One page of cards of one colour (`kind`, a deck): ``side`` is ``front``, ``back``
    (duplex) or ``fold`` (both); `trim_colour` is the deck colour's ink."""
    w, h = geo.page
    page: dict[str, Any] = {
        "type": "cards",
        "side": side,
        "deck": kind,
        "width": w,
        "height": h,
        "fronts": [],
        "backs": [],
        "marks": [],
        "trims": [],
        "folds": [],
        "registration": [],
        "trim_colour": trim_colour,
    }
    if side in ("front", "fold"):
        for i, (face, _) in enumerate(cards):
            x, y = geo.slot(i)
            page["fronts"].append({"x": _mm(x)[0], "y": _mm(y)[0], "face": face})
        page["marks"] = _segments(geo.cut_marks())
        page["trims"] = _segments(geo.trim_lines())
        page["folds"] = _segments(geo.fold_marks())
    if side in ("back", "fold"):
        for i, (_, back) in enumerate(cards):
            x, y = geo.slot(i, back=True)
            area = _mm(*geo.back_rect(i))
            page["backs"].append({"x": _mm(x)[0], "y": _mm(y)[0], "area": area, "face": back})
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


def _colour_groups(ruleset: Ruleset, printed: list[Deck]) -> list[list[Deck]]:
    """Neighbouring decks of one colour, printed on shared pages."""
    groups: list[list[Deck]] = []
    for deck in printed:
        colour = frame_colour(ruleset, deck.kind)
        if groups and frame_colour(ruleset, groups[-1][0].kind) == colour:
            groups[-1].append(deck)
        else:
            groups.append([deck])
    return groups


def _range(first: int, count: int) -> list[int]:
    return [first, first + count - 1]


# -- the document ----------------------------------------------------------------------------


def check(ruleset: Ruleset, options: CardOptions) -> Layout:
    """The geometry of one kit, or `CardError` (a usage error) for options it cannot print."""
    try:
        geo = layout(options.paper, options.gap, options.bleed, options.fold, card_size(ruleset))
    except LayoutError as err:
        raise CardError(str(err), usage=True) from None
    if options.lang is not None:
        check_language(ruleset, options.lang, CardError)
    if options.players is not None and options.players not in ruleset.player_counts:
        raise CardError(
            f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players, "
            f"not {options.players}",
            usage=True,
        )
    if not all(abs(v) <= MAX_BACK_OFFSET for v in options.back_offset):
        raise CardError(f"a back offset is at most {MAX_BACK_OFFSET:g} mm each way", usage=True)
    if options.fold and not options.backs:
        raise CardError("folding puts each back beside its front: it needs the backs", usage=True)
    return geo


@dataclass
class _Pages:
    """The pages of a kit so far, with the cover's contents and the guide's samples."""

    first: int  # the number of the first page after the cover pages
    pages: list[dict[str, Any]]
    contents: list[dict[str, Any]]
    samples: list[dict[str, Any]]

    def add(self, pages: list[dict[str, Any]], entry: dict[str, Any]) -> None:
        """Add a part's pages, with its entry in the contents (its page numbers filled in)."""
        self.contents.append({**entry, "pages": _range(self.first + len(self.pages), len(pages))})
        self.pages += pages

    def add_decks(
        self, geo: Layout, options: CardOptions, group: list[Deck], trim_colour: str
    ) -> None:
        """Add the card pages of decks of one colour, which share pages, with each deck's
        entry in the contents (the pages its cards are on)."""
        cards: list[Card] = []
        where: list[tuple[Deck, int, int]] = []  # each deck's first and last card
        for deck in group:
            where.append((deck, len(cards), len(cards) + len(deck.faces) - 1))
            cards += [(face, back_face(deck)) for face in deck.faces]
        start = self.first + len(self.pages)
        per_chunk = 1 if options.fold or not options.backs else 2
        for chunk in _chunks(cards, geo.per_page):
            self.pages += _chunk_pages(geo, options, group[0].kind, chunk, trim_colour)
        for deck, low, high in where:
            page_low = start + per_chunk * (low // geo.per_page)
            page_high = start + per_chunk * (high // geo.per_page) + per_chunk - 1
            self.contents.append(
                {
                    "part": "cards",
                    "label": deck.label,
                    "count": len(deck.faces),
                    "pages": [page_low, page_high],
                }
            )


def _chunk_pages(
    geo: Layout, options: CardOptions, kind: str, cards: Sequence[Card], trim: str
) -> list[dict[str, Any]]:
    """One page of cards: its fronts followed by their backs, or a folded page."""
    if options.fold:
        return [_card_page(geo, kind, cards, "fold", trim)]
    found = [_card_page(geo, kind, cards, "front", trim)]
    if options.backs:
        back = _card_page(geo, kind, cards, "back", trim)
        found.append(_offset_back(back, *options.back_offset))
    return found


def _paginate(
    ruleset: Ruleset,
    options: CardOptions,
    geo: Layout,
    text: dict[str, str],
    lang: str,
    coin_list: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Every page of the kit: the cover pages (with the kit), each deck's cards, then the
    tokens and mats (with the kit)."""
    seats = options.players if options.players is not None else ruleset.players_max
    parts = _Pages(3 if options.kit else 1, [], [], [])  # after the cover and its second page
    printed = decks(ruleset, text, lang, options.players)
    for deck in printed:
        parts.samples.append({"label": deck.label, "front": deck.faces[0], "back": back_face(deck)})
    for group in _colour_groups(ruleset, printed):
        parts.add_decks(geo, options, group, deck_colour(group[0].kind, ruleset)["ink"])
    if not options.kit:
        return parts.pages
    per_rank = ruleset.caravan_limit * seats
    tokens = _token_pages(geo, options, coin_list, len(ruleset.resources), per_rank)
    counts = [c["count"] for c in coin_list]
    parts.add(tokens, {"part": "tokens", "label": "", "coins": counts, "cubes": per_rank})
    mats = _mat_pages(ruleset, options.paper, seats)
    parts.add(mats, {"part": "mats", "label": "", "count": seats})
    w, h = PAPERS[options.paper]
    cover = {"type": "cover", "width": w, "height": h, "contents": parts.contents}
    guide = {"type": "guide", "width": w, "height": h, "samples": parts.samples}
    return [cover, guide, *parts.pages]


def document(ruleset: Ruleset, options: CardOptions, geo: Layout | None = None) -> dict[str, Any]:
    """Everything ``cards.typ`` draws, as JSON-ready data: the options checked (`check`),
    the pages laid out (`_paginate`) on the kit's geometry `geo` (`check`'s, when not
    given), and what every page draws from. Every position, size and box of the kit comes
    from that one `Layout`."""
    if geo is None:
        geo = check(ruleset, options)
    lang = options.lang or ruleset.languages[0]
    text = prose_texts(ruleset, lang)  # a TextError names what is missing
    seats = options.players if options.players is not None else ruleset.players_max
    coin_list = coins(ruleset, seats)
    pages = _paginate(ruleset, options, geo, text, lang, coin_list)
    cw, ch = geo.printed
    return {
        "game": typeset(
            shown(ruleset.name, lang, ruleset.id), punctuation(ruleset, lang)
        ),  # the cover may wrap it
        "lang": lang,
        **mat_text(ruleset, lang, text),
        "resources": resources(ruleset),
        "coins": coin_list,
        # the card as printed: `card_size` (in the look's data) times `scale`
        "printed": {"width": _mm(cw)[0], "height": _mm(ch)[0], "scale": geo.scale},
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
        # the legend of the card symbols, for a game with composed cards
        "symbols": list(symbol_keys(ruleset)),
        **look_data(ruleset),
    }


def _duplex_mode(options: CardOptions) -> str:
    return "DuplexFlipLongEdge" if options.backs and not options.fold else "Simplex"


def render(ruleset: Ruleset, options: CardOptions) -> bytes:
    """The print-and-play PDF of one kit: `options.paper` and `options.lang`."""
    from century.shared.typst import compile_pdf
    from century.shared.typst.pdf import print_settings

    geo = check(ruleset, options)
    doc = document(ruleset, options, geo)
    pdf = compile_pdf(TEMPLATE, doc, look_assets(ruleset))
    trim, bleed = geo.trim_box(), geo.bleed_box()
    boxes = {i: (trim, bleed) for i, p in enumerate(doc["pages"]) if p["type"] == "cards"}
    return print_settings(pdf, _duplex_mode(options), boxes)


def file_name(lang: str, paper: str) -> str:
    return f"cards-{lang}-{paper}.pdf"


def _kits(ruleset: Ruleset, options: CardOptions) -> list[CardOptions]:
    """One kit's options for every language and paper asked for."""
    papers = dict.fromkeys(options.papers)
    return [
        replace(options, lang=lang, paper=paper)
        for lang in languages(ruleset, options.languages)
        for paper in papers
    ]


def names(ruleset: Ruleset, options: CardOptions) -> list[str]:
    """``cards-<lang>-<paper>.pdf`` for every language and paper asked for; every kit's
    options checked."""
    kits = _kits(ruleset, options)
    for each in kits:
        check(ruleset, each)
    return [file_name(each.lang or "", each.paper) for each in kits]


def files(ruleset: Ruleset, options: CardOptions) -> dict[str, bytes]:
    """A kit for every language and paper asked for (`names`)."""
    names(ruleset, options)  # every kit's options, before any is drawn
    return {
        file_name(each.lang or "", each.paper): render(ruleset, each)
        for each in _kits(ruleset, options)
    }


def paper_help() -> str:
    """The command's epilog: what fits on each paper, computed from the layout."""
    duplex, fold = layout("a4"), layout("a4", fold=True)
    return (
        f"Cards are {CARD_W:g} × {CARD_H:g} mm, {duplex.cols} × {duplex.rows} to a page (with "
        f"--fold, {fold.front_cols} × {fold.rows} fronts beside their backs on landscape "
        f"pages); the frames reach {DEFAULT_BLEED:g} mm past the cut lines unless --bleed says "
        f"otherwise. The cards stay {PRINT_MARGIN:g} mm clear of the paper edge, and so do the "
        f"cut marks, which are at least {MARK_MIN:g} mm long; a side without room for them has "
        "none (the marks across the gaps and the lines in the frames carry every cut line). "
        "Only a block that does not fit at all shrinks (the cover page gives the printed "
        "size). Printed card size on " + fit_summary()
    )


TARGET = Target(
    "cards",
    "print-and-play kits per language and paper (cards-<lang>-<paper>.pdf)",
    files,
    options=CardOptions,
    error=CardError,
    names=names,
    help="Write cards-LANG-PAPER.pdf: the print-and-play kit, backs mirrored for long-edge "
    "duplex.\n\nBesides every card, the kit has a cover page (print at 100 %, how to flip, a "
    "50 mm scale bar, contents, cutting order), coin and cube tokens and a caravan mat per "
    "player.",
    epilog=paper_help,
)
