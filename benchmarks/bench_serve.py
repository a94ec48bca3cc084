"""`century serve` measured on loopback: server time per move, the page's first load, and how
many tables with bots playing one process holds.

Run: python benchmarks/bench_serve.py [--tables 1,4,16,32] [--seconds 60] [--bots greedy]
     [--page] [--screenshots DIR]

Starts `century serve --port 0 --bot-pause 0` in a process of its own (127.0.0.1 only) and:

1. per move: plays games through the JSON API, a person's seat moving at random among the
   engine's legal moves against bots, and reads the server's own time for each move from
   the `Server-Timing` header (the move checked, made, logged in words and the seat's view
   written), with the loopback round trip beside it: median and 95th percentile;
2. load: for each count of tables in `--tables`, that many games at once (one client
   thread each, as many people would), each with three bots and one person, until the
   games end or `--seconds` pass: moves per second, the round trip's median and 95th
   percentile, games finished; every loop is bounded in count and time;
3. `--page`: the page's first load in the system's Chromium (cold: the game's card images
   drawn on first use; warm: drawn already), from navigation to the table drawn with its
   card images; `--screenshots DIR` also saves the table of Spice Road and of Golem.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_MOVES = 2000
"""A bound on the moves of one game (a random person ends far sooner)."""


def start(max_tables: int) -> tuple[str, subprocess.Popen[str]]:
    command = [sys.executable, "-m", "century", "serve", "--port", "0", "--bot-pause", "0"]
    process = subprocess.Popen(
        [*command, "--max-tables", str(max_tables)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    return line.split(" at ", 1)[1].split()[0], process


def call(url: str, path: str, body: object = None, token: str = "") -> tuple[dict, float, float]:
    """A request: the answer, the round trip and the server's time (ms)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "X-Seat-Token": token}
    request = urllib.request.Request(url + path, data=data, headers=headers)
    begin = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as answer:
        found = json.load(answer)
        timing = answer.headers.get("Server-Timing", "")
    trip = (time.perf_counter() - begin) * 1000
    server = float(timing.split("dur=")[1]) if "dur=" in timing else float("nan")
    return found, trip, server


def play(url: str, game: str, seats: list[str], seed: int, until: float, out: dict) -> None:
    """One game through the API, the person moving at random; times into `out`."""
    rng = random.Random(seed)
    try:
        made, _, _ = call(url, "api/tables", {"game": game, "seats": seats, "seed": seed})
    except urllib.error.HTTPError as err:  # the server is full: counted, not a crash
        out["refused"] += 1
        err.close()
        return
    table, token = made["table"], made["links"][0]["token"]
    for _ in range(MOST_MOVES):
        if time.monotonic() > until:
            return
        seen, _, _ = call(url, f"api/tables/{table}", token=token)
        if seen["over"]:
            out["finished"] += 1
            return
        if seen["acting"] is None:
            time.sleep(0.005)  # the bots are moving
            continue
        moves = [option["move"] for entry in seen["moves"] for option in entry["options"]]
        _, trip, server = call(
            url, f"api/tables/{table}/move", {"move": rng.choice(moves)}, token=token
        )
        out["trips"].append(trip)
        out["server"].append(server)


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.2f} ms, 95th percentile {p95:.2f} ms"


def load(url: str, tables: int, seconds: float, bots: str) -> None:
    out: dict = {"trips": [], "server": [], "finished": 0, "refused": 0}
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(
            target=play, args=(url, "spice-road", ["human", bots, bots, bots], 1000 + i, until, out)
        )
        for i in range(tables)
    ]
    begin = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    spent = time.perf_counter() - begin
    print(
        f"{tables:3d} tables at once ({bots} bots): {out['finished']}/{tables} games finished "
        f"({out['refused']} refused) "
        f"in {spent:.1f} s; person's moves {len(out['trips'])} "
        f"({len(out['trips']) / spent:.1f}/s); round trip {percentiles(out['trips'])}; "
        f"server {percentiles(out['server'])}"
    )


def page(url: str, shots: Path | None) -> None:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests"))
    from helpers.serve import CHROMIUM_FLAGS, chromium

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS)
        for game in ("spice-road", "golem", "spice-road", "golem"):
            body = {"game": game, "seats": ["human", "greedy", "greedy"], "seed": 3}
            if shots is not None:
                body["record"] = midgame(game, 3, 21)  # a table with some moves behind it
            made, _, _ = call(url, "api/tables", body)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            tab = context.new_page()
            begin = time.perf_counter()
            tab.goto(f"{url}t/{made['table']}#{made['links'][0]['token']}")
            tab.wait_for_function(
                "() => { const imgs = [...document.querySelectorAll('#hand-cards img')];"
                " return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0); }"
            )
            spent = (time.perf_counter() - begin) * 1000
            print(f"first load of the {game} table: {spent:.0f} ms (to every card image drawn)")
            if shots is not None:
                shots.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(shots / f"table-{game}.png"), full_page=True)
            context.close()
        browser.close()


def midgame(game: str, seed: int, moves: int) -> dict:
    """The record of `moves` moves of a seeded three-player game between greedy bots."""
    from century.bots.registry import GreedyBot
    from century.engine import load_engine
    from century.pipeline import compile_paths

    ruleset = compile_paths(None, with_bundled=True, only=game).rulesets[game]
    engine = load_engine(ruleset)
    state = engine.new_game(3, seed)
    bot = GreedyBot(engine, ruleset, seed)
    for _ in range(moves):
        state.play(bot.choose(state))
    while state.current_player != 0:
        state.play(bot.choose(state))
    return state.record()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", default="1,4,16,32")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--screenshots", type=Path)
    args = parser.parse_args()
    counts = [int(n) for n in args.tables.split(",")]
    url, process = start(max(counts) + 8)  # room for the page's tables, left unfinished
    try:
        if args.page or args.screenshots:
            page(url, args.screenshots)
        out: dict = {"trips": [], "server": [], "finished": 0, "refused": 0}
        for seed in range(3):
            play(url, "spice-road", ["human", "greedy"], seed, time.monotonic() + args.seconds, out)
        print(f"per move ({len(out['server'])} moves, 3 games against greedy):")
        print(f"  server time {percentiles(out['server'])}")
        print(f"  round trip  {percentiles(out['trips'])}")
        for count in counts:
            load(url, count, args.seconds, args.bots)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


if __name__ == "__main__":
    main()
