"""Shared fixtures: the repository root, a CLI runner, and the bundled rulesets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.resources import package_dir

ROOT = Path(__file__).resolve().parent.parent
DATA = package_dir("data")


def as_in_checkout(shown: str) -> str:
    """`shown` (a file name or text the tool printed) with the bundled data named as in the
    checkout (`rules/...`). An editable install reads the top-level folders through links and
    shows them so; an installed copy (`pip install .`, an unpacked sdist) shows its own path."""
    for prefix in {str(DATA), os.path.relpath(DATA, ROOT)}:
        shown = shown.replace(prefix + os.sep, "")
    return shown


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--refresh-goldens",
        action="store_true",
        help="Rewrite the golden files (engine source, playthroughs) instead of comparing.",
    )


@pytest.fixture
def refresh_goldens(request: pytest.FixtureRequest) -> bool:
    """Whether golden tests rewrite their files (``pytest --refresh-goldens``)."""
    return bool(request.config.getoption("--refresh-goldens"))


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch):
    """Run `century ARGS...` in-process from the repository root; returns the Result."""
    monkeypatch.chdir(ROOT)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli.app, list(args), input=input, catch_exceptions=True)

    return invoke


@pytest.fixture(scope="session")
def bundled():
    """The bundled rules, compiled once: `Compiled` with rulesets and resolved trees."""
    from century.pipeline import compile_paths

    return compile_paths()
