"""The engine target: one standalone Python module per game, generated from the model.

`generate(ruleset)` renders ``templates/engine.py.j2`` with the ruleset's tables written as
Python literals (strings only through `py_literal`, never spliced into code), laid out the
way ``ruff format`` lays them out, so the module is lint- and format-clean as generated.
`load_engine(ruleset)` imports that source in memory; `write` puts it in a build folder.
"""

from __future__ import annotations

import hashlib
import re
import sys
import types
from functools import cache
from pathlib import Path
from typing import Any

from compiler.model import MerchantCard, Ruleset

LINE = 100
"""The line length of the generated code (the project's ruff setting)."""

_ENGINES: dict[str, types.ModuleType] = {}


# -- literals ------------------------------------------------------------------------------


def py_string(text: str) -> str:
    """A Python string literal for `text`, quoted the way ``ruff format`` prefers."""
    body = []
    for char in text:
        if char == "\\":
            body.append("\\\\")
        elif char in "\n\r\t":
            body.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif not char.isprintable() and char != " ":
            body.append(repr(char)[1:-1])
        else:
            body.append(char)
    plain = "".join(body)
    quote = "'" if plain.count("'") < plain.count('"') else '"'
    return quote + plain.replace(quote, "\\" + quote) + quote


def py_literal(value: Any, indent: int = 0, used: int = 0) -> str:
    """`value` (str, int, bool, None, tuple, dict) as source starting `used` columns into a
    line indented by `indent`; collections too long for the line are exploded one item per
    line with a trailing comma."""
    flat = _flat(value)
    if indent + used + len(flat) + 1 <= LINE or not isinstance(value, tuple | dict):
        return flat
    inner = " " * (indent + 4)
    if isinstance(value, dict):
        items = [
            f"{_flat(k)}: {py_literal(v, indent + 4, len(_flat(k)) + 2)}" for k, v in value.items()
        ]
        open_, close = "{", "}"
    else:
        items = [py_literal(v, indent + 4) for v in value]
        open_, close = "(", ")"
    lines = [open_]
    for item in items:
        line = f"{inner}{item},"
        lines.append(line + "  # noqa: E501" if "\n" not in item and len(line) > LINE else line)
    lines.append(" " * indent + close)
    return "\n".join(lines)


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return py_string(value)
    if isinstance(value, bool | int) or value is None:
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({_flat(value[0])},)"
        return "(" + ", ".join(_flat(v) for v in value) + ")"
    raise TypeError(f"no literal for {type(value).__name__}")


def _assign(name: str, value: Any) -> str:
    """The right-hand side of ``NAME = value`` (a long atom gets a noqa comment)."""
    text = py_literal(value, 0, len(name) + 3)
    if "\n" not in text and len(name) + 3 + len(text) > LINE:
        text += "  # noqa: E501"
    return text


# -- the model as tables -------------------------------------------------------------------


def _card_table(ruleset: Ruleset) -> tuple[list[MerchantCard], dict[str, int]]:
    """Distinct merchant cards (starting cards first, then the deck) and their indexes."""
    cards: list[MerchantCard] = []
    index: dict[str, int] = {}
    for card in (*ruleset.starting_cards, *ruleset.merchant_deck):
        if card.id in index:
            known = cards[index[card.id]]
            if (known.kind, known.get, known.pay, known.steps) != (
                card.kind,
                card.get,
                card.pay,
                card.steps,
            ):
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


def _copies(cards: tuple[MerchantCard, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.id] = counts.get(card.id, 0) + card.copies
    return counts


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
        "coins": tuple((c.id, c.value, c.per_player, c.position) for c in ruleset.coins),
        "coin_runout": ruleset.coin_runout,
        "seats": tuple(ruleset.seats),
        "cards": tuple(
            (c.id, c.kind, c.get, c.pay, c.steps, starting.get(c.id, 0), deck.get(c.id, 0))
            for c in cards
        ),
        "point_cards": tuple((p.id, p.cost, p.points, p.copies) for p in ruleset.point_deck),
        "end_threshold": dict(sorted(ruleset.end_threshold.items())),
        "finish_round": ruleset.finish_round,
        "resource_points": tuple(ruleset.resource_points),
        "tie_break": ruleset.tie_break,
    }
    names = {
        "game_id": "GAME_ID",
        "source_hash": "SOURCE_HASH",
        "players_min": "PLAYERS_MIN",
        "players_max": "PLAYERS_MAX",
        "resource_ids": "RESOURCE_IDS",
        "codes": "CODES",
        "caravan_limit": "CARAVAN_LIMIT",
        "merchant_row": "MERCHANT_ROW",
        "point_row": "POINT_ROW",
        "coins": "COINS",
        "coin_runout": "COIN_RUNOUT",
        "seats": "SEATS",
        "cards": "CARDS",
        "point_cards": "POINT_CARDS",
        "end_threshold": "END_THRESHOLD",
        "finish_round": "FINISH_ROUND",
        "resource_points": "RESOURCE_POINTS",
        "tie_break": "TIE_BREAK",
    }
    rendered = {key: _assign(names[key], value) for key, value in values.items()}
    plain_hash = re.fullmatch(r"[0-9a-f]{1,128}", digest)
    rendered["source_hash_comment"] = digest if plain_hash else "(see SOURCE_HASH)"
    return rendered


# -- the target ----------------------------------------------------------------------------


@cache
def _template() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    return env.get_template("engine.py.j2")


def generate(ruleset: Ruleset) -> str:
    """The engine module's source for `ruleset`: the same model gives the same text."""
    return _template().render(**context(ruleset))


def module_name(ruleset: Ruleset) -> str:
    """The module's file stem: the game id with ``-`` as ``_`` (other odd characters too)."""
    name = re.sub(r"\W", "_", ruleset.id.replace("-", "_"), flags=re.ASCII)
    return name if name and not name[0].isdigit() else f"game_{name}"


def load_engine(ruleset: Ruleset) -> types.ModuleType:
    """The generated engine imported from its source in memory (cached per source hash)."""
    source = generate(ruleset)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    module = _ENGINES.get(digest)
    if module is None:
        name = f"century_engine_{module_name(ruleset)}_{digest[:12]}"
        module = types.ModuleType(name)
        module.__file__ = f"<generated {name}>"
        sys.modules[name] = module
        exec(compile(source, module.__file__, "exec"), module.__dict__)
        _ENGINES[digest] = module
    return module


def write(ruleset: Ruleset, out: Path, options: object = None) -> list[Path]:
    """Write ``out/<module>.py`` and return its path."""
    from compiler.output import atomic_write_bytes

    path = out / f"{module_name(ruleset)}.py"
    atomic_write_bytes(path, generate(ruleset).encode("utf-8"))
    path.chmod(0o644)  # a module to import, readable like any other
    return [path]
