"""Collecting the tests does no work: no test module generates or loads an engine (nor plays
a game, which needs one) as it is imported; engines and games are fixtures, made for the
tests that run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import ROOT

pytestmark = pytest.mark.slow  # it imports every test module

PROBE = """
import json, sys, traceback
import century.engine

made = []
generate = century.engine.generate


def counted(ruleset):
    here = [f"{f.filename}:{f.lineno}" for f in traceback.extract_stack()[:-1]]
    made.append(next((f for f in here if "test_" in f.rsplit("/", 1)[-1]), "?"))
    return generate(ruleset)


century.engine.generate = counted  # every engine is generated first (`load_engine`)
import pytest

code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]])
print(json.dumps({"code": int(code), "engines": made}))
"""


def collected_engines(*args: str, cwd: Path = ROOT) -> list[str]:
    """Where the engines generated while ``pytest --collect-only ARGS`` runs were made (the
    test module's line); fails unless the collection succeeds."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return result["engines"]


def test_collecting_the_suite_loads_no_engine() -> None:
    assert collected_engines() == []


def test_an_engine_made_as_a_module_is_imported_is_found(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text(
        "from century.engine import load_engine\n"
        "from century.pipeline import compile_paths\n\n"
        "ENGINE = load_engine(next(iter(compile_paths().rulesets.values())))\n\n\n"
        "def test_nothing():\n"
        "    assert ENGINE\n",
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    assert collected_engines(str(planted), cwd=tmp_path) == [f"{planted}:4"]
