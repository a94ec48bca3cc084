"""Comparisons that stop when they are sure (`century.simulation.sequential`): the confidence
sequence's stated error rate in A/A runs on synthetic paired differences watched after every
game, its coverage of a true difference, the looks, and seeded experiments that stop early
(a broken card, with the right sign; a requested width) and say after how many games and why.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from century import cli
from century.simulation.sequential import (
    BUDGET,
    NARROW,
    SURE,
    ConfidenceSequence,
    StopRule,
    looks,
    reason,
)

runner = CliRunner()

BROKEN = "{kind: trade, pay: Y, get: BBB}"
"""One turmeric into three cinnamon, repeatable: a card no game should have."""


def _differences(rng: random.Random, win: float, lose: float) -> int:
    """One game's paired difference: +1 with chance `win`, -1 with `lose`, else 0."""
    u = rng.random()
    return 1 if u < win else -1 if u < win + lose else 0


def _ever_misses(rng: random.Random, truth: float, win: float, lose: float, games: int) -> bool:
    """Whether a sequence watched after every one of `games` differences ever leaves out
    the true mean difference `truth`."""
    sequence = ConfidenceSequence()
    for _ in range(games):
        sequence.add(_differences(rng, win, lose))
        low, high = sequence.interval
        if not low <= truth <= high:
            return True
    return False


def _slack(alpha: float, runs: int) -> float:
    """Three Monte Carlo standard errors of a rate `alpha` measured on `runs` runs."""
    return 3 * math.sqrt(alpha * (1 - alpha) / runs)


@pytest.mark.slow
def test_an_a_a_run_watched_after_every_game_stops_falsely_at_most_alpha() -> None:
    rng = random.Random(40)
    runs, games = 300, 1000
    for win in (0.5, 0.2, 0.05):  # no ties, some ties, mostly ties: mean difference zero
        misses = sum(_ever_misses(rng, 0.0, win, win, games) for _ in range(runs))
        assert misses / runs <= 0.05 + _slack(0.05, runs), (win, misses)


def test_the_sequence_covers_a_true_difference_at_every_game_in_most_runs() -> None:
    rng = random.Random(41)
    runs = 200
    misses = sum(_ever_misses(rng, 0.3, 0.45, 0.15, 600) for _ in range(runs))
    assert misses / runs <= 0.05 + _slack(0.05, runs)


def test_a_large_difference_is_settled_early_and_a_small_one_late() -> None:
    rng = random.Random(42)

    def games_to_settle(win: float, lose: float) -> int:
        sequence = ConfidenceSequence()
        for n in range(1, 100_000):
            sequence.add(_differences(rng, win, lose))
            if sequence.interval[0] > 0:
                return n
        return 100_000

    assert games_to_settle(0.6, 0.1) < 100 < games_to_settle(0.3, 0.2)


def test_the_interval_only_narrows_and_holds_the_mean() -> None:
    rng = random.Random(43)
    sequence = ConfidenceSequence()
    before = (-1.0, 1.0)
    for _ in range(500):
        sequence.add(_differences(rng, 0.3, 0.2))
        low, high = sequence.interval
        assert before[0] <= low <= high <= before[1]
        before = (low, high)
    assert before[0] <= sequence.mean <= before[1]
    assert before[1] - before[0] < 0.25


def test_the_looks_end_at_the_budget_and_are_the_same_for_any_machine() -> None:
    assert looks(60) == [25, 50, 60]
    steps = looks(1000)
    assert steps[:8] == [25, 50, 75, 100, 125, 150, 175, 200]
    assert steps[-1] == 1000 and steps == sorted(set(steps))
    assert all(b - a <= max(25, a // 4) for a, b in itertools.pairwise(steps))


def test_the_rule_says_why_it_stops() -> None:
    sure, narrow = ConfidenceSequence(), ConfidenceSequence()
    for _ in range(200):
        sure.add(1)
        narrow.add(0)
    assert reason([sure], StopRule(1000, sure=True), 200) == SURE
    assert reason([narrow], StopRule(1000, sure=True), 200) is None
    assert reason([narrow], StopRule(1000, width=0.5), 200) == NARROW.format(width="50 points")
    assert reason([narrow], StopRule(200, sure=True), 200) == BUDGET
    assert not StopRule(1000).sequential


def _run(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "out"
    result = runner.invoke(
        cli.app, ["experiment", *args, "-q", "--workers", "1", "--out", str(out)]
    )
    return result.exit_code, result.output, out


@pytest.mark.slow
def test_a_broken_card_stops_early_with_the_owner_winning_more(tmp_path: Path) -> None:
    code, output, out = _run(
        tmp_path, "spice-road", "--own", BROKEN, "--levels", "greedy", "-n", "400", "--stop", "sure"
    )
    assert code == 0, output
    (level,) = json.loads((out / "own.json").read_text("utf-8"))["levels"]
    stop = level["stop"]
    assert stop["reason"] == SURE and stop["games"] < 200 and stop["saved"] == 400 - stop["games"]
    assert level["owner"]["ci95"][0] > 0 and level["owner"]["always_valid"]
    assert f"stopped after {stop['games']} of 400 games: {SURE}" in output


def test_a_width_request_stops_when_the_interval_is_that_narrow(tmp_path: Path) -> None:
    code, output, out = _run(
        tmp_path, "spice-road", "--set", "setup.seats.1=BBBB", "-n", "600", "--width", "60"
    )
    assert code == 0, output
    report = json.loads((out / "experiment.json").read_text("utf-8"))
    stop = report["stop"]
    assert stop["reason"] == NARROW.format(width="60 points") and stop["games"] < 600
    assert report["config"]["games"] == stop["games"] == report["base"]["config"]["games"]
    for effect in report["effects"][:2]:
        low, high = effect["ci95"]
        assert high - low < 0.6 and effect["always_valid"]
    assert f"stopped after {stop['games']} of 600 games: the interval is narrower" in output


def test_a_fixed_size_experiment_plays_every_game_as_before(tmp_path: Path) -> None:
    code, output, out = _run(tmp_path, "spice-road", "--set", "setup.seats.1=BBBB", "-n", "30")
    assert code == 0, output
    report = json.loads((out / "experiment.json").read_text("utf-8"))
    assert report["stop"]["reason"] == BUDGET and report["config"]["games"] == 30
    assert "stopped after" not in output
    assert not any(effect.get("always_valid") for effect in report["effects"])


def test_compare_stops_when_sure_and_refuses_reports(tmp_path: Path) -> None:
    result = runner.invoke(
        cli.app,
        [
            *("simulate", "--compare", "spice-road", "spice-road", "-b", "greedy,random"),
            *("-n", "50", "--width", "199", "-q", "-w", "1", "--out", str(tmp_path / "c")),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "stopped after 25 of 50 games: the interval is narrower than 199 points" in result.output
    stop = json.loads((tmp_path / "c" / "report-a.json").read_text("utf-8"))["stop"]
    assert stop["games"] == 25
    report = tmp_path / "c" / "report-a.json"
    refused = runner.invoke(
        cli.app, ["simulate", "--compare", str(report), "spice-road", "--stop", "sure"]
    )
    assert refused.exit_code == 2 and "two games (not reports)" in refused.output
