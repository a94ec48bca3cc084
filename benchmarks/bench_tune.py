"""Benchmark `century tune` on a planted too-strong card, and check its proposal independently.

Usage (from the checkout, in the venv):

    python benchmarks/bench_tune.py --level greedy                # table, tune, check
    python benchmarks/bench_tune.py --level planner --band -5:25  # no table: a given band
    python benchmarks/bench_tune.py --level planner --table-games 100

Steps, each with the CPU seconds of the command and its children and the wall time (the
load average beside them, as the machine may be shared):

1. without ``--band``: the reference table of Spice Road at greedy and at the level
   (``experiment --own-all``, `--table-games` deals a card, into a fresh cache folder), whose
   middle half is the band;
2. ``tune spice-road '{kind: trade, pay: Y, get: RR}'`` (the game's yy-rr made y-rr) at the
   level with `--budget`: the band, the planted card's screened effect, the proposals with
   their intervals and the games spent;
3. the independent check: ``experiment --own PROPOSAL`` at the level on other deals
   (``--seed 7``, `--check-games`): whether its owner effect lies in the band.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from timing import century, load

PLANTED = "{kind: trade, pay: Y, get: RR}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--band", default=None, help="LO:HI points (default: from the table)")
    parser.add_argument("--table-games", type=int, default=300)
    parser.add_argument("--budget", type=int, default=1000)
    parser.add_argument("--check-games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    workers = ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        band = ["--band", args.band] if args.band else []
        if not args.band:
            levels = ",".join(dict.fromkeys(["greedy", args.level]))
            _, cpu, wall = century(
                [
                    "experiment",
                    "spice-road",
                    "--own-all",
                    "--levels",
                    levels,
                    "--games",
                    str(args.table_games),
                    *workers,
                ],
                cache,
                folder / "table",
            )
            print(
                f"reference table at {levels}, {args.table_games} deals a card: "
                f"{cpu:.1f} CPU-s, {wall:.1f} s wall ({load()})"
            )
        text, cpu, wall = century(
            [
                "tune",
                "spice-road",
                PLANTED,
                "--level",
                args.level,
                "--budget",
                str(args.budget),
                *band,
                *workers,
            ],
            cache,
            folder / "tune",
            ok=(0, 1),
            errors=True,
        )
        print(text.rstrip())
        print(
            f"tune at {args.level}, budget {args.budget}: {cpu:.1f} CPU-s, {wall:.1f} s wall "
            f"({load()})"
        )
        answer_path = folder / "tune" / "tune.json"
        if not answer_path.exists():
            return
        answer = json.loads(answer_path.read_text("utf-8"))
        if not answer["proposals"]:
            print("no proposal to check")
            return
        proposal = answer["proposals"][0]
        low, high = answer["bands"][args.level]
        text, cpu, wall = century(
            [
                "experiment",
                "spice-road",
                "--own",
                proposal,
                "--levels",
                args.level,
                "--games",
                str(args.check_games),
                "--seed",
                "7",
                *workers,
            ],
            cache,
            folder / "check",
        )
        check = json.loads((folder / "check" / "own.json").read_text("utf-8"))
        entry = check["levels"][0]["owner"]
        inside = low <= entry["difference"] <= high
        print(
            f"independent check of {proposal} at {args.level} ({args.check_games} deals, seed 7): "
            f"{100 * entry['difference']:+.1f} points [{100 * entry['ci95'][0]:+.1f}, "
            f"{100 * entry['ci95'][1]:+.1f}], band {100 * low:+.1f} to {100 * high:+.1f}: "
            f"{'inside' if inside else 'OUTSIDE'}; {cpu:.1f} CPU-s, {wall:.1f} s wall ({load()})"
        )


if __name__ == "__main__":
    main()
