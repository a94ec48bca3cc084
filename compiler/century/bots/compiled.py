"""Whether the bots and the simulation loop run compiled (the ``native`` build, mypyc) or as
pure Python, and the decorator mypyc reads on the classes it compiles.

A wheel built with ``CENTURY_NATIVE=1`` (``hatch_build.py``) holds, beside each module's
source, the module compiled to an extension, which Python imports in its place; a wheel
built without it, or an editable install, runs the sources. This module itself always stays
pure Python (it defines `mypyc_attr` only when not type checking).
"""

from __future__ import annotations

import importlib.util
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*args: Any, **kwargs: Any) -> Any:
        """mypyc's class options (``allow_interpreted_subclasses``): read by mypyc when it
        compiles, nothing to do when the module runs as Python."""
        return lambda cls: cls


def is_compiled(module: str) -> bool:
    """Whether `module` (a dotted name) loads from a compiled extension (found, not imported)."""
    spec = importlib.util.find_spec(module)
    where = (spec.origin if spec else None) or ""
    return where.endswith(tuple(EXTENSION_SUFFIXES))


def compiled_modules() -> list[str]:
    """The modules of the installed package that are compiled extensions (dotted names)."""
    root = Path(__file__).resolve().parent.parent
    suffixes = sorted(EXTENSION_SUFFIXES, key=len, reverse=True)  # the longest that fits
    found = []
    for path in root.rglob("*"):
        suffix = next((s for s in suffixes if path.name.endswith(s)), "")
        if suffix:
            parts = path.relative_to(root.parent).parts
            found.append(".".join((*parts[:-1], path.name[: -len(suffix)])))
    return sorted(found)


def bots_build() -> str:
    """``compiled`` when the bots run as compiled extensions, else ``pure``."""
    return "compiled" if is_compiled("century.bots.planner") else "pure"
