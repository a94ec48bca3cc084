"""`century tune`: versions of a card whose owner effect lies in a band (the options read, the
search run by `century.experiments.tune`, the words and page written by `century.reports`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from century.cli.common import (
    BUILD,
    COMPLETE_CARDS,
    COMPLETE_GAMES,
    Command,
    PlayersOpt,
    QuietOpt,
    ReportOutOpt,
    RulesOpt,
    SeedOpt,
    WorkersOpt,
    check_out,
    fail,
    load_game,
    named_levels,
    stopping_on_signals,
    write_outputs,
)

FILES = ["tune.json", "tune.html"]


GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="The game of the card.", autocompletion=COMPLETE_GAMES),
]
CardArg = Annotated[
    str,
    typer.Argument(
        metavar="CARD",
        help="The card to tune: an id of GAME, or a card written as in a deck, e.g. "
        "'{kind: trade, pay: Y, get: RR}'.",
        autocompletion=COMPLETE_CARDS,
    ),
]
BandOpt = Annotated[
    str | None,
    typer.Option(
        metavar="LO:HI",
        help="The owner effects wanted, in win-rate points, e.g. 10:20 (default: the "
        "middle half of the game's own cards at each level, from the cached reference "
        "table).",
        show_default=False,
    ),
]
LevelOpt = Annotated[
    str,
    typer.Option(
        metavar="BOTS",
        help="The levels versions are confirmed at, one bot each, e.g. planner or "
        "greedy,planner (they are screened at greedy).",
    ),
]
BudgetOpt = Annotated[
    int,
    typer.Option(
        metavar="N",
        min=50,
        max=100_000,
        help="The most games per version and level (screening spends at most a quarter).",
    ),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS", help="Run on a Dask scheduler at this address (extra 'cluster')."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the answer as JSON instead of text.")]


def tune(
    game: GameArg,
    card: CardArg,
    band: BandOpt = None,
    level: LevelOpt = "planner",
    budget: BudgetOpt = 1000,
    players: PlayersOpt = 2,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    cluster: ClusterOpt = None,
    out: ReportOutOpt = None,
    json_: JsonOpt = False,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
) -> None:
    """Search CARD's numbers (cubes gained and paid, upgrades, a repeat's max; a point card's
    points and cost) for versions whose owner effect lies in a band: screened at greedy,
    confirmed at each level with always-valid intervals (5% split evenly across the versions
    and levels confirmed). Prints the proposals with their intervals and the games spent,
    and writes JSON and HTML; Ctrl-C keeps the versions finished."""
    from century.experiments.tune import TuneRequest

    base = load_game(game, rules)
    levels = named_levels(level, "--level")
    folder = out or BUILD / "reports" / f"{base.id}-tune"
    check_out(folder, FILES)  # before any game is played
    request = TuneRequest(base, card, levels, _band(band), budget, players, seed, cluster)
    answer = _run(request, rules, workers, quiet)
    _write(base, answer, folder, json_)


def _band(text: str | None) -> tuple[float, float] | None:
    """``LO:HI`` in win-rate points as a pair of win-rate changes (None: not given)."""
    if text is None:
        return None
    low, sep, high = text.partition(":")
    try:
        pair = (float(low) / 100, float(high) / 100)
    except ValueError:
        pair = None
    if not sep or pair is None or not -1 <= pair[0] < pair[1] <= 1:
        fail(
            f"--band {text!r}: write LO:HI in win-rate points, LO below HI, both from -100 "
            "to 100, e.g. 10:20",
            2,
        )
    return pair


def _run(request: Any, rules: Any, workers: int, quiet: bool) -> dict[str, Any]:
    """The search, with progress; exit with the tool's words when it cannot run."""
    from century.cli.owning import _owned_cards
    from century.cli.screen.progress import Progress
    from century.experiments.tune import CONFIRM, TuneError, tune
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    def host_for(texts: list[str]) -> tuple[Any, list[str], tuple[str, ...]]:
        return _owned_cards(request.game, [("CARD", text) for text in texts], rules)

    count = workers_for(workers, request.budget)
    most = request.budget * (CONFIRM + 1) * (len(request.levels) + 1)  # the bar's upper bound
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{request.game.id} tune", most, quiet=quiet) as progress,
        ):
            return tune(request, host_for, count, progress)
    except TuneError as err:
        fail(str(err), 1, err.details)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)


def _write(base: Any, answer: dict[str, Any], folder: Any, as_json: bool) -> None:
    """Print the answer and write its files; an interrupted answer is said and exits 130."""
    from century.cli.experiment_common import game_name
    from century.reports.report import to_json_bytes
    from century.reports.tune import tune_html, tune_lines

    data = to_json_bytes(answer)
    html = tune_html(game_name(base), answer)
    write_outputs(folder, {FILES[0]: data, FILES[1]: html.encode()})
    if as_json:
        typer.echo(data.decode())
    else:
        for line in tune_lines(answer):
            typer.echo(line)
    typer.echo(f"report written to {folder / FILES[1]}", err=as_json)
    if answer["interrupted"]:
        done = len(answer["screened"]) + len(answer["confirmed"])
        typer.echo(f"interrupted; the {done} versions finished are kept in the report", err=True)
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    """Add `tune` to `app`."""
    app.command(cls=Command)(tune)
