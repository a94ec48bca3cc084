"""Generated Python checked with ruff and the project's settings."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT


def ruff() -> str:
    """The ruff executable (the test is skipped without it)."""
    found = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("ruff is not installed")
    return found


def lint(path: Path) -> None:
    """`ruff check` and `ruff format --check` with the project's settings."""
    config = str(ROOT / "pyproject.toml")
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        done = subprocess.run(
            [ruff(), *args, "--config", config, str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
