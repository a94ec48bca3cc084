"""Shared fixtures: a CLI runner, the bundled rulesets, the base ruleset, and the
``--refresh-goldens`` option. Helpers that are not fixtures live in ``tests/helpers/``."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.model.ruleset import Ruleset
from century.pipeline import Compiled

from helpers import ROOT, compiled, spice_road
from helpers.timeouts import pytest_runtest_call  # noqa: F401 - a hook: every test is bounded

_CACHE = tempfile.TemporaryDirectory(prefix="century-cache-")
os.environ["CENTURY_CACHE_DIR"] = _CACHE.name
"""The tests' compiled templates (`century.prose.codecache`) go to a folder of their own, the
commands they run in subprocesses included: never the user's cache."""
_NATIVE = tempfile.TemporaryDirectory(prefix="century-native-engine-")
"""Where ``--native-engine`` compiles the engine (removed at exit, as the cache is)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--refresh-goldens",
        action="store_true",
        help="Rewrite the golden files (engine source, playthroughs) instead of comparing.",
    )
    parser.addoption(
        "--native-engine",
        action="store_true",
        help="Play Spice Road's engine compiled with mypyc wherever a test loads it "
        "(needs mypy and a C compiler; compiles once, tens of seconds).",
    )
    parser.addoption(
        "--c-engine",
        action="store_true",
        help="Play Spice Road's C engine (--backend c) wherever a test loads it "
        "(needs a C compiler; generates and compiles once, a few seconds).",
    )


def pytest_configure(config: pytest.Config) -> None:
    # The tests send Ctrl-C (SIGINT) to commands as a terminal does. A suite started as a
    # background job has SIGINT ignored, which its commands would inherit; a handler is not
    # inherited, so they start with SIGINT as a terminal's foreground job has it.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if config.getoption("--native-engine"):
        from helpers.native import serve_native

        folder = _NATIVE.name
        try:
            serve_native(Path(folder))
        except ValueError as err:
            raise pytest.UsageError(str(err)) from None
    if config.getoption("--c-engine"):
        from helpers.native import serve_c

        try:
            serve_c(Path(_NATIVE.name))
        except ValueError as err:
            raise pytest.UsageError(str(err)) from None


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
def bundled() -> Compiled:
    """The bundled rules, compiled once: `Compiled` with rulesets and resolved trees."""
    return compiled()


@pytest.fixture(scope="session")
def base() -> Ruleset:
    """The base ruleset of the tests: the bundled Spice Road."""
    return spice_road()
