"""Print-and-play card sheets: every card drawn from the model, 63 × 88 mm, 3 × 3 a page.

`render(ruleset, options)` returns one PDF with, for each deck (merchant, point, starting),
its front pages, each followed by the page of backs for it (unless ``backs=False``).

Geometry, all in millimetres, is computed here and handed to ``templates/cards.typ``, which
only places what it is given:

- The 3 × 3 grid of cards is centred on the paper; neighbouring cards share a cut line.
  Every card has a frame in its deck's colour that reaches the cut line, so a cut a little
  off the line still leaves a clean edge.
- Cut marks continue every cut line outside the card area. They stop `PRINT_MARGIN` short
  of the paper edge (home printers cannot print there), so they are short where the
  margin is narrow (top and bottom of Letter paper).
- Bleed (``bleed`` mm) extends the card frames past the outer cut lines; the cut marks move
  out with it. The largest bleed that still leaves room for marks is `max_bleed(paper)`.
- Backs are mirrored for long-edge duplex printing: the back of the card in column ``c``
  is printed in column ``COLS - 1 - c``. ``back_offset`` (x, y) moves everything on a back
  page x mm right and y mm down, as seen on that page, to correct a printer that shifts
  the back side. Registration marks (circles with a cross, in registration colour) sit at
  mirror-symmetric places on fronts and backs: held against the light, they coincide when
  the offset is right.
- Starting cards are printed ``copies × players`` times (``players`` given) or in the box
  amount, ``copies × players_max``. One reference card per player (caravan limit, coin
  piles, end of game, scoring) is printed with the starting cards, on the same back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.model.ruleset import MerchantCard, PointCard, Ruleset
from century.targets import BuildOptions, Target

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes in mm (width, height), portrait."""

CARD_W, CARD_H = 63.0, 88.0
COLS, ROWS = 3, 3
TEMPLATE = "cards/cards.typ"
PER_PAGE = COLS * ROWS
PRINT_MARGIN = 4.0
"""No mark comes closer than this to the paper edge: most home printers cannot print there."""
MARK_GAP = 0.5
"""Space between the card area (with its bleed) and the start of a cut mark."""
MARK_MAX = 8.0
MARK_MIN = 2.0
MAX_BACK_OFFSET = 10.0
"""Printers shift the back side by a millimetre or two; more than this is a typo."""
REG_RADIUS = 2.0
"""Radius of a registration mark's circle; its cross reaches 1.5 times as far."""

DECK_COLOURS: dict[str, str] = {"merchant": "#2F4858", "point": "#9A6B1E", "starting": "#5E7F5A"}
"""Frame and back colour per deck kind (a property of the print layout, not of a game)."""

Segment = tuple[float, float, float, float]
"""A straight line from (x1, y1) to (x2, y2), in mm from the page's top-left corner."""


class CardOptionError(ValueError):
    """The options cannot be printed (paper unknown, bleed too large, players out of range)."""


@dataclass(frozen=True)
class CardOptions:
    """What the user chose for one card sheet."""

    paper: str = "a4"
    bleed: float = 0.0
    backs: bool = True
    players: int | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    lang: str | None = None


