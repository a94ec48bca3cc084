"""`century simulate`: many seeded games between bots, and a balance report."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from century.cli.common import BUILD, Command, RulesOpt, fail, load_game


def simulate(
    game: Annotated[
        str | None, typer.Argument(metavar="GAME", help="The game or variant to simulate.")
    ] = None,
    games: Annotated[int, typer.Option(metavar="N", help="Number of games.", min=1)] = 1000,
    players: Annotated[int, typer.Option(metavar="N", help="Players per game.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOTS",
            help="One bot for every seat, or one per seat, e.g. greedy,random. "
            "Bots: random, greedy, search, search:N (N moves tried per turn).",
        ),
    ] = "greedy",
    seed: Annotated[
        int, typer.Option(metavar="N", help="Base seed; each game's seed derives from it.")
    ] = 0,
    workers: Annotated[
        int, typer.Option(metavar="N", help="Worker processes (0: one per CPU).", min=0)
    ] = 0,
    cluster: Annotated[
        str | None,
        typer.Option(
            metavar="ADDRESS", help="Run on a Dask scheduler at this address (extra 'cluster')."
        ),
    ] = None,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            metavar="GAME",
            help="Two games (ids, or report .json files) side by side.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="DIR", help="Report folder (default: build/reports/...)."
        ),
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
    request = SimRequest(games, players, bots, seed, workers, cluster, quiet, rules)
    reports = [_report_for(name, request) for name in names]
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
    seed: int
    workers: int
    cluster: str | None
    quiet: bool
    rules: list[Path] | None


def _report_for(name: str, req: SimRequest) -> dict[str, Any]:
    """A report read from a .json file, or made by simulating the game `name`."""
    from century.play.report import build_report
    from century.play.simulate import ProgressBar, SimConfig, SimulationError, default_workers
    from century.play.simulate import seat_bots as per_seat
    from century.play.simulate import simulate as run

    if name.endswith(".json") and Path(name).is_file():
        try:
            report = json.loads(Path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            fail(f"{name}: cannot read the report: {err}", 1)
        if not isinstance(report, dict) or report.get("report_version") is None:
            fail(f"{name} is not a simulation report", 1)
        return report
    ruleset = load_game(name, req.rules)
    try:
        bots = per_seat(req.bots, req.players)
    except ValueError as err:
        fail(str(err), 2)
    config = SimConfig(games=req.games, players=req.players, bots=bots, seed=req.seed)
    bar = None if req.quiet else ProgressBar(req.games, f"{name} ")
    try:
        total = run(ruleset, config, req.workers or default_workers(), req.cluster, bar)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    finally:
        if bar:
            bar.close()
    return build_report(total)


def _summary(report: dict[str, Any]) -> str:
    seats = ", ".join(
        f"seat {s['seat']} {s['bot']} {100 * s['win_rate']:.1f}% "
        f"[{100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}]"
        for s in report["seats"]
    )
    rounds = report["rounds"]["mean"]
    return (
        f"{report['game']}: {report['config']['games']} games, {rounds} rounds on average; {seats}"
    )


def register(app: typer.Typer) -> None:
    """Add `simulate` to `app`."""
    app.command(cls=Command)(simulate)
