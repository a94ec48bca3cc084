"""The OpenSpiel target: a ``pyspiel`` Python game per game (``<game>_openspiel.py``,
`runtime.py` here) registered under the game's id, written with the engine and the action
module it imports (see `century.render.rl`). Using it needs ``open_spiel`` (the ``rl``
extra); a plain ``century build`` leaves it out: ``--target openspiel`` or
``century openspiel GAME``.
"""

from __future__ import annotations

import types

from century.model.ruleset import Ruleset
from century.render import rl
from century.targets import NoOptions, Target


def generate(ruleset: Ruleset) -> dict[str, str]:
    """Module name -> source: the engine, the action module and the OpenSpiel module."""
    return rl.sources(ruleset, "openspiel", rl.runtime(__name__, "runtime.py"))


def load_game_module(ruleset: Ruleset) -> types.ModuleType:
    """The OpenSpiel module imported in memory, which registers the game (needs open_spiel)."""
    modules = generate(ruleset)
    return rl.load(modules)[list(modules)[-1]]


def render(ruleset: Ruleset, options: NoOptions) -> dict[str, bytes]:
    """The three modules."""
    return rl.module_files(generate(ruleset))


TARGET = Target(
    "openspiel",
    "an OpenSpiel game (<game>_openspiel.py, with the engine)",
    render,
    in_build=False,
)
