"""`century bots`: the bot ladder, every bot against every other."""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BOT_LIST,
    BUILD,
    COMPLETE_GAMES,
    SLOW_BOTS,
    Command,
    PlayersOpt,
    QuietOpt,
    RulesOpt,
    SeedOpt,
    WorkersOpt,
    bots_option,
    check_out,
    fail,
    games_option,
    load_game,
    stopping_on_signals,
    write_outputs,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from century.cli.screen.progress import Progress, Stage
    from century.model.ruleset import Ruleset
    from century.simulation.ladder import LadderRun, Pairing

LADDER_GAMES = 100
"""Games per pairing by default: with the default bots (the expert left out) a ladder of the
bundled game takes a couple of minutes on two cores (`benchmarks/bench_ladder.py`)."""


GameArgument = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="The game or variant to play.", autocompletion=COMPLETE_GAMES
    ),
]
LadderGamesOpt = Annotated[int, games_option("Games per pairing.")]
LadderBotsOpt = Annotated[
    str,
    bots_option(
        "The bots to rank, e.g. greedy,planner,planner:4 (default: all but the slow ones: "
        f"{SLOW_BOTS}). {BOT_LIST}.",
    ),
]
ExpertOpt = Annotated[
    bool,
    typer.Option(
        "--expert",
        help="Rank the expert too (its games take seconds each: with 100 games per "
        "pairing, half an hour on two cores).",
    ),
]
LadderOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="DIR",
        help="Folder of ladder.json (default: build/reports/GAME).",
    ),
]


@dataclass(frozen=True)
class LadderRequest:
    """The options of one `century bots` call."""

    game: str
    games: int
    players: int
    names: str
    expert: bool
    seed: int
    workers: int
    out: Path | None
    quiet: bool
    rules: list[Path] | None


def bots(
    game: GameArgument,
    games: LadderGamesOpt = LADDER_GAMES,
    players: PlayersOpt = 2,
    names: LadderBotsOpt = "",
    expert: ExpertOpt = False,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    out: LadderOutOpt = None,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
) -> None:
    """Play every bot against every other; print the win matrix with 95% intervals and the
    mean rounds, and save it for the balance reports of the game. Ctrl-C stops the run and
    keeps the pairings played: their matrix is printed and saved, marked unfinished."""
    from century.simulation.ladder import LADDER_FILE, format_ladder

    request = LadderRequest(game, games, players, names, expert, seed, workers, out, quiet, rules)
    ruleset = load_game(game, rules)
    if not ruleset.players_min <= players <= ruleset.players_max:
        fail(f"{game} is for {ruleset.players_min} to {ruleset.players_max} players", 2)
    folder = out or BUILD / "reports" / ruleset.id
    run = _checked_run(ruleset, request)
    check_out(folder, [LADDER_FILE])  # before any game is played
    interrupted = _play(ruleset, run, request)
    ladder = run.data()
    data = json.dumps(ladder, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_outputs(folder, {LADDER_FILE: data.encode()})
    typer.echo(format_ladder(ladder))
    typer.echo(f"ladder written to {folder / LADDER_FILE}")
    if interrupted:
        typer.echo(
            f"interrupted; the pairings played are kept ({run.finished} of {len(run.order)} "
            "finished)",
            err=True,
        )
        raise typer.Exit(128 + signal.SIGINT)


def _checked_run(ruleset: Ruleset, request: LadderRequest) -> LadderRun:
    """The ladder `request` asks for, its bots checked (a clear error and exit 2 if not)."""
    from century.simulation.ladder import LadderRun, ladder_bots

    try:
        specs = ladder_bots(request.names, request.expert)
    except ValueError as err:
        fail(str(err), 2)
    return LadderRun(ruleset, specs, request.players, request.games, request.seed)


def _play(ruleset: Ruleset, run: LadderRun, request: LadderRequest) -> bool:
    """Play `run` under a progress bar (`century.simulation.ladder.play`); whether Ctrl-C
    stopped it after some games."""
    from century.cli.screen.progress import Progress, Stage, on_terminal
    from century.simulation import ladder
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    shown = not request.quiet and on_terminal()
    label = f"{request.game} ladder"
    games = request.games
    try:
        with (
            stopping_on_signals("no ladder written"),
            Progress(label, [Stage(games)] * len(run.order), quiet=not shown) as progress,
        ):
            if shown and games >= MEASURED:  # the bar is up, saying which bot it times
                progress.restage(_stages(ruleset, run, progress, label), label)
            workers = workers_for(request.workers, games)
            return ladder.play(run, workers, progress, _teller(progress, request.quiet))
    except SimulationError as err:
        fail(str(err), 2)


def _teller(progress: Progress, quiet: bool) -> Callable[[Pairing], None]:
    """What tells each pairing as it finishes: a line above the bar on a terminal, else on
    stderr (nothing with `quiet`)."""
    from century.simulation.ladder import pairing_line

    def tell(pairing: Pairing) -> None:
        if progress.shown:
            progress.note(pairing_line(pairing))
        elif not quiet:
            typer.echo(pairing_line(pairing), err=True)

    return tell


MEASURED = 20
"""Games per pairing from which `century bots` measures each bot's speed for its ETA (a
couple of games each; fewer games are over too soon to need it)."""


def _stages(
    ruleset: Ruleset, run: LadderRun, progress: Progress | None = None, label: str = ""
) -> list[Stage]:
    """The pairings the ladder of `ruleset` plays (`run`), in its order, each with its cost
    per game (`century.simulation.ladder.pairing_costs`), the bar saying which bot it times."""
    from century.cli.screen.progress import Stage
    from century.simulation.ladder import pairing_costs

    def timing(spec: str) -> None:
        if progress is not None:
            progress.restage(progress.stages, f"{label}: timing {spec}")

    return [Stage(run.games, cost) for cost in pairing_costs(run, timing)]


def register(app: typer.Typer) -> None:
    """Add `bots` to `app`."""
    app.command(cls=Command)(bots)
