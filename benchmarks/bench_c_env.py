"""Benchmark of the batched learning environment on the C engine (``CVectorEnv``) against the
PettingZoo environment and the Python vector environment, in one process.

Learner decisions per CPU-second (``time.process_time``), every one with its observation and
mask, each action drawn uniformly among the legal ones (decisions are actions: an acquire's
payment and a discard take one per cube). The learner is seat 0; the other seats play
uniformly random legal actions too:

- pettingzoo: the AEC loop ``env.last()`` (observation vector and mask), a random masked
  action (``numpy``), ``env.step``, every seat played through the loop; the opponents'
  actions are timed as part of the learner's decisions, as the vector environments play
  them inside their ``step``;
- python-vector-N: ``SingleAgentVectorEnv(num_envs=N)``, one random masked action per game
  (drawn for the whole batch at once), games started anew as they end;
- c-vector-N: ``CVectorEnv(num_envs=N)`` driven the same way (the C engine compiled here),
  returning new arrays every step (``copy=True``, the default);
- c-vector-N-nocopy: the same with ``copy=False`` (the observations in one array that every
  step overwrites).

The kinds take turns for ``--rounds`` rounds, each going first in turn, on the same seeds;
the table gives each kind's median decisions/s and its ratio to the PettingZoo environment's,
counting the time spent in the environment (``step``, ``last``, ``action_masks``: the steps,
observations and masks), and beside it the same with the random choice of the actions (NumPy,
outside the environment) counted too. The ratio's unit is the learner's decision on both
sides; the column "every action" divides by the PettingZoo loop's actions of all seats
instead (its own steps), which undercounts what a vector step does by the opponents' moves.

    python benchmarks/bench_c_env.py                    # spice-road, 2 players
    python benchmarks/bench_c_env.py --players 4 --envs 256 --rounds 7
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from century.engine import module_name
from century.engine.cbuild import compile_c
from century.engine.cgen import generate_c
from century.pipeline import compile_paths
from century.targets.pettingzoo import generate, load_env


def build(ruleset, folder: Path):
    """The game's PettingZoo module imported from `folder`, its C engine beside it."""
    name = module_name(ruleset)
    package = folder / "bench_c_env_game"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for module, source in generate(ruleset).items():
        (package / f"{module}.py").write_text(source, encoding="utf-8")
    start = time.perf_counter()
    extension, data, _ = compile_c(generate_c(ruleset), name)
    print(f"C engine generated and compiled in {time.perf_counter() - start:.1f} s (wall)")
    (package / extension).write_bytes(data)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(f"bench_c_env_game.{name}_pettingzoo")
    finally:
        sys.path.remove(str(folder))


def choose(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal action per row of `masks`, uniformly."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


LEARNER = "player_0"
"""The seat whose decisions count in the PettingZoo loop."""


def aec(module, players: int, steps: int, seed: int) -> tuple[float, float, int]:
    """The PettingZoo loop: CPU seconds for `steps` learner decisions (the other seats'
    actions between them played too), in the environment and in all, and the actions of
    every seat."""
    env = module.env(players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    clock = time.process_time
    inside, start, decisions, actions = 0.0, clock(), 0, 0
    while decisions < steps:
        before = clock()
        observation, _, terminated, truncated, _ = env.last()
        inside += clock() - before
        if terminated or truncated:
            before = clock()
            env.step(None)
            if not env.agents:
                env.reset()
            inside += clock() - before
            continue
        decisions += env.agent_selection == LEARNER
        actions += 1
        action = int(choose(rng, observation["action_mask"][None])[0])
        before = clock()
        env.step(action)
        inside += clock() - before
    return inside, clock() - start, actions


def vector(make: Callable[[], object], steps: int, seed: int) -> tuple[float, float, int]:
    """A vector environment's loop: CPU seconds for `steps` learner decisions, in the
    environment (``step`` and ``action_masks``) and in all (the random choice of actions
    too), and the decisions again."""
    env = make()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    batches = max(1, steps // env.num_envs)
    clock = time.process_time
    inside, start = 0.0, clock()
    for _ in range(batches):
        before = clock()
        masks = env.action_masks()
        inside += clock() - before
        actions = choose(rng, masks)
        before = clock()
        env.step(actions)
        inside += clock() - before
    scale = steps / (batches * env.num_envs)
    return inside * scale, (clock() - start) * scale, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--envs", type=int, nargs="+", default=[16, 256])
    parser.add_argument("--steps", type=int, default=5000, help="Python decisions per round")
    parser.add_argument("--c-steps", type=int, default=200_000, help="C decisions per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    reference = load_env(ruleset)
    with tempfile.TemporaryDirectory(prefix="century-bench-c-env-") as folder:
        module = build(ruleset, Path(folder))
        players = args.players
        kinds: dict[str, tuple[Callable[[int], tuple[float, float, int]], int]] = {
            "pettingzoo": (lambda seed: aec(reference, players, args.steps, seed), args.steps)
        }
        for n in args.envs:
            kinds[f"python-vector-{n}"] = (
                lambda seed, n=n: vector(
                    lambda: reference.SingleAgentVectorEnv(n, players=players), args.steps, seed
                ),
                args.steps,
            )
            for suffix, copy in (("", True), ("-nocopy", False)):
                kinds[f"c-vector-{n}{suffix}"] = (
                    lambda seed, n=n, copy=copy: vector(
                        lambda: module.CVectorEnv(n, players=players, copy=copy),
                        args.c_steps,
                        seed,
                    ),
                    args.c_steps,
                )
        for run, _ in kinds.values():  # everything once before the clock counts
            run(0)
        rates: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in kinds}
        order = list(kinds)
        for round_ in range(args.rounds):
            for kind in order[round_ % len(order) :] + order[: round_ % len(order)]:
                run, steps = kinds[kind]
                inside, overall, actions = run(round_ + 1)
                rates[kind].append((steps / inside, steps / overall, actions / inside))
            shown = "  ".join(f"{kind} {rates[kind][-1][0] / 1000:.1f}k" for kind in order)
            print(f"round {round_ + 1}: learner decisions per CPU-second  {shown}")
        print(
            f"\n{args.game}, {players} players: learner decisions per CPU-second, median of "
            f"{args.rounds}: in the environment (step, observation, mask), its ratio to "
            "PettingZoo's and to PettingZoo's actions of every seat, and with the random "
            "choice of actions too"
        )
        base = [statistics.median(rate[k] for rate in rates["pettingzoo"]) for k in (0, 1, 2)]
        for kind in order:
            env, whole = (statistics.median(rate[k] for rate in rates[kind]) for k in (0, 1))
            print(
                f"  {kind:22s} {env:12,.0f}  {env / base[0]:6.1f}x pettingzoo"
                f"  ({env / base[2]:5.1f}x every action)"
                f"   |  with the choice {whole:12,.0f}  {whole / base[1]:6.1f}x"
            )


if __name__ == "__main__":
    main()
