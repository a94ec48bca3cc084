"""The engine target: the game's standalone engine module (see `century.engine`), and with
``--native`` the same module compiled with mypyc beside it (`century.engine.native`)."""

from __future__ import annotations

from dataclasses import dataclass

from century.engine import generate, load_engine, module_name
from century.engine.native import NativeError, compile_native
from century.model.ruleset import Ruleset
from century.targets import Target, TargetError, option

__all__ = ["TARGET", "EngineOptions", "generate", "load_engine", "module_name", "render"]


class EngineError(TargetError):
    """Rules the engine cannot play (say, resource codes that are not single letters), or a
    native engine that cannot be compiled here."""


@dataclass(frozen=True)
class EngineOptions:
    """``native``: also compile the module with mypyc (`century.engine.native`)."""

    native: bool = option(
        False,
        "--native",
        help=(
            "Also compile the engine with mypyc into an extension module beside the .py "
            "(needs mypy and a C compiler; exit 1 saying what is missing)."
        ),
    )


def render(ruleset: Ruleset, options: EngineOptions) -> dict[str, bytes]:
    """``<module>.py``: the engine's source; with `native`, its extension module too."""
    try:
        source = generate(ruleset)
    except ValueError as err:
        raise EngineError(f"could not write the engine: {err}") from None
    name = module_name(ruleset)
    files = {f"{name}.py": source.encode("utf-8")}
    if options.native:
        try:
            extension, data = compile_native(source, name)
        except NativeError as err:
            raise EngineError(str(err), details=err.log) from None
        files[extension] = data
    return files


TARGET = Target(
    "engine",
    "the standalone game engine (<game>.py)",
    render,
    options=EngineOptions,
    error=EngineError,
    help=(
        "Write the game's standalone engine module (the id with - as _, plus .py); with "
        "--native, also the module compiled with mypyc, which `import` then prefers."
    ),
)
