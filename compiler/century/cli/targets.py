"""A ``century NAME GAME`` command for every target that has no command of its own."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer

from century.cli.common import (
    Command,
    GameArg,
    GameOutOpt,
    LangsOpt,
    Paper,
    PapersOpt,
    RulesOpt,
    check_out,
    fail,
    game_folder,
    load_game,
    write_outputs,
)
from century.targets import BuildOptions, Target, targets


def _command(target: Target):
    def command(
        game: GameArg,
        out: GameOutOpt = None,
        lang: LangsOpt = None,
        paper: PapersOpt = None,
        rules: RulesOpt = None,
    ) -> None:
        folder = game_folder(game, out)
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
