"""Benchmark of the learning adapters against the engine, in one process.

Every measurement plays with uniformly random legal choices and counts CPU seconds
(``time.process_time``, less disturbed by other processes than wall-clock time):

- engine: ``legal_moves()``, one move at random, ``play`` (as bench_engine.py);
- pettingzoo: the AEC loop ``env.last()`` (observation vector and mask), a random masked
  action, ``env.step``; "steps" are actions (an acquire's payment and a discard take one per
  cube), "moves" the engine moves they make;
- pz-no-obs: the same loop with no observation at all (``env.last(observe=False)``, the
  legal actions from ``env.turn``): the most any observation could leave;
- gymnasium: ``SingleAgentEnv.step`` with a random masked action (from ``info``), random
  opponents (their moves count as moves, not steps);
- vector-N: ``SingleAgentVectorEnv(num_envs=N)``, one random masked action per game and
  step, games started anew as they end; steps are the games' steps;
- singles-N: the same N games as N ``SingleAgentEnv`` stepped in turn by hand (what the
  vector environment adds or saves);
- openspiel (if ``pyspiel`` is installed): ``observation_tensor`` of the player to move,
  ``legal_actions`` and ``apply_action``; chance nodes (drawn from ``chance_outcomes``) count
  as steps.

The engine's move tables are built first (``warm_up``) and every kind plays once before the
clock runs. The kinds take turns for ``--rounds`` rounds, so a slow patch of the shared
machine hits them alike; the table gives the median and the range of the rounds' steps/s,
the median moves/s, and steps/s and moves/s each as a share of the engine's moves/s.

With ``--against REV`` the adapters (the action module with its observation encoder, and
the PettingZoo module) as they were at git revision REV play beside today's, on today's
engine, in the same rounds (kinds marked ``@REV``): the A/B of the encoder. With ``--native``
the engine and the action codec compiled with mypyc (``century pettingzoo GAME --native``)
play beside the pure ones (kinds marked ``@native``; the shares stay of the pure engine).
``--only`` picks kinds by name (``engine`` always runs: the shares are of its moves/s). The
run ends with the two targets: PettingZoo's moves/s as a share of the engine's (aim: 25% or
more) and the vector environment of 16 games against 16 single environments stepped in a
loop (aim: 1.5x).

    python benchmarks/bench_rl.py                    # spice-road, 2 players
    python benchmarks/bench_rl.py --game golem --players 2 4 --rounds 5
    python benchmarks/bench_rl.py --against HEAD~3 --envs 16 --only pettingzoo vector-16 singles-16
    python benchmarks/bench_rl.py --native --envs 16   # also compiled (century pettingzoo --native)
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from century.pipeline import compile_paths
from century.targets.pettingzoo import load_env

Play = Callable[[int, int], tuple[int, int]]
"""A measurement: (players, round) -> (steps, engine moves)."""


def engine_games(module, games: int) -> Play:
    """Random playouts on the engine: (moves, moves)."""
    engine = module.engine

    def play(players: int, number: int) -> tuple[int, int]:
        moves = 0
        for seed in range(number * games, (number + 1) * games):
            pick = random.Random(seed).random
            state = engine.new_game(players, seed)
            while not state.is_over():
                legal = state.legal_moves()
                state.play(legal[int(pick() * len(legal))])
                moves += 1
        return moves, moves

    return play


def pettingzoo_games(module, games: int, observe: bool = True) -> Play:
    """Random masked actions through the AEC loop: (steps, engine moves). Without `observe`,
    no observation at all: the mask from the decision's legal actions."""

    def play(players: int, number: int) -> tuple[int, int]:
        env = module.env(players=players)
        steps = moves = 0
        for seed in range(number * games, (number + 1) * games):
            env.reset(seed=seed)
            pick = random.Random(seed).random
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last(observe)
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = observation["action_mask"].nonzero()[0] if observe else env.turn.legal()
                env.step(int(legal[int(pick() * len(legal))]))
                steps += 1
            moves += len(env.game.moves())
        return steps, moves

    return play


def gymnasium_games(module, games: int) -> Play:
    """Random masked actions of seat 0 against random opponents: (steps, engine moves)."""

    def play(players: int, number: int) -> tuple[int, int]:
        env = module.SingleAgentEnv(players=players)
        steps = moves = 0
        for seed in range(number * games, (number + 1) * games):
            _, info = env.reset(seed=seed)
            pick = random.Random(seed).random
            done = False
            while not done:
                legal = info["action_mask"].nonzero()[0]
                action = int(legal[int(pick() * len(legal))])
                _, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                steps += 1
            moves += len(env.game.moves())
        return steps, moves

    return play


