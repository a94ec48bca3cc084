# The PettingZoo and Gymnasium adapter of every generated game. `century.targets.pettingzoo`
# copies this module after a header, with the block between the constants markers naming the
# game's action module; here that block is empty, so this file is read as text, never imported.
"""PettingZoo and Gymnasium environments for one Century game, on its generated engine.

Needs ``pettingzoo``, ``gymnasium`` and ``numpy`` (the ``rl`` extra of the Century rules
compiler); the game's engine and action module lie beside this one.

PettingZoo (AEC)
----------------
``env(players=PLAYERS_MIN, reward="win", max_rounds=None, render_mode=None)`` (the class
is ``CenturyEnv``, also ``raw_env``): agents ``player_0``, ``player_1``, ... in seat order;
``player_0`` starts; ``players`` defaults to the fewest the game allows.

- Actions: ``Discrete(actions.NUM_ACTIONS)``, numbered as ``actions.ACTIONS`` (plays,
  acquires, claims, rest, cubes; see the action module). An acquire's payment and a discard
  are spelled cube by cube by the same agent, so ``agent_selection`` stays with it until the
  move is complete. An illegal action raises ``IllegalAction`` and changes nothing. Once the
  game ends, each agent is stepped with ``None`` and leaves (PettingZoo's rule); a step after
  every agent has left raises ``RuntimeError`` (call ``reset()``).
- Observation: a dict of ``observation``, the public state from the agent's side as a flat
  float32 vector (fields: ``actions.observation_layout(players)``; written by an
  ``actions.Encoder`` from the engine's view, each change once), and ``action_mask`` (int8;
  1 for the legal actions of the agent to move, all 0 for the others). ``public_state()``
  gives the same as JSON-ready data.
- Rewards come at the end: ``"win"`` (zero-sum: each winner ``players / winners - 1``, the
  others -1) or ``"score"`` (the final scores). ``max_rounds`` (None, or 1 or more)
  truncates a game after that many rounds, without rewards.
- ``reset(seed=s)`` plays the engine's ``new_game(players, s)``; a reset without a seed takes
  the next seed from a generator seeded by the last seed given. ``game`` is the engine state
  (``game.record()`` replays with ``century replay``).
- ``render()`` returns (``"ansi"``) or prints (``"human"``) the position as text.

Gymnasium (one learner)
-----------------------
``SingleAgentEnv(players=PLAYERS_MIN, seat=0, opponent=None, reward="win", max_rounds=None,
illegal_reward=-1.0, render_mode=None)``: the learner plays ``seat``; each other seat is
played by ``opponent(seed)``, made anew every episode (seeded from the game's seed): any
object with ``choose(state) -> move`` on the engine state, such as the Century rules
compiler's bots made for this module's ``engine`` (``lambda seed: make_bot("greedy", engine,
ruleset, seed)``); by default uniformly random legal moves. Observations are the flat
vector; the mask is ``info["action_mask"]`` and ``action_masks()``. An illegal action ends
the episode with ``illegal_reward`` (terminated, the move not played,
``info["illegal_action"]``), so that tools that sample actions without the mask (the
environment checkers of Gymnasium and stable-baselines3) run; with ``illegal_reward=None``
it raises ``IllegalAction``. Seeding and rewards as above.

``SingleAgentVectorEnv(num_envs=8, **kwargs)`` (keyword arguments as ``SingleAgentEnv``): a
Gymnasium vector environment stepping ``num_envs`` (1 to ``MAX_ENVS``) such games in this
process. Batched
observations ``(num_envs, size)``, one whole-number action per game, the masks in
``info["action_mask"]`` ``(num_envs, NUM_ACTIONS)`` and ``action_masks()``;
``reset(seed=s)`` starts game i on ``s + i``. A game that ends starts anew in the same step
(``AUTORESET_MODE``), so every mask returned has a legal action; the ended game's last
observation and info are in ``info["final_obs"]`` and ``info["final_info"]``.

``CVectorEnv(num_envs=8, players=PLAYERS_MIN, seat=0, reward="win", max_rounds=None,
illegal_reward=-1.0, copy=True)``: the same vector environment (the same games, observations,
masks, rewards and seeding, against the default random opponents) stepped inside the game's C
engine, which must lie beside the engine module (``century engine GAME --backend c``; without
it the constructor raises ``RuntimeError`` saying so). One engine call per step plays the
actions and the opponents, starts ended games anew and writes the observations, masks,
rewards and ends straight into the NumPy arrays returned: new arrays every step, or, with
``copy=False`` (as Gymnasium's ``SyncVectorEnv(copy=False)``), the observations in the
environment's own array, which the next ``step`` or ``reset`` overwrites. ``illegal_reward=None``
raises ``IllegalAction`` before any game is stepped. ``game(i)`` is game i's engine state.
"""

