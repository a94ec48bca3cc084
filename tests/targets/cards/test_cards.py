"""The print-and-play kit: PDFs opened with pypdf, geometry read from the drawing operators."""

from __future__ import annotations

import functools
import io
import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from century.model.cards import short_fields
from century.model.ruleset import Ruleset
from century.pipeline import compile_paths
from century.shared.cards.faces import DECK_COLOURS, deck_colour
from century.shared.cards.kit import COIN_SIZE, CUBE_SIZE
from century.shared.cards.layout import BACK_BLEED, MARK_MIN, PRINT_MARGIN, layout
from century.shared.typst.colours import BLACK, WHITE, contrast, ink_on
from century.targets.cards import CardOptions, document, render

from helpers import (
    VALID,
    bundled_rulesets,
    changed,
    edited,
    five_ranks,
    hostile,
    spice_road,
    written,
)

PT = 25.4 / 72  # mm per PDF point
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD = (63.0, 88.0)


# -- rulesets ----------------------------------------------------------------------------------


def retheme(data: dict[str, Any]) -> None:
    data["terms"]["point_card"] = {"en": "golem card", "de": "Golemkarte", "fr": "golem card"}
    data["terms"]["point_cards"] = {"en": "golem cards", "de": "Golemkarten", "fr": "golem cards"}
    data["forms"]["en"]["golem card"] = {"one": "golem card", "other": "golem cards"}
    data["forms"]["de"]["Golemkarte"] = {"one": "Golemkarte", "other": "Golemkarten"}


def short_merchant_deck(data: dict[str, Any]) -> None:
    """Two merchant cards: a partial page, to see the mirroring."""
    data["merchant_deck"] = data["merchant_deck"][:2]


# -- PDF reading ---------------------------------------------------------------------------------


DEFAULT = CardOptions()
_rendered: dict[tuple[int, CardOptions], tuple[Ruleset, bytes]] = {}


def pdf(ruleset: Ruleset, options: CardOptions = DEFAULT) -> bytes:
    """Render once per ruleset object and options (the ruleset is kept alive with it)."""
    key = (id(ruleset), options)
    if key not in _rendered:
        _rendered[key] = (ruleset, render(ruleset, options))
    return _rendered[key][1]


@functools.cache
def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


@functools.cache
def page_text(data: bytes, page: int) -> str:
    return " ".join((reader(data).pages[page].extract_text() or "").split())


def text(data: bytes) -> str:
    return " ".join(page_text(data, i) for i in range(len(reader(data).pages)))


def hex_colour(args: list[float]) -> str:
    return "#" + "".join(f"{round(v * 255):02X}" for v in args)


@dataclass
class Drawing:
    """What a page draws, in mm from the top-left corner."""

    # stroked straight lines: (x1, y1, x2, y2, stroke colour, dashed)
    segments: list[tuple[float, float, float, float, str, bool]] = field(default_factory=list)
    registration: list[tuple[float, float, float, float]] = field(default_factory=list)
    fills: list[tuple[float, float, float, float, str]] = field(default_factory=list)


def _mul(a: list[float], b: list[float]) -> list[float]:
    """PDF matrix product a × b (a applied first)."""
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


