"""The data that ships inside the package: bundled rules, cards and schemas.

Everything is found with `importlib.resources`, so an installed `century` (a wheel, pipx)
reads its own copy; in a checkout, ``century/data/`` links to the top-level ``rules/``,
``cards/`` and ``schema/`` folders, which stay the source of truth.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


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
