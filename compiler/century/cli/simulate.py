"""`century simulate`: many seeded games between bots, and a balance report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from century.cli.common import BUILD, RulesOpt, fail, load_game

AUTO = "auto"


def simulate(
    game: Annotated[str | None, typer.Argument(help="The game or variant to simulate.")] = None,
    games: Annotated[int, typer.Option(help="Number of games.", min=1)] = 1000,
    players: Annotated[int, typer.Option(help="Players per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="One bot for every seat, or one per seat, e.g. greedy,random. Bots: random, "
            "greedy, search, planner (search:N, planner:N set their budget). auto: the "
            "strongest bot whose games fit in --time-budget."
        ),
    ] = AUTO,
    time_budget: Annotated[
        float, typer.Option(help="Seconds the games may take with --bots auto.", min=1)
    ] = 600,
    seed: Annotated[int, typer.Option(help="Base seed; each game's seed derives from it.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per CPU).", min=0)] = 0,
    cluster: Annotated[
        str | None, typer.Option(help="Run on a Dask scheduler at this address (extra 'cluster').")
    ] = None,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            help="Two games (ids, or report .json files) side by side.", show_default=False
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Report folder (default: build/reports/...).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    rules: RulesOpt = None,
) -> None:
    """Simulate many seeded games between bots; write a balance report (JSON and HTML)."""
    from century.output import atomic_write_bytes
    from century.play.report import render_html, to_json_bytes

    if (game is None) == (compare is None):
        fail("name one GAME, or two with --compare A B", 2)
    names = list(compare) if compare else [game]
    request = SimRequest(games, players, bots, time_budget, seed, workers, cluster, quiet, rules)
    reports = [_report_for(name, request, out) for name in names]
    stem = "-vs-".join(r["game"] for r in reports)
    folder = out or BUILD / "reports" / stem
    if compare:
        for letter, report in zip("ab", reports, strict=True):
            atomic_write_bytes(folder / f"report-{letter}.json", to_json_bytes(report))
    else:
        atomic_write_bytes(folder / "report.json", to_json_bytes(reports[0]))
    html = folder / ("compare.html" if compare else "report.html")
    atomic_write_bytes(html, render_html(reports).encode())
    for report in reports:
        typer.echo(_summary(report))
    typer.echo(f"report written to {html}")


@dataclass(frozen=True)
class SimRequest:
    """The options of one `century simulate` call."""

    games: int
    players: int
    bots: str
    time_budget: float
    seed: int
    workers: int
    cluster: str | None
    quiet: bool
    rules: list[Path] | None


def _report_for(name: str, req: SimRequest, out: Path | None) -> dict[str, Any]:
    """A report read from a .json file, or made by simulating the game `name`."""
    from century.play.ladder import read_ladder
    from century.play.report import REPORT_VERSION, build_report
    from century.play.simulate import ProgressBar, SimConfig, SimulationError, default_workers
    from century.play.simulate import seat_bots as per_seat
    from century.play.simulate import simulate as run

    if name.endswith(".json") and Path(name).is_file():
        return _read_report(Path(name), REPORT_VERSION)
    ruleset = load_game(name, req.rules)
    workers = req.workers or default_workers()
    spec = _auto_bot(ruleset, req, workers) if req.bots.strip() == AUTO else req.bots
    try:
        bots = per_seat(spec, req.players)
    except ValueError as err:
        fail(str(err), 2)
    config = SimConfig(games=req.games, players=req.players, bots=bots, seed=req.seed)
    bar = None if req.quiet else ProgressBar(req.games, f"{name} ")
    try:
        total = run(ruleset, config, workers, req.cluster, bar)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    finally:
        if bar:
            bar.close()
    ladder = read_ladder(out or BUILD / "reports" / ruleset.id, ruleset, req.players)
    return build_report(total, ladder)


def _auto_bot(ruleset: Any, req: SimRequest, workers: int) -> str:
    """The strongest bot that fits the time budget, said on stderr."""
    from century.play.simulate import duration, pick_bot

    if not ruleset.players_min <= req.players <= ruleset.players_max:
        fail(f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players", 2)
    if req.cluster:
        return "greedy"  # the cluster's speed cannot be measured here
    spec, estimate = pick_bot(ruleset, req.players, req.games, workers, req.time_budget)
    fits = "fits" if estimate <= req.time_budget else "is the fastest; it does not fit"
    typer.echo(
        f"bots: {spec} in every seat ({duration(estimate)} estimated, {fits} the "
        f"{duration(req.time_budget)} budget; --bots chooses others)",
        err=True,
    )
    return spec


def _read_report(path: Path, version: int) -> dict[str, Any]:
    """A report written earlier by `century simulate` (of this version)."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        fail(f"{path}: cannot read the report: {err}", 1)
    if not isinstance(report, dict) or report.get("report_version") is None:
        fail(f"{path} is not a simulation report", 1)
    if report["report_version"] != version:
        fail(f"{path} was written by another version of century: simulate the game again", 1)
    return report


def _summary(report: dict[str, Any]) -> str:
    from century.play.report import seat_advantages

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
    app.command()(simulate)
