"""The learning adapters: the action space (from the model; over random play every legal
action leads to a legal engine move and every legal move has exactly one action sequence),
the PettingZoo environment (PettingZoo's API and seed tests), the Gymnasium wrapper, the
OpenSpiel game (OpenSpiel's random simulation test; the same game as the engine's), and the
targets' files (lint-clean, byte-identical, importable where they are written)."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from math import comb

import pytest

from century.model.cards import short_fields
from century.model.ruleset import Ruleset
from century.runtime import engine as runtime
from century.shared.rl import load_actions
from century.targets import targets

from helpers import (
    BUNDLED,
    COMPOSED_ID,
    HOSTILE,
    ROOT,
    bundled_rulesets,
    changed,
    composed,
    decisions,
    five_ranks,
    hostile,
    lint,
    spice_road,
    written,
)

RL_EXTRA = "(pip install -e '.[rl]')"
TRAINING = "(PyTorch's CPU build, then sb3-contrib: see docs/tutorials/training-an-agent.md)"


def rulesets() -> dict[str, Ruleset]:
    """Every bundled game, the five-rank variant and the variant of composed cards."""
    games = dict(bundled_rulesets())
    games["five-ranks"] = five_ranks(games["spice-road"])
    games[COMPOSED_ID] = composed()
    return games


RULESETS = rulesets()


def needs(module: str, install: str = RL_EXTRA):
    """The module, or a skip that names the missing package."""
    return pytest.importorskip(module, reason=f"{module} is not installed {install}")


# -- the action space ------------------------------------------------------------------------


def expected_size(ruleset: Ruleset) -> int:
    """The action count by the documented formula, computed here from the model."""
    carry = max([ruleset.caravan_limit, *(sum(seat) for seat in ruleset.seats)])
    ranks = len(ruleset.resources)
    cards = {c.id: c for c in (*ruleset.starting_cards, *ruleset.merchant_deck)}.values()
    plays = 0
    for card in cards:
        if card.kind == "composed":  # every move from some caravan of at most `carry` cubes
            codes = ruleset.codes.lower()
            plays += len(runtime.effect_moves(card.effect, codes, "play", carry))
        elif card.kind == "gain":
            plays += 1
        elif card.kind == "trade":
            plays += carry // sum(short_fields(card.effect, ranks)["pay"])
        else:
            steps = short_fields(card.effect, ranks)["steps"]
            plays += comb(ranks - 1 + steps, steps) - 1  # multisets of 1..N steps
    return plays + ruleset.merchant_row + ruleset.point_row + 1 + ranks


def test_action_space_follows_the_model():
    base = spice_road()
    sizes = {}
    for game, ruleset in RULESETS.items():
        actions = load_actions(ruleset)
        assert expected_size(ruleset) == actions.NUM_ACTIONS == len(set(actions.ACTIONS))
        assert [name.split()[1] for name in actions.ACTIONS[-len(ruleset.resources) :]] == list(
            ruleset.codes.lower()
        )
        sizes[game] = actions.NUM_ACTIONS
    assert sizes["five-ranks"] != sizes["spice-road"]
    wider = changed(base, merchant_row=base.merchant_row + 1, caravan_limit=base.caravan_limit + 3)
    actions = load_actions(wider)
    assert expected_size(wider) == actions.NUM_ACTIONS > sizes["spice-road"]
    assert f"acquire {base.merchant_row + 1}" in actions.INDEX


def spell_all(actions, moves: list[str]) -> dict[str, list[int]]:
    """Every move reachable from a fresh decision by legal actions, with its actions; fails
    if a legal action leads nowhere or two action sequences give the same move."""
    found: dict[str, list[int]] = {}

    def walk(turn, path: list[int]) -> None:
        legal = turn.legal()
        assert legal, f"a dead end after {path}"
        for action in legal:
            branch = copy.deepcopy(turn)
            move = branch.choose(action)
            if move is None:
                walk(branch, [*path, action])
            else:
                assert move not in found, move
                found[move] = [*path, action]

    walk(actions.Turn(moves), [])
    return found


def check_decision(actions, state, rng: random.Random) -> None:
    moves = state.legal_moves()
    found = spell_all(actions, moves)
    assert set(found) == set(moves)
    for move in moves:
        assert found[move] == actions.actions_of(move)
    turn = actions.Turn(moves)
    illegal = [a for a in range(actions.NUM_ACTIONS) if a not in turn.legal()]
    for action in rng.sample(illegal, min(3, len(illegal))):
        with pytest.raises(actions.IllegalAction):
            copy.deepcopy(turn).choose(action)


CONSISTENCY = [(g, p) for g, r in RULESETS.items() for p in r.player_counts]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players"), CONSISTENCY, ids=[f"{g}-{p}p" for g, p in CONSISTENCY]
)
def test_masked_actions_and_legal_moves_agree_over_random_play(game, players):
    actions = load_actions(RULESETS[game])
    seen: Counter[str] = Counter()
    for seed in range(5):
        rng = random.Random(seed)
        state = actions.engine.new_game(players, seed)
        for _ in decisions(state):
            check_decision(actions, state, rng)
            moves = state.legal_moves()
            claims = [m for m in moves if m.startswith("claim")]
            move = rng.choice(claims if claims and rng.random() < 0.5 else moves)
            seen[move.split()[0] if len(actions.actions_of(move)) < 3 else "long"] += 1
            state.play(move)
    assert seen["discard"] and seen["long"] and seen["claim"] and seen["rest"]


def test_a_move_outside_the_action_space_is_reported():
    actions = load_actions(spice_road())
    with pytest.raises(LookupError, match="no action"):
        actions.actions_of("play no-such-card")
    with pytest.raises(actions.IllegalAction, match="not legal"):
        actions.Turn(["rest"]).choose(0)


# -- PettingZoo --------------------------------------------------------------------------------


def pettingzoo_module(ruleset: Ruleset):
    for module in ("pettingzoo", "gymnasium", "numpy"):
        needs(module)
    from century.targets.pettingzoo import load_env

    return load_env(ruleset)


# PettingZoo's API test warns about dict observations unless the environment is one of its own.
DICT_OBSERVATIONS = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array", "ignore:Observation space for each agent"
)


@pytest.mark.slow
@DICT_OBSERVATIONS
@pytest.mark.parametrize("game", BUNDLED)
def test_pettingzoo_api_test(game):
    module = pettingzoo_module(RULESETS[game])
    from pettingzoo.test import api_test

    api_test(module.env(players=2), num_cycles=300)


@pytest.mark.slow
@DICT_OBSERVATIONS
def test_pettingzoo_api_and_seed_tests_with_four_players():
    module = pettingzoo_module(RULESETS["five-ranks"])
    from pettingzoo.test import api_test, seed_test

    api_test(module.env(players=4), num_cycles=200)
    seed_test(lambda: module.env(players=4), num_cycles=100)


def play_env(module, players: int, seed: int, reward: str = "win"):
    """One game of random masked actions; returns the env after the last agent left."""
    import numpy as np

    env = module.env(players=players, reward=reward)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward_, terminated, truncated, _ = env.last()
        totals[agent] += reward_
        mask = observation["action_mask"]
        if terminated or truncated:
            assert not mask.any()
            env.step(None)
            continue
        seat = env.game.current_player
        assert env.possible_agents[seat] == agent
        if rng.random() < 0.1:  # the cached parts give the codec's observation
            expected = module.actions.observation(env.game, seat, env.turn)
            assert observation["observation"].tolist() == expected
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env, totals


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), [(g, p) for g in RULESETS for p in (2, 4)])
def test_pettingzoo_random_masked_games_follow_the_engine(game, players):
    module = pettingzoo_module(RULESETS[game])
    engine = module.engine
    for seed in range(3):
        env, totals = play_env(module, players, seed)
        game_state = env.game
        assert game_state.is_over() and not env.agents
        replayed = engine.replay(json.loads(json.dumps(game_state.record())))
        assert replayed.to_dict() == game_state.to_dict()
        assert sum(totals.values()) == pytest.approx(0.0)
        winners = {env.possible_agents[seat] for seat in game_state.winners()}
        assert {agent for agent, total in totals.items() if total > 0} == winners
    env, totals = play_env(module, players, 7, reward="score")
    assert list(totals.values()) == [float(s) for s in env.game.scores()]


def test_pettingzoo_masks_are_new_arrays_from_a_bounded_table(monkeypatch):
    module = pettingzoo_module(spice_road())
    monkeypatch.setattr(module, "MASKS_KEPT", 3)
    monkeypatch.setattr(module, "_MASKS", {})
    env = module.env(players=2)
    env.reset(seed=3)
    for _ in range(30):
        observation, _, _, _, _ = env.last()
        mask = observation["action_mask"]
        legal = list(mask.nonzero()[0])
        assert legal == env.turn.legal()
        mask[:] = 0  # the agent's own array: the next observation is not changed
        assert list(env.observe(env.agent_selection)["action_mask"].nonzero()[0]) == legal
        env.step(int(legal[0]))
        assert len(module._MASKS) <= 3


def test_pettingzoo_observation_and_public_state():
    module = pettingzoo_module(spice_road())
    actions = module.actions
    env = module.env(players=3, render_mode="ansi")
    env.reset(seed=5)
    layout = actions.observation_layout(3)
    assert (
        sum(size for _, size in layout) == env.observation_space("player_0")["observation"].shape[0]
    )
    offsets, start = {}, 0
    for name, size in layout:
        offsets[name] = slice(start, start + size)
        start += size
    first = env.observe("player_0")["observation"]
    second = env.observe("player_1")["observation"]
    caravans = [env.game.cubes(seat) for seat in range(3)]
    for seat, vector in ((0, first), (1, second)):
        for offset in range(3):
            cubes = caravans[(seat + offset) % 3]
            counts = [cubes.count(code) for code in actions.CODES]
            assert list(vector[offsets[f"seat_{offset}_caravan"]]) == counts
    assert list(first[offsets["to_move"]]) == [1, 0, 0]
    assert list(second[offsets["to_move"]]) == [0, 0, 1]
    assert not env.observe("player_1")["action_mask"].any()
    public = env.public_state()
    assert isinstance(public["merchant_deck"], int) and "seed" not in public
    assert json.loads(json.dumps(public)) == public
    # an acquire with payment: the same agent places cube after cube
    legal = actions.Turn(env.game.legal_moves()).legal()
    acquire = actions.INDEX["acquire 3"]
    assert acquire in legal
    env.step(acquire)
    assert env.agent_selection == "player_0" and env.public_state()["pending"] == "acquire 3"
    vector = env.observe("player_0")["observation"]
    assert list(vector[offsets["phase"]]) == [0, 1, 0]
    assert vector[offsets["pending_left"]][0] == 2
    mask = env.observe("player_0")["action_mask"]
    assert set(mask.nonzero()[0]) == {actions.INDEX["cube " + actions.CODES[0]]}
    with pytest.raises(actions.IllegalAction):
        env.step(actions.INDEX["rest"])
    cube = actions.INDEX["cube " + actions.CODES[0]]
    env.step(cube)
    env.step(cube)
    assert env.agent_selection == "player_1"
    assert env.game.moves()[-1] == f"acquire 3 {actions.CODES[0] * 2}"
    text = env.render()
    assert "seat 2 to move" in text and "merchant row" in text


def test_pettingzoo_seeding_and_truncation():
    module = pettingzoo_module(spice_road())
    env = module.env(players=2, max_rounds=3)
    env.reset(seed=11)
    assert env.game.to_dict() == module.engine.new_game(2, 11).to_dict()
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(observation["action_mask"].nonzero()[0][-1]))  # rest, never a long move
        steps += 1
    assert env.game.rounds() == 3 and not env.game.is_over() and steps == 6
    with pytest.raises(RuntimeError, match="call reset"):  # every agent has left
        env.step(None)
    env.reset()
    later = env.game.to_dict()
    env.reset(seed=11)
    env.reset()
    assert env.game.to_dict() == later  # the seeds after a seeded reset repeat


@pytest.mark.parametrize("seed", [1.5, float("nan"), b"1", True, "1"], ids=repr)
def test_environments_take_whole_number_seeds_only(seed):
    module = pettingzoo_module(spice_road())
    import numpy as np

    env = module.env(players=2)
    with pytest.raises(TypeError, match=r"^seed must be a whole number"):
        env.reset(seed=seed)
    single = module.SingleAgentEnv(players=2)
    with pytest.raises(TypeError, match=r"^seed must be a whole number"):
        single.reset(seed=seed)
    env.reset(seed=np.int64(11))
    single.reset(seed=np.uint16(11))
    dealt = module.engine.new_game(2, 11).to_dict()
    assert env.game.to_dict() == single.game.to_dict() == dealt
    assert type(env.game.record()["seed"]) is int


@pytest.mark.parametrize("action", [1.5, 0.0, True, "0", None, [0]], ids=repr)
def test_a_step_takes_a_whole_number_action_never_a_truncated_one(action):
    module = pettingzoo_module(spice_road())
    import numpy as np

    env = module.env(players=2)
    env.reset(seed=3)
    error = module.actions.IllegalAction if action is None else TypeError
    with pytest.raises(error, match="action"):
        env.step(action)
    single = module.SingleAgentEnv(players=2, illegal_reward=-1.0)
    single.reset(seed=3)
    with pytest.raises(TypeError, match=r"^action must be a whole number"):
        single.step(action if action is not None else 0.5)
    legal = int(np.flatnonzero(single.action_masks())[0])
    single.step(np.int64(legal))  # NumPy's integers are whole numbers
    env.step(np.array(legal, dtype=np.int32)[()])


# -- Gymnasium ---------------------------------------------------------------------------------


def test_gymnasium_wrapper_passes_the_env_checker_with_its_defaults():
    module = pettingzoo_module(spice_road())
    from gymnasium.utils.env_checker import check_env

    check_env(module.SingleAgentEnv(), skip_render_check=True)
    check_env(module.SingleAgentEnv(players=3, seat=1), skip_render_check=True)


def test_gymnasium_wrapper_passes_stable_baselines3_env_checker():
    module = pettingzoo_module(spice_road())
    env_checker = needs("stable_baselines3.common.env_checker", TRAINING)

    env_checker.check_env(module.SingleAgentEnv(), warn=True)


@pytest.mark.parametrize(("seat", "players"), [(0, 2), (2, 3)])
def test_gymnasium_wrapper_against_a_century_bot(seat, players):
    from century.bots.registry import make_bot

    ruleset = spice_road()
    module = pettingzoo_module(ruleset)
    import numpy as np

    engine = module.engine  # the bots play the environment's engine
    env = module.SingleAgentEnv(
        players=players, seat=seat, opponent=lambda seed: make_bot("greedy", engine, ruleset, seed)
    )
    observation, info = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    assert env.game.current_player == seat
    rng = np.random.default_rng(0)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        assert (info["action_mask"] == env.action_masks()).all()
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
    assert terminated and env.game.is_over()
    assert reward == (players - 1 if env.game.winners() == [seat] else -1.0)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gymnasium_wrapper_illegal_actions():
    module = pettingzoo_module(spice_road())
    env = module.SingleAgentEnv(players=2)  # by default an illegal action loses the game
    _, info = env.reset(seed=1)
    illegal = int(info["action_mask"].argmin())
    before = env.game.to_dict()
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game.to_dict() == before and not info["action_mask"].any()
    assert env.observation_space.contains(observation)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = module.SingleAgentEnv(players=2, illegal_reward=-5.0)
    env.reset(seed=1)
    _, reward, terminated, _, _ = env.step(illegal)
    assert (reward, terminated) == (-5.0, True)
    env = module.SingleAgentEnv(players=2, illegal_reward=None)  # or it raises
    env.reset(seed=1)
    with pytest.raises(module.IllegalAction):
        env.step(illegal)
    assert env.game.to_dict() == before
    with pytest.raises(ValueError, match="seat"):
        module.SingleAgentEnv(players=2, seat=2)
    with pytest.raises(ValueError, match="players"):
        module.env(players=9)
    with pytest.raises(RuntimeError, match="reset"):
        module.env(players=2).step(0)


def test_vector_env_steps_the_games_a_single_env_steps():
    """A vector of 3 games against 3 single environments on the same seeds and actions:
    the same observations, rewards, ends and masks; an ended game starts anew in the same
    step, its last observation and info in ``final_obs`` and ``final_info``."""
    module = pettingzoo_module(spice_road())
    import numpy as np
    from gymnasium.vector import AutoresetMode

    envs = module.SingleAgentVectorEnv(3, players=2, max_rounds=12)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.observation_space.shape == (3, *envs.single_observation_space.shape)
    assert list(envs.action_space.nvec) == [module.NUM_ACTIONS] * 3
    singles = [module.SingleAgentEnv(players=2, max_rounds=12) for _ in range(3)]
    observations, info = envs.reset(seed=40)
    for number, single in enumerate(singles):
        alone, alone_info = single.reset(seed=40 + number)
        assert (observations[number] == alone).all()
        assert (info["action_mask"][number] == alone_info["action_mask"]).all()
    assert envs.observation_space.contains(observations)
    rng = np.random.default_rng(0)
    ended = illegal = 0
    for step in range(150):
        masks = info["action_mask"]
        chosen = np.argmax(masks * rng.random(masks.shape), axis=1)
        if step == 20:  # an illegal action loses that game
            chosen[1] = int(masks[1].argmin())
        observations, rewards, terminated, truncated, info = envs.step(chosen)
        for number, single in enumerate(singles):
            alone, reward, done, cut, alone_info = single.step(int(chosen[number]))
            assert (rewards[number], terminated[number], truncated[number]) == (reward, done, cut)
            if done or cut:
                ended += 1
                assert info["_final_obs"][number]
                assert (info["final_obs"][number] == alone).all()
                illegal += bool(info["final_info"].get("illegal_action", [False] * 3)[number])
                alone, alone_info = single.reset()
            assert (observations[number] == alone).all(), (step, number)
            assert (info["action_mask"][number] == alone_info["action_mask"]).all()
            assert alone_info["action_mask"].any()  # every mask has a legal action
        assert (envs.action_masks() == info["action_mask"].astype(bool)).all()
    assert ended >= 3 and illegal == 1
    kept = observations.copy()  # each step's batch is a new, writable array
    observations[:] = -1
    assert (envs.step(np.argmax(info["action_mask"], axis=1))[0] != -1).all()
    assert not (kept == -1).any()
    observations, _ = envs.reset(seed=[7, None, 9])
    assert envs.envs[0].game.to_dict() == module.engine.new_game(2, 7).to_dict()
    with pytest.raises(TypeError, match="whole numbers"):
        envs.step(np.zeros(3))
    with pytest.raises(ValueError, match="3 actions"):
        envs.step([0, 0])
    with pytest.raises(ValueError, match="num_envs"):
        module.SingleAgentVectorEnv(0)
    with pytest.raises(TypeError, match="num_envs"):
        module.SingleAgentVectorEnv(2.0)
    envs.close()


# -- OpenSpiel ---------------------------------------------------------------------------------


def openspiel(ruleset: Ruleset):
    pyspiel = needs("pyspiel")
    needs("numpy")
    from century.targets.openspiel import load_game_module

    return pyspiel, load_game_module(ruleset)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players"),
    [("spice-road", 2), ("golem", 3), ("spice-road-classic", 2), ("five-ranks", 4)],
)
def test_openspiel_random_sim_test(game, players):
    pyspiel, _ = openspiel(RULESETS[game])
    loaded = pyspiel.load_game(f"{game}(players={players})")
    assert loaded.num_players() == players
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_openspiel_plays_the_engines_game():
    """Chance outcomes set to an engine game's deck order and the engine's random moves
    spelled as actions give the engine's final position and result."""
    pyspiel, module = openspiel(spice_road())
    engine, actions = module.engine, module.actions
    expected = engine.new_game(2, 9)
    start = expected.to_dict()
    merchants = [entry["card"] for entry in start["merchant_row"]] + start["merchant_deck"]
    points = start["point_row"] + start["point_deck"]
    state = pyspiel.load_game("spice-road").new_initial_state()
    rng = random.Random(9)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = dict(state.chance_outcomes())
            assert sum(outcomes.values()) == pytest.approx(1.0)
            if max(outcomes) < len(engine.CARDS):  # a merchant card
                card = engine.CARD_INDEX[merchants.pop(0)]
            else:
                card = len(engine.CARDS) + engine.POINT_INDEX[points.pop(0)]
            assert card in outcomes
            state.apply_action(card)
            continue
        move = rng.choice(expected.legal_moves())
        for action in actions.actions_of(move):
            assert action in state.legal_actions()
            state.apply_action(action)
        expected.play(move)
    final = state.engine_state().to_dict(moves=False)
    wanted = expected.to_dict(moves=False)
    for data in (final, wanted):
        data.pop("seed")
        data.pop("start", None)
        for deck in ("merchant_deck", "point_deck"):
            data[deck] = sorted(data[deck])  # the order left is not drawn yet
    assert final == wanted
    assert state.returns() == actions.rewards(expected)


