"""Benchmark the balance answers of `century experiment`: the verdict of an owner effect
against the game's own band, version A against version B, and the false-claim rate of
``--versus`` on A/A runs.

Usage (from the checkout, in the venv):

    python benchmarks/bench_balance.py --only verdict --levels greedy --games 300
    python benchmarks/bench_balance.py --only verdict --levels planner --games 40
    python benchmarks/bench_balance.py --only versus      # +yr against +yyr, --stop sure
    python benchmarks/bench_balance.py --only aa --runs 40 --games 200

Figures printed (each with the CPU seconds of the command and its children, and the wall
time; the load average beside them, as the machine may be shared):

- verdict: the reference table at the level (`--own-all`, measured into a fresh cache
  folder), then `--own` of a broken card placed in it: its verdict line;
- versus: `--own +yr --versus +yyr --stop sure` (one more turmeric on a gain card, about +6
  points to its owner at greedy): the paired difference, its interval and the deals it took;
- aa: `--own yy-rr --versus '{kind: trade, pay: YY, get: RR}'` (the same card written as
  data: another id, the same effect) on `--runs` seeds with `--stop sure`: how many runs
  claim a difference (the rule bounds it at 5%), and how many runs had any deal end
  differently at all.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from timing import century, load

BROKEN = "{kind: trade, pay: Y, get: BBB}"
COPY = "{kind: trade, pay: YY, get: RR}"


def verdict(levels: str, games: int, workers: int, folder: Path) -> None:
    cache = folder / "cache"
    common = ["--levels", levels, "--games", str(games), "--workers", str(workers)]
    _, cpu, wall = century(
        ["experiment", "spice-road", "--own-all", *common], cache, folder / "table"
    )
    print(
        f"reference table at {levels}, {games} paired deals a card: {cpu:.1f} CPU-s, "
        f"{wall:.1f} s wall ({load()})"
    )
    text, cpu2, wall2 = century(
        ["experiment", "spice-road", "--own", BROKEN, *common], cache, folder / "own"
    )
    for line in text.splitlines():
        if "verdict" in line or "owning seat" in line:
            print(line)
    print(f"--own of the broken card, placed: {cpu2:.1f} CPU-s, {wall2:.1f} s wall ({load()})")
    print(f"verdict in all: {cpu + cpu2:.1f} CPU-s, {wall + wall2:.1f} s wall")


def versus(games: int, workers: int, folder: Path) -> None:
    args = ["experiment", "spice-road", "--own", "+yr", "--versus", "+yyr", "--levels", "greedy"]
    args += ["--games", str(games), "--stop", "sure", "--workers", str(workers)]
    text, cpu, wall = century(args, folder / "cache", folder / "versus")
    print(text.rstrip())
    level = json.loads((folder / "versus" / "versus.json").read_text("utf-8"))["levels"][0]
    print(
        f"+yyr against +yr: {100 * level['owner']['difference']:+.1f} points "
        f"[{100 * level['owner']['ci95'][0]:+.1f}, {100 * level['owner']['ci95'][1]:+.1f}] after "
        f"{level['stop']['games']} paired deals ({level['stop']['reason']}); "
        f"{cpu:.1f} CPU-s, {wall:.1f} s wall ({load()})"
    )


def aa(runs: int, games: int, workers: int, folder: Path) -> None:
    claims = changed = 0
    cpu_all = wall_all = 0.0
    for run in range(runs):
        seed = 1000 * (run + 1)
        args = ["experiment", "spice-road", "--own", "yy-rr", "--versus", COPY]
        args += ["--levels", "greedy", "--games", str(games), "--stop", "sure"]
        args += ["--seed", str(seed), "--workers", str(workers)]
        _, cpu, wall = century(args, folder / "cache", folder / f"aa-{run}")
        cpu_all, wall_all = cpu_all + cpu, wall_all + wall
        level = json.loads((folder / f"aa-{run}" / "versus.json").read_text("utf-8"))["levels"][0]
        claims += level["owner"]["significant"]
        changed += not level["identical"]
    print(
        f"A/A, {runs} runs of at most {games} paired deals (--stop sure): {claims} claimed a "
        f"difference ({100 * claims / runs:.1f}%); {changed} had any deal end differently; "
        f"{cpu_all:.1f} CPU-s, {wall_all:.1f} s wall ({load()})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["verdict", "versus", "aa"], required=True)
    parser.add_argument("--levels", default="greedy")
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-balance-") as tmp:
        folder = Path(tmp)
        if opts.only == "verdict":
            verdict(opts.levels, opts.games or 300, opts.workers, folder)
        elif opts.only == "versus":
            versus(opts.games or 3000, opts.workers, folder)
        else:
            aa(opts.runs, opts.games or 200, opts.workers, folder)


if __name__ == "__main__":
    main()
