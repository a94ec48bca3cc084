"""Comparisons that stop when they are sure: an always-valid confidence sequence for the mean
of game-by-game differences, and the rule that ends a comparison with it.

The sequence (`ConfidenceSequence`) is the predictable plug-in empirical-Bernstein
confidence sequence of Waudby-Smith and Ramdas ("Estimating means of bounded random
variables by betting", JRSS B 2023, Theorem 2) for differences bounded in [-1, 1] (a seat
won in one game and not in the other: +1, -1 or 0). With probability at least 1 - alpha,
*every* interval of the sequence, at every game count, covers the true mean difference, so
the comparison may be looked at after every game and stopped whenever its interval says
so, and the stated error rate still holds: a change with no effect ends with "the interval
leaves out zero" in at most alpha of the runs (`tests/play/test_sequential.py` plays this
A/A run on synthetic differences). The intervals reported are the running intersection of
the sequence's intervals, which keeps the same guarantee and only narrows.

A `StopRule` says when to stop: when the interval leaves out zero (``--stop sure``), when it
is narrower than a requested width (``--width W``), or at the budget (``--games``), which
ever comes first. The games are played in looks (`looks`), the same whatever the workers,
so a stopped comparison gives the same answer on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from century.model.ruleset import Ruleset
from century.simulation.config import ProgressFn, SimConfig

ALPHA = 0.05
"""The error rate of every sequential answer: the chance that its interval ever misses."""

SURE = "the interval leaves out zero"
NARROW = "the interval is narrower than {width}"
INSIDE = "the interval lies inside the band"
OUTSIDE = "the interval lies outside the band"
BUDGET = "the budget of games is reached"

FIRST_LOOK = 25
"""Games before the first look, and the smallest step between looks."""


@dataclass(frozen=True)
class StopRule:
    """When a comparison stops: `sure`, as soon as its interval leaves out zero; `width`
    (a difference, e.g. 0.04 for 4 points), as soon as it is narrower than that; and at
    `budget` games in any case. Neither: a fixed-size comparison of `budget` games. With a
    `band` (low, high), as soon as the interval lies wholly inside it or wholly outside it."""

    budget: int
    sure: bool = False
    width: float | None = None
    alpha: float = ALPHA
    band: tuple[float, float] | None = None

    @property
    def sequential(self) -> bool:
        return self.sure or self.width is not None or self.band is not None

    def to_json(self) -> dict[str, object]:
        """The rule as a report records it; a fixed-size comparison names no sequential rule
        (none was applied)."""
        found: dict[str, object] = {
            "budget": self.budget,
            "sure": self.sure,
            "width": self.width,
            "alpha": self.alpha,
        }
        if self.band is not None:
            found["band"] = list(self.band)
        if self.sequential:
            found["rule"] = "predictable plug-in empirical-Bernstein confidence sequence"
        return found


def looks(budget: int) -> list[int]:
    """The game counts a sequential comparison looks at: every 25 games up to 200, then
    steps of about a quarter of the games so far (a multiple of 25), ending at `budget`."""
    found, n = [], 0
    while n < budget:
        n = min(budget, n + max(FIRST_LOOK, (n // 4) // FIRST_LOOK * FIRST_LOOK))
        found.append(n)
    return found


class ConfidenceSequence:
    """The always-valid (1 - alpha) intervals of the mean of differences in [-1, 1], fed one
    difference at a time (`add`); `interval` is the running intersection so far."""

    def __init__(self, alpha: float = ALPHA, truncation: float = 0.5) -> None:
        self.alpha = alpha
        self.log_term = math.log(2 / alpha)
        self.truncation = truncation
        self.n = 0
        self.total = 0.0  # of the differences, for the plain mean
        self.sum_x = 0.0  # of x = (d + 1) / 2 in [0, 1]
        self.sum_sq = 0.25  # the plug-in variance's numerator, from its prior 1/4
        self.mean_x = 0.5  # the plug-in mean of x before the next difference
        self.weighted = 0.0  # sum of lambda * x
        self.weights = 0.0  # sum of lambda
        self.penalty = 0.0  # sum of v * psi(lambda)
        self.low, self.high = -1.0, 1.0

    def add(self, difference: float) -> None:
        """One more difference (b minus a of one game, in [-1, 1])."""
        x = (difference + 1) / 2
        t = self.n + 1
        variance = self.sum_sq / t  # the plug-in variance of the first t - 1 values
        lam = min(math.sqrt(2 * self.log_term / (variance * t * math.log(1 + t))), self.truncation)
        psi = (-math.log(1 - lam) - lam) / 4
        self.penalty += 4 * (x - self.mean_x) ** 2 * psi
        self.weighted += lam * x
        self.weights += lam
        self.n = t
        self.total += difference
        self.sum_x += x
        self.mean_x = (0.5 + self.sum_x) / (t + 1)
        self.sum_sq += (x - self.mean_x) ** 2
        centre = self.weighted / self.weights
        half = (self.log_term + self.penalty) / self.weights
        self.low = max(self.low, 2 * max(0.0, centre - half) - 1)
        self.high = min(self.high, 2 * min(1.0, centre + half) - 1)

    def extend(self, differences: Iterable[float]) -> None:
        for d in differences:
            self.add(d)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The running intersection of the intervals so far (never empty: a crossing, of
        probability at most alpha, is shown as the point between)."""
        if self.low > self.high:
            middle = (self.low + self.high) / 2
            return middle, middle
        return self.low, self.high