@functools.cache
def _drawing(data: bytes, page: int) -> Drawing:
    rd = reader(data)
    pg = rd.pages[page]
    height = float(pg.mediabox.height)
    state = {"ctm": [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "fill": "#000000", "stroke": "#000000"}
    state |= {"dash": False, "registration": False}
    stack: list[dict[str, Any]] = []
    path: list[tuple[str, float, float]] = []
    out = Drawing()

    def point(x: float, y: float) -> tuple[float, float]:
        ctm = state["ctm"]
        px = ctm[0] * x + ctm[2] * y + ctm[4]
        py = ctm[1] * x + ctm[3] * y + ctm[5]
        return px * PT, (height - py) * PT

    def colour(args: list[float]) -> str:
        return hex_colour(args * 3 if len(args) == 1 else args)

    for operands, op in ContentStream(pg.get_contents(), rd).operations:
        args = [float(v) for v in operands if isinstance(v, int | float)]
        if op == b"q":
            stack.append(dict(state))
        elif op == b"Q":
            state = stack.pop()
        elif op == b"cm":
            state["ctm"] = _mul(args, state["ctm"])
        elif op == b"K":
            state["registration"] = args == [1.0, 1.0, 1.0, 1.0]
        elif op in (b"SCN", b"RG", b"G", b"SC"):
            state["registration"] = False
            state["stroke"] = colour(args)
        elif op in (b"scn", b"sc", b"rg", b"g") and len(args) in (1, 3):
            state["fill"] = colour(args)
        elif op == b"d":
            state["dash"] = bool(operands[0])
        elif op in (b"m", b"l"):
            path.append((op.decode(), *point(*args)))
        elif op == b"c":
            path.append(("c", *point(*args[-2:])))
        elif op == b"re":
            x, y, w, h = args
            corners = [point(x, y), point(x + w, y), point(x + w, y + h), point(x, y + h)]
            path += [("m", *corners[0])] + [("l", *c) for c in corners[1:]]
        elif op == b"S":
            for (_, x1, y1), (kind, x2, y2) in itertools.pairwise(path):
                if kind != "l":
                    continue
                if state["registration"]:
                    out.registration.append((x1, y1, x2, y2))
                else:
                    out.segments.append((x1, y1, x2, y2, state["stroke"], state["dash"]))
            path = []
        elif op in (b"f", b"f*", b"B", b"b", b"n"):
            if path and op != b"n":
                xs, ys = [p[1] for p in path], [p[2] for p in path]
                bbox = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                out.fills.append((*bbox, state["fill"]))
            path = []
    return out


def drawing(data: bytes, page: int) -> Drawing:
    return _drawing(data, page)


def near(a: float, b: float, tol: float = 0.02) -> bool:
    return abs(a - b) <= tol


def same(a: list[tuple[float, float]], b: list[tuple[float, float]], tol: float = 0.02) -> bool:
    """The same points, in order, to within `tol` mm."""
    return len(a) == len(b) and all(
        near(p[0], q[0], tol) and near(p[1], q[1], tol) for p, q in zip(a, b, strict=True)
    )


def sized(d: Drawing, w: float, h: float, colour: str | None = None, tol: float = 0.05):
    """Fills of about `w` × `h` mm (in `colour`), as (x, y)."""
    return sorted(
        (round(x, 2), round(y, 2))
        for x, y, fw, fh, c in d.fills
        if near(fw, w, tol) and near(fh, h, tol) and (colour is None or c == colour)
    )


def pages_of(ruleset: Ruleset, options: CardOptions, kind: str, side: str | None = None):
    """Indexes of the document's pages of `kind` (and `side`)."""
    doc = document(ruleset, options)
    return [
        i
        for i, p in enumerate(doc["pages"])
        if p["type"] == kind and (side is None or p.get("side") == side)
    ]


def card_counts(r: Ruleset, players: int | None = None) -> dict[str, int]:
    seats = players or r.players_max
    return {
        "merchant": sum(c.copies for c in r.merchant_deck),
        "point": sum(c.copies for c in r.point_deck),
        "starting": sum(c.copies for c in r.starting_cards) * seats,
        "reference": seats,
    }


# -- the kit's pages -------------------------------------------------------------------------------


@pytest.mark.slow
def test_kit_pages_cover_cards_tokens_and_mats_with_their_counts() -> None:
    r = spice_road()
    data = pdf(r)
    rd = reader(data)
    counts = card_counts(r)
    sheets = [counts["merchant"], counts["point"], counts["starting"] + counts["reference"]]
    card_pages = sum(math.ceil(n / 9) for n in sheets) * 2  # fronts and backs
    mats = math.ceil(r.players_max / 2)
    doc = document(r, DEFAULT)
    tokens = len(pages_of(r, DEFAULT, "tokens"))
    assert tokens >= 2  # fronts and backs
    assert len(rd.pages) == len(doc["pages"]) == 2 + card_pages + tokens + mats
    cover = page_text(data, 0)
    for words in ("Print at 100%", "never “fit to page”", "flipping on the long edge", "50 mm"):
        assert words in cover
    # the contents name each deck with its count and its pages, and the pages hold them
    page = 3
    for deck, title in (("merchant", "Merchant cards"), ("point", "Point cards")):
        n = math.ceil(counts[deck] / 9) * 2
        assert f"{title} {counts[deck]} {page}–{page + n - 1}" in cover
        assert title in page_text(data, page)  # the backs of the first page of fronts
        page += n
    first_merchant = r.merchant_deck[0].id
    assert first_merchant in page_text(data, 2)
    assert f"Caravan mats, one per player {r.players_max}" in cover
    # the reference cards have a deck of their own, on the starting cards' last page
    starting = page  # after the merchant and point cards
    last = starting + math.ceil((counts["starting"] + counts["reference"]) / 9) * 2 - 1
    assert f"Starting cards {counts['starting']} {starting}–{last}" in cover
    assert f"Reference cards {counts['reference']} {last - 1}–{last}" in cover
    backs = page_text(data, last - 1)  # the back page of the last starting sheet
    assert "Overview" in backs and "Starting cards" in backs
    assert "Cutting order" in cover
    everything = text(data)
    for seat in range(1, r.players_max + 1):
        assert f"Caravan · Seat {seat}" in everything


@pytest.mark.slow
def test_page_sizes_portrait_and_landscape_for_folding() -> None:
    for paper in ("a4", "letter"):
        w, h = PAPER_MM[paper]
        for page in reader(pdf(spice_road(), CardOptions(paper=paper))).pages:
            size = (
                round(float(page.mediabox.width) * PT, 1),
                round(float(page.mediabox.height) * PT, 1),
            )
            assert size == (w, h)
    folded = CardOptions(fold=True)
    rd = reader(pdf(spice_road(), folded))
    halves = set(pages_of(spice_road(), folded, "cards") + pages_of(spice_road(), folded, "tokens"))
    for i, page in enumerate(rd.pages):
        size = (
            round(float(page.mediabox.width) * PT, 1),
            round(float(page.mediabox.height) * PT, 1),
        )
        assert size == ((297.0, 210.0) if i in halves else (210.0, 297.0))


def test_viewer_preferences_print_at_100_percent_and_flip_on_the_long_edge() -> None:
    def prefs(options: CardOptions) -> dict[str, str]:
        raw = reader(pdf(spice_road(), options)).trailer["/Root"]["/ViewerPreferences"]
        return {k: str(v) for k, v in raw.items()}

    duplex = prefs(DEFAULT)
    assert duplex["/PrintScaling"] == "/None"
    assert duplex["/Duplex"] == "/DuplexFlipLongEdge"
    assert duplex["/Direction"] == "/L2R"  # Typst's own preference is kept
    assert prefs(CardOptions(fold=True))["/Duplex"] == "/Simplex"
    assert prefs(CardOptions(backs=False, kit=False))["/Duplex"] == "/Simplex"


@pytest.mark.slow
@pytest.mark.parametrize("bleed", [None, 0.0, 2.0])
def test_card_pages_have_trim_and_bleed_boxes(bleed: float | None) -> None:
    options = CardOptions(bleed=bleed, gap=0.0 if bleed == 2.0 else 3.0)
    data = pdf(spice_road(), options)
    rd = reader(data)
    geo = layout("a4", options.gap, bleed)
    assert geo.bleed == (1.0 if bleed is None else bleed)  # 1 mm unless asked otherwise
    x, y, w, h = geo.trim_box()
    height = 297.0
    expected_trim = [x, height - y - h, x + w, height - y]
    cards = pages_of(spice_road(), options, "cards")
    for i, page in enumerate(rd.pages):
        if i not in cards:
            assert "/TrimBox" not in page
            continue
        trim = [float(v) * PT for v in page["/TrimBox"]]
        box = [float(v) * PT for v in page["/BleedBox"]]
        assert all(near(a, b, 0.01) for a, b in zip(trim, expected_trim, strict=True))
        b = geo.bleed
        grown = [
            expected_trim[0] - b,
            expected_trim[1] - b,
            expected_trim[2] + b,
            expected_trim[3] + b,
        ]
        assert all(near(a, c, 0.01) for a, c in zip(box, grown, strict=True))


def test_a_pdf_without_an_xref_table_is_refused_not_damaged() -> None:
    from century.shared.typst.pdf import PdfStructureError, print_settings

    with pytest.raises(PdfStructureError):
        print_settings(b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\nstartxref\n9\n%%EOF", "Simplex")


# -- cutting: gaps, marks, lines through the frames ----------------------------------------------


def frames(d: Drawing, geo, colour: str) -> list[tuple[float, float]]:
    """Top-left corners (the cut lines) of the cards whose frames, with their bleed, a page
    fills in `colour`."""
    cw, ch = geo.printed
    b = geo.bleed
    return [(round(x + b, 2), round(y + b, 2)) for x, y in sized(d, cw + 2 * b, ch + 2 * b, colour)]


@pytest.mark.slow
@pytest.mark.parametrize("bleed", [None, 0.0])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_stand_apart_with_marks_across_every_gap(paper: str, bleed: float | None) -> None:
    options = CardOptions(paper=paper, bleed=bleed)
    data = pdf(spice_road(), options)
    geo = layout(paper, bleed=bleed)
    b = geo.bleed
    d = drawing(data, 2)  # the first page of merchant fronts
    cw, ch = geo.printed
    found = frames(d, geo, DECK_COLOURS["merchant"])
    xs = sorted({x for x, _ in found})
    ys = sorted({y for _, y in found})
    assert len(found) == 9 and len(xs) == 3 and len(ys) == 3
    assert all(near(b - a, cw + geo.gap) for a, b in itertools.pairwise(xs))
    assert all(near(b - a, ch + geo.gap) for a, b in itertools.pairwise(ys))
    cut_xs = sorted([*xs, *(x + cw for x in xs)])
    cut_ys = sorted([*ys, *(y + ch for y in ys)])
    black = [s for s in d.segments if s[4] == BLACK and not s[5]]
    for row in range(2):  # every vertical cut line is continued across the gap between rows
        top, bottom = ys[row] + ch + b, ys[row + 1] - b
        for x in cut_xs:
            assert any(
                near(s[0], x)
                and near(s[2], x)
                and near(min(s[1], s[3]), top)
                and near(max(s[1], s[3]), bottom)
                for s in black
            ), (x, top)
    for col in range(2):  # and every horizontal one across the gap between columns
        left, right = xs[col] + cw + b, xs[col + 1] - b
        for y in cut_ys:
            assert any(
                near(s[1], y)
                and near(s[3], y)
                and near(min(s[0], s[2]), left)
                and near(max(s[0], s[2]), right)
                for s in black
            ), (y, left)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        CardOptions(),
        CardOptions(paper="letter"),
        CardOptions(paper="letter", gap=0, bleed=3),
        CardOptions(gap=0),
        CardOptions(fold=True),
    ],
    ids=["a4", "letter", "letter-bleed-3", "a4-gap-0", "a4-fold"],
)
def test_outer_cut_marks_are_long_enough_inside_the_printer_margin(options: CardOptions) -> None:
    geo = layout(options.paper, options.gap, options.bleed, options.fold)
    w, h = geo.page
    data = pdf(spice_road(), options)
    d = drawing(data, pages_of(spice_road(), options, "cards")[0])
    (x0, y0), (bw, bh) = geo.origin, geo.block
    marks = [s for s in d.segments if s[4] == BLACK and not s[5]]
    b = geo.bleed + 0.01
    outside = [
        s for s in marks
        if max(s[1], s[3]) < y0 - b or min(s[1], s[3]) > y0 + bh + b
        or max(s[0], s[2]) < x0 - b or min(s[0], s[2]) > x0 + bw + b
    ]  # fmt: skip
    vertical = [s[0] for s in outside if near(s[0], s[2])]
    horizontal = [s[1] for s in outside if near(s[1], s[3])]
    assert len(vertical) + len(horizontal) == len(outside)
    inside = [s for s in d.segments if not s[5] and s not in outside]  # gap marks, frame lines
    inside_x = [s[0] for s in inside if near(s[0], s[2])]
    inside_y = [s[1] for s in inside if near(s[1], s[3])]
    room_y, room_x = geo.mark_lengths()
    for found, lines, room, within in (
        (vertical, geo.cut_xs, room_y, inside_x),
        (horizontal, geo.cut_ys, room_x, inside_y),
    ):
        assert all(any(near(v, line) for line in lines) for v in found)  # on a cut line
        # every cut line: marked outside where there is room, else inside the block
        assert all(any(near(v, line) for v in (found if room else within)) for line in lines)
    assert any(geo.mark_lengths())  # at least one side has room for marks
    for x1, y1, x2, y2, *_ in outside:
        assert math.hypot(x2 - x1, y2 - y1) >= MARK_MIN - 0.01
        assert min(x1, x2) >= PRINT_MARGIN - 0.01 and max(x1, x2) <= w - PRINT_MARGIN + 0.01
        assert min(y1, y2) >= PRINT_MARGIN - 0.01 and max(y1, y2) <= h - PRINT_MARGIN + 0.01


