"""The OpenSpiel target: a ``pyspiel`` Python game per game (``<game>_openspiel.py``,
`century.runtime.openspiel`) registered under the game's id, written with the engine and the action
module it imports (see `century.shared.rl`). Using it needs ``open_spiel`` (the ``rl``
extra); a plain ``century build`` leaves it out: ``--target openspiel`` or
``century openspiel GAME``.
"""

from __future__ import annotations

from century.shared import rl
from century.targets import Native, Target

ADAPTER = rl.Adapter("openspiel")
generate = ADAPTER.generate
"""Module name -> source: the engine, the action module and the OpenSpiel module."""
load_game_module = ADAPTER.load
"""The OpenSpiel module imported in memory (which registers the game; needs open_spiel)."""

TARGET = Target(
    "openspiel",
    "an OpenSpiel game (<game>_openspiel.py, with the engine)",
    ADAPTER.render,
    options=Native,
    in_build=False,
)
