"""`century simulate`: many seeded games between bots, and a balance report."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from century.cli.common import (
    BOT_LIST,
    BUILD,
    COMPLETE_GAMES,
    SLOW_BOTS,
    Backend,
    BackendOpt,
    Command,
    PlayersOpt,
    QuietOpt,
    ReportOutOpt,
    RulesOpt,
    SeedOpt,
    Stop,
    StopOpt,
    WidthOpt,
    WorkersOpt,
    bots_option,
    check_out,
    fail,
    fail_with,
    games_option,
    load_game,
    play_backend,
    read_json_input,
    stop_rule,
    stopping_on_signals,
    write_outputs,
)
from century.simulation.run import AUTO, SimRequest

if TYPE_CHECKING:
    from century.simulation.run import Planned


SimGameArg = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME", help="The game or variant to simulate.", autocompletion=COMPLETE_GAMES
    ),
]
SimGamesOpt = Annotated[int, games_option("Number of games.")]
SimBotsOpt = Annotated[
    str,
    bots_option(
        f"One bot for every seat, or one per seat, e.g. greedy,random. {BOT_LIST}. auto: "
        "the strongest bot whose games fit in --time-budget (never the slow ones: "
        f"{SLOW_BOTS}).",
    ),
]
TimeBudgetOpt = Annotated[
    float,
    typer.Option(metavar="SECONDS", help="Seconds the games may take with --bots auto.", min=1),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS", help="Run on a Dask scheduler at this address (extra 'cluster')."
    ),
]
CompareOpt = Annotated[
    tuple[str, str] | None,
    typer.Option(
        metavar="GAME",
        help="Two games (ids, or report .json files) side by side.",
        show_default=False,
    ),
]
RecheckOpt = Annotated[
    str | None,
    typer.Option(
        metavar="BOT",
        help="Replay the seat win rates on a tenth of the games (at least 20) with BOT in "
        "every seat, e.g. expert, and say whether each holds.",
    ),
]


def simulate(
    game: SimGameArg = None,
    games: SimGamesOpt = 1000,
    players: PlayersOpt = 2,
    bots: SimBotsOpt = AUTO,
    time_budget: TimeBudgetOpt = 600,
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    cluster: ClusterOpt = None,
    compare: CompareOpt = None,
    stop: StopOpt = Stop.never,
    width: WidthOpt = None,
    recheck: RecheckOpt = None,
    out: ReportOutOpt = None,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
    backend: BackendOpt = Backend.python,
) -> None:
    """Simulate many seeded games between bots; write a balance report (JSON and HTML).
    With --compare A B and --stop sure or --width, both games stop as soon as the seats'
    changes are settled (--games is then the budget)."""
    play_backend(backend)
    if (game is None) == (compare is None):
        fail("name one GAME, or two with --compare A B", 2)
    if recheck is not None:
        _check_recheck(recheck, game)
    names: list[str] = list(compare) if compare else [game] if game else []
    given = {name: _read_report(name) for name in names if _is_report_file(name)}
    folder, files = _output(names, given, compare is not None, out)
    rule = stop_rule(games, stop, width)
    request = SimRequest(games, players, bots, time_budget, seed, workers, cluster, quiet, rules)
    if rule.sequential and (not compare or given):
        fail("--stop sure and --width stop a comparison: --compare A B, two games (not reports)", 2)
    stopped: dict[str, Any] | None = None
    sequences: list[Any] = []
    if rule.sequential:
        reports, stopped, sequences = _watched_pair(names, request, out, rule)
        for report in reports:
            report["stop"] = stopped
    else:
        reports = [given.get(name) or _report_for(name, request, out) for name in names]
    write_outputs(folder, _report_files(reports, files))
    for report in reports:
        typer.echo(_summary(report))
    if recheck is not None and game is not None:
        _recheck(game, reports[0], recheck, request)
    if compare:
        _print_comparison(reports, stopped, sequences)
    typer.echo(f"report written to {folder / files[-1]}")


def _output(
    names: list[str], given: dict[str, dict[str, Any]], compare: bool, out: Path | None
) -> tuple[Path, list[str]]:
    """The report folder and the files written there, checked before any game is played."""
    stem = "-vs-".join(given[name]["game"] if name in given else _game_id(name) for name in names)
    folder = out or BUILD / "reports" / stem
    files = ["report-a.json", "report-b.json", "compare.html"] if compare else []
    files = files or ["report.json", "report.html"]
    check_out(folder, files)
    return folder, files


def _report_files(reports: list[dict[str, Any]], files: list[str]) -> dict[str, bytes]:
    """The files of the reports, named as `files`: each report's JSON, then the HTML page."""
    from century.reports.report import report_html, to_json_bytes

    data = {name: to_json_bytes(report) for name, report in zip(files, reports, strict=False)}
    data[files[-1]] = report_html(reports, own_table=_own_table(reports)).encode()
    return data


