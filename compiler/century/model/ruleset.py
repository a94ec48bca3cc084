"""The frozen, typed ruleset: the only input of every target.

A `Ruleset` is built from resolved, checked documents (see `century.model.build`) or
read back from its JSON form (`Ruleset.from_json`). Resource multisets are vectors of
counts indexed by rank, lowest rank first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache, cached_property
from types import MappingProxyType, NoneType, UnionType
from typing import Any, Literal, get_args, get_origin, get_type_hints

from century.model.look import Look

Vector = tuple[int, ...]
Step = tuple[Any, ...]
"""A step of a merchant card's effect (`century.model.cards.Step`)."""
Text = Mapping[str, str]
"""A translated text: language code -> string."""

TieBreak = Literal["latest_turn", "earliest_turn", "shared"]
CoinRunout = Literal["shift", "stay"]


def frozen_map(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """Return a read-only mapping with sorted keys (so JSON output is stable)."""
    return MappingProxyType(dict(sorted(mapping.items())))


@dataclass(frozen=True)
class Resource:
    """One rung of the resource ladder (whatever the game trades: goods, crystals)."""

    id: str
    code: str
    colour: str
    name: Text


@dataclass(frozen=True)
class Coin:
    """A coin pile placed above a point-row position at setup."""

    id: str
    value: int
    per_player: int
    position: int
    colour: str
    name: Text

    def count(self, players: int) -> int:
        """How many coins the pile holds at the start of a game of `players`."""
        return self.per_player * players


@dataclass(frozen=True)
class MerchantCard:
    """A card that is played from the hand: what it does is its effect, steps done in order
    (`century.model.cards`; a short form of the data is the same steps)."""

    id: str
    copies: int
    effect: tuple[Step, ...]
    """The steps, cubes as vectors by rank (`century.model.cards.Step`)."""
    name: Text

    @cached_property
    def kind(self) -> str:
        """The short form the effect is (``gain``, ``upgrade``, ``trade``), else
        ``composed``: a name for titles and terms, never a rule of its own."""
        from century.model.cards import shape

        return shape(self.effect)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the effect as steps (`century.model.cards.steps_json`)."""
        from century.model.cards import steps_json

        return {
            "id": self.id,
            "copies": self.copies,
            "effect": steps_json(self.effect),
            "name": _plain(self.name),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MerchantCard:
        """A card from its JSON form (`to_json`)."""
        from century.model.cards import steps_from_json

        return cls(
            id=data["id"],
            copies=int(data["copies"]),
            effect=steps_from_json(data["effect"]),
            name=frozen_map(data["name"]),
        )


@dataclass(frozen=True)
class PointCard:
    """A card claimed for points by paying its cost."""

    id: str
    cost: Vector
    points: int
    copies: int


@dataclass(frozen=True)
class Change:
    """One way a variant differs from the game it extends (`century.model.diff.changes`):
    `kind` says what changed, `values` what it was and is, as JSON values (cubes as vectors
    by rank, names as translated texts), so each language words it in its own prose."""

    kind: str
    values: Mapping[str, Any]


@dataclass(frozen=True)
class VariantOf:
    """The game a variant extends (named by its `extends`) and what the variant changes."""

    id: str
    name: Text
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Punctuation:
    """How a language sets its punctuation in print (the ``punctuation`` of its prose file);
    the defaults leave the text as typed."""

    space_before: str = ""
    """The marks among ``: ; ? !`` that take a narrow no-break space before them."""
    quotes: tuple[str, ...] = ()
    """What an opening and a closing “quote” become (empty: they stay as typed)."""
    short_compounds: bool = False
    """Whether a compound with a part under three letters keeps its hyphen unbroken."""


@dataclass(frozen=True)
class Ruleset:
    """A complete, resolved and checked game."""

    id: str
    name: Text
    extends: tuple[str, ...]
    languages: tuple[str, ...]
    sources: tuple[str, ...]
    source_hash: str
    resources: tuple[Resource, ...]
    players_min: int
    players_max: int
    caravan_limit: int
    merchant_row: int
    point_row: int
    coins: tuple[Coin, ...]
    coin_runout: CoinRunout
    seats: tuple[Vector, ...]
    starting_cards: tuple[MerchantCard, ...]
    merchant_deck: tuple[MerchantCard, ...]
    point_deck: tuple[PointCard, ...]
    end_threshold: Mapping[int, int]
    finish_round: bool
    resource_points: Vector
    tie_break: TieBreak
    value_weights: Vector
    variety_bonus: Mapping[int, int]
    terms: Mapping[str, Text]
    prose: Mapping[str, Mapping[str, str]]
    forms: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    """The inflected forms of words by language (`century.model.text.form`): word -> form
    key (a CLDR plural category, alone or with a case: ``"one acc"``; ``"*"``: every form)
    -> text."""
    punctuation: Mapping[str, Punctuation] = field(default_factory=dict)
    """How each language that says so sets its punctuation (`century.prose.typeset`)."""
    variant_of: VariantOf | None = None
    """The game this one extends and what it changes (None for a base game)."""
    look: Look | None = field(default=None, metadata={"json": False})
    """How the printed pieces look (None: the default look). Not part of the JSON form: it
    names files of the building computer, which no other tool should read."""

    # -- helpers -------------------------------------------------------------------------

    @property
    def codes(self) -> str:
        """The resource codes in rank order, e.g. ``"YRGB"`` for four ranks."""
        return "".join(r.code for r in self.resources)

    @property
    def player_counts(self) -> range:
        return range(self.players_min, self.players_max + 1)

    def vector(self, cubes: str) -> Vector:
        """Counts per rank of a cube string such as ``"YYR"`` (case-insensitive)."""
        return cube_vector(self.codes, cubes)

    def cubes(self, vector: Vector) -> str:
        """The cube string of a vector, lowest rank first: ``(2, 1, 0, 0) -> "YYR"``."""
        return cube_string(self.codes, vector)

    def point_card_value(self, cost: Vector) -> int:
        """The deck's value model (data): rank weights summed plus a bonus per kinds used."""
        weight = sum(w * n for w, n in zip(self.value_weights, cost, strict=True))
        kinds = sum(1 for n in cost if n)
        return weight + self.variety_bonus.get(kinds, 0)

    # -- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A plain, JSON-ready dict; `from_json` reads it back."""
        plain: dict[str, Any] = _plain(self)
        return plain

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ruleset:
        """The ruleset from its JSON form (`to_json`), read field by field from the types
        declared above: the dataclasses are the one table of what a ruleset holds."""
        ruleset: Ruleset = _read(cls, data)
        return ruleset


def cube_vector(codes: str, cubes: str) -> Vector:
    """Counts per rank of a cube string, for the ladder `codes` (case-insensitive)."""
    index = {c: i for i, c in enumerate(codes.upper())}
    counts = [0] * len(codes)
    for letter in cubes.upper():
        counts[index[letter]] += 1
    return tuple(counts)


def cube_string(codes: str, vector: Vector) -> str:
    """The cube string of a vector, lowest rank first: ``(2, 1, 0, 0) -> "YYR"``."""
    return "".join(code * n for code, n in zip(codes, vector, strict=True))


def _read(kind: Any, value: Any) -> Any:
    """`value` (plain JSON data) as an instance of the declared type `kind`."""
    if kind is MerchantCard:  # made by the model stage, or its JSON form read back
        return value if isinstance(value, MerchantCard) else MerchantCard.from_json(value)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = _fields(kind)
        given = ((name, hint) for name, hint in hints if name in value)  # else its default
        return kind(**{name: _read(hint, value[name]) for name, hint in given})
    origin, args = get_origin(kind), get_args(kind)
    if origin is UnionType:  # X | None
        if value is None:
            return None
        [kind] = [arg for arg in args if arg is not NoneType]
        return _read(kind, value)
    if origin is tuple:
        return tuple(_read(args[0], item) for item in value)
    if origin is Mapping:
        key, item = args
        return frozen_map({_read(key, k): _read(item, v) for k, v in value.items()})
    if kind is int:
        return int(value)
    return value  # str, bool and Literal values are JSON values already


@cache
def _fields(kind: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's fields with their resolved types (resolved once per class)."""
    hints = get_type_hints(kind)
    return tuple((f.name, hints[f.name]) for f in fields(kind))


def _plain(value: Any) -> Any:
    """Dataclasses, mappings and tuples as JSON-ready dicts and lists."""
    if isinstance(value, MerchantCard):
        return value.to_json()
    if hasattr(value, "__dataclass_fields__"):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in fields(value)
            if f.metadata.get("json", True)
        }
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