# -- geometry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Where cards, cut marks and registration marks go on one paper size."""

    width: float
    height: float
    bleed: float

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left corner of the card grid (trim, without bleed)."""
        return (self.width - COLS * CARD_W) / 2, (self.height - ROWS * CARD_H) / 2

    @property
    def cut_xs(self) -> list[float]:
        x0 = self.origin[0]
        return [x0 + i * CARD_W for i in range(COLS + 1)]

    @property
    def cut_ys(self) -> list[float]:
        y0 = self.origin[1]
        return [y0 + i * CARD_H for i in range(ROWS + 1)]

    def slot(self, index: int, back: bool = False) -> tuple[float, float]:
        """Top-left corner of slot `index` (row-major); backs mirror the column."""
        row, col = divmod(index, COLS)
        if back:
            col = COLS - 1 - col
        x0, y0 = self.origin
        return x0 + col * CARD_W, y0 + row * CARD_H

    def mark_lengths(self) -> tuple[float, float]:
        """Length of the cut marks above/below and left/right of the grid."""
        x0, y0 = self.origin
        room_y = y0 - self.bleed - MARK_GAP - PRINT_MARGIN
        room_x = x0 - self.bleed - MARK_GAP - PRINT_MARGIN
        return min(MARK_MAX, room_y), min(MARK_MAX, room_x)

    def cut_marks(self) -> list[Segment]:
        """One mark at each end of every cut line, outside the card area."""
        len_v, len_h = self.mark_lengths()
        x0, y0 = self.origin
        top = y0 - self.bleed - MARK_GAP
        bottom = y0 + ROWS * CARD_H + self.bleed + MARK_GAP
        left = x0 - self.bleed - MARK_GAP
        right = x0 + COLS * CARD_W + self.bleed + MARK_GAP
        marks: list[Segment] = []
        for x in self.cut_xs:
            marks += [(x, top - len_v, x, top), (x, bottom, x, bottom + len_v)]
        for y in self.cut_ys:
            marks += [(left - len_h, y, left, y), (right, y, right + len_h, y)]
        return marks

    def registration(self) -> list[tuple[float, float]]:
        """Centres of the registration marks, in the wider margin, mirror-symmetric."""
        x0, y0 = self.origin
        if y0 >= x0:
            yc = (PRINT_MARGIN + y0 - self.bleed - MARK_GAP) / 2
            xs = (x0 + CARD_W / 2, x0 + (COLS - 0.5) * CARD_W)
            return [(x, y) for y in (yc, self.height - yc) for x in xs]
        xc = (PRINT_MARGIN + x0 - self.bleed - MARK_GAP) / 2
        ys = (y0 + CARD_H / 2, y0 + (ROWS - 0.5) * CARD_H)
        return [(x, y) for x in (xc, self.width - xc) for y in ys]

    def reg_radius(self) -> float:
        """Registration marks shrink to fit a narrow margin."""
        x0, y0 = self.origin
        band = max(x0, y0) - self.bleed - MARK_GAP - PRINT_MARGIN
        return min(REG_RADIUS, band / 3)


def max_bleed(paper: str) -> float:
    """The largest bleed (mm, one decimal) that leaves room for cut marks on `paper`."""
    x0, y0 = Geometry(*PAPERS[paper], bleed=0.0).origin
    room = min(x0, y0) - MARK_GAP - PRINT_MARGIN - MARK_MIN
    return max(0.0, math.floor(room * 10 + 1e-9) / 10)


def geometry(paper: str, bleed: float) -> Geometry:
    """The geometry for `paper`, or `CardOptionError` when the bleed does not fit."""
    if paper not in PAPERS:
        raise CardOptionError(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})")
    if not bleed >= 0:
        raise CardOptionError(f"bleed must be 0 mm or more, not {bleed}")
    if bleed > max_bleed(paper):
        raise CardOptionError(
            f"a bleed of {bleed:g} mm leaves no room for cut marks on {paper} paper "
            f"(at most {max_bleed(paper):g} mm)"
        )
    return Geometry(*PAPERS[paper], bleed=bleed)


def _shifted(marks: Iterable[Segment], dx: float, dy: float) -> list[Segment]:
    return [(x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in marks]


def _mirrored(geo: Geometry, marks: Iterable[Segment]) -> list[Segment]:
    w = geo.width
    return [(w - x1, y1, w - x2, y2) for x1, y1, x2, y2 in marks]


# -- card faces ------------------------------------------------------------------------------


def _text(texts: Mapping[str, str], lang: str, default: str = "") -> str:
    """`texts` in `lang`, else in the first language that has it, else `default`."""
    if lang in texts:
        return texts[lang]
    return next(iter(texts.values()), default)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _term(ruleset: Ruleset, key: str, lang: str) -> str:
    return _capital(_text(ruleset.terms.get(key, {}), lang, key.replace("_", " ")))


def merchant_face(ruleset: Ruleset, card: MerchantCard, lang: str) -> dict[str, Any]:
    """The data a gain, upgrade or trade card front is drawn from."""
    title = _text(card.name, lang) or _term(ruleset, f"{card.kind}_card", lang)
    return {
        "kind": card.kind,
        "id": card.id,
        "title": title,
        "get": list(card.get),
        "pay": list(card.pay),
        "steps": card.steps,
    }


def point_face(ruleset: Ruleset, card: PointCard, lang: str) -> dict[str, Any]:
    """The data a point card front is drawn from."""
    return {
        "kind": "point",
        "id": card.id,
        "title": _term(ruleset, "point_card", lang),
        "cost": list(card.cost),
        "points": card.points,
    }


def reference_face(ruleset: Ruleset, lang: str) -> dict[str, Any]:
    """The player aid: caravan limit, coin piles and end of game per player count, scoring."""
    counts = list(ruleset.player_counts)
    return {
        "kind": "reference",
        "id": "",
        "title": _text(ruleset.name, lang, ruleset.id),
        "caravan": _term(ruleset, "caravan", lang),
        "caravan_limit": ruleset.caravan_limit,
        "coins_term": _term(ruleset, "coins", lang),
        "point_cards_term": _term(ruleset, "point_cards", lang),
        "players": counts,
        "coins": [
            {
                "name": _text(c.name, lang, c.id),
                "colour": c.colour,
                "value": c.value,
                "position": c.position,
                "counts": [c.count(n) for n in counts],
            }
            for c in ruleset.coins
        ],
        "thresholds": [ruleset.end_threshold.get(n) for n in counts],
        "resource_points": list(ruleset.resource_points),
    }


@dataclass(frozen=True)
class Deck:
    """One deck as printed: its kind, the title on its backs and every card front."""

    kind: str
    back_title: str
    faces: tuple[dict[str, Any], ...]


def _expanded(faces: Iterable[tuple[dict[str, Any], int]]) -> tuple[dict[str, Any], ...]:
    return tuple(face for face, copies in faces for _ in range(copies))


def decks(ruleset: Ruleset, lang: str, players: int | None = None) -> list[Deck]:
    """The decks to print, copies expanded; empty decks are left out."""
    seats = players if players is not None else ruleset.players_max
    merchant = _expanded((merchant_face(ruleset, c, lang), c.copies) for c in ruleset.merchant_deck)
    point = _expanded((point_face(ruleset, c, lang), c.copies) for c in ruleset.point_deck)
    starting = _expanded(
        (merchant_face(ruleset, c, lang), c.copies * seats) for c in ruleset.starting_cards
    )
    starting += (reference_face(ruleset, lang),) * seats
    found = [
        Deck("merchant", _term(ruleset, "merchant_cards", lang), merchant),
        Deck("point", _term(ruleset, "point_cards", lang), point),
        Deck("starting", _term(ruleset, "starting_cards", lang), starting),
    ]
    return [deck for deck in found if deck.faces]


# -- document ----------------------------------------------------------------------------------


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _mm(*values: float) -> list[float]:
    """Millimetres rounded to a micrometre: stable JSON, far below printer precision."""
    return [round(v, 3) + 0.0 for v in values]


def _page(
    geo: Geometry,
    deck: Deck,
    side: str,
    faces: Sequence[dict[str, Any]],
    offset: tuple[float, float],
) -> dict[str, Any]:
    back = side == "back"
    dx, dy = offset if back else (0.0, 0.0)
    marks = geo.cut_marks()
    if back:
        marks = _mirrored(geo, marks)
    reg = [(x + dx, y + dy) for x, y in geo.registration()]
    cards = []
    for i, face in enumerate(faces):
        x, y = geo.slot(i, back=back)
        cards.append({"x": _mm(x + dx)[0], "y": _mm(y + dy)[0], "face": face})
    return {
        "side": side,
        "deck": deck.kind,
        "colour": DECK_COLOURS[deck.kind],
        "marks": [_mm(*m) for m in _shifted(marks, dx, dy)],
        "registration": [_mm(*p) for p in reg],
        "cards": cards,
    }


def document(ruleset: Ruleset, options: CardOptions) -> dict[str, Any]:
    """Everything ``cards.typ`` draws, as JSON-ready data."""
    geo = geometry(options.paper, options.bleed)
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
    game = _text(ruleset.name, lang, ruleset.id)
    pages: list[dict[str, Any]] = []
    for deck in decks(ruleset, lang, options.players):
        back_face = {"kind": "back", "title": deck.back_title}
        for faces in _chunks(deck.faces, PER_PAGE):
            pages.append(_page(geo, deck, "front", faces, options.back_offset))
            if options.backs:
                backs = [back_face] * len(faces)
                pages.append(_page(geo, deck, "back", backs, options.back_offset))
    return {
        "game": game,
        "lang": lang,
        "paper": {"width": geo.width, "height": geo.height},
        "card": {"width": CARD_W, "height": CARD_H},
        "bleed": geo.bleed,
        "reg_radius": _mm(geo.reg_radius())[0],
        "resources": [
            {"code": r.code, "colour": r.colour, "name": _text(r.name, lang, r.id)}
            for r in ruleset.resources
        ],
        "pages": pages,
    }


def render(ruleset: Ruleset, options: CardOptions) -> bytes:
    """The card sheet PDF for `ruleset`."""
    from century.targets.typst import render_pdf

    return render_pdf(TEMPLATE, document(ruleset, options))


def write(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    """Build target: ``cards-<paper>.pdf`` for every paper of the build options.

    Card names are in the first of the build's languages that the game has, else in the
    game's first language.
    """
    langs = [lang for lang in options.languages if lang in ruleset.languages]
    lang = langs[0] if langs else None
    written = []
    for paper in options.papers:
        path = out / f"cards-{paper}.pdf"
        path.write_bytes(render(ruleset, CardOptions(paper=paper, lang=lang)))
        written.append(path)
    return written


TARGET = Target("cards", "print-and-play card sheets (cards-<paper>.pdf)", write)
