"""Progress on a terminal: a one-line bar and durations for people."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

ProgressFn = Callable[[int], None]
"""Told how many more games are done."""


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