SIZE_CASES = [
    CardOptions(paper=paper, **extra)  # type: ignore[arg-type]
    for paper in ("a4", "letter")
    for extra in ({}, {"bleed": 0.0}, {"gap": 0.0}, {"gap": 0.0, "bleed": 3.0}, {"fold": True})
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    SIZE_CASES,
    ids=[
        f"{o.paper}-gap{o.gap:g}-bleed{'default' if o.bleed is None else f'{o.bleed:g}'}"
        + ("-fold" if o.fold else "")
        for o in SIZE_CASES
    ],
)
def test_cards_print_at_63_by_88_mm_measured_on_the_page(options: CardOptions) -> None:
    """The card size read from what the PDF draws: the distance between a card's cut lines
    (the marks across the gaps, or the lines in the frames) and its frame less the bleed
    the bleed box declares."""
    r = spice_road()
    data = pdf(r, options)
    page = pages_of(r, options, "cards", "fold" if options.fold else "front")[0]
    d = drawing(data, page)
    geo = layout(options.paper, options.gap, options.bleed, options.fold)
    box = reader(data).pages[page]
    bleed = (float(box["/TrimBox"][0]) - float(box["/BleedBox"][0])) * PT
    colour = DECK_COLOURS["merchant"]
    frames_drawn = [f for f in d.fills if f[4] == colour and f[2] > 50 and f[3] > 70]
    assert len(frames_drawn) == geo.per_page
    for _, _, fw, fh, _ in frames_drawn:  # each frame: the card and its bleed on every side
        assert abs(fw - 2 * bleed - 63.0) <= 0.1 and abs(fh - 2 * bleed - 88.0) <= 0.1
    # the cut lines: every mark and line not inside a card, as x (vertical) and y (horizontal)
    inner = [
        (x + bleed + 0.3, y + bleed + 0.3, x + fw - bleed - 0.3, y + fh - bleed - 0.3)
        for x, y, fw, fh, _ in frames_drawn
    ]

    def in_a_card(s: tuple) -> bool:
        mx, my = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
        return any(a < mx < c and b < my < e for a, b, c, e in inner)

    def on_the_fronts(s: tuple) -> bool:  # folding: the backs are the right half's business
        return not geo.fold or (s[0] + s[2]) / 2 < geo.page[0] / 2

    lines = [s for s in d.segments if not s[5] and not in_a_card(s) and on_the_fronts(s)]
    xs = sorted({round(s[0], 2) for s in lines if near(s[0], s[2])})
    ys = sorted({round(s[1], 2) for s in lines if near(s[1], s[3])})
    widths = [b - a for a, b in itertools.pairwise(xs) if b - a > 50]
    heights = [b - a for a, b in itertools.pairwise(ys) if b - a > 50]
    assert widths and heights
    assert all(abs(w - 63.0) <= 0.1 for w in widths), widths
    assert all(abs(h - 88.0) <= 0.1 for h in heights), heights
    assert geo.scale == 1
    cover = page_text(data, 0)
    assert "Cards: 63 × 88 mm (100%)" in cover


