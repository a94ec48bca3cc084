"""The sample art folder `century new --example-look` lays out: a back, a card picture, an
icon for the base game's first resource and a font, each usable as it is (the pictures print
at 300 dpi or more on any named card size, the font covers every text of the bundled games),
so the tutorial "Give your variant its own look" runs as written.

The files are made here, the same bytes every time: two SVGs written as text, a PNG encoded
with `zlib` (a pale pattern, light enough for the card's drawing on top of it) and a copy of
the bundled DejaVu Sans Bold with its licence.
"""

from __future__ import annotations

import struct
import zlib

from century.base.resources import package_dir

PICTURE = "merchant.png"
BACK = "back.svg"
FONT = "DejaVuSans-Bold.ttf"
FONT_LICENCE = "LICENSE-DejaVu.txt"
PICTURE_PIXELS = (840, 1420)
"""Over 300 dpi on the art area of every named card size (tarot's is 64.8 × 101.8 mm)."""

BACK_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 101">
  <rect width="70" height="101" fill="#3B5B6E"/>
  <g fill="none" stroke="#E8D9B0" stroke-width="0.8" opacity="0.6">
    <path d="M-10 10 L80 100 M-10 30 L80 120 M-10 -10 L80 80"/>
    <path d="M-10 50 L60 120 M10 -10 L80 60 M30 -10 L80 40"/>
    <path d="M80 10 L-10 100 M80 30 L-10 120 M80 -10 L-10 80"/>
    <path d="M80 50 L10 120 M60 -10 L-10 60 M40 -10 L-10 40"/>
  </g>
  <circle cx="35" cy="50.5" r="18" fill="#E8D9B0" opacity="0.25"/>
</svg>
"""
"""A lattice over the whole back and its bleed (an SVG scales to any card size)."""

ICON_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20">
  <path d="M10 1 L19 10 L10 19 L1 10 Z" fill="{colour}" stroke="#222222" stroke-width="1"/>
</svg>
"""
"""A diamond in the resource's own colour."""


def _png(width: int, height: int) -> bytes:
    """A pale RGB pattern of diagonal bands 60 pixels wide, as PNG bytes."""
    light, dark = bytes((246, 238, 220)), bytes((240, 226, 200))
    period = 120
    line = b"".join(light if (x // 60) % 2 == 0 else dark for x in range(width + period))
    rows = bytearray()
    for y in range(height):
        start = (y % period) * 3
        rows += b"\x00" + line[start : start + width * 3]  # no filter

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    dpi = round(300 / 0.0254)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"pHYs", struct.pack(">IIB", dpi, dpi, 1))
        + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
        + chunk(b"IEND", b"")
    )


def example_files(resource: str, colour: str) -> dict[str, bytes]:
    """The sample folder's files by name: the back, the card picture, the icon of
    `resource` (in its `colour`), the font and its licence."""
    fonts = package_dir("shared", "typst", "fonts")
    return {
        BACK: BACK_SVG.encode("utf-8"),
        PICTURE: _png(*PICTURE_PIXELS),
        f"{resource}.svg": ICON_SVG.format(colour=colour).encode("utf-8"),
        FONT: (fonts / FONT).read_bytes(),
        FONT_LICENCE: (fonts / FONT_LICENCE).read_bytes(),
    }


def example_names(resource: str) -> list[str]:
    """The names `example_files` writes, in order."""
    return [BACK, PICTURE, f"{resource}.svg", FONT, FONT_LICENCE]
