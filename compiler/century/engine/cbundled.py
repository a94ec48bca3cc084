"""The C engines compiled into the package when it was built with ``CENTURY_C=1``.

A wheel built so (``hatch_build.py``) holds, in the package folder ``century/cengines/``,
each bundled game's engine source ``<module>.py`` and its C engine compiled beside it
(``<module>`` plus this interpreter's extension suffix). `prebuilt(ruleset)` finds them with
`importlib.resources`, for the rules as they are now only: one compiled from other rules (a
ruleset edited since, a variant of the same id) is stale and not found, so the commands
compile anew. `load(ruleset)` imports it; the module itself refuses to load (ImportError)
beside a ``.py`` that is not the source it was compiled from (a foreign module).
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import ModuleType

from century.engine import generate, module_name
from century.engine.native import extension_name
from century.model.ruleset import Ruleset

FOLDER = "cengines"
"""The package folder (under ``century``) that holds the compiled C engines."""


def folder() -> Traversable:
    """Where the package keeps its compiled C engines (absent from a pure install)."""
    return files("century").joinpath(FOLDER)


def prebuilt(ruleset: Ruleset, where: Traversable | None = None) -> tuple[str, bytes] | None:
    """The file name and bytes of the C engine compiled into the package (or into `where`)
    for `ruleset` as it is now; None where there is none, or only one of other rules."""
    base = folder() if where is None else where
    name = module_name(ruleset)
    source, extension = base.joinpath(f"{name}.py"), base.joinpath(extension_name(name))
    if not (source.is_file() and extension.is_file()):
        return None
    if source.read_text(encoding="utf-8") != generate(ruleset):
        return None
    return extension.name, extension.read_bytes()


def load(ruleset: Ruleset, where: Traversable | None = None) -> ModuleType | None:
    """The package's C engine of `ruleset` imported (`prebuilt`'s, as the module
    ``century.cengines.<module>``), or None; ImportError for a foreign module."""
    base = folder() if where is None else where
    if prebuilt(ruleset, base) is None:
        return None
    name = module_name(ruleset)
    qualified = f"century.{FOLDER}.{name}"
    path = Path(str(base)) / extension_name(name)
    found = sys.modules.get(qualified)
    if found is not None and Path(found.__file__ or "") == path:
        return found
    spec = importlib.util.spec_from_file_location(qualified, path)
    if spec is None or spec.loader is None:  # pragma: no cover - an extension always has one
        raise ImportError(f"cannot load {qualified}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[qualified] = module
    return module
