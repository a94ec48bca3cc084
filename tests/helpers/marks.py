"""Where a PDF page has ink: every piece of text and every painted path, as boxes in mm from
the page's bottom left, read with pypdf's content-stream visitors. The printed targets' tests
measure a page's layout with it (an empty band, text past a margin, a glyph's height) from
the PDF itself, not from the template that made it."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader

PT = 25.4 / 72
"""Millimetres per PDF point."""
PAINT = frozenset({b"f", b"F", b"f*", b"S", b"s", b"B", b"B*", b"b", b"b*"})
"""The operators that paint the current path (``n`` ends it unpainted: a clip)."""


@dataclass(frozen=True)
class Mark:
    """Ink on a page: a box in mm (x0 < x1, y0 < y1, from the bottom left), and for text its
    characters and size in pt (empty and 0 for a drawn path)."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""
    size: float = 0.0


@dataclass(frozen=True)
class Page:
    """One page: its size in mm and its marks."""

    width: float
    height: float
    marks: tuple[Mark, ...]


def _apply(cm: list[float], x: float, y: float) -> tuple[float, float]:
    return cm[0] * x + cm[2] * y + cm[4], cm[1] * x + cm[3] * y + cm[5]


def pages(pdf: bytes) -> list[Page]:
    """Every page's marks. A text piece spans its size from 0.24 em below its baseline to
    0.76 em above it (DejaVu Sans's descender and cap height, near enough for any font);
    a path spans the points it was built from, once painted."""
    found = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        marks: list[Mark] = []
        path: list[tuple[float, float]] = []

        def text(chars, cm, tm, font, size, marks=marks):
            if not chars.strip():
                return
            x, y = _apply(cm, tm[4], tm[5])
            scale = abs(tm[3] or 1) * abs(cm[3] or 1)
            em = size * scale
            width = len(chars) * 0.6 * em * abs(cm[0] * tm[0] or 1) / scale
            marks.append(
                Mark(x * PT, (y - 0.24 * em) * PT, (x + width) * PT, (y + 0.76 * em) * PT,
                     chars, em)
            )  # fmt: skip

        def operator(op, args, cm, tm, marks=marks, path=path):
            if op == b"re":
                x, y, w, h = (float(a) for a in args)
                path.extend(_apply(cm, px, py) for px in (x, x + w) for py in (y, y + h))
            elif op in (b"m", b"l", b"c", b"v", b"y"):
                values = [float(a) for a in args]
                path.extend(_apply(cm, *values[i : i + 2]) for i in range(0, len(values), 2))
            elif op in PAINT or op == b"n":
                if op != b"n" and path:
                    xs, ys = [p[0] for p in path], [p[1] for p in path]
                    marks.append(Mark(min(xs) * PT, min(ys) * PT, max(xs) * PT, max(ys) * PT))
                path.clear()

        page.extract_text(visitor_text=text, visitor_operand_before=operator)
        box = page.mediabox
        found.append(Page(float(box.width) * PT, float(box.height) * PT, tuple(marks)))
    return found


def empty_bands(marks: list[Mark], top: float, bottom: float) -> list[tuple[float, float]]:
    """The stretches of height from `top` down to `bottom` (mm from the page's foot) where no
    mark has ink across the page's whole width, as (upper, lower), from the top down."""
    spans = sorted(((min(m.y1, top), max(m.y0, bottom)) for m in marks), reverse=True)
    bands, edge = [], top
    for upper, lower in spans:
        if upper <= lower:
            continue
        if upper < edge:
            bands.append((edge, upper))
        edge = min(edge, lower)
    if edge > bottom:
        bands.append((edge, bottom))
    return bands