def reason(sequences: Sequence[ConfidenceSequence], rule: StopRule, games: int) -> str | None:
    """Why a comparison of `sequences` (its figures) stops after `games` games, or None to
    go on: some figure's interval leaves out zero (`rule.sure`), every figure's interval is
    narrower than `rule.width`, its interval lies wholly inside or outside `rule.band`, or
    the budget is reached."""
    if rule.band is not None:
        low, high = rule.band
        lo, hi = sequences[0].interval
        if low <= lo and hi <= high:
            return INSIDE
        if hi < low or lo > high:
            return OUTSIDE
    if rule.sure and any(lo > 0 or hi < 0 for lo, hi in (s.interval for s in sequences)):
        return SURE
    if rule.width is not None and all(
        hi - lo < rule.width for lo, hi in (s.interval for s in sequences)
    ):
        return NARROW.format(width=f"{100 * rule.width:g} points")
    if games >= rule.budget:
        return BUDGET
    return None


def stop_json(rule: StopRule, games: int, why: str, figures: int = 1) -> dict[str, object]:
    """What a report says of its stop: the games played, why, the budget and the rule
    (`figures` the intervals watched, each at alpha / figures)."""
    return {
        **rule.to_json(),
        "games": games,
        "reason": why,
        "saved": rule.budget - games,
        "figures": figures,
    }


def stop_line(stop: dict[str, object]) -> str:
    """A stop in words, e.g. ``stopped after 150 of 1,000 games: the interval leaves out
    zero (always-valid 95% intervals)``."""
    games, budget = int(str(stop["games"])), int(str(stop["budget"]))
    level = round(100 * (1 - float(str(stop["alpha"]))))
    return (
        f"stopped after {games:,} of {budget:,} games: {stop['reason']} "
        f"(always-valid {level}% intervals)"
    )


# -- playing a comparison in looks ---------------------------------------------------------


class Side:
    """The games of one side of a comparison, played on demand in game order (`play_to`),
    their winners and lengths kept, and all of each game in `total` when asked for."""

    def __init__(
        self,
        ruleset: Ruleset,
        config: SimConfig,
        workers: int = 1,
        progress: ProgressFn | None = None,
        aggregate: bool = False,
        cluster: str | None = None,
        keep: str = "",
    ) -> None:
        from century.simulation.aggregate import Aggregate

        self.ruleset, self.config = ruleset, config
        self.workers, self.progress, self.cluster = workers, progress, cluster
        self.winners: list[int] = []
        self.rounds: list[int] = []
        self.keep = keep
        self.kept: list[Any] = []
        """Each game's result under the key `keep`, when one is named."""
        self.total = Aggregate(ruleset, config) if aggregate else None

    def play_to(self, games: int) -> None:
        """Play the games up to number `games` (those not played yet)."""
        from century.simulation.simulate import iter_results

        start = len(self.winners)
        if games <= start:
            return
        config = replace(self.config, games=games)
        for result in iter_results(
            self.ruleset, config, self.workers, self.cluster, self.progress, first=start
        ):
            self.winners.append(result["winner"])
            self.rounds.append(result["rounds"])
            if self.keep:
                self.kept.append(result.get(self.keep))
            if self.total is not None:
                self.total.add(result)

    def run(self, games: int) -> tuple[list[int], list[int]]:
        """The winners and lengths of the first `games` games."""
        return self.winners[:games], self.rounds[:games]


def watch(
    a: Side,
    b: Side,
    differences: Callable[[int], Sequence[float]],
    figures: int,
    rule: StopRule,
) -> tuple[list[ConfidenceSequence], int, str]:
    """Play `a` and `b` look by look (`looks`; one look of the whole budget for a fixed-size
    rule) until `rule` stops them: the sequences of the `figures` differences game i gives
    (`differences(i)`, each watched at alpha / figures), the games played, and why."""
    sequences = [ConfidenceSequence(rule.alpha / figures) for _ in range(figures)]
    done = 0
    for look in looks(rule.budget) if rule.sequential else [rule.budget]:
        a.play_to(look)
        b.play_to(look)
        for i in range(done, look):
            for sequence, d in zip(sequences, differences(i), strict=True):
                sequence.add(d)
        done = look
        if why := reason(sequences, rule, look):
            return sequences, look, why
    return sequences, done, BUDGET


def watched_row(row: dict[str, Any], sequence: ConfidenceSequence) -> dict[str, Any]:
    """`row` (`century.simulation.compare.row`) with the sequence's always-valid interval."""
    lo, hi = sequence.interval
    return {
        **row,
        "ci95": [round(lo, 4), round(hi, 4)],
        "significant": lo > 0 or hi < 0,
        "always_valid": True,
    }