from __future__ import annotations

import importlib
import random
from array import array
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space
from pettingzoo import AECEnv


def _sibling(name: str) -> ModuleType:
    """A generated module beside this one: in the same package, or top level on sys.path."""
    return importlib.import_module(f"{__package__}.{name}" if __package__ else name)


# <rl constants>
ACTIONS_MODULE = ""
# </rl constants>

if TYPE_CHECKING:  # the game's modules (in the package: the runtimes they are made from)
    import century.runtime.engine as engine
    import century.runtime.actions as actions
else:
    actions = _sibling(ACTIONS_MODULE)
    engine = actions.engine
IllegalAction = actions.IllegalAction
NUM_ACTIONS: int = actions.NUM_ACTIONS
AUTORESET_MODE = gymnasium.vector.AutoresetMode.SAME_STEP
"""How `SingleAgentVectorEnv` starts a game anew: in the step that ends the last one, so every
mask it returns has a legal action."""
HIGH = float(np.finfo(np.float32).max)
"""The bound of every observation entry: counts have no rule-given maximum."""


def _check(players: int, reward: str, render_mode: str | None, modes: list[str]) -> None:
    engine.State(players)  # raises ValueError outside the game's player counts
    if reward not in ("win", "score"):
        raise ValueError(f"unknown reward {reward!r} (win or score)")
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"unknown render mode {render_mode!r} (one of {modes})")


def _box(players: int) -> spaces.Box:
    size = sum(size for _, size in actions.observation_layout(players))
    return spaces.Box(0.0, HIGH, (size,), np.float32)


def _encoder(players: int) -> tuple[actions.Encoder, np.ndarray]:
    """An encoder writing into an ``array("f")`` (the fastest buffer to write), and the
    same memory as a NumPy vector (no copy: it changes with every write)."""
    size = sum(width for _, width in actions.observation_layout(players))
    encoder = actions.Encoder(players, array("f", bytes(4 * size)))
    return encoder, np.frombuffer(encoder.buffer, np.float32)


_MASKS: dict[tuple[int, ...], np.ndarray] = {}
"""The masks of the sets of legal actions met so far (copied out, never handed out)."""
MASKS_KEPT = 100_000
"""The most masks `_MASKS` keeps (it starts afresh beyond: a bound on its memory)."""


def _mask(turn: actions.Turn) -> np.ndarray:
    """The legal actions of a decision as int8 (a new array)."""
    legal = tuple(turn.legal())
    found = _MASKS.get(legal)
    if found is None:
        if len(_MASKS) >= MASKS_KEPT:
            _MASKS.clear()
        found = _MASKS[legal] = np.zeros(NUM_ACTIONS, np.int8)
        found[list(legal)] = 1
    return found.copy()


class _Observations:
    """Observation vectors of one environment: an encoder keeps seat 0's vector and
    rewrites what the moves since its last write changed; another seat's is that vector in
    its seat order (``actions.observation_order``)."""

    def __init__(self, players: int) -> None:
        self._encoder, self._vector = _encoder(players)
        self._orders = [np.array(actions.observation_order(players, s)) for s in range(players)]

    def vector(self, view: engine.View, seat: int, turn: actions.Turn) -> np.ndarray:
        """The observation of `seat` (a new array)."""
        self._encoder.write(view, 0, turn.prefix)
        vector = self._vector
        return vector[self._orders[seat]] if seat else vector.copy()


def _action(action: Any) -> int:
    """`action` as an int (an int as it is: the common case, checked first)."""
    return action if action.__class__ is int else actions.action_number(action)


