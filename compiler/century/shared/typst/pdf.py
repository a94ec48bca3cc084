"""Print settings Typst does not write: viewer preferences and page boxes.

`print_settings` appends a PDF incremental update (ISO 32000-1, 7.5.6) to a PDF written by
Typst: a new version of the document catalog with ``/ViewerPreferences`` (``/PrintScaling
/None`` so viewers print at 100 %, and the duplex mode), and new versions of the pages that
get a ``/TrimBox`` and ``/BleedBox``. The original bytes stay untouched and the result is a
pure function of its input, so PDFs stay byte-identical for the same input.

Only the classic cross-reference table that Typst writes is supported; anything else is a
`PdfStructureError` rather than a damaged file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

PT_PER_MM = 72 / 25.4
DUPLEX_MODES = frozenset({"Simplex", "DuplexFlipLongEdge", "DuplexFlipShortEdge"})

Box = tuple[float, float, float, float]
"""x, y, width, height in mm from the page's top-left corner."""


class PdfStructureError(ValueError):
    """The PDF is not laid out as expected (e.g. it uses a cross-reference stream)."""


# -- reading ---------------------------------------------------------------------------------


def _skip_string(data: bytes, i: int) -> int:
    """Index after the literal string starting at ``data[i] == "("``."""
    depth, i = 0, i
    while i < len(data):
        c = data[i]
        if c == 0x5C:  # backslash: skip the escaped byte
            i += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise PdfStructureError("unterminated string")


def _dict_end(data: bytes, start: int) -> int:
    """Index after the dictionary that starts at ``data[start:start + 2] == b"<<"``."""
    if data[start : start + 2] != b"<<":
        raise PdfStructureError(f"expected a dictionary at byte {start}")
    depth, i = 0, start
    while i < len(data):
        two = data[i : i + 2]
        if two == b"<<":
            depth += 1
            i += 2
        elif two == b">>":
            depth -= 1
            i += 2
            if depth == 0:
                return i
        elif data[i] == 0x28:
            i = _skip_string(data, i)
        elif data[i] == 0x3C:  # hex string
            i = data.index(b">", i) + 1
        else:
            i += 1
    raise PdfStructureError("unterminated dictionary")


def _xref(data: bytes) -> tuple[int, dict[int, int], bytes]:
    """(startxref, object number -> offset, trailer dictionary) of the last section."""
    found = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data)
    if not found:
        raise PdfStructureError("no startxref at the end of the file")
    start = int(found.group(1))
    if data[start : start + 4] != b"xref":
        raise PdfStructureError("the PDF uses a cross-reference stream")
    offsets: dict[int, int] = {}
    i = start + 4
    header = re.compile(rb"\s*(\d+) (\d+)\s*?\r?\n")
    entry = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
    while True:
        section = header.match(data, i)
        if not section:
            break
        first, count = int(section.group(1)), int(section.group(2))
        i = section.end()
        for n in range(count):
            row = entry.match(data, i)
            if not row:
                raise PdfStructureError("malformed cross-reference table")
            if row.group(3) == b"n":
                offsets[first + n] = int(row.group(1))
            i = row.end()
            while data[i : i + 1] in (b" ", b"\r", b"\n"):
                i += 1
    trailer = data.find(b"trailer", i - 1)
    if trailer < 0:
        raise PdfStructureError("no trailer")
    dict_start = data.index(b"<<", trailer)
    return start, offsets, data[dict_start : _dict_end(data, dict_start)]


def _object(data: bytes, offsets: Mapping[int, int], number: int) -> bytes:
    """The dictionary of object `number` (which must be a plain dictionary object)."""
    if number not in offsets:
        raise PdfStructureError(f"object {number} is not in the cross-reference table")
    at = offsets[number]
    head = re.compile(rb"%d 0 obj\s*" % number).match(data, at)
    if not head:
        raise PdfStructureError(f"object {number} is not where the table says")
    return data[head.end() : _dict_end(data, head.end())]


def _ref(dictionary: bytes, key: bytes) -> int:
    found = re.search(rb"/" + key + rb"\s+(\d+)\s+0\s+R", dictionary)
    if not found:
        raise PdfStructureError(f"no /{key.decode()} reference")
    return int(found.group(1))


