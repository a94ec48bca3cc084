"""The native build (hatch_build.py, ``CENTURY_NATIVE=1``): which build runs is told right, and
the compiled bots and game loop play the same moves as the pure-Python ones.

The comparison runs where the installed package is the compiled one (CI's native step builds
and installs it); elsewhere it is skipped, saying so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import century
from century.bots.compiled import bots_build, compiled_modules, is_compiled, mypyc_attr

from helpers import ROOT

PLAY = """
import hashlib, json, sys
from century.pipeline import compile_paths
from century.bots.compiled import bots_build
from century.simulation.config import SimConfig
from century.simulation.game import game_engine, play_game
ruleset = compile_paths().rulesets["spice-road"]
engine = game_engine(ruleset)
found = {"build": bots_build()}
for spec in sys.argv[1:]:
    config = SimConfig(2, 2, tuple(spec.split(",")), 7100, rotate=True)
    results = [play_game(engine, ruleset, config, index) for index in range(config.games)]
    text = json.dumps(results, sort_keys=True).encode()
    found[spec] = hashlib.sha256(text).hexdigest()
print(json.dumps(found))
"""

SEATINGS = ("greedy,greedy", "search,random", "planner,planner", "expert:1,planner")
"""The bots compared: every seat's moves and the game records of the simulation loop."""


def native_modules() -> list[str]:
    """The modules the native build compiles (pyproject.toml, the wheel's build hook)."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        config = tomllib.load(fh)
    return list(config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["modules"])


def test_the_build_is_told_from_the_installed_modules() -> None:
    """Compiled: every module the hook lists is an extension; pure: none is."""
    listed = native_modules()
    assert all(name.startswith("century.") for name in listed)
    found = compiled_modules()
    if bots_build() == "compiled":
        assert set(listed) <= set(found)
        assert all(is_compiled(name) for name in listed)
    else:
        assert found == [] and not any(is_compiled(name) for name in listed)
    assert not is_compiled("century.bots.compiled")  # it stays Python in both


def test_mypyc_attr_leaves_a_python_class_as_it_is() -> None:
    class Plain:
        pass

    assert mypyc_attr(allow_interpreted_subclasses=True)(Plain) is Plain


def digests(package: Path) -> dict[str, str]:
    """The digests of seeded games of `SEATINGS` played by `package` (a folder ``century``)
    in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", PLAY, *SEATINGS],
        env={**os.environ, "PYTHONPATH": str(package.parent)},
        cwd=package.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow
def test_the_compiled_bots_play_the_same_games_as_the_pure_ones(tmp_path: Path) -> None:
    if bots_build() != "compiled":
        pytest.skip("the bots are pure Python here (CI's native step installs them compiled)")
    installed = Path(century.__file__).resolve().parent
    pure = tmp_path / "century"
    skipped = shutil.ignore_patterns(*(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))
    shutil.copytree(installed, pure, ignore=skipped)
    compiled, reference = digests(installed), digests(pure)
    assert (compiled.pop("build"), reference.pop("build")) == ("compiled", "pure")
    assert compiled == reference
