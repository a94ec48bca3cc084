"""Differences between two simulations with their 95% intervals: paired where the games share
their seeds (`paired`), independent otherwise (`unpaired`), and the games a seat-advantage
answer of a given margin needs (`games_needed`).

A difference is significant when its interval leaves out zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from century.simulation.stats import Z95, holm

MARGINS = (0.01, 0.02)
"""The seat-advantage margins every report says the games of."""


def _r(x: float) -> float:
    return round(x, 4)


def row(figure: str, a: float, b: float, diff: float, half: float) -> dict[str, Any]:
    """One difference (b minus a) with its 95% interval, marked significant when the
    interval leaves out zero."""
    lo, hi = diff - half, diff + half
    return {
        "figure": figure,
        "a": _r(a),
        "b": _r(b),
        "difference": _r(diff),
        "ci95": [_r(lo), _r(hi)],
        "significant": lo > 0 or hi < 0,
    }


def paired_interval(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and the half-width of its 95% interval (normal
    approximation, the sample standard deviation)."""
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def paired(
    winners: tuple[Sequence[int], Sequence[int]],
    rounds: tuple[Sequence[int], Sequence[int]],
    players: int,
) -> list[dict[str, Any]]:
    """The differences of game-by-game paired results (the same seeds on both sides): each
    seat's win rate and the game length, side b minus side a."""
    (wa, wb), (ra, rb) = winners, rounds
    n = len(wa)
    rows = []
    for seat in range(players):
        diffs = [(y == seat) - (x == seat) for x, y in zip(wa, wb, strict=True)]
        mean, half = paired_interval(diffs)
        rate_a = sum(x == seat for x in wa) / n if n else 0.0
        rows.append(row(f"win rate, seat {seat + 1}", rate_a, rate_a + mean, mean, half))
    mean, half = paired_interval([y - x for x, y in zip(ra, rb, strict=True)])
    base = sum(ra) / n if n else 0.0
    rows.append(row("game length (rounds, mean)", base, base + mean, mean, half))
    return rows


def unpaired(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The differences of two balance reports played on their own games (side b minus
    side a): seat win rates, game length, winning score and margin."""
    na, nb = a["config"]["games"], b["config"]["games"]
    rows = []
    for sa, sb in zip(a["seats"], b["seats"], strict=False):
        pa, pb = sa["win_rate"], sb["win_rate"]
        half = Z95 * math.sqrt(pa * (1 - pa) / max(na, 1) + pb * (1 - pb) / max(nb, 1))
        rows.append(row(f"win rate, seat {sa['seat']}", pa, pb, pb - pa, half))
    for key, figure in (
        ("rounds", "game length (rounds, mean)"),
        ("winner_score", "winning score (mean)"),
        ("margin", "winning margin (mean)"),
    ):
        da, db = a[key], b[key]
        half = Z95 * math.sqrt(da["sd"] ** 2 / max(da["n"], 1) + db["sd"] ** 2 / max(db["n"], 1))
        rows.append(row(figure, da["mean"], db["mean"], db["mean"] - da["mean"], half))
    return rows


def games_needed(rate: float, margin: float) -> int:
    """The games for a 95% interval of ± `margin` on a win rate near `rate`."""
    return math.ceil(Z95 * Z95 * rate * (1 - rate) / (margin * margin))


def sample_sizes(report: Mapping[str, Any]) -> dict[str, int]:
    """The games a ±1% and ±2% seat-advantage answer needs at the report's seat win rates
    (the seat nearest an even chance sets it), keyed by the margin in percent."""
    rates = [s["win_rate"] for s in report["seats"]] or [0.5]
    worst = max(rates, key=lambda p: p * (1 - p))
    return {f"{round(100 * m)}%": games_needed(worst, m) for m in MARGINS}


def needed_line(report: Mapping[str, Any]) -> str:
    """The games a ±1% and ±2% answer needs, e.g. ``±1% needs 9,604 games, ±2% 2,401``."""
    one, two = sample_sizes(report).values()
    return f"a ±1% seat advantage needs {one:,} games, ±2% {two:,}"


def difference_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The differences as text lines, the significant ones marked with ``*``: win rates in
    percentage points with one decimal (their intervals are points wide), the rest with two."""
    lines = []
    for r in rows:
        percent = "win rate" in r["figure"]
        scale, unit, places = (100, " points", 1) if percent else (1, "", 2)
        lo, hi = (scale * v for v in r["ci95"])
        mark = " *" if r["significant"] else ""
        lines.append(
            f"{r['figure']}: {scale * r['difference']:+.{places}f}{unit} "
            f"[{lo:+.{places}f}, {hi:+.{places}f}]{mark}"
        )
    return lines


def buyers_against_passers(card: Mapping[str, Any], games_of: str) -> dict[str, Any] | None:
    """A merchant card's takers' win rate against the win rate of the players who had it
    on offer and did not take it (a report's card row; `games_of` names the side), with the
    row's interval that takes each game as one unit (`stats.clustered_difference`); None
    when either group is empty. Its significance is set by `holm_marked`."""
    n1, n0 = card.get("takers", 0), card.get("passers", 0)
    found = card.get("takers_vs_passers")
    if not n1 or not n0 or not found:
        return None
    lo, hi = found["ci95"]
    return {
        "figure": f"win rate of {card['id']}'s takers ({games_of})",
        "a": card["passers_win_rate"],
        "b": card["takers_win_rate"],
        "difference": found["difference"],
        "ci95": [lo, hi],
        "p": found["p"],
        "significant": lo > 0 or hi < 0,
        "card": card["id"],
        "takers": n1,
        "passers": n0,
    }


def holm_marked(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`effects` (with their p-values) marked significant after Holm's correction for all
    of them tested at once, each with the count of tests."""
    for effect, significant in zip(effects, holm([e["p"] for e in effects]), strict=True):
        effect["significant"] = significant
        effect["tests"] = len(effects)
    return effects
