"""The Century rules compiler: YAML rules data -> engine, rule sheets, card sheets.

The supported API is what `__all__` lists, importable from here (and typed: the package
ships ``py.typed``):

- compile a folder: `compile_paths` -> `Compiled` (its `Ruleset` per game, its `Diagnostic`s);
- build a target: `targets` (by name; other packages add theirs under the ``century.targets``
  entry-point group), `Target.build` with `BuildOptions`, failing with `TargetError`;
- the engine: `generate_engine` (its source), `load_engine` (imported, an `Engine`);
- the learning environments: `load_pettingzoo` and `load_openspiel` (the ``rl`` extra);
- running games and experiments: `simulate` a `SimConfig` into an `Aggregate`,
  `run_experiment` for the paired effect of `CardChanges`.

Each name is imported on first use, so ``import century`` (and the command line) stays
light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from century.base.version import __version__

if TYPE_CHECKING:
    from century.base.diagnostics import Diagnostic
    from century.engine import Engine, load_engine
    from century.engine import generate as generate_engine
    from century.experiments.changes import CardChanges, run_experiment
    from century.model.ruleset import Ruleset
    from century.pipeline import Compiled, compile_paths
    from century.simulation.aggregate import Aggregate
    from century.simulation.config import SimConfig
    from century.simulation.simulate import simulate
    from century.targets import BuildOptions, Target, TargetError, targets
    from century.targets.openspiel import load_game_module as load_openspiel
    from century.targets.pettingzoo import load_env as load_pettingzoo

_WHERE = {
    "Diagnostic": ("century.base.diagnostics", "Diagnostic"),
    "Engine": ("century.engine", "Engine"),
    "load_engine": ("century.engine", "load_engine"),
    "generate_engine": ("century.engine", "generate"),
    "Ruleset": ("century.model.ruleset", "Ruleset"),
    "Compiled": ("century.pipeline", "Compiled"),
    "compile_paths": ("century.pipeline", "compile_paths"),
    "Aggregate": ("century.simulation.aggregate", "Aggregate"),
    "SimConfig": ("century.simulation.config", "SimConfig"),
    "CardChanges": ("century.experiments.changes", "CardChanges"),
    "run_experiment": ("century.experiments.changes", "run_experiment"),
    "simulate": ("century.simulation.simulate", "simulate"),
    "BuildOptions": ("century.targets", "BuildOptions"),
    "Target": ("century.targets", "Target"),
    "TargetError": ("century.targets", "TargetError"),
    "targets": ("century.targets", "targets"),
    "load_openspiel": ("century.targets.openspiel", "load_game_module"),
    "load_pettingzoo": ("century.targets.pettingzoo", "load_env"),
}
"""Each name of the API -> the module and the name it has there."""

__all__ = [
    "Aggregate",
    "BuildOptions",
    "CardChanges",
    "Compiled",
    "Diagnostic",
    "Engine",
    "Ruleset",
    "SimConfig",
    "Target",
    "TargetError",
    "__version__",
    "compile_paths",
    "generate_engine",
    "load_engine",
    "load_openspiel",
    "load_pettingzoo",
    "run_experiment",
    "simulate",
    "targets",
]


if not TYPE_CHECKING:  # a type checker reads the imports above, and knows no other name

    def __getattr__(name: str) -> Any:
        """A name of the API, imported on first use."""
        if name not in _WHERE:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module, attr = _WHERE[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
