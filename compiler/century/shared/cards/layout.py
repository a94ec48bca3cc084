"""Where cards, cut marks and registration marks go on a sheet, in millimetres.

All geometry of the card sheets is computed here; the template only places what it is given.
Lengths are millimetres from the page's top-left corner.

Two ways to print backs:

- **duplex** (default): 3 × 3 cards on a portrait page; the next page holds their backs,
  mirrored by column for long-edge flipping (the back of column ``c`` is printed in column
  ``COLS - 1 - c``).
- **fold**: for printers without duplex. A landscape page holds 2 × 2 fronts in its left half
  and their backs, mirrored about the centre line, in its right half; fold along the centre,
  glue, and cut.

The block of cards is centred. With a ``gap`` > 0 every card stands alone and short marks
continue every cut line across the gaps; with ``gap`` 0 neighbouring cards share a cut line
and a thin line is drawn through the frames on it. ``bleed`` extends the frames past the cut
lines (with a gap, on every side, leaving at least ``MIN_CLEAR`` mm of the gap white; by
default `DEFAULT_BLEED`, or less where the gap is too narrow for it), and then thin lines in
the frame's ink mark every cut line through the colour.

Cards are printed at full size whenever the block fits inside the printable area (``PRINT_MARGIN``
clear of every paper edge): the bleed may reach into that margin, where a printer that cannot
print there only loses some of the bleed. Cut marks outside the block stay ``PRINT_MARGIN`` mm
clear of the paper edge; on a side with room for less than ``MARK_MIN`` mm they are left out,
and the marks across the gaps and the thin lines on the frames carry the cut lines there
(so 63 × 88 mm cards with a 3 mm gap and 1 mm of bleed fit both A4 and Letter). Only when the
block itself does not fit (a very wide gap) is it scaled down just enough (``Layout.scale``;
gaps, bleed and marks keep their size).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes in mm (width, height), portrait."""

CARD_W, CARD_H = 63.0, 88.0
"""The card size of a game without a look of its own (poker size); a look gives another
(`Layout.card_size`), and the sheet holds as many of them as fit at full size."""
PRINT_MARGIN = 4.0
"""No mark comes closer than this to the paper edge: most home printers cannot print there."""
MARK_GAP = 0.5
"""Space between the card area (with its bleed) and the start of a cut mark."""
MARK_MIN = 2.0
"""Cut marks outside the block are at least this long; where there is less room, a side has
none (the marks across the gaps and the lines on the frames carry its cut lines)."""
MARK_MAX = 8.0
MIN_CLEAR = 1.0
"""With a gap, bleed leaves at least this much of the gap white (for the marks in it)."""
MAX_GAP = 10.0
DEFAULT_GAP = 3.0
DEFAULT_BLEED = 1.0
"""Frame colour past every cut line unless the user says otherwise (less with a narrow gap)."""
MAX_BACK_OFFSET = 10.0
"""Printers shift the back side by a millimetre or two; more than this is a typo."""
BACK_BLEED = 2.0
"""Backs reach this far past every outer cut line, so a shifted back still fills the card."""
REG_RADIUS = 2.0
"""Radius of a registration mark's circle; its cross reaches 1.5 times as far."""

Segment = tuple[float, float, float, float]
"""A straight line from (x1, y1) to (x2, y2)."""
Rect = tuple[float, float, float, float]
"""x, y, width, height."""


class LayoutError(ValueError):
    """The options cannot be printed (paper unknown, gap or bleed out of range)."""


def _floor(value: float, digits: int = 4) -> float:
    """Round down, so a computed fit never overshoots by a rounding error."""
    factor = 10**digits
    return math.floor(value * factor + 1e-9) / factor


