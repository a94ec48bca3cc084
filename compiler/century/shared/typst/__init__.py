"""Render a Typst template to PDF or PNG bytes: bundled fonts only, data passed as JSON.

Templates read the model with ``json(bytes(sys.inputs.at("data")))``: data never becomes
markup, so nothing in a card or resource name can inject layout code. The timestamp is
fixed, so the same input gives byte-identical PDFs; PNGs carry no time at all.

A game's look brings files of the user's project (pictures, icons, fonts: `century.base.assets`).
Typst reads files only below its root, so they are never read where they lie: the templates
and those files (each checked again against the digest it was checked with) are copied into
a temporary folder that is the root of that one compilation, pictures as ``/look/<digest>``
(`asset_path`), fonts into a font folder of their own. Nothing else is there to read, and
Typst has no network access without packages, which the templates never import.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from century.base.assets import Asset
from century.base.diagnostics import DiagnosticError
from century.base.inputs import read_bytes
from century.base.limits import MAX_ART_BYTES
from century.base.scratch import scratch

ROOT = Path(__file__).resolve().parent.parent.parent
"""The Typst root (the package): templates import each other by paths relative to it."""
FONTS = Path(__file__).resolve().parent / "fonts"
FIXED_TIMESTAMP = 0


class RenderError(Exception):
    """Typst rejected a template or its data."""


TEMPLATE_FOLDERS = ("shared", "targets")
"""The folders of `ROOT` that hold templates (copied into a look's sandbox)."""


def asset_path(asset: Asset) -> str:
    """Where a template finds a picture of a look (a path from the Typst root)."""
    return f"/look/{asset.digest[:32]}.{asset.suffix}"


def _stage(folder: Path, assets: Sequence[Asset]) -> Path:
    """The sandbox of one compilation in `folder`: the templates, and the look's files, each
    read anew and refused when it changed since it was checked. Returns the font folder."""
    for name in TEMPLATE_FOLDERS:
        for typ in sorted((ROOT / name).rglob("*.typ")):
            target = folder / typ.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(typ, target)
    fonts = folder / "_fonts"
    (folder / "look").mkdir()
    fonts.mkdir()
    for asset in assets:
        try:
            raw = read_bytes(Path(asset.path), asset.name, MAX_ART_BYTES)
        except DiagnosticError as err:
            raise RenderError(str(err)) from None
        if hashlib.sha256(raw).hexdigest() != asset.digest:
            raise RenderError(f"{asset.name} changed since it was checked: build again")
        if asset.format in ("ttf", "otf"):
            (fonts / f"{asset.digest[:32]}.{asset.suffix}").write_bytes(raw)
        else:
            (folder / asset_path(asset).lstrip("/")).write_bytes(raw)
    return fonts


def _compile(template: str, data: Any, assets: Sequence[Asset] = (), **options: Any) -> Any:
    if not assets:
        return _typst(template, data, ROOT, [FONTS], **options)
    with scratch("look") as root:
        fonts = _stage(root, assets)
        return _typst(template, data, root, [FONTS, fonts], **options)


def _typst(template: str, data: Any, root: Path, fonts: list[Path], **options: Any) -> Any:
    import typst

    try:
        return typst.compile(
            str(root / template),
            root=str(root),
            font_paths=[str(f) for f in fonts],
            ignore_system_fonts=True,
            sys_inputs={"data": json.dumps(data, ensure_ascii=False, sort_keys=True)},
            timestamp=FIXED_TIMESTAMP,
            **options,
        )
    except typst.TypstError as err:
        raise RenderError(f"{template}: {err}") from err


def compile_pdf(template: str, data: Any, assets: Sequence[Asset] = ()) -> bytes:
    """Compile `template` (a path below `ROOT`, e.g. ``targets/sheets/rules.typ``) with `data` as
    JSON in ``sys.inputs.data``, and the files of a look (`assets`) in its sandbox."""
    pdf: bytes = _compile(template, data, assets)
    return pdf


def compile_png(template: str, data: Any, ppi: float, assets: Sequence[Asset] = ()) -> list[bytes]:
    """Every page of `template` as a PNG at `ppi` pixels per inch (a page of w × h mm is
    ``round(w / 25.4 * ppi)`` pixels wide), its resolution recorded in the file."""
    pages = _compile(template, data, assets, format="png", ppi=ppi)
    return [
        stable_png(without_opaque_alpha(png), ppi)
        for png in (pages if isinstance(pages, list) else [pages])
    ]


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
VARIABLE_CHUNKS = frozenset({b"tIME", b"tEXt", b"zTXt", b"iTXt", b"pHYs"})
"""Chunks dropped from Typst's PNGs: a time or text would make output vary between runs
(Typst writes none today), and the resolution is written anew."""


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, data) of every chunk of `png`, in order."""
    chunks, pos = [], len(PNG_SIGNATURE)
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        chunks.append((png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + size]))
        pos += 12 + size
    return chunks


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _opaque_alpha(kind: int, first_row: bool, width: int) -> bytes:
    """The alpha bytes of a filtered row of 8-bit RGBA pixels that are all opaque, when the
    rows above are too: each PNG filter predicts a byte from the same channel of the pixel to
    the left, above and above-left, so the prediction of an opaque pixel is known."""
    rest = width - 1
    if kind == 0:  # None
        return b"\xff" * width
    if kind == 1 or (kind == 4 and first_row):  # Sub; Paeth with nothing above
        return b"\xff" + b"\x00" * rest
    if kind == 2:  # Up
        return (b"\xff" if first_row else b"\x00") * width
    if kind == 3:  # Average
        return b"\xff" + b"\x80" * rest if first_row else b"\x80" + b"\x00" * rest
    return b"\x00" * width  # Paeth


def without_opaque_alpha(png: bytes) -> bytes:
    """`png` as RGB when it is 8-bit RGBA with every pixel opaque (print services and some
    viewers treat an alpha channel as transparency to flatten), else unchanged. The filtered
    rows keep their filters: a filter works per channel, so dropping the alpha bytes leaves
    valid RGB rows."""
    chunks = _chunks(png)
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or colour != 6 or interlace:
        return png
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = 1 + 4 * width
    rows = []
    for y in range(height):
        row = raw[y * stride : (y + 1) * stride]
        pixels = row[1:]
        if pixels[3::4] != _opaque_alpha(row[0], y == 0, width):
            return png
        rgb = bytearray(3 * width)
        rgb[0::3], rgb[1::3], rgb[2::3] = pixels[0::4], pixels[1::4], pixels[2::4]
        rows.append(row[:1] + bytes(rgb))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = [_chunk(b"IHDR", header)]
    body += [_chunk(kind, data) for kind, data in chunks[1:] if kind not in (b"IDAT", b"IEND")]
    body += [_chunk(b"IDAT", zlib.compress(b"".join(rows), 9)), _chunk(b"IEND", b"")]
    return PNG_SIGNATURE + b"".join(body)


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
