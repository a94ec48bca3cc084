"""Colour arithmetic for printed output: which ink reads best on a fill (WCAG 2.x).

Templates never choose text colours themselves: every fill that carries text (a cube, a
coin, a deck colour) arrives with its ``ink`` computed here. Black or white always reaches
at least 4.58 : 1 against any colour, above the 4.5 : 1 that WCAG asks of normal text. The
arithmetic itself is `century.base.colours`, which the checks of a look share.
"""

from __future__ import annotations

from century.base.colours import BLACK, WHITE, channels, contrast, ink_on, relative_luminance

__all__ = ["BLACK", "WHITE", "contrast", "ink_on", "lighten", "relative_luminance"]


def lighten(colour: str, amount: float) -> str:
    """`colour` mixed with white: 0 keeps it, 1 gives white."""
    r, g, b = (c + (1 - c) * amount for c in channels(colour))
    return "#" + "".join(f"{round(c * 255):02X}" for c in (r, g, b))
