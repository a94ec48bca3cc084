"""`century serve`'s tables kept in SQLite, measured: the server's time per move with the
write, the time to restore stored tables, and the database's size per game.

Run: python benchmarks/bench_serve_store.py [--games 20] [--tables 1000] [--no-store]

1. per move: hot-seat games of Spice Road (two persons' seats, each move chosen by the greedy
   bot) played through the JSON API with Starlette's test client; the server's own time of
   each move is read from its `Server-Timing` header (the move checked, made, logged in
   words, written to the database in one transaction, the seat's view made): median and 95th
   percentile. `--no-store` plays without a database (the tables in memory only, as before
   they were kept), for an A/B on the same code; run on an older checkout (PYTHONPATH) it
   measures that checkout the same way;
2. restore: a database holding `--tables` tables (each a game stopped after a seeded number of
   moves, a tenth of them played to the end), then a new store opened on it, the tables
   listed, and every unfinished one restored as a restarted server restores it (the moves
   played back, the log, the bots made): the time of each;
3. size: the database's bytes per finished game (write-ahead log checkpointed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def per_move(games: int, store: bool) -> list[float]:
    """The server's milliseconds for each move of `games` hot-seat games."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from century.bots.registry import GreedyBot
    from century.engine import load_engine
    from century.serve.app import Config, make_app

    from helpers import spice_road

    ruleset = spice_road()
    engine = load_engine(ruleset)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        config = Config(games={ruleset.id: ruleset}, bot_pause=0.0, port=8000)
        kept = None
        if store:
            from century.serve.store import Store

            kept = Store(Path(folder) / "tables.sqlite3")
            config.store = kept
        base = "http://127.0.0.1:8000"
        with TestClient(make_app(config), base_url=base) as client:
            client.headers["Origin"] = base
            for seed in range(games):
                made = client.post(
                    "/api/tables",
                    json={"game": ruleset.id, "seats": ["human", "human"], "seed": seed},
                ).json()
                table, token = made["table"], made["links"][0]["token"]
                state, bot = engine.new_game(2, seed), GreedyBot(engine, ruleset, seed)
                while not state.is_over():
                    move = bot.choose(state)
                    state.play(move)
                    answer = client.post(
                        f"/api/tables/{table}/move",
                        json={"move": move},
                        headers={"X-Seat-Token": token},
                    )
                    assert answer.status_code == 200, answer.text
                    timing = answer.headers["Server-Timing"]
                    times.append(float(timing.split("dur=")[1]))
        if kept is not None:
            kept.close()
    return times


def restore(count: int) -> dict[str, float]:
    """Seconds to open, list and restore `count` stored tables; bytes per finished game."""
    import random

    from century.bots.registry import GreedyBot
    from century.engine import load_engine
    from century.serve.store import Store
    from century.serve.tables import Setup, new_table, restore

    from helpers import spice_road

    ruleset = spice_road()
    engine = load_engine(ruleset)
    found: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tables.sqlite3"
        store = Store(path)
        rng = random.Random(1)
        moves_kept = 0
        for seed in range(count):
            table = new_table(ruleset, engine, Setup(ruleset.id, ("human", "greedy"), seed), "en")
            bot = GreedyBot(engine, ruleset, seed)
            stop = 10_000 if seed % 10 == 0 else rng.randrange(10, 80)
            while not table.state.is_over() and len(table.log) < stop:
                table.apply(bot.choose(table.state))
            store.add(table.stored())
            moves_kept += len(table.log)
        store.close()
        found["tables"] = count
        found["moves per table"] = moves_kept / count
        start = time.perf_counter()
        store = Store(path)
        found["open (s)"] = time.perf_counter() - start
        start = time.perf_counter()
        listed = store.listed(most=count)
        found["list (s)"] = time.perf_counter() - start
        start = time.perf_counter()
        restored = 0
        for table_id in store.ids():
            kept = store.load(table_id)
            assert kept is not None
            restore(kept, ruleset, engine)
            restored += 1
        found["restore every unfinished (s)"] = time.perf_counter() - start
        found["unfinished restored"] = restored
        found["listed"] = len(listed)
        store.close()
        found["bytes per table"] = path.stat().st_size / count
    with tempfile.TemporaryDirectory() as folder:  # the size of finished games alone
        path = Path(folder) / "tables.sqlite3"
        store = Store(path)
        games = 100
        for seed in range(games):
            table = new_table(ruleset, engine, Setup(ruleset.id, ("human", "greedy"), seed), "en")
            bot = GreedyBot(engine, ruleset, seed)
            while not table.state.is_over():
                table.apply(bot.choose(table.state))
            store.add(table.stored())
        store.close()
        found["bytes per finished game"] = path.stat().st_size / games
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--no-store", action="store_true")
    args = parser.parse_args()
    try:
        import century.serve.store  # noqa: F401

        has_store = True
    except ImportError:  # a checkout from before the tables were kept
        has_store = False
    times = per_move(args.games, has_store and not args.no_store)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    label = "with the SQLite write" if has_store and not args.no_store else "tables in memory"
    print(
        f"server time per move ({label}, {len(times)} moves): "
        f"median {statistics.median(times):.3f} ms, 95th percentile {p95:.3f} ms"
    )
    if has_store and args.tables:
        for key, value in restore(args.tables).items():
            print(f"{key:>32}: {value:,.3f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
