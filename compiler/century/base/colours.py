"""Colour arithmetic (WCAG 2.x): relative luminance, contrast, the ink that reads on a fill.

The checks warn with it (text under 4.5 : 1 on a look's background) and the shared Typst library
chooses every ink with it (`century.shared.typst.colours`). Black or white always reaches at
least 4.58 : 1 against any colour, above the 4.5 : 1 that WCAG asks of normal text.
"""

from __future__ import annotations

import re

BLACK, WHITE = "#000000", "#FFFFFF"
_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


def channels(colour: str) -> tuple[float, float, float]:
    """``"#RRGGBB"`` -> (r, g, b) in 0..1."""
    match = _HEX.match(colour)
    if not match:
        raise ValueError(f"not a #RRGGBB colour: {colour!r}")
    value = match.group(1)
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever contrasts more with `fill` (ties go to black)."""
    return BLACK if contrast(fill, BLACK) >= contrast(fill, WHITE) else WHITE