def _turn(turn: actions.Turn | None) -> actions.Turn:
    """The decision in progress (once reset)."""
    if turn is None:
        raise RuntimeError("call reset() first")
    return turn


class _Seeds:
    """Game seeds: the one given to ``reset``, then the next from a generator seeded by it."""

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        if seed is None:
            return self._rng.getrandbits(63)
        seed = engine.whole_number(seed, "seed")
        self._rng = random.Random(seed)
        return seed


class _Shown:
    """What both environments show of their game: the public state and the text render."""

    game: engine.State | None
    turn: actions.Turn | None
    render_mode: str | None

    def _game(self) -> engine.State:
        """The game (once reset)."""
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def public_state(self) -> dict[str, Any]:
        """The public state as JSON-ready data (see ``actions.public_state``)."""
        return actions.public_state(self._game(), self.turn)

    def render(self) -> Any:  # str or None (Gymnasium's Env types it by a type variable)
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        text = actions.draw(self._game(), self.turn)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


class CenturyEnv(_Shown, AECEnv):
    """The game as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": f"{engine.GAME_ID}_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = engine.PLAYERS_MIN,
        reward: str = "win",
        max_rounds: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check(players, reward, render_mode, self.metadata["render_modes"])
        self.players = players
        self.reward = reward
        self.max_rounds = _max_rounds(max_rounds)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": _box(players),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self._seeds = _Seeds()
        self._observations = _Observations(players)
        self.game = None
        self.turn = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = engine.new_game(self.players, self._seeds.next(seed))
        self._view = self.game.view()
        self.turn = actions.Turn(self.game.legal_moves())
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def step(self, action: int | None) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is still playing: None is no action")
        move = _turn(self.turn).choose(_action(action))
        self._cumulative_rewards[agent] = 0.0
        if move is not None:
            game = self.game
            game.play(move)
            self.turn = actions.Turn(game.legal_moves())
            if game.is_over():
                for seat, reward in enumerate(actions.rewards(game, self.reward)):
                    self.rewards[self.possible_agents[seat]] = reward
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_rounds is not None and game.rounds() >= self.max_rounds:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        vector = self._observations.vector(self._view, seat, _turn(self.turn))
        playing = not (self.terminations.get(agent) or self.truncations.get(agent))
        if playing and seat == self.game.current_player:
            mask = _mask(_turn(self.turn))
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": vector, "action_mask": mask}

    def close(self) -> None:
        pass


raw_env = CenturyEnv


def env(**kwargs: Any) -> CenturyEnv:
    """A new PettingZoo environment (keyword arguments as ``CenturyEnv``)."""
    return CenturyEnv(**kwargs)


class Opponent(Protocol):
    """What plays a seat other than the learner's: a move for the engine state."""

    def choose(self, state: engine.State) -> str: ...


class RandomOpponent:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: engine.State) -> str:
        return self.rng.choice(state.legal_moves())


