"""Rechecking a balance report's headline findings with a stronger bot.

A report's headline is each seat's win rate against a fair share. `century simulate
--recheck expert` plays a smaller sample (`recheck_games`) with that bot in every seat and
says, seat by seat, whether the finding holds: the two 95% intervals overlap and, where the
report found the seat favoured or disfavoured (its interval excludes the fair share), the
recheck's win rate lies on the same side of the fair share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SHARE = 10
"""The recheck plays one game in this many of the report's..."""
FLOOR = 20
"""...and at least this many (never more than the report)."""


def recheck_games(games: int) -> int:
    """The games a recheck of a report of `games` games plays."""
    return min(games, max(FLOOR, games // SHARE))


def seat_findings(report: Mapping[str, Any], again: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """Per seat of `report`, a line comparing its win rate with the recheck's (`again`),
    and whether the finding holds (see the module doc)."""
    fair = 1 / report["config"]["players"]
    found = []
    for seat, other in zip(report["seats"], again["seats"], strict=True):
        lo, hi = seat["ci95"]
        lo2, hi2 = other["ci95"]
        overlap = lo <= hi2 and lo2 <= hi
        side = (seat["win_rate"] > fair) == (other["win_rate"] > fair)
        significant = lo > fair or hi < fair
        holds = overlap and (side or not significant)
        verdict = "holds" if holds else "does not hold"
        found.append(
            (
                f"seat {seat['seat']} {_rate(seat)} here, {_rate(other)} with "
                f"{other['bot']}: {verdict}",
                holds,
            )
        )
    return found


def _rate(seat: Mapping[str, Any]) -> str:
    lo, hi = seat["ci95"]
    return f"{100 * seat['win_rate']:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]"
