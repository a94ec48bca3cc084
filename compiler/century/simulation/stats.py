"""Intervals of measured proportions, shared by the balance report and the bot ladder, and
the takers' line of a card: a difference of win rates between opponents of the same games
(`clustered_difference`), with Holm's correction for many cards tested at once."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two independent proportions, x1/n1 minus x2/n2, with Newcombe's
    hybrid score interval (his method 10, built on the two Wilson intervals; 95% by
    default): (difference, low, high)."""
    p1, p2 = (x1 / n1 if n1 else 0.0), (x2 / n2 if n2 else 0.0)
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, low), min(1.0, high)


MOMENTS = (
    *("t", "tw", "p", "pw", "tt", "t_tw", "tw_tw"),
    *("pp", "p_pw", "pw_pw", "t_p", "t_pw", "tw_p", "tw_pw"),
)
"""The per-game sums `clustered_difference` needs, summed over games: takers (t), takers who
won (tw), players who left the card (p), those who won (pw), and their products."""


def game_moments(t: int, tw: int, p: int, pw: int) -> tuple[int, ...]:
    """One game's contribution to each of `MOMENTS`."""
    return (
        *(t, tw, p, pw, t * t, t * tw, tw * tw),
        *(p * p, p * pw, pw * pw, t * p, t * pw, tw * p, tw * pw),
    )


def clustered_difference(
    sums: Mapping[str, float], games: int, z: float = Z95
) -> tuple[float, float, float, float]:
    """The takers' win rate minus the leavers' (tw/t - pw/p over all games) with a 95%
    interval that takes each game as one unit: the players of one game are opponents (a
    taker's win is a leaver's loss), so they are not independent samples. The spread of
    the difference is the linearised (delta-method) cluster variance over games, the
    large-sample value of a bootstrap over games, with the small-sample factor G/(G-1);
    the interval is Newcombe's (`newcombe`, good with few players) widened or narrowed by
    the ratio of that spread to the spread of two independent samples (the design effect).
    Returns (difference, low, high, two-sided p-value of no difference)."""
    t, tw, p, pw = sums["t"], sums["tw"], sums["p"], sums["pw"]
    if not t or not p or games < 2:
        return 0.0, -1.0, 1.0, 1.0
    r1, r0 = tw / t, pw / p
    aa = sums["tw_tw"] - 2 * r1 * sums["t_tw"] + r1 * r1 * sums["tt"]
    bb = sums["pw_pw"] - 2 * r0 * sums["p_pw"] + r0 * r0 * sums["pp"]
    ab = sums["tw_pw"] - r0 * sums["tw_p"] - r1 * sums["t_pw"] + r1 * r0 * sums["t_p"]
    var = (aa / (t * t) + bb / (p * p) - 2 * ab / (t * p)) * games / (games - 1)
    se = math.sqrt(max(var, 0.0))
    independent = math.sqrt(r1 * (1 - r1) / t + r0 * (1 - r0) / p)
    d, low, high = newcombe(round(tw), round(t), round(pw), round(p), z)
    scale = se / independent if independent else 1.0
    low, high = max(-1.0, d - (d - low) * scale), min(1.0, d + (high - d) * scale)
    pvalue = math.erfc(abs(d) / se / math.sqrt(2)) if se else float(d == 0)
    return d, low, high, pvalue


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of `pvalues` are significant at family-wise error
    `alpha` when all of them are tested at once."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    found = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        found[i] = True
    return found
