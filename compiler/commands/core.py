"""`century validate`, `build` and `schema`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from compiler.cli import PathsArg, load_rulesets
from compiler.paths import BUILD


def build(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = BUILD,
) -> None:
    """Build every game and variant found: ruleset.json and every target, per game."""
    from compiler.output import atomic_dir
    from compiler.targets import TARGETS, BuildOptions

    compiled = load_rulesets(paths)
    options = BuildOptions()
    for game_id, ruleset in sorted(compiled.rulesets.items()):
        with atomic_dir(out / game_id) as tmp:
            for write in TARGETS.values():
                write(ruleset, tmp, options)
        typer.echo(f"built {out / game_id}")


def register(app: typer.Typer) -> None:
    app.command()(build)
