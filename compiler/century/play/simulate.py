"""Seeded simulations of a generated engine played by bots, aggregated into statistics.

Every game gets its own seed, derived from the base seed and the game's index, and every
bot its own seed derived from the game seed and its seat. Results are aggregated in game
order, so a simulation gives the same figures whatever the number of workers (processes
of the standard library, or a Dask cluster from the optional ``cluster`` extra). A long
simulation builds the engine's move tables and the bots' knowledge before its first game
(before the worker processes fork, where they can), so every worker plays at warm speed.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from century.engine import Engine
    from century.engine.runtime import State

GameResult = dict[str, Any]
"""The outcome of one game: plain data (picklable, JSON-ready)."""

ProgressFn = Callable[[int], None]

MAX_PLIES = 100_000
"""A game still running after this many moves is reported instead of looping forever."""

WARM_GAMES = 200
"""Simulations of at least this many games build the move tables before the first game."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: `games` games of `players` with one bot spec per seat; with
    `rotate`, the bots move one seat on from game to game (game i puts ``bots[0]`` in seat
    ``i % players``)."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    rotate: bool = False

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot spec of each seat in game `index`."""
        if not self.rotate:
            return self.bots
        shift = index % self.players
        return self.bots[-shift:] + self.bots[:-shift] if shift else self.bots


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across runs, platforms and processes)."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def seat_bots(spec: str, players: int) -> tuple[str, ...]:
    """Bot specs per seat from ``"greedy"`` (every seat) or ``"greedy,random"`` (one per seat)."""
    names = tuple(s.strip() for s in spec.split(",") if s.strip())
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players")
    return names


# -- one game ----------------------------------------------------------------------------


def play_game(engine: Engine, ruleset: Ruleset, config: SimConfig, index: int) -> GameResult:
    """Play game number `index` of a simulation to its end and summarise it."""
    from century.play.bots import make_bot

    seed = derive_seed(config.seed, index)
    state = engine.new_game(config.players, seed)
    seating = config.seating(index)
    bots = [
        make_bot(spec, engine, ruleset, derive_seed(seed, seat))
        for seat, spec in enumerate(seating)
    ]
    for _ in range(MAX_PLIES):
        if state.is_over():
            return {**summarise(engine, state, index, seed), "bots": list(seating)}
        state.play(bots[state.current_player].choose(state))
    raise SimulationError(f"game {index} (seed {seed}) did not end within {MAX_PLIES} moves")


def summarise(engine: Engine, state: State, index: int, seed: int) -> GameResult:
    """The figures of a finished game of `engine` that the report needs: scores, winner,
    length, the cards and coins each seat took (ids)."""
    view = state.view()
    cards, points, piles = engine.CARDS, engine.POINT_CARDS, engine.COINS
    seats = range(view.players)
    return {
        "index": index,
        "seed": seed,
        "scores": list(state.scores()),
        "winner": state.winner(),
        "rounds": view.rounds(),
        "turns": [view.turns(seat) for seat in seats],
        "point_cards": [[points[c].id for c in view.point_cards(seat)] for seat in seats],
        "merchant_cards": [[cards[c].id for c in view.merchant_cards(seat)] for seat in seats],
        "coins": [
            {pile.id: n for pile, n in zip(piles, view.coins(seat), strict=True)} for seat in seats
        ],
    }


def run_chunk(ruleset_json: dict[str, Any], config: SimConfig, indices: Sequence[int]) -> list:
    """Play the games `indices` (used by worker processes and Dask workers)."""
    ruleset = Ruleset.from_json(ruleset_json)
    engine = _engine(ruleset)
    if len(indices) >= WARM_GAMES // 4:
        prime(engine, ruleset, config.players)
    return [play_game(engine, ruleset, config, i) for i in indices]


def _engine(ruleset: Ruleset) -> Engine:
    """The generated engine module of `ruleset` (`load_engine` caches it per process)."""
    from century.engine import load_engine

    return load_engine(ruleset)


_PRIMED: set[tuple[str, tuple[int, ...]]] = set()


def prime(engine: Engine, ruleset: Ruleset, players: int) -> None:
    """Build the engine's move tables and the bots' knowledge of the game now (once per
    process), so that the games after run at warm speed from the first."""
    from century.play.knowledge import knowledge

    key = (engine.__name__, tuple(ruleset.value_weights))
    if key not in _PRIMED:
        engine.warm_up()
        knowledge(engine, ruleset)
        _PRIMED.add(key)


# -- choosing the bots ----------------------------------------------------------------------

CALIBRATION_GAMES = 2
"""Games a bot plays to measure its speed before `pick_bot` trusts it with a budget."""


def seconds_per_game(ruleset: Ruleset, spec: str, players: int) -> float:
    """How long a game with `spec` in every seat takes here, measured on a few seeded games
    (after the tables are built)."""
    engine = _engine(ruleset)
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
    from century.play.bots import STRONGEST_FIRST

    spec, estimate = "", 0.0
    for spec in STRONGEST_FIRST[:-1]:  # random tells a designer nothing
        estimate = games * seconds_per_game(ruleset, spec, players) / parallel(workers)
        if estimate <= budget:
            break
    return spec, estimate


def parallel(workers: int) -> float:
    """The speed-up to expect from `workers` processes (they share the machine's CPUs)."""
    return max(1.0, 0.9 * min(workers, default_workers()))


# -- many games ---------------------------------------------------------------------------


def chunks(games: int, size: int) -> list[range]:
    """Game indices in consecutive chunks of at most `size`."""
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def chunk_size(games: int, workers: int) -> int:
    """Chunks small enough to balance the load and show progress, large enough to amortise."""
    return max(1, min(50, games // max(1, workers * 4)))


def iter_results(
    ruleset: Ruleset,
    config: SimConfig,
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressFn | None = None,
) -> Iterator[GameResult]:
    """Every game's result, in game order, however the games are distributed."""
    if cluster:
        yield from _run_dask(ruleset, config, cluster, progress)
    elif workers <= 1:
        engine = _engine(ruleset)
        if config.games >= WARM_GAMES:
            prime(engine, ruleset, config.players)
        for i in range(config.games):
            yield play_game(engine, ruleset, config, i)
            if progress:
                progress(1)
    else:
        yield from _run_pool(ruleset, config, workers, progress)


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
    ruleset = Ruleset.from_json(ruleset_json)
    engine = _engine(ruleset)
    if config.games >= WARM_GAMES:
        prime(engine, ruleset, config.players)  # at once after a fork: done in the parent
    _WORKER.update(ruleset=ruleset, config=config, engine=engine)


def _worker_chunk(indices: range) -> list[GameResult]:
    w = _WORKER
    return [play_game(w["engine"], w["ruleset"], w["config"], i) for i in indices]


def _run_pool(
    ruleset: Ruleset, config: SimConfig, workers: int, progress: ProgressFn | None
) -> Iterator[GameResult]:
    import concurrent.futures as cf
    import multiprocessing

    parts = chunks(config.games, chunk_size(config.games, workers))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "fork":
        engine = _engine(ruleset)  # generated once here, inherited by every worker
        if config.games >= WARM_GAMES:
            prime(engine, ruleset, config.players)
    pool = cf.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_worker_init,
        initargs=(ruleset.to_json(), config),
    )
    with pool:
        futures = {pool.submit(_worker_chunk, part): n for n, part in enumerate(parts)}

        def finished() -> Iterator[tuple[int, list[GameResult]]]:
            for future in cf.as_completed(futures):
                yield futures[future], future.result()

        yield from _in_order(finished(), progress)


def _run_dask(
    ruleset: Ruleset, config: SimConfig, address: str, progress: ProgressFn | None
) -> Iterator[GameResult]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as err:
        raise SimulationError(
            "--cluster needs the optional 'cluster' extra: pip install 'century-compiler[cluster]'"
        ) from err
    try:
        client = Client(address, set_as_default=False, timeout="10s")
    except OSError as err:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {err}") from err
    try:
        parts = chunks(config.games, chunk_size(config.games, _dask_workers(client)))
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


class SimulationError(Exception):
    """A simulation could not run (bad bots, unreachable cluster...)."""


# -- aggregation ---------------------------------------------------------------------------


@dataclass
class CardTally:
    """How often a card was taken, and how the players who took it fared."""

    taken: int = 0
    by_winner: int = 0
    takers: int = 0
    takers_won: int = 0


@dataclass
class Aggregate:
    """Streaming statistics over games fed in game order (memory independent of games)."""

    ruleset: Ruleset
    config: SimConfig
    games: int = 0
    wins: Counter = field(default_factory=Counter)
    bot_seats: Counter = field(default_factory=Counter)  # seats each bot spec played
    bot_wins: Counter = field(default_factory=Counter)
    score_sum: Counter = field(default_factory=Counter)
    score_sq: Counter = field(default_factory=Counter)
    score_hist: list[Counter] = field(default_factory=list)
    winner_scores: Counter = field(default_factory=Counter)
    margins: Counter = field(default_factory=Counter)
    rounds: Counter = field(default_factory=Counter)
    points: dict[str, CardTally] = field(default_factory=dict)
    merchants: dict[str, CardTally] = field(default_factory=dict)
    coins_taken: Counter = field(default_factory=Counter)
    coins_by_winner: Counter = field(default_factory=Counter)
    coins_emptied: Counter = field(default_factory=Counter)
    digest: Any = field(default_factory=hashlib.sha256)

    def __post_init__(self) -> None:
        self.score_hist = [Counter() for _ in range(self.config.players)]
        self.points = {c.id: CardTally() for c in self.ruleset.point_deck}
        self.merchants = {
            c.id: CardTally() for c in (*self.ruleset.starting_cards, *self.ruleset.merchant_deck)
        }

    def add(self, result: GameResult) -> None:
        """Fold one game into the totals."""
        self.games += 1
        self.digest.update(repr(sorted(result.items())).encode())
        scores, winner = result["scores"], result["winner"]
        self.wins[winner] += 1
        self.bot_seats.update(result["bots"])
        self.bot_wins[result["bots"][winner]] += 1
        for seat, score in enumerate(scores):
            self.score_sum[seat] += score
            self.score_sq[seat] += score * score
            self.score_hist[seat][score] += 1
        ranked = sorted(scores, reverse=True)
        self.winner_scores[scores[winner]] += 1
        self.margins[scores[winner] - (ranked[1] if len(ranked) > 1 else 0)] += 1
        self.rounds[result["rounds"]] += 1
        _tally(self.points, result["point_cards"], winner)
        _tally(self.merchants, result["merchant_cards"], winner)
        for seat, coins in enumerate(result["coins"]):
            for pile, n in coins.items():
                self.coins_taken[pile] += n
                if seat == winner:
                    self.coins_by_winner[pile] += n
        for coin in self.ruleset.coins:
            taken = sum(c.get(coin.id, 0) for c in result["coins"])
            if taken >= coin.count(self.config.players):
                self.coins_emptied[coin.id] += 1


def _tally(table: dict[str, CardTally], per_player: list[list[str]], winner: int) -> None:
    for seat, cards in enumerate(per_player):
        for card in cards:
            table.setdefault(card, CardTally()).taken += 1
            if seat == winner:
                table[card].by_winner += 1
        for card in set(cards):
            table[card].takers += 1
            if seat == winner:
                table[card].takers_won += 1


def simulate(
    ruleset: Ruleset,
    config: SimConfig,
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressFn | None = None,
) -> Aggregate:
    """Run a whole simulation and return its aggregate."""
    from century.play.bots import check_spec

    for spec in config.bots:
        check_spec(spec)
    if len(config.bots) != config.players:
        raise SimulationError(f"{len(config.bots)} bots for {config.players} players")
    if not ruleset.players_min <= config.players <= ruleset.players_max:
        raise SimulationError(
            f"{ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players"
        )
    total = Aggregate(ruleset, config)
    for result in iter_results(ruleset, config, workers, cluster, progress):
        total.add(result)
    return total


# -- progress --------------------------------------------------------------------------------


class ProgressBar:
    """A one-line progress bar on a terminal; silent when the stream is not a TTY."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None) -> None:
        self.total, self.label, self.done = total, label, 0
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()

    def __call__(self, n: int) -> None:
        self.done += n
        if self.enabled:
            self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // max(1, self.total)
        rate = self.done / max(1e-9, time.monotonic() - self.start)
        bar = "#" * filled + "-" * (width - filled)
        eta = duration((self.total - self.done) / rate) if rate > 0 else "?"
        line = f"\r{self.label}[{bar}] {self.done}/{self.total} games {rate:.1f}/s ETA {eta} "
        self.stream.write(line)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def duration(seconds: float) -> str:
    """A duration for people: ``45s``, ``3m05s``, ``1h02m``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def default_workers() -> int:
    """One worker per available CPU."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
