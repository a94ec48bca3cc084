"""The engine target: the game's standalone engine module (see `century.engine`), and with
``--native`` the same module compiled with mypyc beside it (`century.engine.native`); with
``--backend c`` also the C engine generated from the same model (`century.engine.cgen`), its
source and the extension module compiled from it (`century.engine.cbuild`), or the one the
package was built with for these very rules (`century.engine.cbundled`)."""

from __future__ import annotations

from dataclasses import dataclass

from century.engine import generate, load_engine, module_name
from century.engine.cbuild import CBuildError, compile_c, missing
from century.engine.cbundled import prebuilt
from century.engine.cgen import CGenError, generate_c
from century.engine.native import NativeError, compile_native
from century.model.ruleset import Ruleset
from century.targets import Target, TargetError, option

__all__ = ["TARGET", "EngineOptions", "generate", "load_engine", "module_name", "render"]


class EngineError(TargetError):
    """Rules the engine cannot play (say, resource codes that are not single letters), or a
    native engine that cannot be compiled here."""


BACKENDS = ("python", "c")
"""The engines a build can write: the Python module alone (the reference), or with the C
engine beside it."""


@dataclass(frozen=True)
class EngineOptions:
    """``native``: also compile the module with mypyc (`century.engine.native`); ``backend``
    ``c``: also generate the C engine and compile it (`century.engine.cgen`)."""

    native: bool = option(
        False,
        "--native",
        help=(
            "Also compile the engine with mypyc into an extension module beside the .py "
            "(needs mypy and a C compiler; exit 1 saying what is missing)."
        ),
    )
    backend: str = option(
        "python",
        "--backend",
        choices=BACKENDS,
        help=(
            "python: the engine module (the reference); c: also the C engine generated from "
            "the same rules (<module>.c) compiled into an extension module beside the .py, "
            "which `import` then prefers (needs a C compiler; exit 1 saying so)."
        ),
    )


def render(ruleset: Ruleset, options: EngineOptions) -> dict[str, bytes]:
    """``<module>.py``: the engine's source; with `native`, its extension module too; with
    the ``c`` backend, ``<module>.c`` and the extension compiled from it."""
    built = prebuilt(ruleset) if options.backend == "c" else None
    if options.backend == "c":
        if options.native:
            raise EngineError("--native and --backend c both compile the engine: pick one", True)
        lacking = "" if built else missing()
        if lacking:
            raise EngineError(f"cannot compile the C engine: {lacking}")
    try:
        source = generate(ruleset)
    except ValueError as err:
        raise EngineError(f"could not write the engine: {err}") from None
    name = module_name(ruleset)
    files = {f"{name}.py": source.encode("utf-8")}
    if options.backend == "c":
        try:
            c_source = generate_c(ruleset)
            extension, data = built or compile_c(c_source, name)[:2]
        except (CGenError, CBuildError) as err:
            raise EngineError(str(err)) from None
        files[f"{name}.c"] = c_source.encode("utf-8")
        files[extension] = data
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
        "--native, also the module compiled with mypyc, which `import` then prefers; with "
        "--backend c, also the C engine (<module>.c) and its compiled extension module."
    ),
)
