"""Targets: each turns one frozen `Ruleset` into files in an output folder.

A target is a function ``write(ruleset, out_dir, options) -> list[Path]`` registered in
`TARGETS`. It reads only the model. Adding a target means adding a module and a line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from century.model.ruleset import Ruleset


@dataclass(frozen=True)
class BuildOptions:
    papers: tuple[str, ...] = ("a4",)
    languages: tuple[str, ...] = ()  # empty: every language of the ruleset


Target = Callable[[Ruleset, Path, BuildOptions], list[Path]]


def _ruleset_json(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    from century.targets.ruleset_json import write

    return write(ruleset, out, options)


def _cards(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    from century.targets.cards import write

    return write(ruleset, out, options)


def _sheets(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    from century.targets.sheets import write

    return write(ruleset, out, options)


def _engine(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    from century.targets.engine import write

    return write(ruleset, out, options)


TARGETS: dict[str, Target] = {
    "ruleset": _ruleset_json,
    "engine": _engine,
    "cards": _cards,
    "sheets": _sheets,
}
