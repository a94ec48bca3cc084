"""Benchmark of the learning adapters against the engine, in one process.

Every measurement plays whole games with uniformly random legal choices and counts CPU
seconds (``time.process_time``, less disturbed by other processes than wall-clock time):

- engine: ``legal_moves()``, one move at random, ``play`` (as bench_engine.py);
- pettingzoo: the AEC loop ``env.last()`` (observation vector and mask), a random masked
  action, ``env.step``; "steps" are actions (an acquire's payment and a discard take one per
  cube), "moves" the engine moves they make;
- pettingzoo-mask: the same without the observation vector (``env.last(observe=False)``,
  the mask from ``env.turn.legal()``): what the observation costs;
- gymnasium: ``SingleAgentEnv.step`` with a random masked action, random opponents (their
  moves count as moves, not steps);
- openspiel (if ``pyspiel`` is installed): ``legal_actions``/``chance_outcomes`` and
  ``apply_action``, no observation tensor; chance nodes count as steps.

The kinds take turns for ``--rounds`` rounds, so a slow patch of the shared machine hits
them alike; the table gives the median and the range of the rounds, and each adapter's
moves/s as a share of the engine's decisions/s.

    python benchmarks/bench_rl.py                    # spice-road, 2 and 4 players
    python benchmarks/bench_rl.py --game golem --players 2 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from century.pipeline import compile_paths
from century.targets.pettingzoo import load_env


def engine_games(module, players: int, seeds: range) -> tuple[int, int]:
    """Random playouts on the engine: (decisions, decisions)."""
    engine = module.engine
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed).random
        state = engine.new_game(players, seed)
        while not state.is_over():
            moves = state.legal_moves()
            state.play(moves[int(pick() * len(moves))])
            decisions += 1
    return decisions, decisions


def pettingzoo_games(module, players: int, seeds: range, observe: bool = True) -> tuple[int, int]:
    """Random masked actions through the AEC loop: (steps, engine moves)."""
    env = module.env(players=players)
    steps = moves = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            if observe:
                observation, _, terminated, truncated, _ = env.last()
                legal = np.flatnonzero(observation["action_mask"])
            else:
                _, _, terminated, truncated, _ = env.last(observe=False)
                legal = env.turn.legal()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(legal[int(rng.integers(len(legal)))]))
            steps += 1
        moves += len(env.game.moves())
    return steps, moves


def pettingzoo_mask_games(module, players: int, seeds: range) -> tuple[int, int]:
    return pettingzoo_games(module, players, seeds, observe=False)


def gymnasium_games(module, players: int, seeds: range) -> tuple[int, int]:
    """Random masked actions of seat 0 against random opponents: (steps, engine moves)."""
    env = module.SingleAgentEnv(players=players)
    steps = moves = 0
    for seed in seeds:
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[int(rng.integers(len(legal)))]))
            done = terminated or truncated
            steps += 1
        moves += len(env.game.moves())
    return steps, moves


def openspiel_runner(ruleset):
    """The OpenSpiel measurement, or None without pyspiel."""
    try:
        import pyspiel

        from century.targets.openspiel import load_game_module
    except ImportError:
        return None
    module = load_game_module(ruleset)

    def games(_module, players: int, seeds: range) -> tuple[int, int]:
        game = pyspiel.load_game(module.engine.GAME_ID, {"players": players})
        steps = moves = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    moves += state._turn.prefix in ("", module.actions.DISCARD)  # a move starts
                    state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps, moves

    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road", help="game or variant id")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per kind")
    parser.add_argument("--engine-games", type=int, default=200, help="engine games per round")
    parser.add_argument("--env-games", type=int, default=20, help="adapter games per round")
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    module = load_env(ruleset)
    kinds = {
        "engine": engine_games,
        "pettingzoo": pettingzoo_games,
        "pettingzoo-mask": pettingzoo_mask_games,
        "gymnasium": gymnasium_games,
    }
    openspiel = openspiel_runner(ruleset)
    if openspiel is not None:
        kinds["openspiel"] = openspiel
    print(
        f"{args.game}: Python {sys.version.split()[0]}, {module.NUM_ACTIONS} actions, "
        f"random legal choices, CPU time, {args.rounds} alternating rounds"
    )
    for players in args.players:
        for play in kinds.values():  # warm the move tables and imports
            play(module, players, range(10_000, 10_002))
        rates: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        for number in range(args.rounds):
            for kind, play in kinds.items():
                games = args.engine_games if kind == "engine" else args.env_games
                seeds = range(number * games, (number + 1) * games)
                start = time.process_time()
                steps, moves = play(module, players, seeds)
                seconds = time.process_time() - start
                rates[kind].append((steps / seconds, moves / seconds))
        baseline = statistics.median(moves for _, moves in rates["engine"])
        print(f"\n{players} players{'':13s}steps/s (median, range)        moves/s    vs engine")
        for kind, found in rates.items():
            steps = sorted(step for step, _ in found)
            moves = statistics.median(move for _, move in found)
            print(
                f"  {kind:16s} {statistics.median(steps):9,.0f} "
                f"({steps[0]:9,.0f} - {steps[-1]:9,.0f})  {moves:9,.0f}  "
                f"{moves / baseline:8.1%}"
            )


if __name__ == "__main__":
    main()
