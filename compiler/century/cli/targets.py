"""A ``century NAME GAME`` command for every target that has no command of its own."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import (
    BUILD,
    Command,
    Paper,
    RulesOpt,
    check_out,
    fail,
    load_game,
    write_outputs,
)
from century.targets import BuildOptions, Target, targets


def _command(target: Target):
    def command(
        game: Annotated[str, typer.Argument(metavar="GAME", help="Game or variant id.")],
        out: Annotated[
            Path | None,
            typer.Option("--out", "-o", metavar="DIR", help="Output folder (default: build/GAME)."),
        ] = None,
        lang: Annotated[
            list[str] | None,
            typer.Option(
                "--lang",
                "-l",
                metavar="LANG",
                help="Language (repeatable; default: all of the game's).",
            ),
        ] = None,
        paper: Annotated[
            list[Paper] | None,
            typer.Option(
                "--paper",
                "-p",
                metavar="PAPER",
                help="Paper size, a4 or letter (repeatable; default: a4).",
            ),
        ] = None,
        rules: RulesOpt = None,
    ) -> None:
        folder = out if out is not None else BUILD / game
        check_out(folder)
        ruleset = load_game(game, rules)
        unknown = [code for code in lang or [] if code not in ruleset.languages]
        if unknown:
            fail(
                f"{game} has no language {unknown[0]!r} (it has {', '.join(ruleset.languages)})", 2
            )
        options = BuildOptions(
            papers=tuple(p.value for p in paper or [Paper.a4]), languages=tuple(lang or ())
        )
        with tempfile.TemporaryDirectory() as scratch:
            written = target.write(ruleset, Path(scratch), options)
            files = {path.relative_to(scratch).as_posix(): path.read_bytes() for path in written}
        check_out(folder, list(files))
        for dest in write_outputs(folder, files):
            typer.echo(f"wrote {dest}")

    command.__doc__ = f"Write {target.summary} for GAME."
    return command


def register(app: typer.Typer) -> None:
    """Add a command for every target whose name no other command has taken."""
    taken = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    for name, target in targets().items():
        if name not in taken:
            app.command(name, cls=Command)(_command(target))
