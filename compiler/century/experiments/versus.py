"""Version A against version B of a card: which is worth more to the seat that owns it.

Game i is played twice on one deal with the same bot seeds: with seat ``i % players``
holding one more copy of card A from the start, and with the same seat holding card B
instead (`SimConfig.owned`). The owning seat's paired change of win rate, B minus A, is the
difference between the two versions, measured on the same deals, so a difference of a few
points is found with hundreds of deals where two separate owner effects would need
thousands. Cards written as data are added to a variant's deck and taken out of every
deal, on both sides (`SimConfig.unseen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from century.experiments.owner import OWN_VERSION, Plan, owner_rows
from century.model.ruleset import Ruleset
from century.reports.verdicts import versus_verdict
from century.simulation.config import ProgressFn
from century.simulation.sequential import Side, stop_json, watch, watched_row


def versus_effect(
    host: Ruleset,
    cards: tuple[str, str],
    plan: Plan,
    workers: int = 1,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Cards `cards` (A, B) of `host` owned from the start by the same seat of the same
    deals, at every level of `plan`: per level the owning seat's win rate with A and with B,
    the paired difference B minus A and the change of game length, with 95% intervals
    (always-valid with a sequential plan, each level stopping on its own)."""
    first, second = cards
    players, rule = plan.players, plan.rule
    levels: list[dict[str, Any]] = []
    for level in plan.levels:
        a = plan.side(host, level, first, workers, progress)
        b = plan.side(host, level, second, workers, progress)

        def change(i: int, a: Side = a, b: Side = b) -> tuple[int]:
            seat = i % players
            return ((b.winners[i] == seat) - (a.winners[i] == seat),)

        sequences, games, why = watch(a, b, change, 1, rule)
        rows = owner_rows(a.run(games), b.run(games), players)
        rows["owner"]["figure"] = "win rate of the owning seat, B minus A"
        if rule.sequential:
            rows["owner"] = watched_row(rows["owner"], sequences[0])
        identical = a.run(games) == b.run(games)
        entry = {"bots": level, **rows, "identical": identical}
        entry["verdict"] = versus_verdict(entry)
        levels.append({**entry, "stop": stop_json(rule, games, why)})
    return {"cards": {"a": first, "b": second}, "levels": levels}


def versus_report(
    game: Ruleset, written: tuple[str, str], plan: Plan, answer: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON-ready report of a versus `answer`, with the cards as the user wrote them."""
    return {
        "own_version": OWN_VERSION,
        "game": game.id,
        "written": {"a": written[0], "b": written[1]},
        "plan": plan.to_json(),
        **answer,
    }
