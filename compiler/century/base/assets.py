"""The files of a game's look (pictures, icons, fonts): read once, checked as hostile input.

`probe` reads one file (a regular file within `MAX_ART_BYTES`, through `century.base.inputs`, so
it is in the run's read log and never replaced by output) and says what it is, or raises
`DiagnosticError` with one diagnostic located where the rules file names it:

- a picture or icon is a PNG, a JPEG or an SVG, told by its bytes, not its name; a PNG or
  JPEG is opened by Pillow, its size read from its header and refused past `MAX_ART_PIXELS`
  or `MAX_ART_SIDE` before a pixel is decoded (decompression bombs), then decoded once to
  show it is whole (a PNG's chunks too, to its end: what passes, the build draws);
- an SVG is plain XML without a document type (no entities, so no entity bombs), with at
  most `MAX_SVG_ELEMENTS` elements nested at most `MAX_SVG_DEPTH` deep, no scripts, event
  handlers (``onload=``), style sheets or foreign objects, no reference to anything outside
  itself (every ``href`` and ``url(...)`` names an element of the same file, ``#id``, so the
  renderer never reads another file or the network), and a finite size;
- a font is a TrueType or OpenType file (not a collection) that fontTools reads: its family
  name (as Typst selects it) and the characters it has.

A probe is kept per path, size and modification time, so the checks and the model read a
file once per run, and `century watch` reads it again when it changes.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from century.base.diagnostics import Diagnostic, DiagnosticError, Mark
from century.base.inputs import read_bytes
from century.base.limits import (
    MAX_ART_BYTES,
    MAX_ART_PIXELS,
    MAX_ART_SIDE,
    MAX_SVG_DEPTH,
    MAX_SVG_ELEMENTS,
    MAX_SVG_SIZE,
)

PICTURES = ("png", "jpeg", "svg")
FONTS = ("ttf", "otf")
SUFFIXES = {
    ".png": "png",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
    ".svg": "svg",
    ".ttf": "ttf",
    ".otf": "otf",
}
"""The file names a look may give, by the format they stand for."""


@dataclass(frozen=True)
class Asset:
    """One file of a look as the targets use it: where it is, what it is, its digest."""

    path: str
    """The absolute path of the file, symlinks followed (never written to any output)."""
    name: str
    """How diagnostics and the docs name the file (relative to the working folder)."""
    format: str
    """``png``, ``jpeg``, ``svg``, ``ttf`` or ``otf``."""
    digest: str
    """The SHA-256 of its bytes: a target copies the file only if it is unchanged."""
    width: int = 0
    """Pixels (PNG, JPEG), or the SVG's view box width (0 when it has none)."""
    height: int = 0
    family: str = ""
    """A font's family name, as Typst selects it."""
    chars: frozenset[int] = frozenset()
    """A font's characters (code points)."""

    @property
    def raster(self) -> bool:
        return self.format in ("png", "jpeg")

    @property
    def suffix(self) -> str:
        return {"jpeg": "jpg"}.get(self.format, self.format)


def _refuse(mark: Mark, code: str, message: str, hint: str = "") -> DiagnosticError:
    return DiagnosticError([Diagnostic.at(mark, code, message, hint=hint)])


_MEMO: dict[tuple[str, str, int, int], Asset] = {}


def probe(path: Path, name: str, at: Mark, want: str) -> Asset:
    """The file `path` (shown as `name`, named at `at`) as an `Asset` of the kind `want`
    (``picture`` or ``font``), or `DiagnosticError`."""
    try:
        info = os.stat(path)
        key = (os.path.realpath(path), want, info.st_size, info.st_mtime_ns)
    except OSError:
        key = None
    if key is not None and key in _MEMO:
        return _MEMO[key]
    kinds = PICTURES if want == "picture" else FONTS
    shown = "PNG, JPEG or SVG" if want == "picture" else "TTF or OTF"
    given = SUFFIXES.get(path.suffix.lower())
    if given is None or given not in kinds:
        raise _refuse(
            at,
            "C026",
            f"{name}: a {want} must be a {shown} file",
            "convert it (a picture to PNG or SVG, a font to TTF or OTF)",
        )
    raw = read_bytes(path, name, MAX_ART_BYTES, at, hint=f"name a {shown} file")
    found = _sniff(raw)
    if found is None or (found in FONTS) != (given in FONTS) or _family(found) != _family(given):
        what = f"holds {found.upper()} data" if found else "holds data of no format a look uses"
        raise _refuse(
            at,
            "C026",
            f"{name} {what}, not the {given.upper()} its name says",
            "give the file the name of its format, or convert it",
        )
    digest = hashlib.sha256(raw).hexdigest()
    real = os.path.realpath(path)
    if found in ("png", "jpeg"):
        width, height = _raster(raw, name, at)
        asset = Asset(real, name, found, digest, width, height)
    elif found == "svg":
        width, height = _svg(raw, name, at)
        asset = Asset(real, name, found, digest, width, height)
    else:
        family, chars = _font(raw, name, at)
        asset = Asset(real, name, found, digest, family=family, chars=chars)
    if key is not None:
        _MEMO[key] = asset
    return asset


