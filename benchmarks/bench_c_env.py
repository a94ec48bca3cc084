"""Benchmark of the batched learning environment on the C engine (``CVectorEnv``) against the
PettingZoo environment and the Python vector environment, in one process.

Steps per CPU-second (``time.process_time``), every step with its observation and mask, each
action drawn uniformly among the legal ones (steps are actions: an acquire's payment and a
discard take one per cube; the random opponents' moves are not steps):

- pettingzoo: the AEC loop ``env.last()`` (observation vector and mask), a random masked
  action (``numpy``), ``env.step``, both seats played through the loop;
- python-vector-N: ``SingleAgentVectorEnv(num_envs=N)``, one random masked action per game
  (drawn for the whole batch at once), games started anew as they end;
- c-vector-N: ``CVectorEnv(num_envs=N)`` driven the same way (the C engine compiled here).

The kinds take turns for ``--rounds`` rounds, each going first in turn, on the same seeds;
the table gives each kind's median steps/s and its ratio to the PettingZoo environment's
(aim: the C vector environment 20x or more), counting the time spent in the environment
(``step``, ``last``, ``action_masks``: the steps, observations and masks), and beside it the
same with the random choice of the actions (NumPy, outside the environment) counted too.

    python benchmarks/bench_c_env.py                    # spice-road, 2 players
    python benchmarks/bench_c_env.py --envs 16 256 --rounds 5 --steps 20000
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


def aec(module, players: int, steps: int, seed: int) -> tuple[float, float]:
    """The PettingZoo loop: CPU seconds for `steps` steps, in the environment and in all."""
    env = module.env(players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    clock = time.process_time
    inside, start = 0.0, clock()
    for _ in range(steps):
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
        action = int(choose(rng, observation["action_mask"][None])[0])
        before = clock()
        env.step(action)
        inside += clock() - before
    return inside, clock() - start


def vector(make: Callable[[], object], steps: int, seed: int) -> tuple[float, float]:
    """A vector environment's loop: CPU seconds for `steps` game steps, in the environment
    (``step`` and ``action_masks``) and in all (the random choice of actions too)."""
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
    return inside * scale, (clock() - start) * scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="spice-road")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--envs", type=int, nargs="+", default=[16, 256])
    parser.add_argument("--steps", type=int, default=5000, help="Python steps per round")
    parser.add_argument("--c-steps", type=int, default=200_000, help="C steps per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    ruleset = compile_paths().rulesets[args.game]
    reference = load_env(ruleset)
    with tempfile.TemporaryDirectory(prefix="century-bench-c-env-") as folder:
        module = build(ruleset, Path(folder))
        players = args.players
        kinds: dict[str, tuple[Callable[[int], tuple[float, float]], int]] = {
            "pettingzoo": (lambda seed: aec(reference, players, args.steps, seed), args.steps)
        }
        for n in args.envs:
            kinds[f"python-vector-{n}"] = (
                lambda seed, n=n: vector(
                    lambda: reference.SingleAgentVectorEnv(n, players=players), args.steps, seed
                ),
                args.steps,
            )
            kinds[f"c-vector-{n}"] = (
                lambda seed, n=n: vector(
                    lambda: module.CVectorEnv(n, players=players), args.c_steps, seed
                ),
                args.c_steps,
            )
        for run, _ in kinds.values():  # everything once before the clock counts
            run(0)
        rates: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
        order = list(kinds)
        for round_ in range(args.rounds):
            for kind in order[round_ % len(order) :] + order[: round_ % len(order)]:
                run, steps = kinds[kind]
                inside, overall = run(round_ + 1)
                rates[kind].append((steps / inside, steps / overall))
            shown = "  ".join(f"{kind} {rates[kind][-1][0] / 1000:.1f}k" for kind in order)
            print(f"round {round_ + 1}: steps per CPU-second in the environment  {shown}")
        print(
            f"\n{args.game}, {players} players: steps per CPU-second, median of {args.rounds}: "
            "in the environment (step, observation, mask), and with the random choice of "
            "actions too"
        )
        base = [statistics.median(rate[k] for rate in rates["pettingzoo"]) for k in (0, 1)]
        for kind in order:
            env, whole = (statistics.median(rate[k] for rate in rates[kind]) for k in (0, 1))
            print(
                f"  {kind:20s} {env:12,.0f}  {env / base[0]:6.1f}x pettingzoo"
                f"   |  with the choice {whole:12,.0f}  {whole / base[1]:6.1f}x"
            )


if __name__ == "__main__":
    main()