def _print_comparison(
    reports: list[dict[str, Any]], stopped: dict[str, Any] | None, sequences: list[Any]
) -> None:
    """Print the seats' differences of two reports (b minus a), the watched rows and why
    the games stopped when a stopping rule watched them."""
    from century.simulation.compare import difference_lines, unpaired
    from century.simulation.sequential import stop_line, watched_row

    rows = unpaired(reports[0], reports[1])
    if stopped is not None:
        rows[: len(sequences)] = [watched_row(r, s) for r, s in zip(rows, sequences, strict=False)]
        typer.echo(stop_line(stopped))
    kind = "always-valid 95% intervals for the seats" if stopped else "95% intervals"
    typer.echo(f"b minus a ({kind}; * significant):")
    for line in difference_lines(rows):
        typer.echo(f"  {line}")


def _own_table(reports: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The cached reference table of owner effects of a one-game report's game, if any."""
    from century.experiments.owner import table_for

    if len(reports) != 1:
        return None
    return table_for(str(reports[0]["game"]), str(reports[0].get("source_hash", "")))


def _check_recheck(spec: str, game: str | None) -> None:
    """Exit 2 unless `--recheck` names one bot, for one simulated game."""
    from century.bots.registry import check_spec

    try:
        check_spec(spec)
    except ValueError as err:
        fail(f"--recheck: {err}", 2)
    if game is None or _is_report_file(game):
        fail("--recheck replays a simulation: name one GAME to simulate, without --compare", 2)


def _recheck(name: str, report: dict[str, Any], spec: str, req: SimRequest) -> None:
    """Play the recheck's games (`century.simulation.recheck`) and print whether each seat's win
    rate holds."""
    from century.cli.screen.progress import Progress
    from century.reports.report import build_report
    from century.simulation import run
    from century.simulation.config import SimulationError
    from century.simulation.recheck import recheck_games, seat_findings

    ruleset = load_game(name, req.rules)
    games = recheck_games(req.games)
    try:
        with (
            stopping_on_signals("the report is written; the recheck stopped"),
            Progress(f"{name} recheck", games, quiet=req.quiet) as progress,
        ):
            total = run.recheck(ruleset, spec, req, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    findings = seat_findings(report, build_report(total))
    typer.echo(f"recheck with {spec} in every seat, {games} games (95% intervals):")
    for line, _ in findings:
        typer.echo(f"  {line}")
    failed = sum(not holds for _, holds in findings)
    typer.echo(
        f"  {failed} of {len(findings)} seat findings do not hold" if failed else "  all hold"
    )


def _is_report_file(name: str) -> bool:
    """Whether `name` names a report file (anything on disk, even a FIFO, which reading then
    refuses) rather than a game; ids never end in .json."""
    return name.endswith(".json") and os.path.lexists(name)


def _game_id(name: str) -> str:
    """`name` if it can be a game id (so a report folder is named by it), else exit 2."""
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,63}", name):
        fail(f"unknown game {name!r} (a game id, or a report .json file)", 2)
    return name


def _read_report(name: str) -> dict[str, Any]:
    """A simulation report read from a .json file, checked whole: its game is an id (so the
    report folder stays inside build/reports) and it summarises and renders; else exit 1."""
    from century.base.limits import MAX_REPORT_BYTES
    from century.reports.report import REPORT_VERSION, report_html

    report = read_json_input(Path(name), MAX_REPORT_BYTES)
    if not isinstance(report, dict) or report.get("report_version") is None:
        fail(f"{name} is not a simulation report")
    if report["report_version"] != REPORT_VERSION:
        fail(f"{name} was written by another version of century: simulate the game again")
    game_id = report.get("game")
    if not isinstance(game_id, str) or not re.fullmatch(r"[a-z][a-z0-9-]{0,63}", game_id):
        fail(f"{name}: the report's game {game_id!r} is not a game id")
    try:
        _summary(report)
        report_html([report])
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError) as err:
        fail(f"{name} is not a usable simulation report ({type(err).__name__}: {err})")
    return report


