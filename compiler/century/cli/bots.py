"""`century bots`: the bot ladder, every bot against every other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import (
    BUILD,
    Command,
    RulesOpt,
    SeedOpt,
    WorkersOpt,
    check_out,
    fail,
    load_game,
    stopping_on_signals,
    write_outputs,
)
from century.limits import MAX_GAMES


def bots(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game or variant to play.")],
    games: Annotated[
        int, typer.Option(metavar="N", help="Games per pairing.", min=1, max=MAX_GAMES)
    ] = 100,
    players: Annotated[int, typer.Option(metavar="N", help="Players per game.")] = 2,
    names: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="BOTS",
            help="The bots to rank, e.g. greedy,planner,planner:4 (default: all).",
        ),
    ] = "",
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="DIR",
            help="Folder of ladder.json (default: build/reports/GAME).",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    rules: RulesOpt = None,
) -> None:
    """Play every bot against every other; print the win matrix with 95% intervals and the
    mean rounds, and save it for the balance reports of the game."""
    from century.play.bots import BOTS, STRONGEST_FIRST, check_spec
    from century.play.config import SimulationError
    from century.play.ladder import LADDER_FILE, format_ladder, pairings, run_ladder
    from century.play.progress import ProgressBar
    from century.play.simulate import workers_for

    ruleset = load_game(game, rules)
    if not ruleset.players_min <= players <= ruleset.players_max:
        fail(f"{game} is for {ruleset.players_min} to {ruleset.players_max} players", 2)
    specs = [s.strip() for s in names.split(",") if s.strip()] or list(STRONGEST_FIRST[::-1])
    try:
        for spec in specs:
            check_spec(spec)
    except ValueError as err:
        fail(str(err), 2)
    if len(set(specs)) != len(specs) or len(specs) < 2:
        fail(f"--bots names two or more different bots (known: {', '.join(BOTS)})", 2)
    folder = out or BUILD / "reports" / ruleset.id
    check_out(folder, [LADDER_FILE])  # before any game is played
    total = games * len(pairings(specs, players))
    bar = None if quiet else ProgressBar(total, f"{game} ladder ")
    try:
        with stopping_on_signals("no ladder written"):
            ladder = run_ladder(
                ruleset, specs, players, games, seed, workers_for(workers, games), bar
            )
    except SimulationError as err:
        fail(str(err), 2)
    finally:
        if bar:
            bar.close()
    data = json.dumps(ladder, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_outputs(folder, {LADDER_FILE: data.encode()})
    typer.echo(format_ladder(ladder))
    typer.echo(f"ladder written to {folder / LADDER_FILE}")


def register(app: typer.Typer) -> None:
    """Add `bots` to `app`."""
    app.command(cls=Command)(bots)