@pytest.mark.slow
def test_a_gap_too_wide_for_the_paper_shrinks_the_cards_and_the_cover_says_so() -> None:
    options = CardOptions(paper="letter", gap=10.0)
    geo = layout("letter", 10.0)
    assert 0.9 < geo.scale < 1
    data = pdf(spice_road(), options)
    d = drawing(data, 2)
    assert len(frames(d, geo, DECK_COLOURS["merchant"])) == 9
    assert f"({geo.scale * 100:.1f}%)" in page_text(data, 0)
    assert f"bleed {geo.bleed:g} mm" in page_text(data, 0)


@pytest.mark.slow
def test_without_a_gap_cards_touch_and_thin_lines_run_through_the_frames() -> None:
    options = CardOptions(gap=0, bleed=1)
    geo = layout("a4", 0, 1)
    assert geo.scale == 1  # full-size cards on A4
    d = drawing(pdf(spice_road(), options), 2)
    found = frames(d, geo, DECK_COLOURS["merchant"])
    xs, ys = sorted({x for x, _ in found}), sorted({y for _, y in found})
    assert all(near(b - a, CARD[0]) for a, b in itertools.pairwise(xs))
    assert all(near(b - a, CARD[1]) for a, b in itertools.pairwise(ys))
    ink = deck_colour("merchant")["ink"]
    lines = [s for s in d.segments if s[4] == ink]
    bw, bh = geo.block
    for x in geo.cut_xs:  # end to end, through the frames and the bleed
        assert any(near(s[0], x) and near(abs(s[3] - s[1]), bh + 2) for s in lines), x
    for y in geo.cut_ys:
        assert any(near(s[1], y) and near(abs(s[2] - s[0]), bw + 2) for s in lines), y


