"""The rulesets the tests share: the bundled games (compiled once), the one base ruleset
(Spice Road), copies with some fields changed, and the five-rank variant."""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from century.base.diagnostics import has_errors, to_text
from century.model.ruleset import Ruleset
from century.pipeline import Compiled, compile_paths

from helpers.paths import REFERENCE


class BundledDataError(Exception):
    """The bundled rules do not compile: the message is their diagnostics."""


def checked(found: Compiled) -> Compiled:
    """`found`, or `BundledDataError` with its diagnostics if it has errors (so that a test,
    or the collection of a module that builds a table of rulesets, says what is wrong in the
    data rather than failing on a game that is missing)."""
    if has_errors(found.diagnostics):
        raise BundledDataError("the rules do not compile:\n" + to_text(found.diagnostics))
    return found


@functools.cache
def compiled() -> Compiled:
    """The bundled rules, compiled once: rulesets and resolved trees (treat as read-only)."""
    return checked(compile_paths())


def bundled_rulesets() -> dict[str, Ruleset]:
    """Every bundled game and variant by id (a new dict; the rulesets are frozen)."""
    return dict(compiled().rulesets)


def spice_road() -> Ruleset:
    """The base ruleset of the tests: the bundled Spice Road."""
    return compiled().rulesets["spice-road"]


def changed(ruleset: Ruleset, **changes: Any) -> Ruleset:
    """A copy with some fields replaced and its own id."""
    game_id = changes.pop("id", ruleset.id + "-test")
    return dataclasses.replace(ruleset, id=game_id, **changes)


def edited(ruleset: Ruleset, edit: Callable[[dict[str, Any]], object]) -> Ruleset:
    """A copy changed through its JSON form: `edit` mutates the dict."""
    data = copy.deepcopy(ruleset.to_json())
    edit(data)
    return Ruleset.from_json(data)


def five_ranks(ruleset: Ruleset | None = None) -> Ruleset:
    """Five resources, a caravan of 12 and three coin piles, built from `ruleset` (default:
    Spice Road).

    A fifth rank (code V) is added above the top one, every vector gets a zero for it, and
    a few cards use it: a trade ``bb-v``, a gain ``+v`` and point cards ``vv`` and ``yrgbv``.
    """
    data = copy.deepcopy((ruleset or spice_road()).to_json())
    widen = lambda vector: [*vector, 0]  # noqa: E731
    data["id"] = "five-ranks"
    data["resources"].append(
        {"id": "violet", "code": "V", "colour": "#7B1FA2",
         "name": {"en": "violet", "de": "Violett", "fr": "violet"}}
    )  # fmt: skip
    data["caravan_limit"] = 12
    data["seats"] = [widen(s) for s in data["seats"]]
    for card in (*data["starting_cards"], *data["merchant_deck"]):
        card["effect"] = widen_steps(card["effect"])
    data["merchant_deck"] += [
        {"id": "bb-v", "copies": 2, "name": {},
         "effect": [{"repeat": [{"pay": [0, 0, 0, 2, 0]}, {"gain": [0, 0, 0, 0, 1]}]}]},
        {"id": "+v", "copies": 1, "name": {}, "effect": [{"gain": [0, 0, 0, 0, 1]}]},
    ]  # fmt: skip
    for card in data["point_deck"]:
        card["cost"] = widen(card["cost"])
    data["point_deck"] += [
        {"id": "vv", "cost": [0, 0, 0, 0, 2], "points": 14, "copies": 2},
        {"id": "yrgbv", "cost": [1, 1, 1, 1, 1], "points": 19, "copies": 1},
    ]
    data["resource_points"] = [*data["resource_points"], 2]
    data["value_weights"] = [*data["value_weights"], 5]
    data["coins"].append(
        {"id": "copper", "value": 2, "per_player": 1, "position": 3, "colour": "#B87333",
         "name": {"en": "copper coin", "de": "Kupfermünze", "fr": "copper coin"}}
    )  # fmt: skip
    data["forms"]["en"]["copper coin"] = {"one": "copper coin", "other": "copper coins"}
    data["forms"]["de"]["Kupfermünze"] = {"one": "Kupfermünze", "other": "Kupfermünzen"}
    return Ruleset.from_json(data)


def widen_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Steps in JSON form with a zero added to every cube vector (a rank above the top)."""
    found: list[dict[str, Any]] = []
    for step in steps:
        step = dict(step)
        for key in ("gain", "pay"):
            if key in step:
                step[key] = [*step[key], 0]
        if "repeat" in step:
            step["repeat"] = widen_steps(step["repeat"])
        if "choose" in step:
            step["choose"] = [widen_steps(option) for option in step["choose"]]
        found.append(step)
    return found


def with_test_variants() -> dict[str, Ruleset]:
    """Every bundled game and variant plus the built-in test variants."""
    games = bundled_rulesets()
    base = games["spice-road"]
    extra = [
        five_ranks(base),
        changed(
            base,
            id="stay-no-finish",
            coin_runout="stay",
            finish_round=False,
            tie_break="earliest_turn",
        ),
        changed(five_ranks(base), id="five-ranks-shared", tie_break="shared", coin_runout="stay"),
    ]
    games.update({r.id: r for r in extra})
    games[COMPOSED_ID] = composed()
    return games


COMPOSED_ID = "spice-road-composed"
COMPOSED = (REFERENCE / "composed.yaml").read_text(encoding="utf-8")
"""A variant of Spice Road (a rules file, for a `rules/` folder) whose merchant deck is about
half composed cards: a dozen new cards as data alone, two copies each, in place of 24 cards."""


@functools.cache
def composed() -> Ruleset:
    """The `COMPOSED` variant, compiled (from a temporary rules folder)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="century-composed-") as folder:
        rules = Path(folder) / "rules"
        rules.mkdir()
        (rules / "composed.yaml").write_text(COMPOSED, encoding="utf-8")
        found = checked(compile_paths([rules]))
        return found.rulesets[COMPOSED_ID]


USELESS = """\
id: spice-road-useless
extends: spice-road
cards:
  merchant:
    add:
      - {kind: trade, pay: BBBB, get: Y}
"""
"""A variant of Spice Road (a rules file, for a `rules/` folder) with a card that trades four
of the best cubes for one of the worst."""
