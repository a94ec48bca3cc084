"""The `century` command line."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from compiler import diagnostics as diag

app = typer.Typer(
    name="century",
    help="Compile Century rules data into a game engine, rule sheets and card sheets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Rules files or folders (default: the bundled rules).", show_default=False),
]
RulesOpt = Annotated[
    list[Path] | None,
    typer.Option("--rules", help="Rules files or folders to look in (default: the bundled rules)."),
]


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` to stderr and exit with `code` (1 data, 2 usage)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def report(diagnostics: list[diag.Diagnostic], fmt: str = "text") -> None:
    """Print diagnostics to stderr (text) or stdout (json)."""
    if fmt == "json":
        typer.echo(diag.to_json(diagnostics))
    elif diagnostics:
        typer.echo(diag.to_text(diagnostics), err=True)


def load_rulesets(
    paths: list[Path] | None,
    fmt: str = "text",
    *,
    with_bundled: bool = False,
    only: str | None = None,
):
    """Run the pipeline; print diagnostics; exit 1 when there are errors.

    `with_bundled` also compiles the bundled games when `paths` are given; `only` compiles
    just that game (and reports just its problems).
    """
    from compiler.pipeline import compile_paths

    compiled = compile_paths(paths or None, with_bundled=with_bundled, only=only)
    if diag.has_errors(compiled.diagnostics):
        report(compiled.diagnostics, fmt)
        raise typer.Exit(1)
    return compiled


def load_game(game: str, paths: list[Path] | None):
    """The one ruleset named `game`, or exit 2 with the games that exist."""
    compiled = load_rulesets(paths, with_bundled=True, only=game)
    if game not in compiled.rulesets:
        fail(f"unknown game {game!r} (known: {', '.join(compiled.known) or 'none'})", 2)
    return compiled.rulesets[game]


def _register_commands() -> None:
    """Add every command module's commands to `app` (once)."""
    if app.registered_commands:
        return
    from compiler.commands import cards, core, engine, play, sheets, simulate, variants

    for module in (core, variants, engine, sheets, cards, play, simulate):
        module.register(app)


def main() -> None:
    """The console script: data errors exit 1, usage errors 2, internal errors 3."""
    _register_commands()
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