@pytest.mark.slow
def test_bleed_with_a_gap_draws_each_cut_line_through_the_frame() -> None:
    geo = layout("a4", 3.0, 1.0)
    d = drawing(pdf(spice_road(), CardOptions(bleed=1.0)), 2)
    ink = deck_colour("merchant")["ink"]
    lines = [s for s in d.segments if s[4] == ink]
    cw, ch = geo.printed
    for i in range(9):
        x, y = geo.slot(i)
        for edge in (x, x + cw):
            assert any(near(s[0], edge) and near(abs(s[3] - s[1]), ch + 2) for s in lines)
        for edge in (y, y + ch):
            assert any(near(s[1], edge) and near(abs(s[2] - s[0]), cw + 2) for s in lines)


# -- backs -----------------------------------------------------------------------------------------


def backs_of(d: Drawing, geo, deck: str) -> list[tuple[float, float]]:
    """Top-left corners of the cards whose backs a back page fills (from the tinted areas)."""
    r = geo.back_reach
    cw, ch = geo.printed
    colour = deck_colour(deck)["back"]
    return [(round(x + r, 2), round(y + r, 2)) for x, y in sized(d, cw + 2 * r, ch + 2 * r, colour)]


def test_backs_are_mirrored_for_long_edge_duplex_and_shifted_by_the_offset() -> None:
    r = edited(spice_road(), short_merchant_deck)
    dx, dy = 1.5, -0.5
    data = pdf(r, CardOptions(back_offset=(dx, dy)))
    geo = layout("a4")
    w = PAPER_MM["a4"][0]
    cw = geo.printed[0]
    front = frames(drawing(data, 2), geo, DECK_COLOURS["merchant"])
    back = backs_of(drawing(data, 3), geo, "merchant")
    assert len(front) == 2
    assert same(sorted(back), sorted((w - x - cw + dx, y + dy) for x, y in front))

    def seg(x1: float, y1: float, x2: float, y2: float) -> tuple:
        return tuple(sorted([(round(x1, 2), round(y1, 2)), (round(x2, 2), round(y2, 2))]))

    mirrored = sorted(
        seg(w - x1 + dx, y1 + dy, w - x2 + dx, y2 + dy)
        for x1, y1, x2, y2 in drawing(data, 2).registration
    )
    assert mirrored and mirrored == sorted(seg(*s) for s in drawing(data, 3).registration)


def test_registration_marks_coincide_without_offset() -> None:
    data = pdf(spice_road())
    w = PAPER_MM["a4"][0]

    def centres(d: Drawing) -> set[tuple[float, float]]:
        return {
            (round((x1 + x2) / 2, 2), round((y1 + y2) / 2, 2)) for x1, y1, x2, y2 in d.registration
        }

    front, back = centres(drawing(data, 2)), centres(drawing(data, 3))
    assert front and {(round(w - x, 2), y) for x, y in front} == back


def test_backs_are_borderless_and_forgive_a_2mm_shift() -> None:
    data = pdf(spice_road())
    geo = layout("a4")
    d = drawing(data, 3)
    assert geo.back_reach >= BACK_BLEED
    assert len(backs_of(d, geo, "merchant")) == 9  # each back reaches 2 mm past its cut lines
    cards = [geo.slot(i, back=True) for i in range(9)]
    cw, ch = geo.printed
    for x1, y1, x2, y2, *_ in d.segments:  # no outline: every line is in a card's middle
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        [(x, y)] = [(x, y) for x, y in cards if x <= mx <= x + cw and y <= my <= y + ch]
        assert min(mx - x, x + cw - mx, my - y, y + ch - my) >= 5


