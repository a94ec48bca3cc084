"""Shared timing helpers of the benchmark scripts (run them from the repository root)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of `runs` calls of `fn`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def line(label: str, times: list[float], width: int = 36) -> str:
    """One result line: best and median in milliseconds."""
    best, median = min(times), statistics.median(times)
    return f"{label:<{width}} best {best * 1000:7.1f} ms   median {median * 1000:7.1f} ms"


def century(
    args: list[str], cache: Path, out: Path, ok: tuple[int, ...] = (0,), errors: bool = False
) -> tuple[str, float, float]:
    """Run `century ARGS -q --out OUT` with CACHE as the cache folder: its output (what it
    printed on stderr after it when `errors`), the CPU seconds of the child and the wall
    seconds. Exits, printing all the command said, when its status is not in `ok`."""
    env = {**os.environ, "CENTURY_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "century", *args, "-q", "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in ok:
        raise SystemExit(f"century {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout + (done.stderr if errors else ""), cpu, wall


def load() -> str:
    """The load averages of the last 1, 5 and 15 minutes (the machine may be shared)."""
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
