"""The C build as an install option (``CENTURY_C=1``, hatch_build.py): the package finds the
C engines compiled into it with `importlib.resources` for the rules as they are now only (a
stale one is not found, a foreign one refuses to load), and `century engine --backend c`
writes the package's engine without a compiler.

``CENTURY_C_INSTALLED=1`` says the package under test is such a build (CI's C build step):
then every bundled game's engine must be found and play as the Python engine; otherwise the
package is a pure one and holds none."""

from __future__ import annotations

import hashlib
import os
import random

import pytest

from century.engine import generate, load_engine, module_name
from century.engine.cbuild import compile_c, missing
from century.engine.cbundled import load, prebuilt
from century.engine.cgen import generate_c
from century.engine.native import extension_name

from helpers import bundled_rulesets, changed, spice_road

INSTALLED = os.environ.get("CENTURY_C_INSTALLED", "") == "1"
"""Whether the package under test was built with ``CENTURY_C=1``."""


def _digest(engine, games: int) -> str:
    """A digest of `games` seeded random games: every move list and the final scores."""
    digest = hashlib.sha256()
    for seed in range(games):
        state, rng = engine.new_game(2, seed), random.Random(seed)
        while not state.is_over():
            moves = state.legal_moves()
            digest.update("|".join(moves).encode())
            state.play(moves[rng.randrange(len(moves))])
        digest.update(repr(state.scores()).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("game", sorted(bundled_rulesets()))
def test_the_package_holds_the_c_engines_of_the_bundled_games_only_in_the_c_build(game):
    ruleset = bundled_rulesets()[game]
    found = prebuilt(ruleset)
    if not INSTALLED:
        assert found is None and load(ruleset) is None
        return
    assert found is not None and found[0] == extension_name(module_name(ruleset))
    engine = load(ruleset)
    assert engine is not None and engine.BACKEND == "c"
    assert _digest(engine, 20) == _digest(load_engine(ruleset), 20)


@pytest.mark.skipif(not INSTALLED, reason="a pure install holds no C engine")
def test_the_engine_command_writes_the_packages_c_engine_without_a_compiler(
    run, tmp_path, monkeypatch
):
    monkeypatch.setenv("CC", "")  # no compiler: the package's engine is all there is
    result = run("engine", "spice-road", "--backend", "c", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    name = extension_name("spice_road")
    expected = prebuilt(spice_road())
    assert expected is not None and (tmp_path / name).read_bytes() == expected[1]
    assert (tmp_path / "spice_road.c").read_text(encoding="utf-8") == generate_c(spice_road())


@pytest.mark.slow
def test_a_packaged_c_engine_is_found_for_its_rules_only_and_a_foreign_one_refused(tmp_path):
    lacking = missing()
    if lacking:
        pytest.skip(f"no C engine here: {lacking}")
    base = spice_road()
    name = module_name(base)
    extension, data, _ = compile_c(generate_c(base), name)
    (tmp_path / extension).write_bytes(data)
    (tmp_path / f"{name}.py").write_text(generate(base), encoding="utf-8")
    assert prebuilt(base, tmp_path) == (extension, data)
    engine = load(base, tmp_path)
    assert engine is not None and engine.BACKEND == "c" and load(base, tmp_path) is engine
    assert _digest(engine, 5) == _digest(load_engine(base), 5)
    other = changed(base, id=base.id, caravan_limit=base.caravan_limit + 2)  # the same name
    assert module_name(other) == name and prebuilt(other, tmp_path) is None  # stale
    (tmp_path / f"{name}.py").write_text(generate(other), encoding="utf-8")
    assert prebuilt(other, tmp_path) is not None and prebuilt(base, tmp_path) is None
    foreign = tmp_path / "foreign"  # the same engine beside the source of other rules
    foreign.mkdir()
    for file in (extension, f"{name}.py"):
        (foreign / file).write_bytes((tmp_path / file).read_bytes())
    with pytest.raises(ImportError, match="was compiled from another"):
        load(other, foreign)
