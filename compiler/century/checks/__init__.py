"""The check stage: semantic checks on a resolved game, one small function each.

Each check takes a `Context` and yields located diagnostics. `CHECKS` is the registry;
`run_checks` runs them all, so every problem is reported in one run. The schema has
already guaranteed the shape of the data, so checks may index it freely.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from century.diagnostics import Diagnostic, Severity
from century.frontend.loader import Node, Path_, format_path
from century.model.cards import derived_id
from century.model.ruleset import Ruleset

DECKS = ("starting", "merchant", "point")


@dataclass
class Context:
    """A resolved game tree, its plain data and helpers to locate problems."""

    tree: Node

    @cached_property
    def data(self) -> dict[str, Any]:
        return self.tree.plain()

    @cached_property
    def codes(self) -> dict[str, int]:
        """Upper-case resource code -> rank (first occurrence wins)."""
        ranks: dict[str, int] = {}
        for rank, resource in enumerate(self.data["resources"]):
            ranks.setdefault(resource["code"].upper(), rank)
        return ranks

    def cards(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        """(deck, index, card) for every card of every deck."""
        for deck in DECKS:
            for i, card in enumerate(self.data["decks"][deck]["cards"]):
                yield deck, i, card

    def diag(
        self,
        path: Path_,
        message: str,
        hint: str = "",
        severity: Severity = "error",
        key: bool = False,
    ) -> Diagnostic:
        mark = self.tree.locate(path, key=key)
        return Diagnostic.at(mark, message, path=format_path(path), hint=hint, severity=severity)


Check = Callable[[Context], Iterator[Diagnostic]]
CHECKS: list[Check] = []


def check(fn: Check) -> Check:
    """Register a check."""
    CHECKS.append(fn)
    return fn


def run_checks(tree: Node) -> list[Diagnostic]:
    ctx = Context(tree)
    return [d for fn in CHECKS for d in fn(ctx)]


def _cube_fields(ctx: Context) -> Iterator[tuple[Path_, str]]:
    for seat, cubes in enumerate(ctx.data["setup"]["seats"]):
        yield ("setup", "seats", seat), cubes
    for deck, i, card in ctx.cards():
        for name in ("get", "pay", "cost"):
            if name in card:
                yield ("decks", deck, "cards", i, name), card[name]


# -- the resource ladder ----------------------------------------------------------------


@check
def unique_resources(ctx: Context) -> Iterator[Diagnostic]:
    seen_ids: set[str] = set()
    seen_codes: set[str] = set()
    for i, resource in enumerate(ctx.data["resources"]):
        if resource["id"] in seen_ids:
            yield ctx.diag(("resources", i, "id"), f"resource id {resource['id']!r} is used twice")
        code = resource["code"].upper()
        if code in seen_codes:
            yield ctx.diag(
                ("resources", i, "code"),
                f"resource code {resource['code']!r} is used twice",
                "codes are compared without case; each rank needs its own letter",
            )
        seen_ids.add(resource["id"])
        seen_codes.add(code)


@check
def known_codes(ctx: Context) -> Iterator[Diagnostic]:
    known = "".join(ctx.codes)
    for path, cubes in _cube_fields(ctx):
        unknown = sorted({c for c in cubes.upper() if c not in ctx.codes})
        if unknown:
            yield ctx.diag(
                path,
                f"unknown resource code {', '.join(unknown)} in {cubes!r}",
                f"the ladder's codes are {known}",
            )


@check
def cubes_in_rank_order(ctx: Context) -> Iterator[Diagnostic]:
    for path, cubes in _cube_fields(ctx):
        ranks = [ctx.codes[c] for c in cubes.upper() if c in ctx.codes]
        if ranks != sorted(ranks):
            ordered = "".join(sorted(cubes, key=lambda c: ctx.codes.get(c.upper(), 0)))
            yield ctx.diag(
                path,
                f"cubes {cubes!r} are not written lowest rank first",
                f"write {ordered!r}",
                severity="warning",
            )


@check
def per_rank_lists(ctx: Context) -> Iterator[Diagnostic]:
    ranks = len(ctx.data["resources"])
    for path in (("scoring", "resource_points"), ("balance", "value_weights")):
        values = ctx.data[path[0]][path[1]]
        if len(values) != ranks:
            yield ctx.diag(
                path,
                f"has {len(values)} values but the ladder has {ranks} ranks",
                "give one value per rank, lowest rank first",
            )


# -- cards ------------------------------------------------------------------------------


@check
def unique_card_ids(ctx: Context) -> Iterator[Diagnostic]:
    if len(ctx.codes) < len(ctx.data["resources"]):
        return  # shared codes make derived ids collide; `unique_resources` reports the cause
    first: dict[str, tuple[str, int]] = {}
    for deck, i, card in ctx.cards():
        card_id = derived_id(card)
        if card_id in first:
            other_deck, other = first[card_id]
            where = ctx.tree.locate(("decks", other_deck, "cards", other)).line
            yield ctx.diag(
                ("decks", deck, "cards", i),
                f"card id {card_id!r} is used twice (first at line {where})",
                "use `copies` for several of the same card, or give one an explicit `id`",
            )
        else:
            first[card_id] = (deck, i)


@check
def card_effects(ctx: Context) -> Iterator[Diagnostic]:
    for deck, i, card in ctx.cards():
        path = ("decks", deck, "cards", i)
        kind = card.get("kind")
        if kind == "upgrade" and card["steps"] < 1:
            yield ctx.diag((*path, "steps"), "an upgrade card needs at least 1 step")
        if kind in ("gain", "trade") and not card["get"]:
            yield ctx.diag((*path, "get"), "the card gives nothing")
        if kind == "trade":
            if not card["pay"]:
                yield ctx.diag((*path, "pay"), "a trade card must take something")
            elif Counter(card["pay"].upper()) == Counter(card["get"].upper()):
                yield ctx.diag(path, "the trade pays and gets the same cubes")
        if deck == "point" and not card["cost"]:
            yield ctx.diag((*path, "cost"), "a point card must cost something")


@check
def deck_kinds(ctx: Context) -> Iterator[Diagnostic]:
    for deck in DECKS:
        declared = ctx.data["decks"][deck]["deck"]
        if declared != deck:
            yield ctx.diag(
                ("decks", deck, "deck"),
                f"a {declared} deck is used as the {deck} deck",
            )


@check
def decks_fill_rows(ctx: Context) -> Iterator[Diagnostic]:
    setup = ctx.data["setup"]
    for deck, row in (("merchant", "merchant_row"), ("point", "point_row")):
        size = sum(card.get("copies", 1) for card in ctx.data["decks"][deck]["cards"])
        if size < setup[row]:
            yield ctx.diag(
                ("setup", row),
                f"the {deck} deck has {size} cards, too few to fill a row of {setup[row]}",
            )
    if not ctx.data["decks"]["starting"]["cards"]:
        yield ctx.diag(("decks", "starting", "cards"), "the starting hand is empty")


@check
def point_values(ctx: Context) -> Iterator[Diagnostic]:
    balance = ctx.data["balance"]
    weights = balance["value_weights"]
    bonus = {int(k): v for k, v in balance["variety_bonus"].items()}
    if len(weights) != len(ctx.data["resources"]):
        return
    for i, card in enumerate(ctx.data["decks"]["point"]["cards"]):
        ranks = [ctx.codes[c] for c in card["cost"].upper() if c in ctx.codes]
        value = sum(weights[r] for r in ranks) + bonus.get(len(set(ranks)), 0)
        if ranks and value != card["points"]:
            yield ctx.diag(
                ("decks", "point", "cards", i, "points"),
                f"point card {derived_id(card)!r} gives {card['points']} points; "
                f"the deck's value model says {value}",
                "check the card, or the `balance` section if the model changed",
                severity="warning",
            )


# -- players, setup, coins, end ---------------------------------------------------------


@check
def player_range(ctx: Context) -> Iterator[Diagnostic]:
    players = ctx.data["players"]
    if players["min"] > players["max"]:
        yield ctx.diag(("players",), f"players.min {players['min']} is above max {players['max']}")


@check
def seats_cover_players(ctx: Context) -> Iterator[Diagnostic]:
    seats = ctx.data["setup"]["seats"]
    most = ctx.data["players"]["max"]
    if len(seats) < most:
        yield ctx.diag(
            ("setup", "seats"),
            f"starting caravans are given for {len(seats)} seats, but up to {most} players play",
            "give one entry per seat",
        )
    limit = ctx.data["caravan_limit"]
    for seat, cubes in enumerate(seats):
        if len(cubes) > limit:
            yield ctx.diag(
                ("setup", "seats", seat),
                f"seat {seat + 1} starts with {len(cubes)} cubes, over the caravan limit {limit}",
            )


@check
def end_thresholds(ctx: Context) -> Iterator[Diagnostic]:
    players = ctx.data["players"]
    given = {int(k) for k in ctx.data["end"]["point_cards"]}
    wanted = set(range(players["min"], players["max"] + 1))
    for count in sorted(wanted - given):
        yield ctx.diag(
            ("end", "point_cards"),
            f"no end threshold for {count} players",
            f"add `{count}: <point cards>` under end.point_cards",
        )
    for count in sorted(given - wanted):
        yield ctx.diag(
            ("end", "point_cards", str(count)),
            f"end threshold for {count} players, outside "
            f"players {players['min']}..{players['max']}",
            severity="warning",
            key=True,
        )
    deck = sum(card.get("copies", 1) for card in ctx.data["decks"]["point"]["cards"])
    for count in sorted(wanted & given):
        if ctx.data["end"]["point_cards"][str(count)] > deck:
            yield ctx.diag(
                ("end", "point_cards", str(count)),
                f"the end threshold for {count} players is more than the {deck} point cards",
                severity="warning",
            )


@check
def coin_positions(ctx: Context) -> Iterator[Diagnostic]:
    row = ctx.data["setup"]["point_row"]
    seen: dict[int, str] = {}
    for i, pile in enumerate(ctx.data["coins"]["piles"]):
        position = pile["position"]
        if position > row:
            yield ctx.diag(
                ("coins", "piles", i, "position"),
                f"coin pile {pile['id']!r} is above position {position}, "
                f"but the point row has {row} cards",
            )
        if position in seen:
            yield ctx.diag(
                ("coins", "piles", i, "position"),
                f"coin piles {seen[position]!r} and {pile['id']!r} share position {position}",
            )
        seen[position] = pile["id"]
    ids = Counter(pile["id"] for pile in ctx.data["coins"]["piles"])
    for pile_id, n in ids.items():
        if n > 1:
            yield ctx.diag(("coins", "piles"), f"coin pile id {pile_id!r} is used twice")


# -- languages --------------------------------------------------------------------------


def _texts(node: Node, path: Path_ = ()) -> Iterator[tuple[Path_, Node]]:
    """Every translated text in the tree (a mapping whose keys are language codes)."""
    if isinstance(node.value, dict):
        if (path and path[-1] == "name") or (len(path) == 2 and path[0] == "terms"):
            yield path, node
            return
        for key, child in node.value.items():
            if path == () and key == "prose":
                continue
            yield from _texts(child, (*path, key))
    elif isinstance(node.value, list):
        for i, child in enumerate(node.value):
            yield from _texts(child, (*path, i))


@check
def translations(ctx: Context) -> Iterator[Diagnostic]:
    """Every text in every language of the game: one diagnostic per language and file."""
    languages = ctx.data["languages"]
    missing: dict[tuple[str, str], list[Path_]] = {}
    for path, node in _texts(ctx.tree):
        for lang in languages:
            if lang not in node.value:
                missing.setdefault((lang, node.mark.file), []).append(path)
        for lang in node.value:
            if lang not in languages:
                yield ctx.diag(
                    (*path, lang),
                    f"translation {lang!r} is not a language of the game",
                    f"languages: {', '.join(languages)}",
                    severity="warning",
                    key=True,
                )
    for (lang, _file), paths in missing.items():
        more = f" (and {len(paths) - 1} more texts in this file)" if len(paths) > 1 else ""
        yield ctx.diag(
            paths[0],
            f"missing {lang!r} translation{more}",
            f"add `{lang}: ...`; every text needs every language of the game",
        )


@check
def prose_languages(ctx: Context) -> Iterator[Diagnostic]:
    languages = ctx.data["languages"]
    prose = ctx.data["prose"]
    for lang in languages:
        if lang not in prose:
            yield ctx.diag(("prose",), f"no rule-sheet text for language {lang!r}")
    for lang, doc in prose.items():
        if doc["lang"] != lang:
            yield ctx.diag(
                ("prose", lang, "lang"), f"the {lang!r} rule-sheet text says it is {doc['lang']!r}"
            )
    if not languages or languages[0] not in prose:
        return
    reference = languages[0]
    keys = set(prose[reference]["text"])
    for lang in languages[1:]:
        if lang not in prose:
            continue
        other = set(prose[lang]["text"])
        missing = sorted(keys - other)
        if missing:
            shown = ", ".join(missing[:8]) + (
                f" and {len(missing) - 8} more" if len(missing) > 8 else ""
            )
            yield ctx.diag(
                ("prose", lang, "text"),
                f"rule-sheet text has no {lang!r} translation for: {shown}",
                f"every key of the {reference!r} text must be translated",
            )
        for key in sorted(other - keys):
            yield ctx.diag(
                ("prose", lang, "text", key),
                f"rule-sheet text {key!r} is not in the {reference!r} text",
                key=True,
            )


# -- checks that need the built model ---------------------------------------------------


def check_prose(ruleset: Ruleset, tree: Node) -> Iterator[Diagnostic]:
    """Every rule-sheet sentence renders: its placeholders exist in the ruleset."""
    from century.prose import PROSE_KEYS, ProseError, TextError, render_prose

    for lang in ruleset.languages:
        missing = sorted(PROSE_KEYS - set(ruleset.prose.get(lang, {})))
        if missing and lang in ruleset.prose:
            shown = ", ".join(missing[:8]) + (
                f" and {len(missing) - 8} more" if len(missing) > 8 else ""
            )
            yield Diagnostic.at(
                tree.locate(("prose", lang, "text")),
                f"rule-sheet text ({lang}) lacks keys the sheet needs: {shown}",
                path=f"prose.{lang}.text",
            )
            continue
        try:
            render_prose(ruleset, lang)
        except ProseError as err:
            path: Path_ = ("prose", err.lang, "text", err.key)
            yield Diagnostic.at(
                tree.locate(path),
                f"rule-sheet text {err.key!r} ({err.lang}) does not render: "
                f"{str(err).split(': ', 1)[-1]}",
                path=format_path(path),
                hint="the placeholders are listed in the README (rule sheets)",
            )
        except TextError as err:
            yield Diagnostic.at(tree.locate(("prose",)), str(err), path="prose")


MODEL_CHECKS = [check_prose]
