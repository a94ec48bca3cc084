"""The code base is `ruff` clean (lint and formatting) and `mypy` clean, as configured in
pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT


def ruff() -> list[str]:
    found = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    return [found]


def test_ruff_check():
    result = subprocess.run([*ruff(), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = subprocess.run(
        [*ruff(), "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy():
    """The package type-checks (`[tool.mypy]`: every module of compiler/century)."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
