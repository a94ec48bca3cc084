"""Render a Typst template to PDF or PNG bytes: bundled fonts only, data passed as JSON.

Templates read the model with ``json(bytes(sys.inputs.at("data")))``: data never becomes
markup, so nothing in a card or resource name can inject layout code. The timestamp is
fixed, so the same input gives byte-identical PDFs; PNGs carry no time at all.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
"""The Typst root (the package): templates import each other by paths relative to it."""
FONTS = Path(__file__).resolve().parent / "fonts"
FIXED_TIMESTAMP = 0


class RenderError(Exception):
    """Typst rejected a template or its data."""


def _compile(template: str, data: Any, **options: Any) -> Any:
    import typst

    try:
        return typst.compile(
            str(ROOT / template),
            root=str(ROOT),
            font_paths=[str(FONTS)],
            ignore_system_fonts=True,
            sys_inputs={"data": json.dumps(data, ensure_ascii=False, sort_keys=True)},
            timestamp=FIXED_TIMESTAMP,
            **options,
        )
    except typst.TypstError as err:
        raise RenderError(f"{template}: {err}") from err


def render_pdf(template: str, data: Any) -> bytes:
    """Compile `template` (a path below `ROOT`, e.g. ``targets/sheets/rules.typ``) with `data` as
    JSON in ``sys.inputs.data``."""
    pdf: bytes = _compile(template, data)
    return pdf


def render_png(template: str, data: Any, ppi: float) -> list[bytes]:
    """Every page of `template` as a PNG at `ppi` pixels per inch (a page of w × h mm is
    ``round(w / 25.4 * ppi)`` pixels wide), its resolution recorded in the file."""
    pages = _compile(template, data, format="png", ppi=ppi)
    return [stable_png(png, ppi) for png in (pages if isinstance(pages, list) else [pages])]


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
VARIABLE_CHUNKS = frozenset({b"tIME", b"tEXt", b"zTXt", b"iTXt", b"pHYs"})
"""Chunks dropped from Typst's PNGs: a time or text would make output vary between runs
(Typst writes none today), and the resolution is written anew."""


def stable_png(png: bytes, ppi: float) -> bytes:
    """`png` without time and text chunks and with a ``pHYs`` chunk after its header, so
    image editors and print services read the intended size."""
    if not png.startswith(PNG_SIGNATURE) or png[8:16] != b"\x00\x00\x00\rIHDR":
        raise RenderError("Typst wrote a PNG without the usual header")
    per_metre = round(ppi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunks = [png[8:33], struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))]
    pos = 33  # after the signature and the 13-byte header chunk
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        end = pos + 12 + size
        if png[pos + 4 : pos + 8] not in VARIABLE_CHUNKS:
            chunks.append(png[pos:end])
        pos = end
    return PNG_SIGNATURE + b"".join(chunks)
