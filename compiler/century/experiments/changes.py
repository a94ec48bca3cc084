"""Card experiments: a game and the same game with cards removed, added or replaced, played
on the same seeds (game i of both sides is dealt from one seed), and the paired effect of the
change with 95% intervals.

The changed game is a variant of the base written in the rules' own syntax
(`variant_text`), so it is loaded, checked and compiled like any other, and any game or
variant can be changed without code.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from century.model.cards import is_merchant
from century.model.notation import flow_steps
from century.model.ruleset import MerchantCard, PointCard, Ruleset
from century.model.text import shown
from century.reports.report import REPORT_LANGUAGE, build_report
from century.simulation.compare import (
    MARGINS,
    buyers_against_passers,
    holm_marked,
    paired,
    paired_interval,
)
from century.simulation.config import ProgressFn, SimConfig
from century.simulation.sequential import Side, StopRule, stop_json, stop_line, watch, watched_row
from century.simulation.simulate import check_config

EXPERIMENT_VERSION = 1


class ExperimentError(ValueError):
    """A card change that cannot be made (an unknown id, a card that is not a mapping)."""


@dataclass(frozen=True)
class CardChanges:
    """What an experiment changes: card ids removed, cards added, ids replaced by cards
    (cards as mappings in the decks' syntax, e.g. ``{kind: gain, get: YY}``), and rule
    values set (`Setting`, from ``--set PATH=VALUE``)."""

    remove: tuple[str, ...] = ()
    add: tuple[Mapping[str, Any], ...] = ()
    replace: tuple[tuple[str, Mapping[str, Any]], ...] = field(default=())
    settings: tuple[Setting, ...] = ()

    def describe(self) -> str:
        """The changes in words, e.g. ``removed yy-rr; added {kind: gain, get: YY}`` (steps
        as ``{effect: [gain: YY, upgrade: 1]}``)."""

        def card(c: Mapping[str, Any]) -> str:
            return "{" + ", ".join(f"{k}: {flow(k, v)}" for k, v in c.items()) + "}"

        def flow(key: str, value: Any) -> str:
            return flow_steps(value) if key == "effect" and isinstance(value, list) else str(value)

        parts = [f"removed {card_id}" for card_id in self.remove]
        parts += [f"added {card(c)}" for c in self.add]
        parts += [f"replaced {card_id} by {card(c)}" for card_id, c in self.replace]
        parts += [f"set {s.written}" for s in self.settings]
        return "; ".join(parts) or "no change"

    def to_json(self) -> dict[str, Any]:
        return {
            "remove": list(self.remove),
            "add": [dict(card) for card in self.add],
            "replace": {card_id: dict(card) for card_id, card in self.replace},
            "set": [s.written for s in self.settings],
        }


SETTABLE = ("setup", "coins", "caravan_limit", "end", "scoring", "balance")
"""The sections of a game whose values `--set` changes (cards have their own options)."""

LISTS: dict[tuple[str, ...], str] = {
    ("setup", "seats"): "seat",
    ("scoring", "resource_points"): "rank",
    ("balance", "value_weights"): "rank",
}
"""The rule values that are lists, with what their items are (``setup.seats.2`` is seat 2's
starting cubes)."""


@dataclass(frozen=True)
class Setting:
    """One ``--set PATH=VALUE``: the keys of the rule value, its new value (YAML), and what
    the user wrote."""

    path: tuple[str, ...]
    value: Any
    written: str
    item: int | None = None
    """For one item of a list rule (`LISTS`): its index (the other items stay)."""


def _list_value(base: Ruleset, path: tuple[str, ...]) -> list[Any]:
    """The base game's value of a list rule (`LISTS`), as the rules write it."""
    if path == ("setup", "seats"):
        return [base.cubes(v) for v in base.seats]
    if path == ("scoring", "resource_points"):
        return list(base.resource_points)
    return list(base.value_weights)


MAX_SET_PARTS = 8
"""The parts of a ``--set`` rule path (``end.point_cards.2``: three)."""


def parse_setting(base: Ruleset, text: str) -> Setting:
    """A ``--set PATH=VALUE`` checked against `base`: PATH is a dotted rule path
    (``caravan_limit``, ``end.point_cards.2``, ``setup.seats.2`` for seat 2 of the list),
    VALUE a YAML value (``8``, ``YYY``, ``[YYY, YYY]``, ``false``)."""
    path_text, sep, value_text = text.partition("=")
    keys = tuple(k.strip() for k in path_text.split("."))
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(keys) > MAX_SET_PARTS:
        raise ExperimentError(
            f"--set {shown!r}: a rule path has at most {MAX_SET_PARTS} parts, not {len(keys):,}"
        )
    if not sep or not all(keys) or not value_text.strip():
        raise ExperimentError(f"--set {shown!r}: write PATH=VALUE, e.g. 'caravan_limit=8'")
    if keys[0] not in SETTABLE:
        close = difflib.get_close_matches(keys[0], SETTABLE, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else f" (one of {', '.join(SETTABLE)})"
        raise ExperimentError(f"--set {shown!r}: {keys[0]!r} is not a rule section{hint}")
    try:
        value = yaml.safe_load(value_text)
    except yaml.YAMLError as err:
        raise ExperimentError(f"--set {shown!r}: {err}".splitlines()[0]) from err
    if keys[:-1] in LISTS and keys[:2] == keys[:-1] and len(keys) == 3:
        items = _list_value(base, keys[:-1])
        what = LISTS[keys[:-1]]
        index = keys[-1]
        if not (index.isascii() and index.isdigit() and len(index) <= 6) or not (
            1 <= int(index) <= len(items)
        ):
            raise ExperimentError(
                f"--set {shown!r}: {keys[-1]!r} is not a {what} of {'.'.join(keys[:-1])} "
                f"(1 to {len(items)})"
            )
        return Setting(keys[:-1], value, text, int(keys[-1]) - 1)
    if keys in LISTS and not isinstance(value, list):
        raise ExperimentError(
            f"--set {shown!r}: {'.'.join(keys)} is a list; set one {LISTS[keys]} with "
            f"{'.'.join(keys)}.N=VALUE or all with [..]"
        )
    return Setting(keys, value, text)


def parse_card(text: str, option: str) -> dict[str, Any]:
    """A card written in the decks' syntax (a YAML mapping) from the command line."""
    try:
        card = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise ExperimentError(f"{option} {text!r} is not a card: {err}".splitlines()[0]) from err
    if not isinstance(card, dict) or not all(isinstance(k, str) for k in card):
        raise ExperimentError(
            f"{option} {text!r} is not a card: write it as in a deck, e.g. '{{kind: ..., ...}}'"
        )
    return card


def _deck_of_id(base: Ruleset, card_id: str, option: str) -> str:
    """The deck of the base game holding the card `card_id`."""
    decks: dict[str, tuple[MerchantCard | PointCard, ...]] = {
        "starting": base.starting_cards,
        "merchant": base.merchant_deck,
        "point": base.point_deck,
    }
    for deck, cards in decks.items():
        if any(card.id == card_id for card in cards):
            return deck
    ids = sorted({card.id for cards in decks.values() for card in cards})
    close = difflib.get_close_matches(card_id, ids, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ExperimentError(f"{option}: no card {card_id!r} in {base.id}{hint}")


def _deck_of_card(card: Mapping[str, Any]) -> str:
    """The deck an added card goes to: merchant cards have a kind or steps, point cards a
    cost."""
    return "merchant" if is_merchant(card) else "point"


def variant_text(base: Ruleset, changes: CardChanges, variant_id: str) -> str:
    """The changed game as a variant of `base` in the rules' YAML (JSON is YAML)."""
    decks: dict[str, dict[str, Any]] = {}
    for card_id in changes.remove:
        deck = _deck_of_id(base, card_id, "--remove")
        decks.setdefault(deck, {}).setdefault("remove", []).append(card_id)
    for card in changes.add:
        decks.setdefault(_deck_of_card(card), {}).setdefault("add", []).append(dict(card))
    for card_id, card in changes.replace:
        deck = _deck_of_id(base, card_id, "--replace")
        decks.setdefault(deck, {}).setdefault("replace", {})[card_id] = dict(card)
    name = shown(base.name, REPORT_LANGUAGE, base.id)
    variant: dict[str, Any] = {
        "id": variant_id,
        "extends": base.id,
        "name": {REPORT_LANGUAGE: f"{name}, changed"},
    }
    if decks:
        variant["cards"] = decks
    for setting in changes.settings:
        node = variant
        for key in setting.path[:-1]:
            node = node.setdefault(key, {})
            if not isinstance(node, dict):
                raise ExperimentError(f"--set {setting.written!r}: {key!r} is set twice")
        key = setting.path[-1]
        if setting.item is None:
            node[key] = setting.value
        else:
            items = node.setdefault(key, _list_value(base, setting.path))
            items[setting.item] = setting.value
    return json.dumps(variant, indent=2, ensure_ascii=False) + "\n"


def run_experiment(
    base: Ruleset,
    changed: Ruleset,
    config: SimConfig,
    changes: CardChanges,
    workers: int = 1,
    progress: ProgressFn | None = None,
    changed_config: SimConfig | None = None,
    rule: StopRule | None = None,
    cluster: str | None = None,
) -> dict[str, Any]:
    """Play `config` on the base game and on the changed one (the same seeds; the changed
    side's bots may differ, `changed_config`) and report the paired effects. With a
    sequential `rule` (`century.simulation.sequential`) the games stop, at most `config.games`,
    as soon as the seats' win-rate changes are settled, and their intervals are always-valid."""
    other = changed_config or config
    if (other.games, other.players, other.seed) != (config.games, config.players, config.seed):
        raise ValueError("both sides of an experiment play the same games and seeds")
    for ruleset, side_config in ((base, config), (changed, other)):
        check_config(ruleset, side_config)
    rule = rule or StopRule(config.games)
    sides = (
        Side(base, config, workers, progress, aggregate=True, cluster=cluster),
        Side(changed, other, workers, progress, aggregate=True, cluster=cluster),
    )
    players = config.players
    watched = 1 if players == 2 else players  # two seats' changes are one: each is minus the other

    def seat_changes(i: int) -> list[int]:
        wa, wb = sides[0].winners[i], sides[1].winners[i]
        return [(wb == seat) - (wa == seat) for seat in range(watched)]

    sequences, games, why = watch(*sides, seat_changes, watched, rule)
    (wa, ra), (wb, rb) = sides[0].run(games), sides[1].run(games)
    pair_w, pair_r = (wa, wb), (ra, rb)
    effects = paired(pair_w, pair_r, players)
    if rule.sequential:
        effects[:watched] = [watched_row(r, s) for r, s in zip(effects, sequences, strict=False)]
        if watched < players:
            effects[1] = mirrored(effects[1], effects[0])
    totals = [side.total for side in sides if side.total is not None]
    for total in totals:
        total.config = replace(total.config, games=games)
    reports = build_report(totals[0]), build_report(totals[1])
    return {
        "experiment_version": EXPERIMENT_VERSION,
        "game": base.id,
        "changes": changes.to_json(),
        "config": {
            "games": games,
            "players": players,
            "bots": list(config.bots),
            "changed_bots": list(other.bots),
            "seed": config.seed,
        },
        "stop": stop_json(rule, games, why, watched),
        "effects": effects,
        "paired_games_needed": paired_games_needed(pair_w, players),
        "cards": card_effects(base, changed, *reports),
        "base": reports[0],
        "changed": reports[1],
    }


def mirrored(row: dict[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    """Seat 2's `row` of a two-player comparison with the always-valid interval of seat 1's
    (`other`) mirrored: one seat's change is exactly minus the other's, so the two are one
    test at the full error rate."""
    lo, hi = other["ci95"]
    return {**row, "ci95": [-hi, -lo], "significant": other["significant"], "always_valid": True}


def card_effects(
    base: Ruleset,
    changed: Ruleset,
    base_report: Mapping[str, Any],
    changed_report: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """For each merchant card the change took out or put in: its takers' win rate against
    that of the players who had it on offer and left it, in the game that has it (each
    game one unit; significant after Holm's correction for the cards tested)."""
    before = {card.id for card in (*base.starting_cards, *base.merchant_deck)}
    after = {card.id for card in (*changed.starting_cards, *changed.merchant_deck)}
    found = []
    for ids, report, side in (
        (before - after, base_report, "base game"),
        (after - before, changed_report, "changed game"),
    ):
        for card in report["merchant_cards"]:
            if card["id"] in ids and (effect := buyers_against_passers(card, side)):
                found.append(effect)
    return holm_marked(found)


def paired_games_needed(
    winners: tuple[Sequence[int], Sequence[int]], players: int
) -> dict[str, int]:
    """The paired games a ±1% and ±2% answer on a seat's change of win rate needs, at the
    spread of the observed differences (the most spread seat sets it); 0 when no game's
    winner changed (every difference is zero, and so is its interval)."""
    wa, wb = winners
    spread = 0.0
    for seat in range(players):
        diffs = [(y == seat) - (x == seat) for x, y in zip(wa, wb, strict=True)]
        _, half = paired_interval(diffs)
        spread = max(spread, half * half * len(diffs))  # Z95² times the variance
    if spread == 0:  # no game's winner changed: no spread to size an answer by
        return {f"{round(100 * m)}%": 0 for m in MARGINS}
    return {f"{round(100 * m)}%": max(1, round(spread / (m * m))) for m in MARGINS}


def experiment_lines(report: Mapping[str, Any]) -> list[str]:
    """The experiment's summary: its effects with intervals (significant ones marked) and
    the games a ±1% and ±2% answer needs."""
    from century.simulation.compare import difference_lines

    needed = report["paired_games_needed"]
    config = report["config"]
    changes = report["changes"]
    described = CardChanges(
        tuple(changes["remove"]),
        tuple(changes["add"]),
        tuple(changes["replace"].items()),
        tuple(Setting((), None, text) for text in changes.get("set", ())),
    ).describe()
    stop = report.get("stop") or {}
    watched = bool(stop.get("sure") or stop.get("width") is not None)
    kind = "always-valid 95% intervals for the seats" if watched else "95% intervals"
    return [
        f"{report['game']} ({described}): {config['games']} paired games, changed minus base "
        f"({kind}; * significant):",
        *([f"  {stop_line(stop)}"] if watched else []),
        *(f"  {line}" for line in difference_lines(report["effects"])),
        *(
            f"  {line} against those who had it on offer and left it ({c['takers']} takers, "
            f"{c['passers']} left it; a correlation, each game one unit, * after Holm over "
            f"{c['tests']})"
            for c, line in zip(report["cards"], difference_lines(report["cards"]), strict=True)
        ),
        (
            f"  a ±1% answer on a seat's change needs {needed['1%']:,} paired games, "
            f"±2% {needed['2%']:,}"
            if needed["1%"]
            else f"  no game's winner changed in these {config['games']} paired games: the "
            "zero-width intervals say the change altered no result here, not that it cannot"
        ),
    ]