def vector_steps(module, num_envs: int, steps: int) -> Play:
    """Random masked actions for every game of a vector environment, `steps` game steps in
    all: (steps, engine moves)."""

    def play(players: int, number: int) -> tuple[int, int]:
        envs = module.SingleAgentVectorEnv(num_envs, players=players)
        pick = random.Random(number).random
        _, info = envs.reset(seed=number * 100_000)
        started = sum(len(env.game.moves()) for env in envs.envs)
        moves = 0
        for _ in range(max(1, steps // num_envs)):
            games = [env.game for env in envs.envs]
            actions = []
            for row in info["action_mask"]:
                legal = row.nonzero()[0]
                actions.append(legal[int(pick() * len(legal))])
            _, _, terminated, truncated, info = envs.step(np.array(actions))
            for index in np.flatnonzero(terminated | truncated):
                moves += len(games[index].moves())
        moves += sum(len(env.game.moves()) for env in envs.envs) - started
        return max(1, steps // num_envs) * num_envs, moves

    return play


def singles_steps(module, num_envs: int, steps: int) -> Play:
    """The same as `vector_steps` with `num_envs` single environments stepped in turn by
    hand: what the vector environment adds or saves."""

    def play(players: int, number: int) -> tuple[int, int]:
        envs = [module.SingleAgentEnv(players=players) for _ in range(num_envs)]
        pick = random.Random(number).random
        infos = [env.reset(seed=number * 100_000 + n)[1] for n, env in enumerate(envs)]
        started = sum(len(env.game.moves()) for env in envs)
        moves = 0
        for _ in range(max(1, steps // num_envs)):
            for index, env in enumerate(envs):
                legal = infos[index]["action_mask"].nonzero()[0]
                action = int(legal[int(pick() * len(legal))])
                _, _, terminated, truncated, infos[index] = env.step(action)
                if terminated or truncated:
                    moves += len(env.game.moves())
                    infos[index] = env.reset()[1]
        moves += sum(len(env.game.moves()) for env in envs) - started
        return max(1, steps // num_envs) * num_envs, moves

    return play


def openspiel_games(ruleset, games: int) -> Play | None:
    """Random playouts through OpenSpiel with the observation tensor of every decision, or
    None without pyspiel: (steps, engine moves)."""
    try:
        import pyspiel

        from century.targets.openspiel import load_game_module
    except ImportError:
        return None
    module = load_game_module(ruleset)
    starts = ("", module.actions.DISCARD)

    def play(players: int, number: int) -> tuple[int, int]:
        game = pyspiel.load_game(module.engine.GAME_ID, {"players": players})
        steps = moves = 0
        for seed in range(number * games, (number + 1) * games):
            rng = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    state.observation_tensor(state.current_player())
                    moves += state._turn.prefix in starts  # a move starts
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps, moves

    return play


def load_against(ruleset, revision: str):
    """The PettingZoo module with the action module and the adapter of git `revision`, on
    today's engine (imported in memory beside today's)."""
    from century.engine import generate, module_name
    from century.shared import rl

    root = Path(__file__).resolve().parent.parent

    def source(*paths: str) -> str:
        """The first of `paths` that `revision` has (the copied sources moved once)."""
        for path in paths:
            done = subprocess.run(
                ["git", "show", f"{revision}:{path}"], cwd=root, capture_output=True
            )
            if done.returncode == 0:
                text = done.stdout.decode("utf-8")
                return text[text.index('"""') :]
        raise SystemExit(f"{revision} has none of {paths}")

    name = module_name(ruleset)
    actions = f"{name}_actions"
    modules = {
        name: generate(ruleset),
        actions: rl.fill_module(
            ruleset,
            source("compiler/century/runtime/actions.py", "compiler/century/render/rl/actions.py"),
            {"ENGINE_MODULE": name},
            {"engine": name},
        ),
        f"{name}_pettingzoo": rl.fill_module(
            ruleset,
            source(
                "compiler/century/runtime/pettingzoo.py",
                "compiler/century/targets/pettingzoo/runtime.py",
            ),
            {"ACTIONS_MODULE": actions},
            {"engine": name, "actions": actions},
        ),
    }
    return rl.load(modules)[f"{name}_pettingzoo"]


def load_native(ruleset, folder: Path):
    """The PettingZoo module of ``century pettingzoo GAME --native`` written into `folder`:
    the engine and the action codec compiled with mypyc, imported by name."""
    import importlib

    from century.engine import module_name
    from century.targets import Native
    from century.targets.pettingzoo import TARGET

    for name, data in TARGET.files(ruleset, Native(native=True)).items():
        (folder / name).write_bytes(data)
    sys.path.insert(0, str(folder))
    module = importlib.import_module(f"{module_name(ruleset)}_pettingzoo")
    assert not module.actions.__file__.endswith(".py"), "the codec did not load compiled"
    return module


def adapter_kinds(module, args, suffix: str = "") -> dict[str, Play]:
    """The measurements of one set of adapters, named with `suffix`."""
    kinds: dict[str, Play] = {
        "pettingzoo": pettingzoo_games(module, args.env_games),
        "pz-no-obs": pettingzoo_games(module, args.env_games, observe=False),
        "gymnasium": gymnasium_games(module, args.env_games),
    }
    for size in args.envs:
        kinds[f"vector-{size}"] = vector_steps(module, size, args.vector_steps)
        if size > 1:
            kinds[f"singles-{size}"] = singles_steps(module, size, args.vector_steps)
    return {f"{kind}{suffix}": play for kind, play in kinds.items() if _chosen(kind, args)}


def _chosen(kind: str, args) -> bool:
    return not args.only or kind in args.only


def targets(rates: dict[str, list[tuple[float, float]]], envs: list[int]) -> list[str]:
    """The two aims in words, for today's adapters and those of ``--against``."""
    engine = statistics.median(moves for _, moves in rates["engine"])
    lines = []
    for suffix in sorted({kind.partition("@")[1] + kind.partition("@")[2] for kind in rates}):
        found = rates.get(f"pettingzoo{suffix}")
        if found:
            share = statistics.median(moves for _, moves in found) / engine
            lines.append(f"  pettingzoo{suffix}: {share:.1%} of the engine's moves/s (aim 25%)")
        if 16 in envs and f"vector-16{suffix}" in rates and f"singles-16{suffix}" in rates:
            vector = statistics.median(steps for steps, _ in rates[f"vector-16{suffix}"])
            singles = statistics.median(steps for steps, _ in rates[f"singles-16{suffix}"])
            lines.append(
                f"  vector-16{suffix}: {vector / singles:.2f}x the steps/s of 16 single "
                "environments in a loop (aim 1.5x)"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road", help="game or variant id")
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per kind")
    parser.add_argument("--engine-games", type=int, default=200, help="engine games per round")
    parser.add_argument("--env-games", type=int, default=30, help="adapter games per round")
    parser.add_argument("--vector-steps", type=int, default=20_000, help="steps per round")
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 16, 256], help="vector sizes")
    parser.add_argument("--against", metavar="REV", help="also the adapters of git revision REV")
    parser.add_argument("--only", nargs="+", metavar="KIND", help="only these kinds")
    parser.add_argument(
        "--native", action="store_true", help="also the engine and codec compiled (@native)"
    )
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    module = load_env(ruleset)
    module.engine.warm_up()
    kinds: dict[str, Play] = {"engine": engine_games(module, args.engine_games)}
    kinds.update(adapter_kinds(module, args))
    if args.against:
        kinds.update(adapter_kinds(load_against(ruleset, args.against), args, f"@{args.against}"))
    if args.native:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="bench-rl-native-"))
        native = load_native(ruleset, folder)
        native.engine.warm_up()
        kinds["engine@native"] = engine_games(native, args.engine_games)
        kinds.update(adapter_kinds(native, args, "@native"))
    openspiel = openspiel_games(ruleset, args.env_games) if _chosen("openspiel", args) else None
    if openspiel is not None:
        kinds["openspiel"] = openspiel
    print(
        f"{args.game}: Python {sys.version.split()[0]}, {module.NUM_ACTIONS} actions, "
        f"random legal choices, CPU time, {args.rounds} alternating rounds"
    )
    for players in args.players:
        for play in kinds.values():  # every table and import warm
            play(players, 1000)
        rates: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        for number in range(args.rounds):
            for kind, play in kinds.items():
                start = time.process_time()
                steps, moves = play(players, number)
                seconds = time.process_time() - start
                rates[kind].append((steps / seconds, moves / seconds))
        baseline = statistics.median(moves for _, moves in rates["engine"])
        print(
            f"\n{players} players{'':10s}steps/s (median, range)       moves/s"
            "   steps/s  moves/s\n"
            f"{'':60s}of the engine's moves/s"
        )
        for kind, found in rates.items():
            steps = sorted(step for step, _ in found)
            middle = statistics.median(steps)
            moves = statistics.median(move for _, move in found)
            print(
                f"  {kind:12s} {middle:9,.0f} ({steps[0]:9,.0f} - {steps[-1]:9,.0f})"
                f"  {moves:9,.0f}  {middle / baseline:7.1%}  {moves / baseline:7.1%}"
            )
        print("targets:", *targets(rates, args.envs), sep="\n")


if __name__ == "__main__":
    main()
