"""One `century simulate` run: the request, each game's simulation planned (its bots, the
workers, its saved bot ladder) and played, two games compared look by look until a stopping
rule settles every seat (`century.simulation.sequential`), and the recheck of a report with
a stronger bot (`century.simulation.recheck`). The caller shows the progress and turns the
aggregates into reports (`century.reports.report.build_report`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from century.simulation.config import ProgressFn, SimConfig, derive_seed, seat_bots

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.simulation.aggregate import Aggregate
    from century.simulation.sequential import ConfidenceSequence, StopRule

AUTO = "auto"
"""The bots spec that picks the strongest bot fitting the time budget (`pick_bot`)."""


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


@dataclass(frozen=True)
class Planned:
    """One game's simulation, ready to play: the game, what is played, the game's saved bot
    ladder (None: none saved), the worker processes and the Dask scheduler (if any)."""

    ruleset: Ruleset
    config: SimConfig
    ladder: dict[str, Any] | None
    workers: int
    cluster: str | None = None
    picked: tuple[str, float] | None = None
    """The bot `--bots auto` picked and its games' estimated seconds (None: the bots were
    named, or picked without measuring for a cluster)."""


@dataclass(frozen=True)
class ComparePair:
    """Two games compared look by look: their aggregates (each of the games played), the
    stop (`century.simulation.sequential.stop_json`), and each seat's always-valid sequence
    of game i of b minus game i of a."""

    totals: tuple[Aggregate, Aggregate]
    stop: dict[str, Any]
    sequences: list[ConfidenceSequence]


def plan(ruleset: Ruleset, req: SimRequest, ladder_folder: Path) -> Planned:
    """The simulation `req` asks of `ruleset`, its bot ladder read from `ladder_folder`
    (checked before the games, which may take long). `DiagnosticError` for a ladder file
    that cannot be read, `ValueError` for bots or players the game cannot seat."""
    from century.simulation.ladder import read_ladder
    from century.simulation.simulate import workers_for

    ladder = read_ladder(ladder_folder, ruleset, req.players)
    workers = workers_for(req.workers, req.games)
    picked = None
    spec = req.bots
    if req.bots.strip() == AUTO:
        spec, picked = _auto_bot(ruleset, req, workers)
    bots = seat_bots(spec, req.players)
    config = SimConfig(games=req.games, players=req.players, bots=bots, seed=req.seed)
    return Planned(ruleset, config, ladder, workers, req.cluster, picked)


def _auto_bot(
    ruleset: Ruleset, req: SimRequest, workers: int
) -> tuple[str, tuple[str, float] | None]:
    """The strongest bot that fits the time budget, and what was measured (None on a
    cluster, whose speed cannot be measured here: the greedy bot)."""
    from century.simulation.simulate import pick_bot

    if not ruleset.players_min <= req.players <= ruleset.players_max:
        raise ValueError(
            f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players"
        )
    if req.cluster:
        return "greedy", None
    picked = pick_bot(ruleset, req.players, req.games, workers, req.time_budget)
    return picked[0], picked


def simulate_request(planned: Planned, progress: ProgressFn | None = None) -> Aggregate:
    """Play the games of `planned`, telling `progress` of each; `SimulationError` or
    `ValueError` when they cannot be played."""
    from century.simulation.simulate import simulate

    return simulate(planned.ruleset, planned.config, planned.workers, planned.cluster, progress)


def compare(
    pair: tuple[Planned, Planned], rule: StopRule, progress: ProgressFn | None = None
) -> ComparePair:
    """Both games of `pair` played look by look on the same seeds until each seat's change of
    win rate is settled under `rule` (valid whether or not the two games' results go
    together); `SimulationError` or `ValueError` when they cannot be played."""
    from century.simulation.sequential import Side, stop_json, watch
    from century.simulation.simulate import check_config

    for planned in pair:
        check_config(planned.ruleset, planned.config)
    a, b = (
        Side(p.ruleset, p.config, p.workers, progress, aggregate=True, cluster=p.cluster)
        for p in pair
    )
    players = a.config.players

    def seat_changes(i: int) -> list[int]:
        return [(b.winners[i] == s) - (a.winners[i] == s) for s in range(players)]

    sequences, games, why = watch(a, b, seat_changes, players, rule)
    assert a.total is not None and b.total is not None
    for total in (a.total, b.total):
        total.config = replace(total.config, games=games)
    return ComparePair((a.total, b.total), stop_json(rule, games, why, players), sequences)


def recheck(
    ruleset: Ruleset, spec: str, req: SimRequest, progress: ProgressFn | None = None
) -> Aggregate:
    """The recheck of the simulation `req` of `ruleset`: `recheck_games` games with `spec` in
    every seat, on seeds of their own; `SimulationError` or `ValueError` when they cannot be
    played."""
    from century.simulation.recheck import recheck_games
    from century.simulation.simulate import simulate, workers_for

    games = recheck_games(req.games)
    config = SimConfig(games, req.players, (spec,) * req.players, derive_seed(req.seed, "recheck"))
    return simulate(ruleset, config, workers_for(req.workers, games), req.cluster, progress)