def ink(d: Drawing) -> float:
    """Filled area weighted by darkness (mm², overlaps counted twice): a rough ink measure."""
    from century.shared.typst.colours import relative_luminance

    return sum(w * h * (1 - relative_luminance(c)) for _, _, w, h, c in d.fills)


@pytest.mark.slow
def test_low_ink_backs_leave_the_paper_white() -> None:
    tinted = drawing(pdf(spice_road()), 3)
    low = drawing(pdf(spice_road(), CardOptions(low_ink=True)), 3)
    assert backs_of(low, layout("a4"), "merchant") == []
    assert ink(low) < ink(tinted) / 20


def test_fold_mode_puts_fronts_and_mirrored_backs_side_by_side() -> None:
    options = CardOptions(fold=True)
    data = pdf(spice_road(), options)
    geo = layout("a4", fold=True)
    w = geo.page[0]
    page = pages_of(spice_road(), options, "cards")[0]
    d = drawing(data, page)
    fronts = frames(d, geo, DECK_COLOURS["merchant"])
    assert len(fronts) == 4 and all(x + geo.printed[0] < w / 2 for x, _ in fronts)
    # backs touching the fold are clipped there; compare their other edge
    reach = geo.back_reach
    right_edges = sorted(
        (round(x + fw - reach, 2), round(y + reach, 2))
        for x, y, fw, fh, c in d.fills
        if c == deck_colour("merchant")["back"] and near(fh, geo.printed[1] + 2 * reach)
    )
    assert len(right_edges) == 4
    assert right_edges == sorted((round(w - x, 2), round(y, 2)) for x, y in fronts)
    folds = [s for s in d.segments if s[5]]
    assert folds and all(near(s[0], w / 2) and near(s[2], w / 2) for s in folds)
    assert all(
        max(s[1], s[3]) <= geo.origin[1] or min(s[1], s[3]) >= geo.origin[1] + geo.block[1]
        for s in folds
    )
    assert "fronts on the left and their backs on the right" in page_text(data, 0)


# -- card faces ------------------------------------------------------------------------------


def test_index_corner_shows_each_cards_effect_in_miniature() -> None:
    r = spice_road()
    data = pdf(r)
    geo = layout("a4")
    d = drawing(data, 2)
    mini = 3.3 * geo.scale
    minis = [f for f in d.fills if near(f[2], mini, 0.05) and near(f[3], mini, 0.05)]
    colours = {res.colour.upper(): i for i, res in enumerate(r.resources)}
    cards = frames(d, geo, DECK_COLOURS["merchant"])
    for (x, y), card in zip(
        sorted(cards, key=lambda p: (p[1], p[0])), r.merchant_deck[:9], strict=True
    ):
        corner = [f for f in minis if x < f[0] < x + 10 and y < f[1] < y + geo.printed[1] / 2]
        if card.kind == "upgrade":  # grey upgrade marks, one per step
            assert len(corner) == short_fields(card.effect, len(colours))["steps"]
            continue
        vector = [0] * len(r.resources)
        for f in corner:
            vector[colours[f[4]]] += 1
        fields = short_fields(card.effect, len(colours))
        paid, got = fields["pay"], fields["get"]
        expected = tuple(a + b for a, b in zip(paid, got, strict=True))
        assert tuple(vector) == expected, card.id


@pytest.mark.slow
def test_reference_card_names_the_four_actions_and_the_end_in_words() -> None:
    r = spice_road()
    options = CardOptions(players=2, kit=False, backs=False)
    data = pdf(r, options)
    page = text(data)
    for action in ("Play:", "Acquire:", "Claim:", "Rest:"):
        assert action in page
    assert "On your turn, do one thing:" in page
    assert f"End of your turn: at most {r.caravan_limit} spices" in page
    assert "The game end is triggered at this many point cards; finish the round:" in page
    counts = " ".join(str(n) for n in r.player_counts)
    ends = " ".join(str(r.end_threshold[n]) for n in r.player_counts)
    assert f"Players {counts} Point cards {ends}" in page
    assert "♟" not in page and "⚑" not in page


@pytest.mark.slow
def test_german_kit_speaks_german_on_every_page() -> None:
    data = pdf(spice_road(), CardOptions(lang="de"))
    page = text(data)
    for word in (
        "Tatsächliche Größe", "Wenden an der langen Kante", "Händlerkarten", "Gewürzkarte",
        "Umwandlungskarte", "Tauschkarte", "Übersicht", "Punktekarte nehmen", "Karawane · Platz 1",
    ):  # fmt: skip
        assert word in page, word
    for word in ("Trade card", "Merchant cards", "Overview", "Create 2", "Ernte"):
        assert word not in page, word


