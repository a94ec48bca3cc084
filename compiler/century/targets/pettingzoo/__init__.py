"""The PettingZoo target: a PettingZoo AEC environment and a Gymnasium single-agent wrapper
per game (``<game>_pettingzoo.py``, `century.runtime.pettingzoo`), written with the engine and the
action module it imports (see `century.shared.rl`). Using it needs the ``rl`` extra; writing
it does not, but a plain ``century build`` leaves it out: ``--target pettingzoo`` or
``century pettingzoo GAME``.
"""

from __future__ import annotations

from century.shared import rl
from century.targets import Native, Target

ADAPTER = rl.Adapter("pettingzoo")
generate = ADAPTER.generate
"""Module name -> source: the engine, the action module and the environment module."""
load_env = ADAPTER.load
"""The environment module imported in memory (needs pettingzoo, gymnasium and numpy)."""

TARGET = Target(
    "pettingzoo",
    "a PettingZoo environment and a Gymnasium wrapper (<game>_pettingzoo.py, with the engine)",
    ADAPTER.render,
    options=Native,
    in_build=False,
)
