"""The `century` command line: the app, its commands, and the console-script entry point.

Usage errors (an unknown option, a missing argument, a bad value) print one line and exit 2;
data errors exit 1; an internal error prints one line and exits 3.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
import typer.core

from century import __version__
from century.cli import (
    bots,
    core,
    deck,
    engine,
    experiment,
    play,
    simulate,
    targets,
    variants,
    watch,
)
from century.cli.common import internal_error
from century.inputs import start_run

_UsageError: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
"""click's UsageError, wherever this typer takes click from (newer typers bundle it)."""


class _Group(typer.core.TyperGroup):
    """The app's click group: one-line usage errors, whatever typer version renders help."""

    def main(  # type: ignore[override]  # click's signature differs between versions
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = run(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _UsageError as err:
            if type(err).__name__ == "NoArgsIsHelpError":  # plain `century`: the help
                typer.echo(err.format_message())
                sys.exit(0)
            context = getattr(err, "ctx", None)
            command = context.command_path if context else "century"
            message = err.format_message().replace("Value error, ", "")
            typer.echo(f"error: {message} (see '{command} --help')", err=True)
            sys.exit(2)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"century {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="century",
    cls=_Group,
    help="Compile Century rules data into a game engine, rule sheets and card sheets.",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Compile Century rules data into a game engine, rule sheets and card sheets."""
    start_run()  # a command is a run: what it reads is never its output (century.inputs)


for _module in (
    core,
    variants,
    deck,
    engine,
    play,
    simulate,
    experiment,
    bots,
    watch,
    targets,
):
    _module.register(app)


def main() -> None:
    """The console script: data errors exit 1, usage errors 2, internal errors 3."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # a bug, not a data error: say so without a traceback
        internal_error(err)
        sys.exit(3)
