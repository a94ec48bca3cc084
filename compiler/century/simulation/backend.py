"""The engine a simulation's games are played on: the generated Python engine (the
reference, the default) or the C engine generated from the same rules (``--backend c``),
on which the greedy bot and the planner search in C. Both give the same games, so a
simulation's results do not depend on the backend; the C engine is faster.

The choice holds for this process and the worker processes it forks (`use_backend`). The C
engine is generated and compiled once per process and rules, into a temporary folder
removed at exit, and loaded from there; worker processes that are started afresh (not
forked) or on a cluster play the Python engine, with the same results.
"""

from __future__ import annotations

import hashlib
import importlib.util
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from century.engine import Engine

BACKENDS = ("python", "c")
"""The engines a simulation can play: the Python engine (the reference), or the C engine."""

_CHOSEN = ["python"]
_ENGINES: dict[str, Any] = {}
_FOLDERS: list[tempfile.TemporaryDirectory[str]] = []


def use_backend(name: str) -> None:
    """Play this process's simulations on the engine `name` (one of `BACKENDS`)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    _CHOSEN[0] = name


def chosen_backend() -> str:
    """The backend this process's simulations play (`use_backend`)."""
    return _CHOSEN[0]


def missing() -> str:
    """What this machine lacks to play the chosen backend ("" when nothing)."""
    if _CHOSEN[0] != "c":
        return ""
    from century.engine.cbuild import missing as missing_c

    return missing_c()


def c_engine(ruleset: Ruleset) -> Engine:
    """The C engine of `ruleset`, generated and compiled once per process (`CGenError` for
    rules the C backend cannot table, `CBuildError` when it cannot be compiled)."""
    from century.engine import generate, module_name
    from century.engine.cbuild import compile_c
    from century.engine.cgen import generate_c

    key = hashlib.sha256(generate(ruleset).encode("utf-8")).hexdigest()
    found = _ENGINES.get(key)
    if found is None:
        name = module_name(ruleset)
        extension, data, _ = compile_c(generate_c(ruleset), name)
        if not _FOLDERS:
            _FOLDERS.append(tempfile.TemporaryDirectory(prefix="century-c-engine-"))
        folder = Path(_FOLDERS[0].name) / key[:16]
        folder.mkdir(exist_ok=True)
        path = folder / extension
        path.write_bytes(data)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:  # pragma: no cover - an extension always has one
            raise ImportError(f"cannot load the C engine {path}")
        found = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(found)
        _ENGINES[key] = found
    engine: Engine = found
    return engine
