"""A card bought from the row: what it is worth to the seat that takes it when it lies in
the merchant row from the start.

Game i is played twice on one deal with the same bot seeds: without the card (taken out of
the deal, the row refilled from the deck), and with it placed in the merchant row at a
slot (`SimConfig.row`; the row's last card goes back on top of the deck). The report says
who takes it and on which of their turns, and the paired change of win rate of the seat
that takes it: on each deal where it is taken, that seat's result with the card in the row
minus its result on the same deal without it. Owning a card from the start (`owner`) says
what a card can do; this says what it does when it must be bought.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from century.experiments.owner import OWN_VERSION, Plan
from century.model.ruleset import Ruleset
from century.simulation.compare import paired_interval, row
from century.simulation.config import ProgressFn
from century.simulation.sequential import Side


def row_effect(
    host: Ruleset,
    card: str,
    slot: int,
    plan: Plan,
    workers: int = 1,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Card `card` of `host` placed in the merchant row at `slot` (0: the first) at the
    start, against the same deals without it, at every level of `plan` (`plan.games`
    deals each; `plan.unseen` must take the card out of every deal)."""
    players = plan.players
    levels = []
    for level in plan.levels:
        without = plan.side(host, level, "", workers, progress)
        placed = plan.side(host, level, "", workers, progress, row=card, slot=slot)
        without.play_to(plan.games)
        placed.play_to(plan.games)
        levels.append({"bots": level, **_takers(without, placed, players)})
    return {"card": card, "slot": slot + 1, "levels": levels}


def _takers(without: Side, placed: Side, players: int) -> dict[str, Any]:
    """Who took the card, when, and the taker's paired change of win rate."""
    games = len(placed.winners)
    changes, turns, seats = [], [], [0] * players
    for i, taken in enumerate(placed.kept):
        if taken is None:
            continue
        seat = taken["seat"]
        seats[seat] += 1
        turns.append(taken["turn"])
        changes.append((placed.winners[i] == seat) - (without.winners[i] == seat))
    mean, half = paired_interval(changes)
    before = sum(without.winners[i] == t["seat"] for i, t in enumerate(placed.kept) if t)
    rate = before / len(changes) if changes else 0.0
    taker = row("win rate of the seat that takes it", rate, rate + mean, mean, half)
    if not changes:
        taker = {**taker, "ci95": [0.0, 0.0], "significant": False}
    turns.sort()
    return {
        "games": games,
        "taken": len(changes),
        "taken_by_seat": seats,
        "turn": {
            "mean": round(sum(turns) / len(turns), 2) if turns else None,
            "median": turns[len(turns) // 2] if turns else None,
            "first": turns[0] if turns else None,
            "last": turns[-1] if turns else None,
        },
        "taker": taker,
    }


def row_report(
    game: Ruleset, written: str, plan: Plan, answer: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON-ready report of a row `answer`, with the card as the user wrote it."""
    return {
        "own_version": OWN_VERSION,
        "game": game.id,
        "written": written,
        "plan": plan.to_json(),
        **answer,
    }
