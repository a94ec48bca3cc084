"""Owner effects in a designer's words: where a card's answer stands among the game's own
cards at the same skill level (the band of the reference table), per level and across
levels.

A card above every card of the game is "too strong", below every card "weak", and anywhere
between "within the band" with its rank. The words add whether the card's interval says so
on its own (it lies wholly beyond the strongest or the weakest card's value) or only its
point estimate does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

TOO_STRONG, WITHIN, WEAK = "too strong", "within the band", "weak"


def points(value: float, decimals: int = 0) -> str:
    """A win-rate change in percentage points, e.g. ``+48 points``."""
    return f"{100 * value:+.{decimals}f} points"


def _short(value: float) -> str:
    return f"{100 * value:+.0f}"


def band(entry: Mapping[str, Any], placed: Mapping[str, Any], game: str) -> dict[str, Any]:
    """The verdict of one level: an owner effect `entry` (its ``difference`` and ``ci95``)
    placed among the game's cards (`century.experiments.owner.place`), with its line."""
    effect, (low, high) = entry["difference"], entry["ci95"]
    best, worst = placed["strongest"], placed["weakest"] or placed["strongest"]
    rank, of = placed["rank"], placed["of"]
    if rank == 1:
        sure = low > best["difference"]
        detail = (
            f"{_short(effect)} against the strongest, {_short(best['difference'])} {best['card']}"
        )
        tail = "its interval lies wholly above it" if sure else "its interval reaches below it"
        line = f"{TOO_STRONG}: above every card of {game} ({detail}; {tail})"
        return {
            "verdict": TOO_STRONG,
            "sure": sure,
            "rank": rank,
            "of": of,
            "detail": detail,
            "line": line,
        }
    if rank == of:
        sure = high < worst["difference"]
        detail = (
            f"{_short(effect)} against the weakest, {_short(worst['difference'])} {worst['card']}"
        )
        tail = "its interval lies wholly below it" if sure else "its interval reaches above it"
        line = f"{WEAK}: below every card of {game} ({detail}; {tail})"
        return {
            "verdict": WEAK,
            "sure": sure,
            "rank": rank,
            "of": of,
            "detail": detail,
            "line": line,
        }
    detail = (
        f"rank {rank} of {of} in {game}; {_short(effect)} where the game's cards run from "
        f"{_short(worst['difference'])} {worst['card']} to {_short(best['difference'])} "
        f"{best['card']}"
    )
    line = f"{WITHIN} ({detail})"
    return {
        "verdict": WITHIN,
        "sure": False,
        "rank": rank,
        "of": of,
        "detail": detail,
        "line": line,
    }


def _levels_word(count: int) -> str:
    return "both levels" if count == 2 else f"all {count} levels"


def across(bands: Mapping[str, Mapping[str, Any]], game: str) -> str:
    """The verdict across levels (by level name, two or more), e.g. ``too strong: above
    every card of The Game at both levels (greedy +48 against the strongest, +42; ...)``."""
    verdicts = {b["verdict"] for b in bands.values()}
    where = _levels_word(len(bands))
    if verdicts == {WITHIN}:
        ranks = ", ".join(f"{lv} rank {b['rank']} of {b['of']}" for lv, b in bands.items())
        return f"{WITHIN} at {where} ({ranks})"
    if len(verdicts) == 1:
        (verdict,) = verdicts
        side = "above" if verdict == TOO_STRONG else "below"
        detail = "; ".join(f"{lv} {b['detail']}" for lv, b in bands.items())
        return f"{verdict}: {side} every card of {game} at {where} ({detail})"
    parts = ", ".join(
        f"{b['verdict']} at {lv}"
        + (f" (rank {b['rank']} of {b['of']})" if b["verdict"] == WITHIN else "")
        for lv, b in bands.items()
    )
    return f"depends on the level: {parts}"


