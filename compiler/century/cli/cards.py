"""`century cards`: the print-and-play card sheet of one game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import BUILD, Command, Paper, RulesOpt, check_out, load_game, write_outputs


def parse_offset(value: str) -> tuple[float, float]:
    """``"X,Y"`` in mm, e.g. ``"1.5,-0.5"``."""
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise typer.BadParameter(f"expected X,Y in mm (e.g. 1.5,-0.5), not {value!r}") from None
    return x, y


def cards(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", help="Game or variant id (listed by `century validate`)."),
    ],
    paper: Annotated[
        Paper, typer.Option(metavar="PAPER", help="Paper size: a4 or letter.")
    ] = Paper.a4,
    bleed: Annotated[
        float,
        typer.Option(metavar="MM", help="Extend the card frames this many mm past the cut lines."),
    ] = 0.0,
    backs: Annotated[
        bool, typer.Option("--backs/--no-backs", help="Add a page of backs after each front page.")
    ] = True,
    players: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Print starting cards for this many players (default: the box amount).",
        ),
    ] = None,
    back_offset: Annotated[
        str,
        typer.Option(
            "--back-offset",
            metavar="X,Y",
            help="Move the backs X mm right and Y mm down (as seen on the back) to correct "
            "a printer that shifts the back side.",
        ),
    ] = "0,0",
    lang: Annotated[
        str | None,
        typer.Option(metavar="LANG", help="Language of card names (default: the game's first)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", metavar="DIR", help="Output folder (default: build/GAME)."),
    ] = None,
    rules: RulesOpt = None,
) -> None:
    """Write cards-PAPER.pdf: every card front, backs mirrored for long-edge duplex."""
    from century.targets.cards import CardOptionError, CardOptions, render
    from century.targets.typst import RenderError

    offset = parse_offset(back_offset)
    folder = out if out is not None else BUILD / game
    name = f"cards-{paper.value}.pdf"
    check_out(folder)
    ruleset = load_game(game, rules)
    check_out(folder, [name])
    options = CardOptions(
        paper=paper.value,
        bleed=bleed,
        backs=backs,
        players=players,
        back_offset=offset,
        lang=lang,
    )
    try:
        pdf = render(ruleset, options)
    except CardOptionError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    except RenderError as err:
        typer.echo(f"error: could not render the cards: {err}", err=True)
        raise typer.Exit(1) from None
    (dest,) = write_outputs(folder, {name: pdf})
    typer.echo(f"wrote {dest}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(cards)
