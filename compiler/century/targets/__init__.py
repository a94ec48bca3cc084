"""Targets: each turns one frozen `Ruleset` into files in an output folder.

A target is a module or package in this folder that defines ``TARGET = Target(...)``: a
name, a one-line summary, and ``write(ruleset, out, options) -> list[Path]``. Targets read
only the model. `targets()` finds them all, so `century build` (and `century build --target
NAME`) picks up a new target without an edit anywhere else; so does the command line, which
gives every target without a command of its own a ``century NAME GAME`` command.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from century.model.ruleset import Ruleset


@dataclass(frozen=True)
class BuildOptions:
    """What a build asks of every target."""

    papers: tuple[str, ...] = ("a4",)
    languages: tuple[str, ...] = ()  # empty: every language of the ruleset
    dest: Path | None = None
    """Where the written folder ends up, when a build writes into a temporary folder first
    (for targets whose files name each other by absolute path); None: where it is written."""


@dataclass(frozen=True)
class Target:
    """One kind of output."""

    name: str
    summary: str
    write: Callable[[Ruleset, Path, BuildOptions], list[Path]]
    """Writes the target's files into an existing folder and returns their paths."""
    in_build: bool = True
    """Whether a plain `century build` writes it (else only ``--target NAME``)."""


def write_files(folder: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write `files` (paths relative to `folder`, subfolders made as needed); their paths."""
    written = []
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


@cache
def targets() -> dict[str, Target]:
    """Every target in this package, by name, in name order."""
    found: dict[str, Target] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        target = getattr(module, "TARGET", None)
        if isinstance(target, Target):
            found[target.name] = target
    return dict(sorted(found.items()))
