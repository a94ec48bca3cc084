"""The one function each long command calls to play its games, used as a program would:
`century.simulation.run` (a simulation planned, played, two games watched, rechecked),
the bot ladder kept through Ctrl-C and timed for its bar, and the owner effects measured."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from century.experiments import owner
from century.simulation import ladder, recheck, run, simulate
from century.simulation.ladder import LadderRun
from century.simulation.run import SimRequest
from century.simulation.sequential import StopRule


def _request(**changed: object) -> SimRequest:
    asked: dict[str, object] = {
        "games": 6,
        "players": 2,
        "bots": "greedy",
        "time_budget": 60.0,
        "seed": 3,
        "workers": 1,
        "cluster": None,
        "quiet": True,
        "rules": None,
    }
    return SimRequest(**{**asked, **changed})  # type: ignore[arg-type]


def test_a_planned_simulation_plays_the_games_asked(base, tmp_path: Path) -> None:
    planned = run.plan(base, _request(bots="greedy,random"), tmp_path)
    assert planned.config.bots == ("greedy", "random") and planned.ladder is None
    assert planned.picked is None
    told: list[int] = []
    total = run.simulate_request(planned, told.append)
    assert total.games == 6 and sum(told) == 6
    again = simulate.simulate(base, planned.config, 1)
    assert total.digest.hexdigest() == again.digest.hexdigest()


def test_auto_on_a_cluster_seats_the_greedy_bot_unmeasured(base, tmp_path: Path) -> None:
    planned = run.plan(base, _request(bots="auto", cluster="tcp://127.0.0.1:1"), tmp_path)
    assert planned.config.bots == ("greedy", "greedy") and planned.picked is None


def test_a_plan_refuses_what_the_game_cannot_seat(base, tmp_path: Path) -> None:
    many = base.players_max + 1
    with pytest.raises(ValueError, match=f"is for {base.players_min} to {base.players_max}"):
        run.plan(base, _request(bots="auto", players=many), tmp_path)
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        run.plan(base, _request(bots="greedy,greedy,greedy"), tmp_path)


def test_a_game_compared_with_itself_stops_at_the_same_count_with_no_change(
    base, tmp_path: Path
) -> None:
    planned = run.plan(base, _request(games=30), tmp_path)
    pair = run.compare((planned, planned), StopRule(30, sure=True))
    a, b = pair.totals
    assert a.config.games == b.config.games == pair.stop["games"]
    assert a.wins == b.wins and len(pair.sequences) == 2
    assert all(lo <= 0 <= hi for lo, hi in (s.interval for s in pair.sequences))


def test_the_recheck_seats_its_bot_everywhere_on_seeds_of_its_own(base) -> None:
    asked = _request(games=200, bots="random")
    total = run.recheck(base, "greedy", asked)
    assert total.config.games == recheck.recheck_games(200) == 20
    assert total.config.bots == ("greedy", "greedy") and total.config.seed != asked.seed


def _stopping_after(games: int):
    def progress(n: int) -> None:
        progress.games += n  # type: ignore[attr-defined]
        if progress.games >= games:  # type: ignore[attr-defined]
            raise KeyboardInterrupt

    progress.games = 0  # type: ignore[attr-defined]
    return progress


def test_a_ladder_stopped_midway_is_kept_and_said(base) -> None:
    played = LadderRun(base, ["random", "greedy"], 2, 3, seed=1)
    assert ladder.play(played, 1, _stopping_after(5)) is True  # in the second pairing
    assert played.finished == 1 and played.current is not None and played.current.games == 5 - 3


def test_a_ladder_stopped_in_its_first_game_stops_the_command(
    base, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **named: object) -> Iterator[object]:
        raise KeyboardInterrupt  # Ctrl-C while the first game is played
        yield

    monkeypatch.setattr(ladder, "iter_results", interrupted)
    played = LadderRun(base, ["random", "greedy"], 2, 3, seed=1)
    with pytest.raises(KeyboardInterrupt):
        ladder.play(played, 1)
    assert not played.played and played.current is not None and played.current.games == 0


def test_a_ladder_played_through_is_not_said_stopped(base) -> None:
    played = LadderRun(base, ["random", "greedy"], 2, 2, seed=1)
    assert ladder.play(played, 1) is False and played.complete


def test_each_pairing_costs_the_mean_of_its_seats(base, monkeypatch: pytest.MonkeyPatch) -> None:
    measured = {"greedy": 0.01, "planner": 1.0}
    monkeypatch.setattr(simulate, "seconds_per_game", lambda rs, spec, players: measured[spec])
    timed: list[str] = []
    played = LadderRun(base, ["greedy", "planner"], 3, 5)
    costs = ladder.pairing_costs(played, timed.append)
    assert timed == ["greedy", "planner"]
    expected = {
        (bot, other): (measured[bot] + 2 * measured[other]) / 3 for bot, other in played.order
    }
    assert costs == pytest.approx([expected[pair] for pair in played.order])


def test_owner_effects_measured_play_one_base_side_for_every_card(
    base, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CENTURY_CACHE_DIR", str(tmp_path))
    cards = owner.merchant_ids(base)[:2]
    plan = owner.Plan(8, 2, ("greedy",), seed=2)
    asked = owner.measurement(base, base, cards, False, plan)
    assert asked.games == 8 * 3 and asked.cached is None
    told: list[int] = []
    measured = owner.measure(asked, 1, told.append)
    assert [a["card"] for a in measured.answers] == cards
    assert sum(told) == asked.games and measured.table is None and not measured.cached
    alone = owner.owner_effect(base, cards[1], plan, 1)
    assert measured.answers[1] == alone
    whole = owner.measurement(base, base, [], True, plan)
    assert whole.games == 8 * (len(owner.merchant_ids(base)) + 1)
