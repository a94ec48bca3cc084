"""The data that ships inside the package: bundled rules, cards and schemas.

Everything is found with `importlib.resources`, so an installed `century` (a wheel, pipx)
reads its own copy; in a checkout, ``century/data/`` links to the top-level ``rules/``,
``cards/`` and ``schema/`` folders, which stay the source of truth.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


def package_dir(*parts: str) -> Path:
    """A folder or file inside the installed `century` package, as a file-system path."""
    found = files("century").joinpath(*parts)
    if not isinstance(found, Path):  # a zipped install: Typst and the loader need real files
        raise RuntimeError("century must be installed as files, not as a zip archive")
    return found


RULES = package_dir("data", "rules")
"""The bundled games and variants."""
CARDS = package_dir("data", "cards")
"""The bundled decks."""
SCHEMAS = package_dir("data", "schema")
"""The JSON Schemas of every YAML file kind."""


def templates(package: str, *, html: bool) -> jinja2.Environment:
    """The Jinja environment of the templates shipped beside `package`'s modules (the one
    way the package makes one; the rule-sheet prose has its sandbox, `century.prose.sandbox`): an
    undefined name fails, the trailing newline is kept, and `html` escapes every value and
    trims the block tags' lines (else nothing is escaped: generated code)."""
    import jinja2

    folder = files(package)
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)) if isinstance(folder, Path) else None,
        undefined=jinja2.StrictUndefined,
        autoescape=html,
        trim_blocks=html,
        lstrip_blocks=html,
        keep_trailing_newline=True,
    )
