"""Ink coverage of rendered pages: Typst renders PNGs, the standard library reads them.

`coverage(png)` returns (ink, covered) for one page: ink is the mean darkness (0 = white
paper, 1 = solid black; colours count by their luminance, as a greyscale print would), covered
is the share of pixels that are not white. Only 8-bit greyscale, RGB and RGBA PNGs without
interlacing are read (what Typst writes).
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def compile_png(template: str, data: Any, ppi: int = 40) -> list[bytes]:
    """Every page of `template` rendered with `data`, as PNG bytes."""
    import typst

    from century.shared.typst import FONTS, ROOT

    pages = typst.compile(
        str(ROOT / template),
        root=str(ROOT),
        font_paths=[str(FONTS)],
        ignore_system_fonts=True,
        format="png",
        ppi=ppi,
        sys_inputs={"data": json.dumps(data, ensure_ascii=False, sort_keys=True)},
    )
    return pages if isinstance(pages, list) else [pages]


def _rows(png: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, channels, unfiltered rows) of a PNG."""
    pos, chunks, header = 8, [], b""
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + size]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or interlace or colour not in _CHANNELS:
        raise ValueError("only 8-bit, non-interlaced greyscale/RGB(A) PNGs are read")
    bpp = _CHANNELS[colour]
    stride = width * bpp
    raw = zlib.decompress(b"".join(chunks))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = previous[x]
            c = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def coverage(png: bytes) -> tuple[float, float]:
    """(mean darkness, share of non-white pixels) of one rendered page."""
    width, height, bpp, rows = _rows(png)
    ink = 0.0
    covered = 0
    for row in rows:
        for x in range(0, width * bpp, bpp):
            if bpp >= 3:
                r, g, b = row[x], row[x + 1], row[x + 2]
                alpha = row[x + 3] / 255 if bpp == 4 else 1.0
                grey = (0.299 * r + 0.587 * g + 0.114 * b) * alpha + 255 * (1 - alpha)
            else:
                alpha = row[x + 1] / 255 if bpp == 2 else 1.0
                grey = row[x] * alpha + 255 * (1 - alpha)
            ink += 1 - grey / 255
            covered += grey < 250
    return ink / (width * height), covered / (width * height)
