"""Benchmark: `century watch`, from saving a card file to the rebuilt PDF, for one game.

Starts ``python -m century watch`` in a temporary project holding one game (the bundled base
game, its decks and rule-sheet texts), waits for the first build, then saves a deck file
several times, each time with a new name on its first card (so every save changes what the
card sheets print: no cached result can stand in for the new one). Each time is from the moment
before the save to the moment the game's PDF is replaced (its build folder is swapped in
whole, so every file of the game is new then); the next save waits for the watcher to print
its `built` line. Prints the best and median save-to-PDF time, the part of it the build
took (as the watcher prints it) and the rest (noticing the change, waiting out the burst,
compiling the rules), and the load average.

    python benchmarks/bench_watch.py [--runs 9] [--target NAME]...
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from timing import line

ROOT = Path(__file__).resolve().parent.parent
GAME = "spice-road"
DECK = Path("cards") / GAME / "merchant.yaml"
DEADLINE = 60.0


def project(folder: Path) -> None:
    """One game: the bundled base game with its decks and rule-sheet texts."""
    (folder / "rules").mkdir()
    shutil.copy(ROOT / "rules" / f"{GAME}.yaml", folder / "rules")
    shutil.copytree(ROOT / "rules" / "prose", folder / "rules" / "prose")
    shutil.copytree(ROOT / "cards" / GAME, folder / "cards" / GAME)


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """A queue filled with the process's output lines as they come."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for text in process.stdout:
            found.put(text.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return found


def wait_for(found: queue.Queue[str], start: str) -> str:
    deadline = time.monotonic() + DEADLINE
    while True:
        text = found.get(timeout=max(0.0, deadline - time.monotonic()))
        if text.startswith(start):
            return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--target", action="append", default=[], help="only these targets")
    args = parser.parse_args()
    targets = [option for name in args.target for option in ("--target", name)]

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        project(folder)
        process = subprocess.Popen(
            [sys.executable, "-m", "century", "watch", *targets],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            found = lines_of(process)
            wait_for(found, "watching ")
            pdfs = sorted((folder / "build" / GAME).glob("*.pdf"))
            watched = pdfs[0] if pdfs else folder / "build" / GAME / "ruleset.json"
            deck = folder / DECK
            original = deck.read_text(encoding="utf-8")
            first = next(t for t in original.splitlines() if t.startswith("  - {"))
            times: list[float] = []
            builds: list[float] = []
            built = ""
            for run in range(args.runs):
                before = watched.stat().st_ino
                time.sleep(0.3)  # a pause between saves, as when a person edits
                start = time.perf_counter()
                named = first[:-1] + f", name: {{en: Saved {run}, de: Saved {run}}}}}"
                deck.write_text(original.replace(first, named, 1), encoding="utf-8")
                while True:
                    try:
                        if watched.stat().st_ino != before:
                            break
                    except FileNotFoundError:  # between the two renames of the swap
                        pass
                    if time.perf_counter() - start > DEADLINE:
                        raise SystemExit(f"no rebuild of {watched.name} in {DEADLINE} s")
                    time.sleep(0.002)
                times.append(time.perf_counter() - start)
                built = wait_for(found, f"built build/{GAME} ")
                builds.append(float(built.split(" in ", 1)[1].split(" s", 1)[0]))
        finally:
            process.terminate()
            process.wait(timeout=DEADLINE)

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    chosen = ", ".join(args.target) or "every target of a build"
    print(f"save -> rebuilt {watched.name}, {GAME}, {chosen} ({args.runs} saves)")
    print(line("  save to rebuilt file", times, 42))
    print(line("  of which the build (as printed)", builds, 42))
    rest = [total - build for total, build in zip(times, builds, strict=True)]
    print(line("  the rest: noticing, grouping, checking", rest, 42))
    print(f"  last watcher line: {built}")
    print(f"  load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
