"""The package's version, kept in one place below every layer: the face re-exports it, and the
command line, the reports' metadata and the experiments' cache keys read it from here (never
from the face above them). `tests/project/test_public_api.py` holds it equal to pyproject's."""

from __future__ import annotations

__version__ = "0.1.0"
