"""The takers' line as a statistic: its interval takes each game as one unit (takers and
leavers are often the two opponents of one game) and reaches its nominal coverage on a
simulated null where Newcombe's interval of independent samples does not; Holm's correction
for many cards tested at once."""

from __future__ import annotations

import random

from century.simulation.stats import MOMENTS, clustered_difference, game_moments, holm, newcombe


def _null_games(rng: random.Random, games: int) -> list[tuple[int, int, int, int]]:
    """Two-player games of a card that changes nothing: each seat wins half the games;
    one seat took the card and the other left it (most games), both took it, or one saw it
    and left it while the other never saw it. (takers, takers won, leavers, leavers won)."""
    found = []
    for _ in range(games):
        winner = rng.randrange(2)
        shape = rng.random()
        if shape < 0.6:  # seat 0 took it, seat 1 left it: opponents
            found.append((1, int(winner == 0), 1, int(winner == 1)))
        elif shape < 0.8:  # both took it
            found.append((2, 1, 0, 0))
        else:  # seat 1 left it, seat 0 never saw it
            found.append((0, 0, 1, int(winner == 1)))
    return found


def _sums(games: list[tuple[int, int, int, int]]) -> dict[str, int]:
    totals = [0] * len(MOMENTS)
    for game in games:
        totals = [a + b for a, b in zip(totals, game_moments(*game), strict=True)]
    return dict(zip(MOMENTS, totals, strict=True))


def test_the_game_clustered_interval_reaches_its_coverage_on_a_simulated_null() -> None:
    """The takers' and leavers' win rates are equal (a half) by construction: the true
    difference is zero. Over 600 blocks of 200 games the clustered interval covers it about
    95% of the time; Newcombe's, treating opponents as independent, clearly less."""
    rng = random.Random(36)
    blocks, covered, newcombe_covered, rejected = 600, 0, 0, 0
    for _ in range(blocks):
        games = _null_games(rng, 200)
        sums = _sums(games)
        _, lo, hi, p = clustered_difference(sums, len(games))
        covered += lo <= 0 <= hi
        rejected += p < 0.05
        _, nlo, nhi = newcombe(sums["tw"], sums["t"], sums["pw"], sums["p"])
        newcombe_covered += nlo <= 0 <= nhi
    assert 0.93 <= covered / blocks <= 0.97  # nominal 95%, ±2 points (≈ 2.3 standard errors)
    assert 0.03 <= rejected / blocks <= 0.07  # its p-values reject a true null one time in 20
    assert newcombe_covered / blocks < 0.91  # the independent-samples interval is too narrow


def test_the_clustered_interval_of_independent_players_is_newcombes() -> None:
    """With one player per game, games and players are the same units: the interval is
    Newcombe's for two independent proportions (times the small-sample factor G/(G-1))."""
    games = [(1, 1, 0, 0)] * 30 + [(1, 0, 0, 0)] * 20 + [(0, 0, 1, 1)] * 10 + [(0, 0, 1, 0)] * 40
    d, lo, hi, _ = clustered_difference(_sums(games), len(games))
    assert abs(d - (0.6 - 0.2)) < 1e-12
    nd, nlo, nhi = newcombe(30, 50, 10, 50)
    factor = (100 / 99) ** 0.5
    assert abs(lo - (nd - (nd - nlo) * factor)) < 1e-9
    assert abs(hi - (nd + (nhi - nd) * factor)) < 1e-9


def test_holm_steps_down_from_the_smallest_p_value() -> None:
    # 4 tests: 0.01 <= 0.05/4, 0.015 <= 0.05/3, then 0.03 > 0.05/2 stops; 0.04 is not tested
    assert holm([0.04, 0.01, 0.03, 0.015]) == [False, True, False, True]
    assert holm([0.04, 0.01, 0.03, 0.02]) == [False, True, False, False]  # 0.02 > 0.05/3
    assert holm([0.2, 0.3]) == [False, False]
    assert holm([]) == []
