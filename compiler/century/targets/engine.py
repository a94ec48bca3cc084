"""The engine target: the game's standalone engine module (see `century.engine`)."""

from __future__ import annotations

from pathlib import Path

from century.engine import generate, load_engine, module_name
from century.model.ruleset import Ruleset
from century.targets import BuildOptions, Target

__all__ = ["TARGET", "generate", "load_engine", "module_name", "write"]


def write(ruleset: Ruleset, out: Path, options: BuildOptions | None = None) -> list[Path]:
    """Write ``out/<module>.py`` and return its path."""
    from century.output import atomic_write_bytes

    path = out / f"{module_name(ruleset)}.py"
    atomic_write_bytes(path, generate(ruleset).encode("utf-8"))
    path.chmod(0o644)  # a module to import, readable like any other
    return [path]


TARGET = Target("engine", "the standalone game engine (<game>.py)", write)