class SingleAgentEnv(_Shown, gymnasium.Env):
    """One seat of the game as a Gymnasium environment, against opponents (see the module doc)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(
        self,
        players: int = engine.PLAYERS_MIN,
        seat: int = 0,
        opponent: Callable[[int], Opponent] | None = None,
        reward: str = "win",
        max_rounds: int | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        _check(players, reward, render_mode, self.metadata["render_modes"])
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
        self.players, self.seat = players, seat
        self.opponent: Callable[[int], Opponent] = opponent or RandomOpponent
        self.reward, self.max_rounds = reward, _max_rounds(max_rounds)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = _box(players)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = _Seeds()
        self._encoder, self._vector = _encoder(players)
        self.game = None
        self.turn = None
        self._opponents: dict[int, Opponent] = {}
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        game_seed = self._seeds.next(seed)  # a whole number, or TypeError
        super().reset(seed=None if seed is None else game_seed)
        self._start(game_seed)
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, illegal = self._play(action)
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return self._observe(), reward, terminated, truncated, info

    def _start(self, seed: int) -> None:
        """A new game on `seed`, played up to the learner's first decision."""
        self.game = engine.new_game(self.players, seed)
        self._view = self.game.view()
        rng = random.Random(seed)
        self._opponents = {
            seat: self.opponent(rng.getrandbits(63))
            for seat in range(self.players)
            if seat != self.seat
        }
        self._done = False
        self._done = self._advance()

    def _play(self, action: int) -> tuple[float, bool, bool, bool]:
        """Take the learner's `action` and let the opponents play: (reward, terminated,
        truncated, illegal)."""
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        game, turn = self._game(), _turn(self.turn)
        try:
            move = turn.choose(_action(action))
        except IllegalAction:
            if self.illegal_reward is None:
                raise
            self._done = True
            return float(self.illegal_reward), True, False, True
        truncated = False
        if move is not None:
            game.play(move)
            truncated = self._advance()
        terminated = game.is_over()
        self._done = terminated or truncated
        reward = actions.rewards(game, self.reward)[self.seat] if terminated else 0.0
        return reward, terminated, truncated, False

    def _advance(self) -> bool:
        """Let the opponents play up to the learner's next decision; True on truncation."""
        game = self._game()
        while not game.is_over():
            if self.max_rounds is not None and game.rounds() >= self.max_rounds:
                self.turn = actions.Turn([])
                return True
            if game.current_player == self.seat:
                break
            game.play(self._opponents[game.current_player].choose(game))
        self.turn = actions.Turn(game.legal_moves())
        return False

    def _write(self) -> np.ndarray:
        """The observation written into the encoder's vector (kept: copy it to hand it out)."""
        self._encoder.write(self._view, self.seat, _turn(self.turn).prefix)
        return self._vector

    def _observe(self) -> np.ndarray:
        return self._write().copy()

    def _info(self) -> dict[str, Any]:
        if self._done:
            return {"action_mask": np.zeros(NUM_ACTIONS, np.int8)}
        return {"action_mask": _mask(_turn(self.turn))}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner as booleans (all False once the episode is over)."""
        if self._done:
            return np.zeros(NUM_ACTIONS, bool)
        return _mask(_turn(self.turn)).astype(bool)


MAX_ENVS = 4096
"""The most games one `SingleAgentVectorEnv` steps (each holds an engine state and a row of
observations; more belong in more processes)."""


def _max_rounds(value: int | None) -> int | None:
    """`value` checked as a ``max_rounds``: None (no bound) or a whole number of 1 or more."""
    if value is None:
        return None
    rounds = engine.whole_number(value, "max_rounds")
    if rounds < 1:
        raise ValueError(f"max_rounds must be None or 1 or more, not {rounds}")
    return rounds


def _vector_seeds(
    seed: int | list[int | None] | None, count: int
) -> tuple[list[int | None], int | None]:
    """Each of `count` games' seed for a vector env's ``reset``, and the first seed when
    ``seed`` is an int (game ``i`` on ``seed + i``); a list gives each game its seed; without,
    each game takes its next seed."""
    if seed is None or isinstance(seed, list):
        seeds: list[int | None] = [None] * count if seed is None else seed
        if len(seeds) != count:
            raise ValueError(f"{len(seeds)} seeds for {count} environments")
        return seeds, None
    first = engine.whole_number(seed, "seed")
    return [first + number for number in range(count)], first


class SingleAgentVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of `SingleAgentEnv` (the same keyword arguments) stepped in this
    process as one Gymnasium vector environment (see the module doc)."""

    metadata = {  # noqa: RUF012 - gymnasium's own attribute
        "autoreset_mode": AUTORESET_MODE,
        "render_modes": [],
    }

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        num_envs = engine.whole_number(num_envs, "num_envs")
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be 1 to {MAX_ENVS}, not {num_envs}")
        if kwargs.get("render_mode") is not None:
            raise ValueError("a vector environment does not render: pass no render_mode")
        self.envs = [SingleAgentEnv(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._size = len(self.envs[0]._encoder.buffer)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), np.int8)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: with ``seed`` an int, game ``i`` on ``seed + i``; a list gives
        each game its seed; without, each game takes its next seed (see ``reset``)."""
        seeds, first = _vector_seeds(seed, self.num_envs)
        if first is not None:
            super().reset(seed=first)
        for env, game_seed in zip(self.envs, seeds, strict=True):
            env.reset(seed=game_seed)
        return self._batch(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game; a game that ends is started anew in the same step (its
        final observation and info in ``info["final_obs"]`` and ``info["final_info"]``)."""
        numbers = self._numbers(actions)
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, bool)
        truncations = np.zeros(self.num_envs, bool)
        infos: dict[str, Any] = {}
        for number, (env, action) in enumerate(zip(self.envs, numbers, strict=True)):
            reward, terminated, truncated, illegal = env._play(action)
            rewards[number] = reward
            if terminated or truncated:
                terminations[number], truncations[number] = terminated, truncated
                final = env._info()
                if illegal:
                    final["illegal_action"] = True
                infos = self._add_info(
                    infos, {"final_obs": env._observe(), "final_info": final}, number
                )
                env.reset()
        return self._batch(), rewards, terminations, truncations, self._infos(infos)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans, one row per game."""
        return self._masks.astype(bool)

    def _numbers(self, actions: Any) -> list[int]:
        """The actions as ints: whole numbers only (a float is refused, never truncated)."""
        found = np.asarray(actions)
        if found.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, not shape {found.shape}")
        if found.dtype.kind not in "iu":
            raise TypeError(f"actions must be whole numbers, not {found.dtype}")
        numbers: list[int] = found.tolist()
        return numbers

    def _batch(self) -> np.ndarray:
        """Every game's observation and mask written, the observations as one new array:
        each game's encoder writes what changed in its own ``array("f")``, then one join
        makes the batch, and one NumPy assignment sets every game's legal actions."""
        games: list[int] = []
        legal: list[int] = []
        buffers = []
        for number, env in enumerate(self.envs):
            turn = _turn(env.turn)
            env._encoder.write(env._view, env.seat, turn.prefix)
            buffers.append(env._encoder.buffer)
            found = turn.legal()
            games += [number] * len(found)
            legal += found
        self._masks.fill(0)
        self._masks[games, legal] = 1
        joined = bytearray().join(buffers)
        return np.frombuffer(joined, np.float32).reshape(self.num_envs, self._size)

    def _infos(self, infos: dict[str, Any] | None = None) -> dict[str, Any]:
        found = infos or {}
        found["action_mask"] = self._masks.copy()
        found["_action_mask"] = np.ones(self.num_envs, bool)
        return found


class CVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of `SingleAgentEnv` stepped inside the game's C engine (see the
    module doc): the same games, observations and masks as `SingleAgentVectorEnv` with the
    default random opponents, written by the engine into NumPy arrays."""

    metadata = {  # noqa: RUF012 - gymnasium's own attribute
        "autoreset_mode": AUTORESET_MODE,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 8,
        players: int = engine.PLAYERS_MIN,
        seat: int = 0,
        reward: str = "win",
        max_rounds: int | None = None,
        illegal_reward: float | None = -1.0,
        copy: bool = True,
    ) -> None:
        make = getattr(engine, "_vector_games", None)
        if make is None:
            raise RuntimeError(
                f"CVectorEnv needs the game's C engine beside {engine.__name__}.py "
                "(century engine GAME --backend c)"
            )
        num_envs = engine.whole_number(num_envs, "num_envs")
        if not 1 <= num_envs <= MAX_ENVS:
            raise ValueError(f"num_envs must be 1 to {MAX_ENVS}, not {num_envs}")
        _check(players, reward, None, [])
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
        self.num_envs, self.players, self.seat = num_envs, players, seat
        self.copy = bool(copy)
        self.single_observation_space = _box(players)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = self.single_observation_space.shape[0]
        self._obs = np.zeros((num_envs, size), np.float32)  # the observations (copy=False)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), np.int8)  # kept for the legality
        self._illegal = np.zeros(num_envs, bool)
        self._final = np.zeros((num_envs, size), np.float32)  # the ended games' last views
        rounds = _max_rounds(max_rounds)
        c_engine: Any = engine
        reference = c_engine.REFERENCE  # the Python engine the C one embeds
        self._games = make(
            players,
            seat,
            reward == "score",
            -1 if rounds is None else rounds,
            None if illegal_reward is None else float(illegal_reward),
            actions.INDEX,
            *(actions.BLOCKS[block][0] for block in ("acquire", "claim", "rest", "cube")),
            NUM_ACTIONS,
            size,
            IllegalAction,
            reference.MERCHANT_DECK,
            reference.POINT_DECK,
            self._masks,
            self._illegal,
            self._final,
        )
        self._seeds = [_Seeds() for _ in range(num_envs)]
        self._started = [False] * num_envs

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game, seeded as `SingleAgentVectorEnv.reset` seeds them."""
        seeds, first = _vector_seeds(seed, self.num_envs)
        if first is not None:
            super().reset(seed=first)
        obs = self._batch()
        for number, game_seed in enumerate(seeds):
            if game_seed is None and self._started[number]:
                self._games.restart(number, obs)  # the next seed of the game's generator, in C
            else:
                self._start(number, game_seed, obs)
        return obs, self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game, as `SingleAgentVectorEnv.step` (a game that ends starts anew
        in the same step). The engine writes the observations, rewards, ends and masks
        straight into the arrays returned: new ones every step, or with ``copy=False`` the
        same observation array, overwritten by the next step."""
        found = np.asarray(actions)
        if found.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, not shape {found.shape}")
        if found.dtype.kind not in "iu":
            raise TypeError(f"actions must be whole numbers, not {found.dtype}")
        count = self.num_envs
        obs, masks = self._batch(), np.empty((count, NUM_ACTIONS), np.int8)
        rewards = np.empty(count)
        terminations, truncations = np.empty(count, bool), np.empty(count, bool)
        self._games.step(
            np.ascontiguousarray(found, np.int64), obs, masks, rewards, terminations, truncations
        )
        ended = terminations | truncations
        infos = self._final_infos(ended) if ended.any() else {}
        infos["action_mask"] = masks
        infos["_action_mask"] = np.ones(count, bool)
        return obs, rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans, one row per game."""
        return self._masks.astype(bool)

    def game(self, number: int) -> engine.State:
        """The engine state of game `number` (live: read it, play on it only by `step`)."""
        state: engine.State = self._games.state(number)
        return state

    def _batch(self) -> np.ndarray:
        """The array the next observations are written into: a new one, or the
        environment's own with ``copy=False``."""
        if self.copy:
            return np.empty_like(self._obs)
        return self._obs

    def _final_infos(self, ended: np.ndarray) -> dict[str, Any]:
        """The infos of the games that ended (``final_obs``, ``final_info``), as
        `SingleAgentVectorEnv` gathers them game by game (Gymnasium's ``_add_info``)."""
        final_obs = np.full(self.num_envs, None, object)
        for number in np.flatnonzero(ended).tolist():
            final_obs[number] = self._final[number].copy()
        final: dict[str, Any] = {
            "action_mask": np.zeros((self.num_envs, NUM_ACTIONS), np.int8),
            "_action_mask": ended.copy(),
        }
        illegal = ended & self._illegal
        if illegal.any():
            final["illegal_action"], final["_illegal_action"] = illegal, illegal.copy()
        return {
            "final_obs": final_obs,
            "_final_obs": ended.copy(),
            "final_info": final,
            "_final_info": ended.copy(),
        }

    def _start(self, number: int, seed: int | None, obs: np.ndarray) -> None:
        """Game `number` started anew on `seed` (see ``reset``), its opponents seeded as
        `SingleAgentEnv` seeds them, up to the learner's first decision; the engine draws
        the next games' seeds from the same generator as `_Seeds` (a game that ends starts
        anew inside the engine)."""
        seeds = self._seeds[number]
        game_seed = seeds.next(seed)
        rng = random.Random(game_seed)
        generators = [
            None if seat == self.seat else random.Random(rng.getrandbits(63)).getstate()[1]
            for seat in range(self.players)
        ]
        state = engine.new_game(self.players, game_seed)
        self._games.start(number, state, generators, seeds._rng.getstate()[1], obs)
        self._started[number] = True

    def _infos(self, infos: dict[str, Any] | None = None) -> dict[str, Any]:
        found = infos or {}
        found["action_mask"] = self._masks.copy()
        found["_action_mask"] = np.ones(self.num_envs, bool)
        return found