def _family(fmt: str | None) -> str | None:
    """Formats that may stand for each other (a TrueType font named .otf is fine)."""
    return "font" if fmt in FONTS else fmt


def _sniff(raw: bytes) -> str | None:
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if raw.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if raw.startswith((b"\x00\x01\x00\x00", b"true")):
        return "ttf"
    if raw.startswith(b"OTTO"):
        return "otf"
    head = raw[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in raw[:4096]:
        return "svg"
    return None


def _raster(raw: bytes, name: str, at: Mark) -> tuple[int, int]:
    """A PNG's or JPEG's size, refused past the caps before it is decoded, then decoded."""
    from PIL import Image

    def too_large(size: str) -> DiagnosticError:
        return _refuse(
            at,
            "C028",
            f"{name} has {size}, over the limit of {MAX_ART_PIXELS:,} pixels "
            f"({MAX_ART_SIDE:,} a side)",
            "scale the picture down: 300 dpi at the card's size is enough",
        )

    try:
        with Image.open(io.BytesIO(raw)) as img:
            width, height = img.size
            if width > MAX_ART_SIDE or height > MAX_ART_SIDE or width * height > MAX_ART_PIXELS:
                raise too_large(f"{width} × {height} pixels")
            img.load()
        if raw.startswith(b"\x89PNG"):
            _png_chunks(raw)
    except DiagnosticError:
        raise
    except Image.DecompressionBombError:  # Pillow's own cap, met before ours when opening
        raise too_large("far too many pixels (a decompression bomb)") from None
    except Exception as err:  # Pillow raises many kinds for a broken file
        raise _refuse(
            at,
            "C027",
            f"{name} cannot be read as a picture: {str(err) or type(err).__name__}",
            "open and save it again in an image editor",
        ) from None
    return width, height


def _png_chunks(raw: bytes) -> None:
    """ValueError unless the PNG's chunks run whole, each with its checksum, to ``IEND``
    (Pillow decodes a file that stops after its pixel data; the renderer does not)."""
    at = 8
    while at + 12 <= len(raw):
        (length,) = struct.unpack(">I", raw[at : at + 4])
        kind = raw[at + 4 : at + 8]
        end = at + 12 + length
        if end > len(raw):
            break
        (crc,) = struct.unpack(">I", raw[end - 4 : end])
        if zlib.crc32(raw[at + 4 : end - 4]) != crc:
            raise ValueError(f"its {kind.decode('latin-1')!r} chunk is damaged")
        if kind == b"IEND":
            return
        at = end
    raise ValueError("the file is cut short (it has no end chunk)")


_UNSAFE_SVG = ("script", "foreignObject", "iframe", "audio", "video")
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_NUMBER = re.compile(r"^\s*([0-9.]+)")


def _svg(raw: bytes, name: str, at: Mark) -> tuple[int, int]:
    """An SVG's view box size, once it is shown to reference nothing outside itself."""
    import xml.etree.ElementTree as ET

    def refuse(message: str, hint: str) -> DiagnosticError:
        return _refuse(at, "C028", f"{name}: {message}", hint)

    upper = raw.upper()
    if b"<!DOCTYPE" in upper or b"<!ENTITY" in upper:
        raise refuse(
            "an SVG with a document type or entities is not allowed",
            "remove the <!DOCTYPE ...> (save it as plain SVG)",
        )
    if b"<?xml-stylesheet" in raw.lower():
        raise refuse(
            "<?xml-stylesheet?> is not allowed: a picture's style is its own",
            "remove it, and give the style in the SVG itself",
        )
    count = depth = 0
    root = None
    try:
        for event, element in ET.iterparse(io.BytesIO(raw), events=("start", "end")):
            if event == "end":
                depth -= 1
                continue
            count += 1
            depth += 1
            if count > MAX_SVG_ELEMENTS:
                raise refuse(
                    f"more than {MAX_SVG_ELEMENTS:,} elements",
                    "simplify the drawing, or save it as a PNG",
                )
            if depth > MAX_SVG_DEPTH:
                raise refuse(
                    f"elements nested more than {MAX_SVG_DEPTH} deep",
                    "ungroup the drawing, or save it as a PNG",
                )
            root = element if root is None else root
            tag = element.tag.rsplit("}", 1)[-1]
            if tag in _UNSAFE_SVG:
                raise refuse(f"<{tag}> is not allowed in a picture", "remove it")
            texts = list(element.attrib.items())
            if tag == "style" and element.text:
                texts.append(("style", element.text))
            for attr, value in texts:
                local = attr.rsplit("}", 1)[-1]
                if local.lower().startswith("on"):
                    raise refuse(
                        f"<{tag}> has the event handler {local}=, a script: not allowed in "
                        "a picture",
                        "remove it",
                    )
                if local == "href" and not value.strip().startswith("#"):
                    raise refuse(
                        f"<{tag}> links to {value[:60]!r}: an SVG may name only its own "
                        "elements (#id)",
                        "embed nothing and link nothing: draw it in the SVG, or name a PNG "
                        "as the art instead",
                    )
                for url in _URL.findall(value):
                    if not url.startswith("#"):
                        raise refuse(
                            f"url({url[:60]}) reaches outside the file",
                            "use only url(#id) of the file's own elements",
                        )
                if "@import" in value:
                    raise refuse("@import in a style is not allowed", "remove it")
    except DiagnosticError:
        raise
    except ET.ParseError as err:
        raise _refuse(
            at,
            "C027",
            f"{name} cannot be read as SVG: {err}",
            "open and save it again in a drawing program",
        ) from None
    if root is None or root.tag.rsplit("}", 1)[-1] != "svg":
        raise _refuse(at, "C027", f"{name} cannot be read as SVG: its root is not <svg>")
    box = root.attrib.get("viewBox", "").replace(",", " ").split()
    if len(box) == 4:
        sizes = [("viewBox", box[2]), ("viewBox", box[3])]
    else:
        w, h = (_NUMBER.match(root.attrib.get(k, "")) for k in ("width", "height"))
        sizes = [("width", w.group(1)), ("height", h.group(1))] if w and h else []
    found = []
    for attr, text in sizes:
        try:
            value = float(text) if len(text) <= 40 else math.inf
        except ValueError:
            return 0, 0  # not a number: the renderer takes the picture's own size
        if not math.isfinite(value) or not 0 <= value <= MAX_SVG_SIZE:
            raise refuse(
                f"its {attr} gives the size {text[:20]}{'...' if len(text) > 20 else ''}, not "
                f"a number from 0 to {MAX_SVG_SIZE:,.0f}",
                'give the <svg> a finite viewBox, such as viewBox="0 0 69 94"',
            )
        found.append(round(value))
    return (found[0], found[1]) if found else (0, 0)


def _font(raw: bytes, name: str, at: Mark) -> tuple[str, frozenset[int]]:
    """A font's family name and characters."""
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(io.BytesIO(raw), lazy=True)
        names = font["name"]
        record = names.getName(16, 3, 1, 0x409) or names.getName(1, 3, 1, 0x409)
        record = record or names.getName(16, 1, 0, 0) or names.getName(1, 1, 0, 0)
        family = record.toUnicode() if record is not None else names.getBestFamilyName()
        cmap = font.getBestCmap() or {}
        chars = frozenset(cmap)
    except Exception as err:  # fontTools raises many kinds for a broken file
        raise _refuse(
            at,
            "C027",
            f"{name} cannot be read as a font: {str(err) or type(err).__name__}",
            "use the TTF or OTF file as the type foundry ships it",
        ) from None
    if not family or not chars:
        raise _refuse(at, "C027", f"{name} cannot be read as a font: no name or no characters")
    return str(family), chars