def _report_for(name: str, req: SimRequest, out: Path | None) -> dict[str, Any]:
    """The report made by simulating the game `name`, naming the bots' strength from the
    game's bot ladder where one was saved (in `out`, else the game's report folder)."""
    from century.cli.screen.progress import Progress
    from century.reports.report import build_report
    from century.simulation.config import SimulationError
    from century.simulation.run import simulate_request

    planned = _planned(name, req, out)
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(name, req.games, quiet=req.quiet) as progress,
        ):
            total = simulate_request(planned, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    return build_report(total, planned.ladder)


def _planned(name: str, req: SimRequest, out: Path | None) -> Planned:
    """The game `name`'s simulation (`century.simulation.run.plan`), the bot `--bots auto`
    picked said on stderr; exit with the layer's words when it cannot be planned."""
    from century.base.diagnostics import DiagnosticError
    from century.cli.screen.progress import duration
    from century.simulation.run import plan

    ruleset = load_game(name, req.rules)
    try:
        planned = plan(ruleset, req, out or BUILD / "reports" / ruleset.id)
    except DiagnosticError as err:
        fail_with(err.diagnostics)
    except ValueError as err:
        fail(str(err), 2)
    if planned.picked is not None:
        spec, estimate = planned.picked
        fits = "fits" if estimate <= req.time_budget else "is the fastest; it does not fit"
        typer.echo(
            f"bots: {spec} in every seat ({duration(estimate)} estimated, {fits} the "
            f"{duration(req.time_budget)} budget; --bots chooses others)",
            err=True,
        )
    return planned


def _watched_pair(
    names: list[str], req: SimRequest, out: Path | None, rule: Any
) -> tuple[list[dict[str, Any]], dict[str, Any], list[Any]]:
    """`--compare A B` with a sequential rule: both games played look by look on the same
    seeds until each seat's change of win rate is settled (`century.simulation.run.compare`):
    the two reports, the stop, and each seat's always-valid sequence."""
    from century.cli.screen.progress import Progress
    from century.reports.report import build_report
    from century.simulation.config import SimulationError
    from century.simulation.run import compare

    a, b = (_planned(name, req, out) for name in names)
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(" vs ".join(names), 2 * req.games, quiet=req.quiet) as progress,
        ):
            pair = compare((a, b), rule, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    reports = [build_report(t, p.ladder) for t, p in zip(pair.totals, (a, b), strict=True)]
    return reports, pair.stop, pair.sequences


def _summary(report: dict[str, Any]) -> str:
    from century.reports.report import seat_advantages

    seats = ", ".join(
        f"seat {s['seat']} {s['bot']} {100 * s['win_rate']:.1f}% "
        f"[{100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}]"
        for s in report["seats"]
    )
    rounds = report["rounds"]
    lo, hi = rounds["mean_ci95"]
    return (
        f"{report['game']}: {report['config']['games']} games, {rounds['mean']} rounds on average"
        f" ({lo}-{hi}); {seats}\n  " + "; ".join(seat_advantages(report))
    )


def register(app: typer.Typer) -> None:
    """Add `simulate` to `app`."""
    app.command(cls=Command)(simulate)
