"""`century bots`: its default bots (the expert only on request), its progress from the first
game, and Ctrl-C keeping the pairings played."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.simulation import ladder as ladder_module
from century.simulation.ladder import LadderRun, default_bots, pairings

runner = CliRunner()


def test_the_default_bots_leave_the_expert_out() -> None:
    assert "expert" not in default_bots()
    assert default_bots()[-1] == "planner" and "greedy" in default_bots()


@pytest.mark.parametrize(
    ("args", "ranked"),
    [
        ([], default_bots()),
        (["--expert"], [*default_bots(), "expert"]),
        (["--bots", "greedy,planner", "--expert"], ["greedy", "planner", "expert"]),
        (["--bots", "greedy,expert:2", "--expert"], ["greedy", "expert:2"]),
    ],
)
def test_the_expert_is_ranked_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], ranked: list[str]
) -> None:
    asked: list[list[str]] = []
    monkeypatch.setattr(LadderRun, "play", lambda self, *rest, **named: asked.append(self.bots))
    result = runner.invoke(
        cli.app, ["bots", "spice-road", "-q", "--games", "1", "--out", str(tmp_path), *args]
    )
    assert result.exit_code == 0, result.output
    assert asked == [ranked]


def test_progress_is_told_of_every_game_before_the_first_pairing_ends(base) -> None:
    """Two worker processes, each game reported as it ends (not a chunk of them)."""
    told: list[object] = []
    run = LadderRun(base, ["random", "greedy"], 2, 4, seed=3)
    run.play(2, told.append, lambda pairing: told.append(pairing.against))
    assert told[:5] == [1, 1, 1, 1, "greedy"]
    assert told.count(1) == 4 * len(pairings(["random", "greedy"], 2))


def test_the_bar_shows_games_before_the_first_pairing_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from century.cli.screen import progress

    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws on the runner's stderr (rich 14+)
    monkeypatch.setenv("FORCE_COLOR", "1")  # and before 14
    monkeypatch.setattr(progress, "REFRESH", 0.0)
    args = ["bots", "spice-road", "--games", "3", "--bots", "random,greedy", "--workers", "1"]
    result = runner.invoke(cli.app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    drawn = result.stderr
    first_game = drawn.index("1/9 games")
    assert drawn.index("0/9 games") < first_game < drawn.index("random against greedy:")


def test_a_ladder_stopped_midway_keeps_the_pairing_under_way(base) -> None:
    run = LadderRun(base, ["random", "greedy", "planner"], 2, 3, seed=1)

    def stop_after_two(n: int) -> None:
        stop_after_two.games += n  # type: ignore[attr-defined]
        if stop_after_two.games == 5:  # type: ignore[attr-defined]
            raise KeyboardInterrupt

    stop_after_two.games = 0  # type: ignore[attr-defined]
    with pytest.raises(KeyboardInterrupt):
        run.play(1, stop_after_two)
    data = run.data()
    assert not data["complete"] and data["pairings_finished"] == [1, 6]
    assert data["stopped_in"] == {"bot": "random", "against": "planner", "games": 2}
    games = {(p["bot"], p["against"]): p["games"] for p in data["pairings"]}
    assert games == {
        ("random", "greedy"): 3,
        ("greedy", "random"): 3,
        ("random", "planner"): 2,
        ("planner", "random"): 2,
    }
    assert [row["bot"] for row in data["ranking"]][2:] == ["random"]  # each has played one
    text = ladder_module.format_ladder(data)
    assert "Stopped: 1 of 6 pairings finished; random against planner after 2 of 3" in text


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT to a process")
def test_ctrl_c_keeps_the_finished_pairings(tmp_path: Path) -> None:
    """The first pairing told on stderr, then SIGINT (as Ctrl-C sends): the command prints
    and saves the pairings played, says so, and exits 130 without a traceback."""
    args = ["--games", "2", "--bots", "random,greedy,expert:1", "--workers", "1"]
    run = subprocess.Popen(
        [sys.executable, "-m", "century", "bots", "spice-road", *args, "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stderr is not None
    told = run.stderr.readline()  # the expert's pairings take seconds: the run is not over
    deadline = time.monotonic() + 300
    while "random against greedy" not in told and told and time.monotonic() < deadline:
        told = run.stderr.readline()
    assert told.startswith("random against greedy: random won 0 of 2"), told
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "Traceback" not in err and "interrupted; the pairings played are kept" in err
    assert "Stopped: 1 of 6 pairings finished" in out or "Stopped: 2 of 6" in out
    assert "100% [34-100]" in out  # greedy against random, 2 of 2
    data = json.loads((tmp_path / "ladder.json").read_text(encoding="utf-8"))
    assert data["complete"] is False
    cells = {(p["bot"], p["against"]): p for p in data["pairings"]}
    assert cells[("greedy", "random")]["wins"] == 2 and cells[("greedy", "random")]["games"] == 2
