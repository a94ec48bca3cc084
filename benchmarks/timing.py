"""Shared timing helpers of the benchmark scripts (run them from the repository root)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
