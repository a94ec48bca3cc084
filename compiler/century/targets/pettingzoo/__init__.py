"""The PettingZoo target: a PettingZoo AEC environment and a Gymnasium single-agent wrapper
per game (``<game>_pettingzoo.py``, `runtime.py` here), written with the engine and the
action module it imports (see `century.render.rl`). Using it needs the ``rl`` extra; writing
it does not, but a plain ``century build`` leaves it out: ``--target pettingzoo`` or
``century pettingzoo GAME``.
"""

from __future__ import annotations

import types

from century.model.ruleset import Ruleset
from century.render import rl
from century.targets import NoOptions, Target


def generate(ruleset: Ruleset) -> dict[str, str]:
    """Module name -> source: the engine, the action module and the environment module."""
    return rl.sources(ruleset, "pettingzoo", rl.runtime(__name__, "runtime.py"))


def load_env(ruleset: Ruleset) -> types.ModuleType:
    """The environment module imported in memory (needs pettingzoo, gymnasium and numpy)."""
    modules = generate(ruleset)
    return rl.load(modules)[list(modules)[-1]]


def render(ruleset: Ruleset, options: NoOptions) -> dict[str, bytes]:
    """The three modules."""
    return rl.module_files(generate(ruleset))


TARGET = Target(
    "pettingzoo",
    "a PettingZoo environment and a Gymnasium wrapper (<game>_pettingzoo.py, with the engine)",
    render,
    in_build=False,
)
