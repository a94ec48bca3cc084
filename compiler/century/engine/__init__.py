"""The engine generator: one standalone Python module per game, generated from the model.

A generated engine is `century.runtime.engine` (the rules code, a real module of this
package) headed by "generated, do not edit" and the source hash, its block of game constants
filled (`century.runtime.fill`) with ``constants.py.j2`` rendered from the ruleset. The
values are Python literals (strings only through `py_string`, never spliced into code) laid
out the way ``ruff format`` lays them out, so the module is lint- and format-clean as
generated. `load_engine(ruleset)` imports that source in memory, typed as an `Engine` (what
the tools that play engines read of one); the engine target (`century.targets.engine`)
writes it.
"""

from __future__ import annotations

import hashlib
import re
import sys
import types
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, cast

from century import runtime as copies
from century.base.resources import templates
from century.engine.literals import assign
from century.engine.steps import code as added_steps
from century.model.ruleset import MerchantCard, Ruleset
from century.model.steps import used
from century.runtime import engine as runtime
from century.runtime.engine import CoinPile, PointCard

_ENGINES: dict[str, Engine] = {}


class Engine(Protocol):
    """A generated engine module as the bots, the simulation and the terminal read it: its
    rules tables and its games (the types are the runtime's; mypy checks that the runtime
    module is an `Engine`)."""

    __name__: str
    GAME_ID: str
    SOURCE_HASH: str
    CODES: str
    CARAVAN_LIMIT: int
    MERCHANT_ROW: int
    POINT_ROW: int
    SEATS: tuple[tuple[int, ...], ...]
    CARDS: tuple[runtime.Card, ...]
    POINT_CARDS: tuple[runtime.PointCard, ...]
    COINS: tuple[runtime.CoinPile, ...]
    State: type[runtime.State]
    IllegalMove: type[runtime.IllegalMove]

    def new_game(self, players: int, seed: int = 0) -> runtime.State: ...
    def replay(self, record: dict[str, Any]) -> runtime.State: ...
    def caravan(self, vector: tuple[int, ...]) -> runtime.Caravan: ...
    def warm_up(self) -> int: ...
    def effect_ways(
        self, steps: tuple[Any, ...], codes: str, most: int
    ) -> tuple[runtime.Way, ...]: ...
    def effect_moves(
        self, steps: tuple[Any, ...], codes: str, name: str, cubes: int
    ) -> list[str]: ...
    def effect_text(self, steps: tuple[Any, ...], codes: str) -> tuple[str, ...]: ...


if TYPE_CHECKING:
    _RUNTIME_IS_AN_ENGINE: Engine = runtime


# -- the model as tables -------------------------------------------------------------------


def _card_table(ruleset: Ruleset) -> tuple[list[MerchantCard], dict[str, int]]:
    """Distinct merchant cards (starting cards first, then the deck) and their indexes."""
    cards: list[MerchantCard] = []
    index: dict[str, int] = {}
    for card in (*ruleset.starting_cards, *ruleset.merchant_deck):
        if card.id in index:
            known = cards[index[card.id]]
            if known.effect != card.effect:
                raise ValueError(f"two different merchant cards share the id {card.id!r}")
            continue
        index[card.id] = len(cards)
        cards.append(card)
    return cards, index


def _check(ruleset: Ruleset, cards: list[MerchantCard]) -> None:
    codes = ruleset.codes.lower()
    if len(set(codes)) != len(codes) or any(len(r.code) != 1 for r in ruleset.resources):
        raise ValueError(f"resource codes must be distinct single letters: {ruleset.codes!r}")
    lowered = [card.id.lower() for card in cards]
    if len(set(lowered)) != len(lowered):
        raise ValueError("merchant card ids must differ in more than letter case")
    for count in ruleset.player_counts:
        if count not in ruleset.end_threshold:
            raise ValueError(f"no end threshold for {count} players")
    if len(ruleset.seats) < ruleset.players_max:
        raise ValueError(f"{len(ruleset.seats)} seats for up to {ruleset.players_max} players")


