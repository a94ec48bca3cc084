"""The engine target: the game's standalone engine module (see `century.engine`)."""

from __future__ import annotations

from century.engine import generate, load_engine, module_name
from century.model.ruleset import Ruleset
from century.targets import NoOptions, Target, TargetError

__all__ = ["TARGET", "generate", "load_engine", "module_name", "render"]


class EngineError(TargetError):
    """Rules the engine cannot play (say, resource codes that are not single letters)."""


def render(ruleset: Ruleset, options: NoOptions) -> dict[str, bytes]:
    """``<module>.py``: the engine's source."""
    try:
        source = generate(ruleset)
    except ValueError as err:
        raise EngineError(f"could not write the engine: {err}") from None
    return {f"{module_name(ruleset)}.py": source.encode("utf-8")}


TARGET = Target(
    "engine",
    "the standalone game engine (<game>.py)",
    render,
    error=EngineError,
    help="Write the game's standalone engine module (the id with - as _, plus .py).",
)
