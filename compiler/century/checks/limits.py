"""The limits that keep a ruleset playable: caps on numbers, cards and list lengths, and the
engine's move-table size. Each error names the key and the limit (see `century.base.limits`).

The cap checks run before every other check (`run_checks`), so those may assume bounded data.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from century.base import limits
from century.base.diagnostics import Diagnostic
from century.checks.context import Context
from century.engine.size import move_bound
from century.frontend.loader import Node, Path_, format_path
from century.model.ruleset import Ruleset
from century.model.steps import COUNT, STEPS

NUMBER_CAPS: dict[Path_, str] = {
    ("players", "min"): "MAX_PLAYERS",
    ("players", "max"): "MAX_PLAYERS",
    ("caravan_limit",): "MAX_CARAVAN_LIMIT",
    ("setup", "merchant_row"): "MAX_ROW",
    ("setup", "point_row"): "MAX_ROW",
}
"""The caps of particular keys; a card effect's counts (`STEP_COUNTS`) have
`MAX_UPGRADE_STEPS`, any other number `MAX_NUMBER`."""

STEP_COUNTS = ("steps", "upgrade", "pay_any", "max")
"""The keys of a card effect's counts (raises, cubes, repeats): `MAX_UPGRADE_STEPS` each."""

LIST_CAPS: dict[tuple[str, ...], str] = {
    ("resources",): "MAX_RANKS",
    ("setup", "seats"): "MAX_PLAYERS",
    ("languages",): "MAX_LANGUAGES",
}


def _show(number: int) -> str:
    text = str(number)
    return text if len(text) <= 12 else f"a number of {len(text)} digits"


def _numbers(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, int]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, (*path, i))
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path, value


def numbers(ctx: Context) -> Iterator[Diagnostic]:
    """Every number of the game within its cap."""
    for path, value in _numbers(ctx.data):
        name = NUMBER_CAPS.get(path)
        if name is None:
            counts = path[-1] in STEP_COUNTS or STEPS.get(str(path[-1])) == COUNT
            name = "MAX_UPGRADE_STEPS" if counts else "MAX_NUMBER"
        cap = getattr(limits, name)
        if value > cap:
            yield ctx.diag(
                path,
                f"{format_path(path)} is {_show(value)}, over the limit of {cap} ({name})",
                "the limits keep every game playable in reasonable time and memory",
            )


def list_lengths(ctx: Context) -> Iterator[Diagnostic]:
    """The ladder, the starting caravans and the languages within their caps."""
    for path, name in LIST_CAPS.items():
        items = ctx.data[path[0]] if len(path) == 1 else ctx.data[path[0]][path[1]]
        cap = getattr(limits, name)
        if len(items) > cap:
            yield ctx.diag(
                (*path, cap),
                f"{format_path(path)} has {len(items)} entries, over the limit of {cap} ({name})",
            )


def card_counts(ctx: Context) -> Iterator[Diagnostic]:
    """Cards per deck, per starting hand and per game, copies and added cards included; the
    error stands at the card that passes the limit, in whichever file added it."""
    players = ctx.data["players"]["max"]
    for deck, name in (
        ("merchant", "MAX_DECK_CARDS"),
        ("point", "MAX_DECK_CARDS"),
        ("starting", "MAX_HAND_CARDS"),
    ):
        yield from _over(ctx, [(deck, 1)], name, f"the {deck} deck")
    game = [("merchant", 1), ("point", 1), ("starting", min(players, limits.MAX_PLAYERS))]
    yield from _over(ctx, game, "MAX_GAME_CARDS", "the game (a starting hand per seat)")


def _over(ctx: Context, decks: list[tuple[str, int]], name: str, what: str) -> Iterator[Diagnostic]:
    cap = getattr(limits, name)
    total, first = 0, None
    for deck, times in decks:
        for i, card in enumerate(ctx.data["decks"][deck]["cards"]):
            total += card.get("copies", 1) * times
            if total > cap and first is None:
                first = ("decks", deck, "cards", i)
    if first is not None:
        yield ctx.diag(
            first,
            f"{what} holds {_show(total)} cards, over the limit of {cap} ({name}); "
            "this card passes it",
            "count `copies` and the cards variants add",
        )


def move_tables(ruleset: Ruleset, tree: Node) -> Iterator[Diagnostic]:
    """The engine's move lists stay within `MAX_MOVES` per decision (`century.engine.size`)."""
    bound = move_bound(ruleset)
    if bound.per_decision <= limits.MAX_MOVES:
        return
    terms: list[tuple[int, Path_, str]] = [
        (
            bound.acquires,
            ("setup", "merchant_row"),
            f"merchant_row {ruleset.merchant_row} with caravan_limit {ruleset.caravan_limit} "
            f"and {len(ruleset.resources)} resources allows {bound.acquires:,} acquire moves",
        ),
        (
            bound.plays,
            ("caravan_limit",),
            f"the merchant cards' trades and upgrade steps (caravan_limit "
            f"{ruleset.caravan_limit}, {len(ruleset.resources)} resources) allow "
            f"{bound.plays:,} play moves",
        ),
        (
            bound.discards,
            ("caravan_limit",),
            f"caravan_limit {ruleset.caravan_limit} with {len(ruleset.resources)} resources "
            f"allows {bound.discards:,} discard moves",
        ),
    ]
    _, path, cause = max(terms, key=lambda term: term[0])
    yield Diagnostic.at(
        tree.locate(path),
        "C505",
        f"one decision can list up to {bound.per_decision:,} moves, over the limit of "
        f"{limits.MAX_MOVES:,} (MAX_MOVES): {cause}",
        path=format_path(path),
        hint="a shorter merchant row, a smaller caravan or fewer resources or upgrade steps "
        "keep the engine fast",
    )