def card_record(card: MerchantCard, starting: int = 0, deck: int = 0) -> runtime.Card:
    """The engine's record of a merchant card (`runtime.Card`): its steps and copies."""
    return runtime.Card(id=card.id, effect=card.effect, starting=starting, deck=deck)


_COPIES = ("starting", "deck")
"""The fields of the engine's `Card` that are not the effect."""


def _copies(cards: tuple[MerchantCard, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.id] = counts.get(card.id, 0) + card.copies
    return counts


def _declared(name: str) -> str:
    """The left-hand side of a constant's line: its name, with the runtime's annotation (the
    template writes the same, so the literal is laid out for the whole line)."""
    annotation = runtime.__annotations__.get(name)
    return f"{name}: {annotation}" if annotation else name


def context(ruleset: Ruleset) -> dict[str, str]:
    """The template's values, each already a Python literal."""
    cards, _ = _card_table(ruleset)
    _check(ruleset, cards)
    if len({p.id for p in ruleset.point_deck}) != len(ruleset.point_deck):
        raise ValueError("two point cards share an id")
    starting = _copies(ruleset.starting_cards)
    deck = _copies(ruleset.merchant_deck)
    digest = ruleset.source_hash
    values: dict[str, Any] = {
        "game_id": ruleset.id,
        "source_hash": digest,
        "players_min": ruleset.players_min,
        "players_max": ruleset.players_max,
        "resource_ids": tuple(r.id for r in ruleset.resources),
        "codes": ruleset.codes.lower(),
        "caravan_limit": ruleset.caravan_limit,
        "merchant_row": ruleset.merchant_row,
        "point_row": ruleset.point_row,
        "coins": tuple(CoinPile(c.id, c.value, c.per_player, c.position) for c in ruleset.coins),
        "coin_runout": ruleset.coin_runout,
        "seats": tuple(ruleset.seats),
        "cards": tuple(card_record(c, starting.get(c.id, 0), deck.get(c.id, 0)) for c in cards),
        "point_cards": tuple(
            PointCard(p.id, p.cost, p.points, p.copies) for p in ruleset.point_deck
        ),
        "end_threshold": dict(sorted(ruleset.end_threshold.items())),
        "finish_round": ruleset.finish_round,
        "resource_points": tuple(ruleset.resource_points),
        "tie_break": ruleset.tie_break,
    }
    rendered = {key: assign(_declared(key.upper()), value) for key, value in values.items()}
    plain_hash = re.fullmatch(r"[0-9a-f]{1,128}", digest)
    rendered["source_hash_comment"] = digest if plain_hash else "(see SOURCE_HASH)"
    return rendered


# -- the target ----------------------------------------------------------------------------


HEADER = "# Generated by the Century rules compiler from the game data: do not edit.\n"


@cache
def _template() -> Any:
    """The constants template."""
    return templates(__name__, html=False).get_template("constants.py.j2")


def generate(ruleset: Ruleset) -> str:
    """The engine module's source for `ruleset`: the same model gives the same text."""
    values = context(ruleset)
    constants = _template().render(**values)
    head = f"{HEADER}# Source hash: {values['source_hash_comment']}\n"
    names = {name for card in _card_table(ruleset)[0] for name in used(card.effect)}
    return head + copies.fill(copies.source("engine"), constants) + added_steps(names)


def module_name(ruleset: Ruleset) -> str:
    """The module's file stem: the game id with ``-`` as ``_`` (other odd characters too)."""
    name = re.sub(r"\W", "_", ruleset.id.replace("-", "_"), flags=re.ASCII)
    return name if name and not name[0].isdigit() else f"game_{name}"


def load_engine(ruleset: Ruleset) -> Engine:
    """The generated engine imported from its source in memory (cached per source hash)."""
    source = generate(ruleset)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    engine = _ENGINES.get(digest)
    if engine is None:
        name = f"century_engine_{module_name(ruleset)}_{digest[:12]}"
        module = types.ModuleType(name)
        module.__file__ = f"<generated {name}>"
        sys.modules[name] = module  # its classes pickle by module name (worker processes)
        exec(compile(source, module.__file__, "exec"), module.__dict__)
        engine = _ENGINES[digest] = cast("Engine", module)
    return engine
