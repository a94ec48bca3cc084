"""The PettingZoo target: a PettingZoo AEC environment and a Gymnasium single-agent wrapper
per game (``<game>_pettingzoo.py``, `runtime.py` here), written with the engine and the
action module it imports (see `century.render.rl`). Using it needs the ``rl`` extra; writing
it does not, but a plain ``century build`` leaves it out: ``--target pettingzoo`` or
``century pettingzoo GAME``.
"""

from __future__ import annotations

import types
from pathlib import Path

from century.model.ruleset import Ruleset
from century.render import rl
from century.targets import BuildOptions, Target


def generate(ruleset: Ruleset) -> dict[str, str]:
    """Module name -> source: the engine, the action module and the environment module."""
    return rl.sources(ruleset, "pettingzoo", rl.runtime(__name__, "runtime.py"))


def load_env(ruleset: Ruleset) -> types.ModuleType:
    """The environment module imported in memory (needs pettingzoo, gymnasium and numpy)."""
    modules = generate(ruleset)
    return rl.load(modules)[list(modules)[-1]]


def write(ruleset: Ruleset, out: Path, options: BuildOptions | None = None) -> list[Path]:
    """Write the three modules into `out`."""
    return rl.write(generate(ruleset), out)


TARGET = Target(
    "pettingzoo",
    "a PettingZoo environment and a Gymnasium wrapper (<game>_pettingzoo.py, with the engine)",
    write,
    in_build=False,
)