def test_openspiel_round_cap_and_parameters():
    pyspiel, _ = openspiel(spice_road())
    capped = pyspiel.load_game("spice-road(max_rounds=2)")
    state = capped.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])  # rest
    assert state.engine_state().rounds() == 2 and not state.engine_state().is_over()
    assert sum(state.returns()) == 0 and "max_rounds" in str(state)
    assert len(state.observation_tensor(0)) == capped.observation_tensor_size()
    with pytest.raises((pyspiel.SpielError, ValueError)):
        pyspiel.load_game("spice-road(players=9)")


# -- the targets and their files ----------------------------------------------------------------


def test_targets_are_registered_but_not_in_the_plain_build():
    found = targets()
    for name in ("pettingzoo", "openspiel"):
        assert name in found and not found[name].in_build


@pytest.mark.slow
@pytest.mark.parametrize("target", ["pettingzoo", "openspiel"])
def test_targets_write_lint_clean_byte_identical_modules(target, tmp_path):
    for game, ruleset in {**RULESETS, "hostile": hostile(spice_road())}.items():
        folder = tmp_path / game
        paths = written(target, ruleset, folder)
        assert [p.name.split("_")[-1] for p in paths][1:] == ["actions.py", f"{target}.py"]
        for path in paths:
            assert path.read_text(encoding="utf-8").startswith("# Generated by the Century")
        lint(folder)
    script = (
        "import sys\n"
        "from century.pipeline import compile_paths\n"
        f"from century.targets.{target} import generate\n"
        "modules = generate(compile_paths().rulesets['spice-road'])\n"
        "sys.stdout.write(''.join(modules.values()))\n"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, env=env, check=True
        )
        outputs.add(done.stdout)
    files = b"".join(p.read_bytes() for p in sorted((tmp_path / "spice-road").iterdir()))
    assert outputs == {files}


