"""The read-back of card sentences (`century.prose.readback`) over random effects: how many
read back as their effect in each language, and how long composing and reading take.

Random effects cover every step (gain, pay, pay_any, upgrade, repeat with and without
`max`, choose), nested up to `MAX_EFFECT_DEPTH`, counts up to `MAX_UPGRADE_STEPS`, drawn
from a seeded generator (the same effects every run) on Spice Road's ladder.

    python benchmarks/bench_readback.py                 # 2,000 effects, seed 1
    python benchmarks/bench_readback.py --effects 10000 --seed 7

Measured on the project's 2-core machine (Python 3.11.7), 2,000 effects:

    en: 2000/2000 read back (100.0 %), compose 0.3 ms, read 1.7 ms per effect
    de: 2000/2000 read back (100.0 %), compose 0.5 ms, read 1.7 ms per effect

and with French added (its phrases, the same seed): fr 2000/2000 (100.0 %), compose 0.4 ms,
read 1.6 ms per effect (en and de as before).

The read-back in `century validate` runs only for a game's composed cards (the bundled games
have none), so a cold validate of the bundled rules costs what it did: with the read-back,
the semantic C317 and C506's count from one caravan, `bench_cold_validate.py --against main
--runs 10 --instructions` measured 1,432.4 against 1,409.0 million instructions (+1.7 %), CPU
median 355 against 354 ms (1-minute load average 16).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "compiler"))

from century.base import limits  # noqa: E402
from century.pipeline import compile_paths  # noqa: E402
from century.prose import effect_words  # noqa: E402
from century.prose.readback import Reader, read_back  # noqa: E402


def effect(rng: random.Random, ranks: int, level: int = 1) -> tuple[Any, ...]:
    """Random steps in a row at nesting `level`."""
    return tuple(step(rng, ranks, level) for _ in range(rng.randint(1, 3)))


def step(rng: random.Random, ranks: int, level: int) -> tuple[Any, ...]:
    kinds = ["gain", "pay", "pay_any", "upgrade"]
    if level < limits.MAX_EFFECT_DEPTH:
        kinds += ["repeat", "choose"]
    kind = rng.choice(kinds)
    if kind in ("gain", "pay"):
        cubes = [0] * ranks
        for _ in range(rng.randint(1, 6)):
            cubes[rng.randrange(ranks)] += 1
        return (kind, tuple(cubes))
    if kind in ("pay_any", "upgrade"):
        return (kind, rng.randint(1, limits.MAX_UPGRADE_STEPS))
    if kind == "repeat":
        return (kind, effect(rng, ranks, level + 1), rng.randint(0, limits.MAX_UPGRADE_STEPS))
    return (kind, tuple(effect(rng, ranks, level + 1) for _ in range(rng.randint(2, 3))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--effects", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ruleset = compile_paths([ROOT / "rules"]).rulesets["spice-road"]
    rng = random.Random(args.seed)
    effects = [effect(rng, len(ruleset.codes)) for _ in range(args.effects)]
    for lang in ruleset.languages:
        words, reader = effect_words(ruleset, lang), Reader(ruleset, lang)
        start = time.process_time()
        sentences = [words(steps) for steps in effects]
        composed = time.process_time()
        passed = sum(
            read_back(reader, sentence, steps) is None
            for sentence, steps in zip(sentences, effects, strict=True)
        )
        read = time.process_time()
        n = len(effects)
        print(
            f"{lang}: {passed}/{n} read back ({100 * passed / n:.1f} %), compose"
            f" {1000 * (composed - start) / n:.1f} ms, read {1000 * (read - composed) / n:.1f} ms"
            " per effect"
        )


if __name__ == "__main__":
    main()
