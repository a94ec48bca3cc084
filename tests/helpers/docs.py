"""The docs site's generator of reference pages (docs/_ext/century_docs.py), imported from the
file as Sphinx imports it, so the tests read the tables the site shows."""

from __future__ import annotations

import functools
import importlib.util
from types import ModuleType

from helpers.paths import ROOT

DOCS = ROOT / "docs"
"""The docs site's sources."""


@functools.cache
def docs_generator() -> ModuleType:
    """The module `century_docs` of docs/_ext/ (needs no Sphinx to import)."""
    path = DOCS / "_ext" / "century_docs.py"
    spec = importlib.util.spec_from_file_location("century_docs", path)
    assert spec and spec.loader, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