def _pages(data: bytes, offsets: Mapping[int, int], number: int) -> list[int]:
    """The page objects below page-tree node `number`, in order."""
    node = _object(data, offsets, number)
    kids = re.search(rb"/Kids\s*\[([^\]]*)\]", node)
    if not kids:
        raise PdfStructureError(f"page tree node {number} has no /Kids")
    out: list[int] = []
    for kid in re.findall(rb"(\d+)\s+0\s+R", kids.group(1)):
        child = _object(data, offsets, int(kid))
        if re.search(rb"/Type\s*/Pages\b", child):
            out += _pages(data, offsets, int(kid))
        else:
            out.append(int(kid))
    return out


# -- writing ---------------------------------------------------------------------------------


def _num(value: float) -> bytes:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("-0", "") else "0").encode()


def _pdf_box(box: Box, page_height_pt: float) -> bytes:
    """A top-left mm box as a PDF rectangle [llx lly urx ury] in points."""
    x, y, w, h = (v * PT_PER_MM for v in box)
    numbers = (x, page_height_pt - y - h, x + w, page_height_pt - y)
    return b"[" + b" ".join(_num(v) for v in numbers) + b"]"


def _with_viewer_preferences(catalog: bytes, duplex: str) -> bytes:
    prefs = b"/PrintScaling/None/Duplex/" + duplex.encode()
    found = re.search(rb"/ViewerPreferences\s*<<", catalog)
    if not found:
        return catalog[:-2] + b"/ViewerPreferences<<" + prefs + b">>>>"
    start = found.end() - 2
    end = _dict_end(catalog, start)
    inner = catalog[start + 2 : end - 2]
    inner = re.sub(rb"/(PrintScaling|Duplex)\s*/[A-Za-z]+", b"", inner)
    return catalog[:start] + b"<<" + prefs + inner + b">>" + catalog[end:]


def _media_height(page: bytes) -> float:
    found = re.search(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]", page)
    if not found:
        raise PdfStructureError("a page has no /MediaBox of its own")
    return float(found.group(4)) - float(found.group(2))


def print_settings(
    pdf: bytes,
    duplex: str,
    boxes: Mapping[int, tuple[Box, Box]] | None = None,
) -> bytes:
    """`pdf` with print scaling off, the duplex mode set, and trim and bleed boxes.

    `duplex` is ``Simplex``, ``DuplexFlipLongEdge`` or ``DuplexFlipShortEdge``; `boxes`
    maps a page index (0-based) to its (trim, bleed) boxes in mm from the top-left corner.
    """
    if duplex not in DUPLEX_MODES:
        raise ValueError(f"unknown duplex mode {duplex!r}")
    start, offsets, trailer = _xref(pdf)
    root = _ref(trailer, b"Root")
    catalog = _object(pdf, offsets, root)
    changed: dict[int, bytes] = {root: _with_viewer_preferences(catalog, duplex)}
    if boxes:
        pages: Sequence[int] = _pages(pdf, offsets, _ref(catalog, b"Pages"))
        for index, (trim, bleed) in sorted(boxes.items()):
            number = pages[index]
            page = _object(pdf, offsets, number)
            height = _media_height(page)
            extra = b"/TrimBox" + _pdf_box(trim, height) + b"/BleedBox" + _pdf_box(bleed, height)
            changed[number] = page[:-2] + extra + b">>"
    out = bytearray(pdf)
    if not out.endswith(b"\n"):
        out += b"\n"
    new_offsets: dict[int, int] = {}
    for number in sorted(changed):
        new_offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + changed[number] + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n"
    for number in sorted(new_offsets):
        out += b"%d 1\n%010d 00000 n\r\n" % (number, new_offsets[number])
    size = re.search(rb"/Size\s+(\d+)", trailer)
    keep = re.findall(rb"/(?:Info\s+\d+\s+0\s+R|ID\s*\[[^\]]*\])", trailer)
    out += b"trailer\n<</Size " + (size.group(1) if size else b"0") + b"/Root %d 0 R" % root
    out += b"".join(keep) + b"/Prev %d>>\nstartxref\n%d\n%%%%EOF" % (start, xref_at)
    return bytes(out)
