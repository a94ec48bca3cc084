"""What the commands share: argument types, the error exit, and loading games."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from century import diagnostics as diag

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.pipeline import Compiled

BUILD = Path("build")
"""The default output folder, relative to the working folder."""

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Rules files or folders (default: the bundled rules).", show_default=False),
]
RulesOpt = Annotated[
    list[Path] | None,
    typer.Option("--rules", help="Rules files or folders to look in (default: the bundled rules)."),
]


class Format(enum.StrEnum):
    """How diagnostics and results are printed."""

    text = "text"
    json = "json"


class Paper(enum.StrEnum):
    """Paper sizes of the printed targets."""

    a4 = "a4"
    letter = "letter"


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
) -> Compiled:
    """Run the pipeline; print diagnostics; exit 1 when there are errors.

    `with_bundled` also compiles the bundled games when `paths` are given; `only` compiles
    just that game (and reports just its problems).
    """
    from century.pipeline import compile_paths

    compiled = compile_paths(paths or None, with_bundled=with_bundled, only=only)
    if diag.has_errors(compiled.diagnostics):
        report(compiled.diagnostics, fmt)
        raise typer.Exit(1)
    return compiled


def require_game(compiled: Compiled, game: str) -> None:
    """Exit 2 naming the known games unless `compiled` holds `game`."""
    if game not in compiled.rulesets:
        fail(f"unknown game {game!r} (known: {', '.join(compiled.known) or 'none'})", 2)


def load_game(game: str, paths: list[Path] | None) -> Ruleset:
    """The one ruleset named `game`, or exit 2 with the games that exist."""
    compiled = load_rulesets(paths, with_bundled=True, only=game)
    require_game(compiled, game)
    return compiled.rulesets[game]
