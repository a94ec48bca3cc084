"""Render a Typst template to PDF or PNG bytes: bundled fonts only, data passed as JSON.

Templates read the model with ``json(bytes(sys.inputs.at("data")))``: data never becomes
markup, so nothing in a card or resource name can inject layout code. The timestamp is
fixed, so the same input gives byte-identical PDFs; PNGs carry no time at all.

A game's look brings files of the user's project (pictures, icons, fonts: `century.assets`).
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
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from century.assets import Asset
from century.diagnostics import DiagnosticError
from century.inputs import read_bytes
from century.limits import MAX_ART_BYTES

ROOT = Path(__file__).resolve().parent.parent.parent
"""The Typst root (the package): templates import each other by paths relative to it."""
FONTS = Path(__file__).resolve().parent / "fonts"
FIXED_TIMESTAMP = 0


class RenderError(Exception):
    """Typst rejected a template or its data."""


TEMPLATE_FOLDERS = ("render", "targets")
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
    with tempfile.TemporaryDirectory(prefix="century-look-") as tmp:
        root = Path(tmp)
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


def render_pdf(template: str, data: Any, assets: Sequence[Asset] = ()) -> bytes:
    """Compile `template` (a path below `ROOT`, e.g. ``targets/sheets/rules.typ``) with `data` as
    JSON in ``sys.inputs.data``, and the files of a look (`assets`) in its sandbox."""
    pdf: bytes = _compile(template, data, assets)
    return pdf


def render_png(template: str, data: Any, ppi: float, assets: Sequence[Asset] = ()) -> list[bytes]:
    """Every page of `template` as a PNG at `ppi` pixels per inch (a page of w × h mm is
    ``round(w / 25.4 * ppi)`` pixels wide), its resolution recorded in the file."""
    pages = _compile(template, data, assets, format="png", ppi=ppi)
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