def test_cube_letters_reach_4_5_to_1_in_every_ladder() -> None:
    rulesets = {**bundled_rulesets(), **compile_paths([VALID]).rulesets}
    rulesets["five-ranks"] = five_ranks()
    checked = 0
    for name, r in rulesets.items():
        doc = document(r, CardOptions(kit=False, backs=False))
        fills = [*doc["resources"], *doc["coins"]]
        assert [x["colour"] for x in doc["resources"]] == [res.colour for res in r.resources]
        for item in fills:
            best = max(contrast(item["colour"], BLACK), contrast(item["colour"], WHITE))
            assert item["ink"] == ink_on(item["colour"])
            assert contrast(item["colour"], item["ink"]) == best >= 4.5, (name, item)
            checked += 1
    golem = {r.code: ink_on(r.colour) for r in bundled_rulesets()["golem"].resources}
    assert golem["G"] == golem["B"] == golem["P"] == BLACK  # white gave 3.0–4.1 : 1
    for deck in DECK_COLOURS:
        colours = deck_colour(deck)
        for fill in ("colour", "tint", "back"):
            assert (
                contrast(colours[fill], colours["ink" if fill == "colour" else f"{fill}_ink"])
                >= 4.5
            )
    assert checked > 20


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"kind": "mystery", "effect": None}, "unknown card kind: mystery"),
        ({"effect": [{"mystery": 1}]}, "unknown step"),
    ],
)
def test_an_unknown_card_kind_or_step_is_an_error_not_another(monkeypatch, change, error) -> None:
    from century.shared.typst import RenderError
    from century.targets import cards

    real = cards.document

    def odd(ruleset, options, geo=None):
        doc = real(ruleset, options, geo)
        face = doc["pages"][0]["fronts"][0]["face"]
        face.update(change)
        if face["effect"] is None:
            del face["effect"]
        return doc

    monkeypatch.setattr(cards, "document", odd)
    with pytest.raises(RenderError, match=error):
        cards.render(spice_road(), CardOptions(kit=False, backs=False))


# -- tokens and mats -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [None, 3])
def test_tokens_and_mats_are_counted_from_the_data(players: int | None) -> None:
    r = spice_road()
    options = CardOptions(players=players)
    seats = players or r.players_max
    data = pdf(r, options)
    fronts = pages_of(r, options, "tokens", "front")
    coins: dict[str, int] = {}
    cubes: dict[str, int] = {}
    for page in fronts:
        d = drawing(data, page)
        for _, _, w, h, colour in d.fills:
            if near(w, COIN_SIZE, 0.1) and near(h, COIN_SIZE, 0.1):
                coins[colour] = coins.get(colour, 0) + 1
            elif near(w, CUBE_SIZE, 0.1) and near(h, CUBE_SIZE, 0.1):
                cubes[colour] = cubes.get(colour, 0) + 1
    assert coins == {c.colour.upper(): c.count(seats) for c in r.coins}
    assert cubes == {res.colour.upper(): r.caravan_limit * seats for res in r.resources}
    mats = pages_of(r, options, "mats")
    assert len(mats) == math.ceil(seats / 2)
    mat_text = " ".join(page_text(data, i) for i in mats)
    assert mat_text.count("Caravan · Seat") == seats
    assert f"At the end of your turn, at most {r.caravan_limit} spices" in mat_text
    for seat, start in enumerate(r.seats[:seats], start=1):
        assert f"Caravan · Seat {seat} Start: {' '.join(r.cubes(start))}" in mat_text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_rows_are_filled_evenly_and_spare_a_page(paper: str) -> None:
    """No coin or cube sits alone on a last row: a group's rows hold as many tokens as the
    fewest rows allow, evenly. A caravan of 12 (more cube tokens) fits on one sheet on A4 and
    on Letter, the groups closer together when spacing them would cost a sheet."""
    for ruleset in (spice_road(), changed(spice_road(), caravan_limit=12)):
        doc = document(ruleset, CardOptions(paper=paper))
        fronts = [p for p in doc["pages"] if p["type"] == "tokens" and p["side"] == "front"]
        assert len(fronts) == 1, (ruleset.caravan_limit, paper)
        rows: dict[tuple[str, int, float], int] = {}
        for item in fronts[0]["fronts"]:
            key = (item["kind"], item["index"], item["y"])
            rows[key] = rows.get(key, 0) + 1
        for kind, index in {(k, i) for k, i, _ in rows}:
            counts = [n for (k, i, _), n in sorted(rows.items()) if (k, i) == (kind, index)]
            assert max(counts) - min(counts) <= 1, (paper, kind, index, counts)


@pytest.mark.slow
def test_no_kit_gives_card_pages_only() -> None:
    options = CardOptions(kit=False)
    doc = document(spice_road(), options)
    assert {p["type"] for p in doc["pages"]} == {"cards"}
    assert len(reader(pdf(spice_road(), options)).pages) == len(doc["pages"])


# -- other rulesets, determinism, hostile names --------------------------------------------------


@pytest.mark.slow
def test_five_ranks_caravan_12_and_three_coin_piles_render() -> None:
    r = five_ranks()
    base = spice_road()
    data = pdf(r, CardOptions(backs=False))
    t = text(data)
    added = [c for c in r.merchant_deck if c.id not in {b.id for b in base.merchant_deck}]
    points = [p for p in r.point_deck if p.id not in {b.id for b in base.point_deck}]
    assert added and points and r.caravan_limit == 12 and len(r.coins) == 3
    assert all(card.id in t for card in added)
    assert all(f"{card.id} {card.points}" in t for card in points)  # id and points on the face
    assert "at most 12 spices" in t  # the reference card and the mats
    assert f"up to {12 * r.players_max} of each" in t  # cube tokens: caravan 12 × 5 players


