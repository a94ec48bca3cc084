"""The `century` command line: the app, its commands, and the console-script entry point."""

from __future__ import annotations

import os
import sys

import typer

from century.cli import bots, cards, core, engine, play, sheets, simulate, targets, variants

app = typer.Typer(
    name="century",
    help="Compile Century rules data into a game engine, rule sheets and card sheets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (core, variants, engine, sheets, cards, play, simulate, bots, targets):
    _module.register(app)


def main() -> None:
    """The console script: data errors exit 1, usage errors 2, internal errors 3."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # a bug, not a data error: say so without a traceback
        if os.environ.get("CENTURY_DEBUG"):
            raise
        typer.echo(
            f"century: internal error: {type(err).__name__}: {err}\n"
            "  this is a bug in century; set CENTURY_DEBUG=1 to see the traceback",
            err=True,
        )
        sys.exit(3)
