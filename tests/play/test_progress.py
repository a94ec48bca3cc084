"""The one progress display (`century.cli.screen.progress`): drawn on a terminal only, cleared at
the end, with an ETA weighted by the cost of what is left."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from century.cli.screen import progress as progress_module
from century.cli.screen.progress import Progress, ProgressBar, Stage, duration


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", fake)
    return fake


def test_the_eta_is_weighted_by_the_cost_of_what_is_left(clock: Clock) -> None:
    """Ten cheap games done in 1 s, ten games a hundred times dearer to come: 100 s left, not
    the 1 s an ETA by counting games would promise."""
    run = Progress("ladder", [Stage(10, 1.0), Stage(10, 100.0)], quiet=True)
    assert run.eta() is None and "ETA ?" in run.status()
    clock.now += 1
    run(10)
    assert run.eta() == pytest.approx(100.0)
    clock.now += 50
    run(5)  # half the dear stage: 510 cost units done in 51 s, 500 left
    assert run.eta() == pytest.approx(500 * 51 / 510)
    assert run.status() == "15/20 games · 0.3/s · 51s · ETA 50s"


def test_a_bar_is_drawn_on_a_terminal_and_cleared_at_the_end(clock: Clock) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system=None)
    with Progress("spice-road", 4, console=console) as run:
        assert run.shown
        clock.now += 2
        run(2)
        clock.now += 2
        run(2)
    text = screen.getvalue()
    assert "4/4 games · 1.0/s · 4s · ETA 0s" in text  # the last state, drawn
    assert "\x1b[2K" in text  # the bar's line is cleared, never left half-overwritten
    assert text.rstrip().endswith("spice-road: 4/4 games in 4s (1.0/s)")
    assert "s s" not in text


def test_nothing_is_drawn_off_a_terminal_or_when_quiet(clock: Clock) -> None:
    for console, quiet in (
        (Console(file=io.StringIO(), force_terminal=False), False),
        (Console(file=io.StringIO(), force_terminal=True), True),
    ):
        with Progress("x", 3, console=console, quiet=quiet) as run:
            run(3)
        assert not run.shown and console.file.getvalue() == ""
    pipe = io.StringIO()
    bar = ProgressBar(2, "x ", pipe)  # the one-stage shorthand, on a stream
    bar(2)
    bar.close()
    assert pipe.getvalue() == ""


def test_durations_read_as_people_write_them() -> None:
    shown = [duration(s) for s in (0, 45.4, 185, 3725, None)]
    assert shown == ["0s", "45s", "3m05s", "1h02m", "0s"]


def test_the_ladders_eta_is_weighted_by_each_bots_measured_cost(
    clock: Clock, monkeypatch: pytest.MonkeyPatch, base
) -> None:
    """`century bots` measures each bot's seconds per game (here: a fake measure, a slow bot
    a hundred times dearer) and weights the pairings by it: once the cheap pairing is done,
    the ETA is the slow pairings' share of the cost, not a count of games left."""
    from century.cli import bots as bots_cli
    from century.simulation import simulate
    from century.simulation.ladder import LadderRun

    measured = {"greedy": 0.01, "planner": 1.0}
    monkeypatch.setattr(simulate, "seconds_per_game", lambda rs, spec, players: measured[spec])
    stages = bots_cli._stages(base, LadderRun(base, ["greedy", "planner"], 2, 20))
    # greedy-planner, greedy-greedy, planner-planner: each the mean of its seats' costs
    assert [s.cost for s in stages] == pytest.approx([0.505, 0.01, 1.0])
    run = Progress("ladder", sorted(stages, key=lambda s: s.cost), quiet=True)
    clock.now += 0.2
    run(20)  # the cheap pairing first: 0.2 cost units in 0.2 s
    assert run.eta() == pytest.approx(20 * 1.0 + 20 * 0.505)
    assert run.eta() > 100 * 0.2  # an ETA counting games would say 0.4 s


def test_a_compile_shows_a_spinner_with_its_time_on_a_terminal_only():
    from century.cli.screen.progress import Working

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system=None)
    with Working("spice-road engine: compiling with mypyc", console=console) as working:
        assert working.shown
    assert "spice-road engine: compiling with mypyc: done in 0s" in screen.getvalue()
    quiet = io.StringIO()
    with Working("x", console=Console(file=quiet, force_terminal=False)) as working:
        assert not working.shown
    assert quiet.getvalue() == ""


def test_a_native_target_compiles_under_the_spinner(monkeypatch: pytest.MonkeyPatch):
    from century.cli import targets as target_commands
    from century.cli.screen import progress
    from century.targets import targets
    from century.targets.engine import EngineOptions

    shown: list[str] = []

    class Seen(progress.Working):
        def __init__(self, label: str, **_: object) -> None:
            shown.append(label)
            super().__init__(label, console=Console(file=io.StringIO(), force_terminal=True))

    monkeypatch.setattr(progress, "Working", Seen)
    engine = targets()["engine"]
    with target_commands._progress(engine, "g", EngineOptions(native=True), None) as options:
        assert options.native
    with target_commands._progress(engine, "g", EngineOptions(), None):
        pass
    assert shown == ["g engine: compiling with mypyc (a minute or more)"]