def test_hostile_names_play_through_the_environment():
    ruleset = hostile(spice_road())
    module = pettingzoo_module(ruleset)
    assert ruleset.id == module.engine.GAME_ID and HOSTILE in module.CenturyEnv.metadata["name"]
    env, _ = play_env(module, 2, 1)
    assert env.game.is_over()


@pytest.mark.slow
def test_cli_writes_the_modules_that_import_where_they_are_written(run, tmp_path):
    needs("pettingzoo")
    needs("pyspiel")
    out = tmp_path / "out"
    for target in ("pettingzoo", "openspiel"):
        result = run(target, "spice-road", "--out", str(out))
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        ".century-manifest.json",
        "spice_road.py",
        "spice_road_actions.py",
        "spice_road_openspiel.py",
        "spice_road_pettingzoo.py",
    ]
    package = tmp_path / "agents"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in names:
        (package / name).write_bytes((out / name).read_bytes())
    script = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "import pyspiel\n"
        "from {prefix}spice_road_pettingzoo import env\n"
        "import {prefix}spice_road_openspiel\n"
        "e = env(players=2)\n"
        "e.reset(seed=1)\n"
        "game = pyspiel.load_game('spice-road')\n"
        "print(e.num_agents, game.num_distinct_actions() == e.action_space('player_0').n)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'century'))\n"
    )
    for folder, prefix in ((out, ""), (tmp_path, "agents.")):
        done = subprocess.run(
            [sys.executable, "-c", script.format(prefix=prefix), str(folder)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split("\n")[:2] == ["2 True", "[]"]


def test_cli_build_with_the_targets(run, tmp_path):
    result = run("build", "rules/spice-road.yaml", "--out", str(tmp_path), "--target", "pettingzoo")
    assert result.exit_code == 0, result.output
    built = sorted(p.name for p in (tmp_path / "spice-road").iterdir())
    assert built == [
        ".century-manifest.json",
        "spice_road.py",
        "spice_road_actions.py",
        "spice_road_pettingzoo.py",
    ]


TUTORIAL = ROOT / "docs" / "tutorials" / "training-an-agent.md"
"""The docs page that holds the Python examples of the learning environments."""


def page_examples(run, tmp_path) -> dict[str, str]:
    """The Python examples of the learning environments on their docs page (the tutorial
    "Training an agent"), by what they show, with the modules written where they read them."""
    folder = tmp_path / "build" / "spice-road"
    assert run("pettingzoo", "spice-road", "--out", str(folder)).exit_code == 0
    page = TUTORIAL.read_text(encoding="utf-8")
    blocks = re.findall(r"```python(?: test[^\n]*)?\n(.*?)```", page, re.S)
    [example] = [b for b in blocks if "rl.env(" in b]
    [processes] = [b for b in blocks if "AsyncVectorEnv" in b]
    [training] = [b for b in blocks if "MaskablePPO" in b]
    found = {"example": example, "processes": processes, "training": training}
    return {
        key: code.replace('"build/spice-road"', repr(str(folder))) for key, code in found.items()
    }


def run_python(code: str, cwd, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_tutorial_example_runs(run, tmp_path):
    needs("pettingzoo")
    example = page_examples(run, tmp_path)["example"]
    example += (
        "assert env.game.is_over() and not env.agents\n"
        "assert rl.engine.replay(record).to_dict() == env.game.to_dict()\n"
        "assert terminated is False and observation.shape == solo.observation_space.shape\n"
        "assert batch.shape == (16, *games.single_observation_space.shape)\n"
        "assert infos['action_mask'].shape == (16, rl.NUM_ACTIONS) and rewards.shape == (16,)\n"
        "print('ok')\n"
    )
    assert run_python(example, tmp_path).strip() == "ok"


def test_the_tutorial_multi_process_recipe_runs(run, tmp_path):
    needs("pettingzoo")
    examples = page_examples(run, tmp_path)
    code = examples["example"] + examples["processes"]
    code += (
        "assert observations.shape == (4, *games.single_observation_space.shape)\n"
        "masks = info['action_mask']\n"
        "assert masks.shape == (4, rl.NUM_ACTIONS) and masks.any(axis=1).all()\n"
        "print('ok')\n"
    )
    assert run_python(code, tmp_path).strip() == "ok"


def test_the_tutorial_training_loop_runs(run, tmp_path):
    """The MaskablePPO loop of the tutorial, for 256 steps instead of 20,000."""
    needs("sb3_contrib", TRAINING)
    needs("pettingzoo")
    training = page_examples(run, tmp_path)["training"]
    learn = "total_timesteps=20_000, progress_bar=True"  # the bar needs tqdm: not here
    assert learn in training
    short = training.replace(learn, "total_timesteps=256")
    out = run_python(short, tmp_path)
    assert re.fullmatch(r"(won|lost) after \d+ rounds\n", out), out


def test_the_tutorial_stable_baselines3_workers_train(run, tmp_path):
    """The tutorial's stable-baselines3 worker processes, two instead of four, trained by
    MaskablePPO, which reads their masks through ``action_masks()``."""
    needs("sb3_contrib", TRAINING)
    needs("pettingzoo")
    examples = page_examples(run, tmp_path)
    page = " ".join(TUTORIAL.read_text(encoding="utf-8").split())
    [workers] = re.findall(r"`(SubprocVecEnv\(\[.*?\] \* 4\))`", page)
    code = examples["training"].split("env = ")[0] + (
        "import functools\n"
        "from stable_baselines3.common.vec_env import SubprocVecEnv\n"
        f"workers = {workers.replace('* 4', '* 2')}\n"
        "model = MaskablePPO('MlpPolicy', workers, n_steps=32, batch_size=64, seed=0)\n"
        "model.learn(total_timesteps=64)\n"
        "masks = workers.env_method('action_masks')\n"
        "legal = [m.shape == (rl.NUM_ACTIONS,) and bool(m.any()) for m in masks]\n"
        "print(model.num_timesteps, legal)\n"
        "workers.close()\n"
    )
    out = run_python(code, tmp_path, OMP_NUM_THREADS="1")
    assert out == "64 [True, True]\n", out


@pytest.mark.parametrize("rounds", [0, -1])
def test_a_round_cap_below_one_is_refused(rounds):
    module = pettingzoo_module(spice_road())
    for make in (module.env, module.SingleAgentEnv):
        with pytest.raises(ValueError, match="max_rounds"):
            make(players=2, max_rounds=rounds)
    with pytest.raises(ValueError, match="num_envs must be 1 to"):
        module.SingleAgentVectorEnv(module.MAX_ENVS + 1)


@pytest.mark.parametrize("action", [-2, 10**6, "merchant card at a point draw"])
def test_openspiel_a_chance_action_that_is_no_outcome_raises_value_error(action):
    pyspiel, module = openspiel(spice_road())
    state = pyspiel.load_game("spice-road").new_initial_state()
    if action == "merchant card at a point draw":
        while state.chance_outcomes()[0][0] < module.MERCHANT_CARDS:  # deal the merchant row
            state.apply_action(state.chance_outcomes()[0][0])
        action = 0
    shown = str(state)
    with pytest.raises(ValueError, match="not an outcome"):
        state.apply_action(action)
    assert str(state) == shown and state.is_chance_node()
