"""`century bots`: the bot ladder, every bot against every other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BUILD,
    COMPLETE_BOTS,
    COMPLETE_GAMES,
    Command,
    PlayersOpt,
    QuietOpt,
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

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.play.progress import Stage


def bots(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help="The game or variant to play.", autocompletion=COMPLETE_GAMES
        ),
    ],
    games: Annotated[
        int,
        typer.Option("--games", "-n", metavar="N", help="Games per pairing.", min=1, max=MAX_GAMES),
    ] = 100,
    players: PlayersOpt = 2,
    names: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            autocompletion=COMPLETE_BOTS,
            help="The bots to rank, e.g. greedy,planner,planner:4 (default: all). Bots: "
            "random, greedy, search, planner, expert (search:N, planner:N, expert:N set their "
            "budget; expert is slow).",
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
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
) -> None:
    """Play every bot against every other; print the win matrix with 95% intervals and the
    mean rounds, and save it for the balance reports of the game."""
    from century.play.bots import BOTS, STRONGEST_FIRST, check_spec
    from century.play.config import SimulationError
    from century.play.ladder import LADDER_FILE, format_ladder, run_ladder
    from century.play.progress import Progress, on_terminal
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
    shown = not quiet and on_terminal()
    stages = _stages(ruleset, specs, players, games, measure=shown)
    try:
        with (
            stopping_on_signals("no ladder written"),
            Progress(f"{game} ladder", stages, quiet=not shown) as progress,
        ):
            ladder = run_ladder(
                ruleset, specs, players, games, seed, workers_for(workers, games), progress
            )
    except SimulationError as err:
        fail(str(err), 2)
    data = json.dumps(ladder, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_outputs(folder, {LADDER_FILE: data.encode()})
    typer.echo(format_ladder(ladder))
    typer.echo(f"ladder written to {folder / LADDER_FILE}")


MEASURED = 20
"""Games per pairing from which `century bots` measures each bot's speed for its ETA (a
couple of games each; fewer games are over too soon to need it)."""


def _stages(
    ruleset: Ruleset, specs: list[str], players: int, games: int, measure: bool
) -> list[Stage]:
    """The pairings the ladder plays, in its order, each with its cost per game: the mean of
    its seats' bots' seconds per game, measured here (`measure`) when there are enough games
    for it to matter (bots differ a hundredfold), else the same for all."""
    from century.play.ladder import pairings
    from century.play.progress import Stage
    from century.play.simulate import seconds_per_game

    cost = dict.fromkeys(specs, 1.0)
    if measure and games >= MEASURED:
        cost = {spec: seconds_per_game(ruleset, spec, players) for spec in specs}
    return [
        Stage(games, (cost[bot] + (players - 1) * cost[other]) / players)
        for bot, other in pairings(specs, players)
    ]


def register(app: typer.Typer) -> None:
    """Add `bots` to `app`."""
    app.command(cls=Command)(bots)
