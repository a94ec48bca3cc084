"""Seeded simulations of a generated engine played by bots, run here, in worker processes or
on a Dask cluster, and aggregated into statistics.

The backends (`iter_results`: this process, a pool of the standard library's processes, or
a Dask cluster from the optional ``cluster`` extra) each play chunks of games and give
every game's result back in game order, so a simulation gives the same figures whatever
runs it. What a simulation plays and its seeds are in `century.simulation.config`, one game in
`century.simulation.game`, the statistics in `century.simulation.aggregate`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from typing import Any

from century.model.ruleset import Ruleset
from century.simulation.aggregate import Aggregate
from century.simulation.config import ProgressFn, SimConfig, SimulationError, derive_seed
from century.simulation.game import WARM_GAMES, GameResult, game_engine, play_game, prime


def run_chunk(
    ruleset_json: dict[str, Any], config: SimConfig, indices: Sequence[int]
) -> list[GameResult]:
    """Play the games `indices` (used by worker processes and Dask workers)."""
    ruleset = Ruleset.from_json(ruleset_json)
    engine = game_engine(ruleset)
    if len(indices) >= WARM_GAMES // 4:
        prime(engine, ruleset, config.players)
    return [play_game(engine, ruleset, config, i) for i in indices]


# -- choosing the bots ----------------------------------------------------------------------

CALIBRATION_GAMES = 2
"""Games a bot plays to measure its speed before `pick_bot` trusts it with a budget."""


def seconds_per_game(ruleset: Ruleset, spec: str, players: int) -> float:
    """How long a game with `spec` in every seat takes here, measured on a few seeded games
    (after the tables are built)."""
    engine = game_engine(ruleset)
    prime(engine, ruleset, players)
    config = SimConfig(CALIBRATION_GAMES, players, (spec,) * players, derive_seed("calibrate"))
    start = time.perf_counter()
    for index in range(CALIBRATION_GAMES):
        play_game(engine, ruleset, config, index)
    return (time.perf_counter() - start) / CALIBRATION_GAMES


def pick_bot(
    ruleset: Ruleset, players: int, games: int, workers: int, budget: float
) -> tuple[str, float]:
    """The strongest bot whose `games` games (every seat) fit in `budget` seconds on
    `workers` processes, with the estimated time; the weakest searched if none fits."""
    from century.bots.registry import BOTS, STRONGEST_FIRST

    spec, estimate = "", 0.0
    fast = [spec for spec in STRONGEST_FIRST[:-1] if BOTS[spec].auto]  # random tells nothing
    for spec in fast:
        estimate = games * seconds_per_game(ruleset, spec, players) / parallel(workers)
        if estimate <= budget:
            break
    return spec, estimate


def parallel(workers: int) -> float:
    """The speed-up to expect from `workers` processes (they share the machine's CPUs)."""
    return max(1.0, 0.9 * min(workers, default_workers()))


# -- many games ---------------------------------------------------------------------------


def chunks(games: int, size: int, first: int = 0) -> list[range]:
    """Game indices from `first` up to `games` in consecutive chunks of at most `size`."""
    return [range(start, min(start + size, games)) for start in range(first, games, size)]


def chunk_size(games: int, workers: int) -> int:
    """Chunks small enough to balance the load and show progress, large enough to amortise."""
    return max(1, min(50, games // max(1, workers * 4)))


def iter_results(
    ruleset: Ruleset,
    config: SimConfig,
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressFn | None = None,
    first: int = 0,
    chunk: int = 0,
) -> Iterator[GameResult]:
    """Every game's result, in game order, however the games are distributed: the one seam
    of the backends (this process, a pool of `workers` processes, the Dask `cluster`), which
    take the same arguments and give the same results. `first`: the games from that index
    on (a sequential comparison plays its games in looks, `century.simulation.sequential`);
    `chunk`: the games a worker process plays at a time (0: `chunk_size`; 1 tells `progress`
    of every game, for slow games)."""
    if cluster:
        yield from _run_dask(ruleset, config, cluster, progress, first)
    elif workers <= 1:
        yield from _run_here(ruleset, config, progress, first)
    else:
        yield from _run_pool(ruleset, config, workers, progress, first, chunk)


def _run_here(
    ruleset: Ruleset, config: SimConfig, progress: ProgressFn | None, first: int = 0
) -> Iterator[GameResult]:
    engine = game_engine(ruleset)
    if config.games - first >= WARM_GAMES:
        prime(engine, ruleset, config.players)
    for i in range(first, config.games):
        yield play_game(engine, ruleset, config, i)
        if progress:
            progress(1)


def _in_order(
    done: Iterator[tuple[int, list[GameResult]]], progress: ProgressFn | None
) -> Iterator[GameResult]:
    """Re-order chunks finishing in any order back into chunk order."""
    waiting: dict[int, list[GameResult]] = {}
    nxt = 0
    for number, results in done:
        waiting[number] = results
        if progress:
            progress(len(results))
        while nxt in waiting:
            yield from waiting.pop(nxt)
            nxt += 1


_WORKER: dict[str, Any] = {}
"""What a pool worker process plays: set once by `_worker_init`."""


def _worker_init(ruleset_json: dict[str, Any], config: SimConfig) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the parent ends us
    for name in ("SIGTERM", "SIGHUP"):  # not the parent's handlers, inherited by a fork
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    ruleset = Ruleset.from_json(ruleset_json)
    engine = game_engine(ruleset)
    if config.games >= WARM_GAMES:
        prime(engine, ruleset, config.players)  # at once after a fork: done in the parent
    _WORKER.update(ruleset=ruleset, config=config, engine=engine)


def _worker_chunk(numbered: tuple[int, range]) -> tuple[int, list[GameResult]]:
    number, indices = numbered
    w = _WORKER
    return number, [play_game(w["engine"], w["ruleset"], w["config"], i) for i in indices]


def _run_pool(
    ruleset: Ruleset,
    config: SimConfig,
    workers: int,
    progress: ProgressFn | None,
    first: int = 0,
    chunk: int = 0,
) -> Iterator[GameResult]:
    """The games played by at most `workers` processes (never more than chunks of games).
    However the iteration ends (done, an error, a signal raising in the caller, the
    iterator closed), every worker process is ended before this returns."""
    import multiprocessing

    parts = chunks(config.games, chunk or chunk_size(config.games - first, workers), first)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":
        engine = game_engine(ruleset)  # generated once here, inherited by every worker
        if config.games - first >= WARM_GAMES or first:  # a later look: once per process
            prime(engine, ruleset, config.players)
    pool = multiprocessing.get_context(method).Pool(
        min(workers, len(parts)), _worker_init, (ruleset.to_json(), config)
    )
    try:
        yield from _in_order(pool.imap_unordered(_worker_chunk, enumerate(parts)), progress)
    finally:
        pool.terminate()
        pool.join()


def _run_dask(
    ruleset: Ruleset,
    config: SimConfig,
    address: str,
    progress: ProgressFn | None,
    first: int = 0,
) -> Iterator[GameResult]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as err:
        from century.base.extras import install_hint

        hint = install_hint("cluster", "dask[distributed]")
        raise SimulationError(f"--cluster needs dask.distributed: {hint}") from err
    try:
        client = Client(address, set_as_default=False, timeout="10s")
    except OSError as err:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {err}") from err
    try:
        size = chunk_size(config.games - first, _dask_workers(client))
        parts = chunks(config.games, size, first)
        data = client.scatter(ruleset.to_json(), broadcast=True)
        futures = [client.submit(run_chunk, data, config, list(part), pure=False) for part in parts]
        number = {f.key: n for n, f in enumerate(futures)}

        def finished() -> Iterator[tuple[int, list[GameResult]]]:
            with client.as_current():
                for future in as_completed(futures):
                    yield number[future.key], future.result()

        yield from _in_order(finished(), progress)
    except SimulationError:
        raise
    except Exception as err:
        raise SimulationError(
            f"the Dask cluster at {address} failed: {type(err).__name__}: {err} "
            "(the workers need the same century version and Python packages)"
        ) from err
    finally:
        client.close()


def _dask_workers(client: Any) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:
        return 1


# -- a whole simulation --------------------------------------------------------------------


def simulate(
    ruleset: Ruleset,
    config: SimConfig,
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressFn | None = None,
) -> Aggregate:
    """Run a whole simulation and return its aggregate."""
    check_config(ruleset, config)
    total = Aggregate(ruleset, config)
    for result in iter_results(ruleset, config, workers, cluster, progress):
        total.add(result)
    return total


def check_config(ruleset: Ruleset, config: SimConfig) -> None:
    """Raise `SimulationError` unless `config` can be played on `ruleset`."""
    from century.bots.registry import check_spec

    for spec in config.bots:
        check_spec(spec)
    if len(config.bots) != config.players:
        raise SimulationError(f"{len(config.bots)} bots for {config.players} players")
    if not ruleset.players_min <= config.players <= ruleset.players_max:
        raise SimulationError(
            f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players"
        )


def workers_for(requested: int, games: int) -> int:
    """The worker processes to start for `games` games when `requested` were asked for (0:
    one per CPU): never more than the CPUs, nor than the games."""
    cpus = default_workers()
    return max(1, min(requested or cpus, cpus, games))


def default_workers() -> int:
    """One worker per available CPU."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