@dataclass(frozen=True)
class Layout:
    """The card block on one paper: size, position, slots and marks."""

    paper: str
    gap: float = DEFAULT_GAP
    bleed: float = DEFAULT_BLEED
    fold: bool = False
    card_size: tuple[float, float] = (CARD_W, CARD_H)
    """The card's width and height in mm at full size (the look's `card_size`); the size it
    prints at is `printed`."""

    # -- the page and the block ---------------------------------------------------------

    @property
    def page(self) -> tuple[float, float]:
        """(width, height) of a card page: portrait for duplex, landscape for folding."""
        w, h = PAPERS[self.paper]
        return (h, w) if self.fold else (w, h)

    def _count(self, room: float, card: float) -> int:
        """How many cards of side `card` fit in `room` at full size with the default gap
        (at least 1; at most 6)."""
        usable = room - 2 * PRINT_MARGIN + DEFAULT_GAP
        return max(1, min(6, int((usable + 1e-9) // (card + DEFAULT_GAP))))

    @property
    def cols(self) -> int:
        """Columns of cards (fronts and backs side by side when folding: 2 + 2)."""
        return 4 if self.fold else self._count(self.page[0], self.card_size[0])

    @property
    def rows(self) -> int:
        return 2 if self.fold else self._count(self.page[1], self.card_size[1])

    @property
    def front_cols(self) -> int:
        """Columns that hold fronts (all of them for duplex, the left half for folding)."""
        return self.cols // 2 if self.fold else self.cols

    @property
    def per_page(self) -> int:
        return self.front_cols * self.rows

    @property
    def need(self) -> float:
        """Room needed between the block's cut lines and the paper edge: the printer's margin
        (the bleed may reach into it, but never past the paper's edge)."""
        return max(PRINT_MARGIN, self.bleed)

    @cached_property
    def scale(self) -> float:
        """Card size factor: 1, or less when the printable area cannot hold the block."""
        w, h = self.page
        card_w, card_h = self.card_size
        fit_w = (w - 2 * self.need - (self.cols - 1) * self.gap) / (self.cols * card_w)
        fit_h = (h - 2 * self.need - (self.rows - 1) * self.gap) / (self.rows * card_h)
        return min(1.0, _floor(fit_w), _floor(fit_h))

    @property
    def printed(self) -> tuple[float, float]:
        """The card's width and height in mm as printed (trim): `card_size` times `scale`."""
        return self.card_size[0] * self.scale, self.card_size[1] * self.scale

    @property
    def block(self) -> tuple[float, float]:
        cw, ch = self.printed
        return self.cols * cw + (self.cols - 1) * self.gap, self.rows * ch + (
            self.rows - 1
        ) * self.gap

    @property
    def origin(self) -> tuple[float, float]:
        """Top-left corner of the block (trim, without bleed)."""
        (w, h), (bw, bh) = self.page, self.block
        return (w - bw) / 2, (h - bh) / 2

    def cell(self, row: int, col: int) -> tuple[float, float]:
        """Top-left corner of the card in `row`, `col`."""
        (x0, y0), (cw, ch) = self.origin, self.printed
        return x0 + col * (cw + self.gap), y0 + row * (ch + self.gap)

    def slot(self, index: int, back: bool = False) -> tuple[float, float]:
        """Top-left corner of front slot `index` (row-major), or of its back."""
        row, col = divmod(index, self.front_cols)
        if back:
            col = self.cols - 1 - col
        return self.cell(row, col)

    @property
    def fold_x(self) -> float | None:
        """The fold line (x), in fold mode."""
        return self.page[0] / 2 if self.fold else None

    # -- cut lines and marks --------------------------------------------------------------

    @property
    def cut_xs(self) -> list[float]:
        """Every vertical cut line of the fronts, left to right."""
        cw = self.printed[0]
        xs: list[float] = []
        for col in range(self.front_cols):
            x = self.cell(0, col)[0]
            xs += [x, x + cw]
        return sorted(set(_mm(xs)))

    @property
    def cut_ys(self) -> list[float]:
        ch = self.printed[1]
        ys: list[float] = []
        for row in range(self.rows):
            y = self.cell(row, 0)[1]
            ys += [y, y + ch]
        return sorted(set(_mm(ys)))

    def mark_lengths(self) -> tuple[float, float]:
        """Length of the cut marks above/below and left/right of the block (0: none there,
        for lack of room)."""
        x0, y0 = self.origin

        def length(room: float) -> float:
            return min(MARK_MAX, room) if room >= MARK_MIN - 1e-9 else 0.0

        room_y = y0 - self.bleed - MARK_GAP - PRINT_MARGIN
        room_x = x0 - self.bleed - MARK_GAP - PRINT_MARGIN
        return length(room_y), length(room_x)

    def cut_marks(self) -> list[Segment]:
        """Marks at both ends of every cut line, outside the block, and across every gap."""
        len_v, len_h = self.mark_lengths()
        (x0, y0), (bw, bh), b = self.origin, self.block, self.bleed
        top, bottom = y0 - b - MARK_GAP, y0 + bh + b + MARK_GAP
        left, right = x0 - b - MARK_GAP, x0 + bw + b + MARK_GAP
        marks: list[Segment] = []
        if len_v > 0:
            for x in self.cut_xs:
                marks += [(x, top - len_v, x, top), (x, bottom, x, bottom + len_v)]
        if len_h > 0:
            for y in self.cut_ys:
                marks.append((left - len_h, y, left, y))
                if not self.fold:
                    marks.append((right, y, right + len_h, y))
        return marks + self.gap_marks()

    def gap_marks(self) -> list[Segment]:
        """Inside the sheet: each cut line continued across the gaps it meets."""
        if self.gap <= 0:
            return []
        (cw, ch), b = self.printed, self.bleed
        marks: list[Segment] = []
        for row in range(self.rows - 1):  # vertical lines across the gaps between rows
            y1 = self.cell(row, 0)[1] + ch + b
            y2 = self.cell(row + 1, 0)[1] - b
            marks += [(x, y1, x, y2) for x in self.cut_xs]
        for col in range(self.front_cols):  # horizontal lines across the gaps between columns
            if col == self.cols - 1:
                continue
            x1 = self.cell(0, col)[0] + cw + b
            x2 = self.cell(0, col + 1)[0] - b
            if self.fold and col == self.front_cols - 1:
                x2 = self.page[0] / 2  # up to the fold
            marks += [(x1, y, x2, y) for y in self.cut_ys]
        return marks

    def trim_lines(self) -> list[Segment]:
        """Thin lines on the cut lines where a frame's colour runs across them.

        Without a gap neighbouring frames meet, so every shared cut line gets one, end to
        end; with bleed every card edge does.
        """
        (x0, y0), bh, (cw, ch), b = self.origin, self.block[1], self.printed, self.bleed
        if self.gap <= 0:
            front_w = self.front_cols * cw
            lines = [(x, y0 - b, x, y0 + bh + b) for x in self.cut_xs]
            lines += [(x0 - b, y, x0 + front_w + b, y) for y in self.cut_ys]
            return lines
        if b <= 0:
            return []
        lines = []
        for row in range(self.rows):
            for col in range(self.front_cols):
                x, y = self.cell(row, col)
                lines += [
                    (x, y - b, x, y + ch + b),
                    (x + cw, y - b, x + cw, y + ch + b),
                    (x - b, y, x + cw + b, y),
                    (x - b, y + ch, x + cw + b, y + ch),
                ]
        return lines

    def fold_marks(self) -> list[Segment]:
        """The fold line, drawn in the margins above and below the block."""
        if self.fold_x is None:
            return []
        (_, y0), (_, bh), h = self.origin, self.block, self.page[1]
        x = self.fold_x
        return [(x, PRINT_MARGIN, x, y0 - 1.0), (x, y0 + bh + 1.0, x, h - PRINT_MARGIN)]

    # -- boxes and registration -----------------------------------------------------------

    def trim_box(self) -> Rect:
        """The fronts' outer cut lines."""
        (x0, y0), (bw, bh), cw = self.origin, self.block, self.printed[0]
        width = self.front_cols * cw + (self.front_cols - 1) * self.gap if self.fold else bw
        return x0, y0, width, bh

    def bleed_box(self) -> Rect:
        x, y, w, h = self.trim_box()
        b = self.bleed
        return x - b, y - b, w + 2 * b, h + 2 * b

    @property
    def back_reach(self) -> float:
        """How far a back's colour reaches past its cut lines: at least `BACK_BLEED`, and
        at least half the gap, so the backs of neighbours join into one area."""
        return max(BACK_BLEED, self.bleed, self.gap / 2)

    def back_rect(self, index: int) -> Rect:
        """The area the back of front slot `index` fills."""
        (x, y), (cw, ch), r = self.slot(index, back=True), self.printed, self.back_reach
        left = x - r if self.fold_x is None else max(self.fold_x, x - r)  # not past the fold
        return left, y - r, x + cw + r - left, ch + 2 * r

    def registration(self) -> list[tuple[float, float]]:
        """Centres of the registration marks (duplex only), mirror-symmetric."""
        if self.fold:
            return []
        (x0, y0), (bw, bh), (cw, ch) = self.origin, self.block, self.printed
        reach = self.back_reach
        w, h = self.page
        if y0 >= x0:
            yc = (PRINT_MARGIN + y0 - reach) / 2
            xs = (x0 + cw / 2, x0 + bw - cw / 2)
            return [(x, y) for y in (yc, h - yc) for x in xs]
        xc = (PRINT_MARGIN + x0 - reach) / 2
        ys = (y0 + ch / 2, y0 + bh - ch / 2)
        return [(x, y) for x in (xc, w - xc) for y in ys]

    def reg_radius(self) -> float:
        """Registration marks shrink to fit a narrow margin."""
        x0, y0 = self.origin
        band = max(x0, y0) - self.back_reach - PRINT_MARGIN
        return max(0.5, min(REG_RADIUS, band / 3))


def _mm(values: list[float]) -> list[float]:
    """Millimetres rounded to a micrometre: stable JSON, far below printer precision."""
    return [round(v, 3) + 0.0 for v in values]


MAX_BLEED = 4.0
"""More bleed than this is a typo (print services ask for 2 to 3 mm)."""


def max_bleed(gap: float) -> float:
    """The largest bleed (mm) for `gap`: `MAX_BLEED` without a gap, else what leaves
    `MIN_CLEAR` of the gap white."""
    return MAX_BLEED if gap <= 0 else max(0.0, _floor((gap - MIN_CLEAR) / 2, 1))


def default_bleed(gap: float) -> float:
    """The bleed when none is asked for: `DEFAULT_BLEED`, or as much as `gap` allows."""
    return min(DEFAULT_BLEED, max_bleed(gap))


def layout(
    paper: str,
    gap: float = DEFAULT_GAP,
    bleed: float | None = None,
    fold: bool = False,
    card_size: tuple[float, float] = (CARD_W, CARD_H),
) -> Layout:
    """The layout for these options and cards of `card_size` (mm at full size; `bleed` None:
    `default_bleed`), or `LayoutError` naming what is out of range."""
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})")
    if not 0 <= gap <= MAX_GAP:
        raise LayoutError(f"the gap between cards must be 0 to {MAX_GAP:g} mm, not {gap:g}")
    if bleed is None:
        bleed = default_bleed(gap)
    if not bleed >= 0:
        raise LayoutError(f"bleed must be 0 mm or more, not {bleed:g}")
    most = max_bleed(gap)
    if bleed > most:
        if gap > 0:
            raise LayoutError(
                f"a bleed of {bleed:g} mm does not fit a {gap:g} mm gap (at most {most:g} mm); "
                f"use --gap 0, or a gap of at least {2 * bleed + MIN_CLEAR:g} mm"
            )
        raise LayoutError(f"a bleed of {bleed:g} mm is too much (at most {most:g} mm)")
    return Layout(paper, gap, bleed, fold, (float(card_size[0]), float(card_size[1])))


def full_size_gap(
    paper: str, fold: bool = False, card_size: tuple[float, float] = (CARD_W, CARD_H)
) -> float:
    """The widest gap (mm, to 0.1 mm) at which `paper` still holds the cards at full size."""
    geo = Layout(paper, 0.0, 0.0, fold, card_size)
    (w, h), need = geo.page, geo.need
    room_w = (w - 2 * need - geo.cols * card_size[0]) / max(1, geo.cols - 1)
    room_h = (h - 2 * need - geo.rows * card_size[1]) / max(1, geo.rows - 1)
    return min(MAX_GAP, _floor(min(room_w, room_h), 1))


def fit_summary() -> str:
    """What fits on each paper, in words: the widest gap at full size, and the printed card
    size with the widest gap allowed."""
    parts = []
    for paper in PAPERS:
        widest = full_size_gap(paper)
        smallest = layout(paper, MAX_GAP).scale * 100
        folded = layout(paper, fold=True).scale * 100
        parts.append(
            f"{paper}: 100% with gaps up to {widest:g} mm and any bleed "
            f"({smallest:.1f}% with --gap {MAX_GAP:g}), {folded:.1f}% with --fold"
        )
    return "; ".join(parts).replace("100.0%", "100%") + "."
