"""Progress on a terminal: one display for every long run, and durations for people.

`Progress` is the display `century simulate`, `bots`, `images` and `tts` share (and any other
long run can call): a `rich.progress` bar on stderr with the items done, their rate, the time
taken and an ETA, drawn only on a terminal and cleared when the run ends. The run is told as
`Stage`s of like items (the games of one pairing of bots, the images of one language), each
with its cost per item, measured or estimated, in any unit the stages share; the ETA is the
cost left at the speed measured so far in that unit, so a run whose slow games come last (a
planner's pairings) is not promised to end early.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TextIO

REFRESH = 0.1
"""The least seconds between two redraws."""


@dataclass(frozen=True)
class Stage:
    """`count` like items of a run, each costing about `cost` (seconds, or any unit the other
    stages of the run share)."""

    count: int
    cost: float = 1.0


class Progress:
    """A progress display: call it with the number of items just done (a `ProgressFn`).

    Use it as a context manager (or call `close`): the bar is drawn on stderr while the block
    runs and cleared at its end, when one line says what was done and how long it took. Off
    a terminal, or with `quiet`, it draws nothing (`console`: a rich console to draw on
    instead of stderr, drawn on if it is a terminal). Colour follows rich (``NO_COLOR``).
    """

    def __init__(
        self,
        label: str,
        stages: Sequence[Stage] | int,
        unit: str = "games",
        *,
        quiet: bool = False,
        console: Any = None,
    ) -> None:
        self.label, self.unit = label, unit
        self.stages = [Stage(stages)] if isinstance(stages, int) else list(stages)
        self.total = sum(stage.count for stage in self.stages)
        self.total_cost = sum(stage.count * stage.cost for stage in self.stages)
        self.done = 0
        self.start = time.monotonic()
        self._drawn = 0.0
        self._bar: Any = None
        self._task: Any = None
        if not quiet:
            self._open(console)

    # -- the numbers ---------------------------------------------------------------------

    def cost_done(self) -> float:
        """The cost of the items done, stage by stage in order."""
        left, cost = self.done, 0.0
        for stage in self.stages:
            taken = min(left, stage.count)
            cost += taken * stage.cost
            left -= taken
        return cost

    def eta(self, now: float | None = None) -> float | None:
        """Seconds left: the cost left at the speed (cost per second) measured so far; None
        before anything is done."""
        elapsed = (now if now is not None else time.monotonic()) - self.start
        done = self.cost_done()
        if done <= 0 or elapsed <= 0:
            return None
        return max(0.0, (self.total_cost - done) * elapsed / done)

    def rate(self, now: float | None = None) -> float:
        """Items per second so far."""
        elapsed = (now if now is not None else time.monotonic()) - self.start
        return self.done / elapsed if elapsed > 0 else 0.0

    def status(self, now: float | None = None) -> str:
        """``600/1000 games · 37.5/s · 0:16 · ETA 11s``."""
        now = now if now is not None else time.monotonic()
        eta = self.eta(now)
        parts = [
            f"{self.done}/{self.total} {self.unit}",
            f"{self.rate(now):.1f}/s",
            duration(now - self.start),
            f"ETA {duration(eta)}" if eta is not None else "ETA ?",
        ]
        return " · ".join(parts)

    # -- the display ---------------------------------------------------------------------

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn (on a terminal, not quiet)."""
        return self._bar is not None

    def _open(self, console: Any) -> None:
        if console is None:
            if not on_terminal():
                return
            from rich.console import Console

            console = Console(stderr=True)
        if not console.is_terminal:
            return
        from rich.progress import BarColumn, Progress, TextColumn

        self._bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[status]}"),
            console=console,
            transient=True,
            auto_refresh=False,  # no drawing thread: worker processes are forked meanwhile
        )
        self._task = self._bar.add_task(
            self.label, total=max(self.total_cost, 1e-9), status=self.status()
        )
        self._bar.start()
        self._draw(force=True)

    def restage(self, stages: Sequence[Stage], label: str | None = None) -> None:
        """Tell the run's stages anew (their costs measured once the bar is up), and its
        label; the items done stay done (before any, the clock starts again: the speed is
        the items')."""
        if self.done == 0:
            self.start = time.monotonic()
        self.stages = list(stages)
        self.total = sum(stage.count for stage in self.stages)
        self.total_cost = sum(stage.count * stage.cost for stage in self.stages)
        if label is not None:
            self.label = label
        if self._bar is not None:
            self._bar.update(self._task, total=max(self.total_cost, 1e-9), description=self.label)
        self._draw(force=True)

    def note(self, text: str) -> None:
        """Say `text` in a line above the bar (nothing when no bar is drawn)."""
        if self._bar is not None:
            self._bar.console.print(text, highlight=False, markup=False)
            self._draw(force=True)

    def __call__(self, n: int = 1) -> None:
        self.done += n
        self._draw(force=self.done >= self.total)

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if self._bar is None or (not force and now - self._drawn < REFRESH):
            return
        self._drawn = now
        self._bar.update(self._task, completed=self.cost_done(), status=self.status(now))
        self._bar.refresh()

    def close(self) -> None:
        """Clear the bar and say in one line what was done (on a terminal only)."""
        if self._bar is None:
            return
        bar, self._bar = self._bar, None
        bar.stop()
        elapsed = time.monotonic() - self.start
        bar.console.print(
            f"{self.label}: {self.done}/{self.total} {self.unit} in {duration(elapsed)}"
            f" ({self.rate():.1f}/s)",
            highlight=False,
            markup=False,
        )

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class ProgressBar(Progress):
    """`Progress` for `total` games of one cost, labelled `label` (a stream that is not a
    terminal, the default stderr's too, draws nothing)."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None) -> None:
        console = None
        if stream is not None:
            from rich.console import Console

            console = Console(file=stream)
        super().__init__(label.strip(), total, console=console)


class Working:
    """A spinner with the seconds elapsed, for one piece of work whose progress cannot be
    counted (a compile by mypyc that takes minutes under load): drawn on stderr while the
    block runs, only on a terminal (or on `console`), cleared at its end, when one line says
    how long it took."""

    def __init__(self, label: str, *, console: Any = None) -> None:
        self.label = label
        self.start = time.monotonic()
        self._bar: Any = None
        if console is None and not on_terminal():
            return
        from rich.console import Console
        from rich.progress import Progress as Bar
        from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

        console = console if console is not None else Console(stderr=True)
        if not console.is_terminal:
            return
        self._bar = Bar(
            SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
            console=console, transient=True,
        )  # fmt: skip
        self._bar.add_task(label, total=None)
        self._bar.start()

    @property
    def shown(self) -> bool:
        """Whether the spinner is drawn (on a terminal)."""
        return self._bar is not None

    def __enter__(self) -> Working:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is None:
            return
        self._bar.stop()
        if kind is None:
            took = duration(time.monotonic() - self.start)
            self._bar.console.print(f"{self.label}: done in {took}", highlight=False)


def on_terminal() -> bool:
    """Whether a `Progress` on stderr is drawn: stderr is a terminal (``FORCE_COLOR`` asks
    for colour, not for a bar in a log). Checked without importing rich."""
    import sys

    return sys.stderr.isatty()


def duration(seconds: float | None) -> str:
    """A duration for people: ``45s``, ``3m05s``, ``1h02m``."""
    seconds = max(0, round(seconds or 0))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