def sign_verdict(effects: Sequence[Mapping[str, Any]], levels: Sequence[str]) -> str:
    """Whether an owner effect helps or hurts, in words: across levels when more than one
    was measured, else at the one level."""
    signs = {(e["ci95"][0] > 0) - (e["ci95"][1] < 0) for e in effects}
    if len(effects) == 1:
        (sign,) = signs
        word = {1: "owning the card helps", -1: "owning the card hurts"}
        return f"at {levels[0]}: " + word.get(sign, "no effect shown (the interval covers zero)")
    if signs == {1}:
        return "holds at every level: owning the card helps"
    if signs == {-1}:
        return "holds at every level: owning the card hurts"
    if signs == {0}:
        return "no effect shown at any level (every interval covers zero)"
    return "depends on the level: the levels disagree"


def versus_verdict(entry: Mapping[str, Any]) -> str:
    """Which version of a card is worth more to its owner at one level, in words."""
    if entry.get("identical"):
        return "no difference: no deal's winner or length changed between A and B"
    low, high = entry["owner"]["ci95"]
    size = points(entry["owner"]["difference"], 1)
    if low > 0:
        return f"B is stronger than A ({size} for its owner; the interval leaves out zero)"
    if high < 0:
        return f"A is stronger than B ({size} for B's owner; the interval leaves out zero)"
    return "no difference shown (the interval covers zero)"


def _interval(entry: Mapping[str, Any], scale: float = 100, unit: str = " points") -> str:
    lo, hi = entry["ci95"]
    mark = " *" if entry["significant"] else ""
    return f"{scale * entry['difference']:+.1f}{unit} [{scale * lo:+.1f}, {scale * hi:+.1f}]{mark}"


def versus_lines(report: Mapping[str, Any], stop_line: Any = None) -> list[str]:
    """A versus answer as text: per level the owning seat's win rate with A and with B, the
    paired difference and the change of game length, and which version is stronger."""
    plan, written, cards = report["plan"], report["written"], report["cards"]
    watched = "stop" in plan
    lines = [
        f"{report['game']}: one seat owning A = {written['a']} ({cards['a']}) or "
        f"B = {written['b']} ({cards['b']}) from the start, on the same deals "
        f"({'at most ' if watched else ''}{plan['games']} paired deals per level, the owning "
        f"seat alternating; B minus A, {'always-valid ' if watched else ''}95% intervals; "
        "* significant):"
    ]
    for entry in report["levels"]:
        owner, length = entry["owner"], entry["length"]
        lines.append(
            f"  {entry['bots']}: owning seat {_interval(owner)} "
            f"({100 * owner['a']:.1f}% with A → {100 * owner['b']:.1f}% with B); "
            f"game length {_interval(length, 1, ' rounds')}"
        )
        if watched and stop_line is not None:
            lines.append(f"    {stop_line(entry['stop'])}")
        lines.append(f"    verdict: {entry['verdict']}")
    return lines


def row_lines(report: Mapping[str, Any]) -> list[str]:
    """A row answer as text: per level how often the card is taken, by which seat and on
    which turn, and the paired change of the taker's win rate."""
    plan = report["plan"]
    lines = [
        f"{report['game']}: {report['written']} ({report['card']}) in the merchant row at slot "
        f"{report['slot']} from the start, against the same deals without it "
        f"({plan['games']} paired deals per level; the seat that takes it, with the card in "
        "the row minus without, on the deals where it is taken; 95% intervals; * significant):"
    ]
    for entry in report["levels"]:
        taker, turn = entry["taker"], entry["turn"]
        seats = ", ".join(f"seat {k + 1} {n}" for k, n in enumerate(entry["taken_by_seat"]))
        lines.append(
            f"  {entry['bots']}: taken in {entry['taken']} of {entry['games']} deals ({seats})"
            + (
                f", on the taker's turn {turn['median']} (median; {turn['first']} to "
                f"{turn['last']})"
                if entry["taken"]
                else ""
            )
        )
        if entry["taken"]:
            lines.append(
                f"    the seat that takes it: {_interval(taker)} "
                f"({100 * taker['a']:.1f}% → {100 * taker['b']:.1f}% on those deals)"
            )
    return lines
