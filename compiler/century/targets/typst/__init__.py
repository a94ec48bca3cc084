"""Render a Typst template to PDF bytes: bundled fonts only, data passed as JSON.

Templates read the model with ``json(bytes(sys.inputs.at("data")))``: data never becomes
markup, so nothing in a card or resource name can inject layout code. The timestamp is
fixed, so the same input gives byte-identical PDFs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The Typst root: templates import each other by paths relative to it."""
FONTS = Path(__file__).resolve().parent / "fonts"
FIXED_TIMESTAMP = 0


class RenderError(Exception):
    """Typst rejected a template or its data."""


def render_pdf(template: str, data: Any) -> bytes:
    """Compile `template` (a path below `ROOT`, e.g. ``sheets/rules.typ``) with `data` as
    JSON in ``sys.inputs.data``."""
    import typst

    try:
        return typst.compile(
            str(ROOT / template),
            root=str(ROOT),
            font_paths=[str(FONTS)],
            ignore_system_fonts=True,
            sys_inputs={"data": json.dumps(data, ensure_ascii=False, sort_keys=True)},
            timestamp=FIXED_TIMESTAMP,
        )
    except typst.TypstError as err:
        raise RenderError(f"{template}: {err}") from err
