"""What a cold `century validate` loads: the console script builds the one command it runs,
and typer's pydantic coercion is left out while no value needs it (`century.cli`,
`century.cli.common.defer_coercion`)."""

from __future__ import annotations

import importlib.util
import inspect
import json
import subprocess
import sys

import pytest
import typer

SCRIPT = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["century", *sys.argv[1:]]
from century.cli import main
main()
"""


def loaded(tmp_path, *args: str) -> set[str]:
    """The modules loaded by the console script run with `args` in an empty folder."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_validate_loads_its_own_command_and_no_pydantic(tmp_path):
    modules = loaded(tmp_path, "validate")
    assert {m for m in modules if m.startswith("century.cli.")} == {
        "century.cli.common",
        "century.cli.core",
        "century.cli.formats",
    }
    assert not {m for m in modules if m.split(".")[0] == "pydantic"}
    assert not {m for m in modules if m.startswith(("century.targets", "century.simulation"))}


@pytest.mark.skipif(
    importlib.util.find_spec("typer._adapters") is None,
    reason="a typer that coerces without pydantic",
)
def test_a_value_on_the_command_line_is_coerced_by_typer(tmp_path):
    modules = loaded(tmp_path, "validate", "--format", "json")
    assert "pydantic" in modules  # typer's own coercion, as without the deferral


def test_the_whole_app_is_built_for_the_help_and_a_misspelt_command(tmp_path):
    assert "century.cli.targets" in loaded(tmp_path, "--help")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "valdate"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "No such command 'valdate'." in done.stderr
    assert "century.cli.targets" in json.loads(done.stderr.strip().splitlines()[-1])
    if "suggest_commands" in inspect.signature(typer.Typer).parameters:  # typer 0.20 and later
        assert "Did you mean 'validate'?" in done.stderr