@pytest.mark.slow
def test_retheme_names_the_decks_in_its_own_terms() -> None:
    golem = edited(spice_road(), retheme)
    t = text(pdf(golem))
    assert "Golem cards" in t and "Point cards" not in t


@pytest.mark.slow
def test_same_input_gives_byte_identical_pdfs() -> None:
    r = spice_road()
    options = CardOptions(paper="letter", bleed=1)
    assert render(r, options) == render(r, options)


@pytest.mark.slow
def test_hostile_names_render_as_text() -> None:
    r = hostile(spice_road())
    data = pdf(r, CardOptions(kit=False))
    rd = reader(data)
    for page in rd.pages:
        assert round(float(page.mediabox.width) * PT, 1) == 210.0
    flat = text(data)
    assert "#import" in flat and "$x$" in flat and "#set page(width: 1cm)" in flat
    assert r.merchant_deck[0].id.replace("\n", " ") in flat  # the id, a line break a space


# -- CLI and build ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str):
    from century.cli import app

    return runner.invoke(app, ["cards", *args])


@pytest.mark.slow
def test_cli_writes_a_kit_per_language(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(
        runner, "spice-road", "--paper", "letter", "--players", "3", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".century-manifest.json",
        "cards-de-letter.pdf",
        "cards-en-letter.pdf",
        "cards-fr-letter.pdf",
    ]
    assert (tmp_path / "cards-en-letter.pdf").read_bytes() == pdf(
        spice_road(), CardOptions(paper="letter", players=3, lang="en")
    )
    assert "Händlerkarten" in text((tmp_path / "cards-de-letter.pdf").read_bytes())
    assert "Kit à imprimer" in text((tmp_path / "cards-fr-letter.pdf").read_bytes())


@pytest.mark.slow
def test_cli_options_reach_the_kit(runner: CliRunner, tmp_path: Path) -> None:
    result = invoke(
        runner, "spice-road", "--lang", "en", "--gap", "0", "--bleed", "1", "--back-offset",
        "-1,0.5", "--low-ink", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = (tmp_path / "cards-en-a4.pdf").read_bytes()
    options = CardOptions(gap=0, bleed=1.0, back_offset=(-1.0, 0.5), low_ink=True, lang="en")
    assert data == pdf(spice_road(), options)
    result = invoke(runner, "spice-road", "-l", "de", "--fold", "--no-kit", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cards-de-a4.pdf").read_bytes() == render(
        spice_road(), CardOptions(fold=True, kit=False, lang="de")
    )


def test_cli_help_says_what_fits_on_each_paper(runner: CliRunner) -> None:
    from century.shared.cards.layout import fit_summary

    result = invoke(runner, "--help")
    assert result.exit_code == 0
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
    assert " ".join(fit_summary().split()) in flat


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown game"),
        (["spice-road", "--bleed", "2"], "does not fit a 3 mm gap"),
        (["spice-road", "--gap", "0", "--bleed", "5"], "at most 4 mm"),
        (["spice-road", "--gap", "12"], "gap between cards"),
        (["spice-road", "--bleed", "-1"], "bleed"),
        (["spice-road", "--players", "99"], "players"),
        (["spice-road", "--back-offset", "1;2"], "X,Y"),
        (["spice-road", "--back-offset", "0,-40"], "back offset"),
        (["spice-road", "--lang", "xx"], "language"),
        (["spice-road", "--paper", "b5"], "b5"),
        (["spice-road", "--fold", "--no-backs"], "needs the backs"),
    ],
)
def test_cli_rejects_bad_options_clearly(
    runner: CliRunner, tmp_path: Path, args: list[str], message: str
) -> None:
    result = invoke(runner, *args, "--out", str(tmp_path))
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_build_target_writes_a_kit_per_language_and_paper(tmp_path: Path) -> None:
    r = spice_road()
    names = sorted(p.name for p in written("cards", r, tmp_path, papers=("a4", "letter")))
    assert names == sorted(
        f"cards-{lang}-{p}.pdf" for lang in r.languages for p in ("a4", "letter")
    )
    assert (tmp_path / "cards-en-a4.pdf").read_bytes() == pdf(r, CardOptions(lang="en"))
    assert "Gewürzkarte" in text((tmp_path / "cards-de-a4.pdf").read_bytes())


# -- one geometry per kit --------------------------------------------------------------------


def test_a_kit_computes_its_geometry_once(monkeypatch) -> None:
    """Every position, size and box of one kit (the pages, the cover's figures, the PDF's
    TrimBox and BleedBox) comes from one `Layout`, computed once."""
    from century.targets import cards

    made = []
    real = cards.layout

    def counted(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(cards, "layout", counted)
    pdf = render(spice_road(), CardOptions(kit=False, gap=5.0))
    assert len(made) == 1
    geo = made[0]
    page = next(p for p in PdfReader(io.BytesIO(pdf)).pages if "/TrimBox" in p)
    x, y, w, h = geo.trim_box()
    box = [float(v) * 25.4 / 72 for v in page.trimbox]  # left, bottom, right, top
    assert box == pytest.approx([x, geo.page[1] - y - h, x + w, geo.page[1] - y], abs=0.02)
    assert geo.card_size == (63.0, 88.0) and geo.printed == (63.0, 88.0)
