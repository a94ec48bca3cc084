"""Where things are: the repository root and the test data folders."""

from __future__ import annotations

import os
from pathlib import Path

from century.base.resources import package_dir

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (or the unpacked sdist)."""
TESTS = ROOT / "tests"
CASES = TESTS / "cases"
"""The fixture corpus: ``valid/``, ``invalid/`` and ``hostile/``."""
VALID = CASES / "valid"
GOLDEN = TESTS / "golden"
"""The engine source golden and the playthrough goldens."""
REFERENCE = TESTS / "data"
"""The verified reference lists of the bundled data (CSV)."""
DATA = package_dir("data")
BUNDLED = sorted(path.stem for path in (DATA / "rules").glob("*.yaml"))
"""The ids of the bundled games and variants (their file names), known without compiling."""


def as_in_checkout(shown: str) -> str:
    """`shown` (a file name or text the tool printed) with the bundled data named as in the
    checkout (`rules/...`). An editable install reads the top-level folders through links and
    shows them so; an installed copy (`pip install .`, an unpacked sdist) names them
    ``<bundled>/rules/...`` outside the working folder, or by its own path inside it."""
    for prefix in {str(DATA), os.path.relpath(DATA, ROOT), "<bundled>"}:
        shown = shown.replace(prefix + os.sep, "").replace(prefix + "/", "")
    return shown
