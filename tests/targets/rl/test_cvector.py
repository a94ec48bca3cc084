"""The batched learning environment on the C engine (``CVectorEnv``): on the same seeds its
observations, masks, rewards, ends and final observations equal those of the PettingZoo
module's ``SingleAgentVectorEnv`` on the Python engine, step by step, for every bundled game
(random legal actions, now and then an illegal one, a round limit that cuts games short);
without the C engine it says what to build.

Each game's C engine is compiled once per module (a few seconds each): the tests that need
one are skipped, saying why, where no C compiler is found (CI has one)."""

from __future__ import annotations

import importlib
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from century.engine import module_name
from century.engine.cbuild import compile_c, missing
from century.engine.cbundled import prebuilt
from century.engine.cgen import generate_c
from century.targets.pettingzoo import generate, load_env

from helpers import BUNDLED, bundled_rulesets

np = pytest.importorskip("numpy", reason="numpy is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install -e '.[rl]')")

STEPS = 300
"""Steps of every vector environment compared."""


@pytest.fixture(scope="module")
def c_envs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Per bundled game, its PettingZoo module imported from a package folder holding the
    modules `century pettingzoo` writes and the C engine beside them (the package's own
    where it was built with ``CENTURY_C=1``)."""
    lacking = missing()
    if lacking:
        pytest.skip(f"no C engine here: {lacking}")
    root = tmp_path_factory.mktemp("cvector")
    found, packages = {}, []
    sys.path.insert(0, str(root))
    try:
        for game, ruleset in bundled_rulesets().items():
            name = module_name(ruleset)
            package = f"cvector_{name}"
            folder = root / package
            folder.mkdir()
            (folder / "__init__.py").write_text("", encoding="utf-8")
            for module, source in generate(ruleset).items():
                (folder / f"{module}.py").write_text(source, encoding="utf-8")
            extension, data = prebuilt(ruleset) or compile_c(generate_c(ruleset), name)[:2]
            (folder / extension).write_bytes(data)
            packages.append(package)
            found[game] = importlib.import_module(f"{package}.{name}_pettingzoo")
            assert found[game].engine.BACKEND == "c"
        yield found
    finally:
        sys.path.remove(str(root))
        for module in list(sys.modules):
            if module.split(".")[0] in packages:
                del sys.modules[module]


def _equal_infos(expected: dict[str, Any], found: dict[str, Any]) -> None:
    assert expected.keys() == found.keys()
    for key, value in expected.items():
        if isinstance(value, dict):
            _equal_infos(value, found[key])
        elif key == "final_obs":
            for number in np.flatnonzero(expected["_final_obs"]):
                assert np.array_equal(value[number], found[key][number]), number
        else:
            assert np.array_equal(value, found[key]), key


def _compare(reference: Any, tested: Any, steps: int, seed: int) -> Counter[str]:
    """Step both environments alike; how often games ended and actions were illegal."""
    rng = random.Random(seed)
    expected, found = reference.reset(seed=seed), tested.reset(seed=seed)
    seen: Counter[str] = Counter()
    for step in range(steps):
        assert np.array_equal(expected[0], found[0]), (
            step,
            np.flatnonzero(expected[0] != found[0]),
        )
        _equal_infos(expected[-1], found[-1])
        assert np.array_equal(reference.action_masks(), tested.action_masks())
        actions = [
            rng.choice(np.flatnonzero(row)) if rng.random() > 0.01 else rng.randrange(row.size)
            for row in expected[-1]["action_mask"]
        ]
        expected, found = reference.step(np.array(actions)), tested.step(np.array(actions))
        for one, other in zip(expected[1:4], found[1:4], strict=True):
            assert one.dtype == other.dtype and np.array_equal(one, other), step
        _equal_infos(expected[-1], found[-1])
        seen["ended"] += int(np.sum(expected[2] | expected[3]))
        seen["illegal"] += len(expected[-1].get("final_info", {}).get("illegal_action", []))
    expected, found = reference.reset(), tested.reset()  # each game on its next seed
    assert np.array_equal(expected[0], found[0])
    _equal_infos(expected[-1], found[-1])
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("game", BUNDLED)
def test_the_c_vector_env_equals_the_pettingzoo_env_step_by_step(c_envs, game):
    ruleset = bundled_rulesets()[game]
    reference, tested = load_env(ruleset), c_envs[game]
    seen = _compare(
        reference.SingleAgentVectorEnv(num_envs=4, players=2, seat=1),
        tested.CVectorEnv(num_envs=4, players=2, seat=1),
        STEPS,
        seed=len(game),
    )
    assert seen["illegal"] > 0
    cut = {"players": 4, "seat": 2, "max_rounds": 3, "reward": "score"}
    seen = _compare(
        reference.SingleAgentVectorEnv(num_envs=3, **cut),
        tested.CVectorEnv(num_envs=3, **cut),
        STEPS,
        seed=3,
    )
    assert seen["ended"] > 3


@pytest.mark.slow
def test_an_illegal_action_raises_when_asked_and_changes_nothing(c_envs):
    module = c_envs["spice-road"]
    env = module.CVectorEnv(num_envs=2, illegal_reward=None)
    _, infos = env.reset(seed=5)
    masks = infos["action_mask"]
    actions = np.array([np.flatnonzero(masks[0])[0], np.flatnonzero(masks[1] == 0)[0]])
    with pytest.raises(module.IllegalAction, match="game 1: action"):
        env.step(actions)
    assert np.array_equal(env.action_masks(), masks.astype(bool))
    assert env.game(0).moves() == env.game(1).moves() == []  # seat 0 moves first
    with pytest.raises(TypeError, match="whole numbers"):
        env.step(np.zeros(2))


def test_without_the_c_engine_the_c_vector_env_says_what_to_build():
    module = load_env(bundled_rulesets()["spice-road"])
    with pytest.raises(RuntimeError, match=r"needs the game's C engine .*--backend c"):
        module.CVectorEnv(num_envs=2)


@pytest.mark.slow
def test_copy_false_returns_the_same_observation_array_with_the_same_values(c_envs):
    module = c_envs["spice-road"]
    fresh, shared = module.CVectorEnv(num_envs=3), module.CVectorEnv(num_envs=3, copy=False)
    assert (fresh.copy, shared.copy) == (True, False)
    kept, _ = fresh.reset(seed=7)
    first, infos = shared.reset(seed=7)
    before = kept.copy()
    rng = random.Random(7)
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in infos["action_mask"]])
        new, *rest, new_infos = fresh.step(actions)
        obs, *others, infos = shared.step(actions)
        assert obs is first and new is not kept and np.array_equal(new, obs)
        assert all(np.array_equal(one, other) for one, other in zip(rest, others, strict=True))
        assert np.array_equal(new_infos["action_mask"], infos["action_mask"])
    assert np.array_equal(kept, before)  # an array handed out is never written again
    assert shared.reset()[0] is first
