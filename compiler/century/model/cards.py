"""Card effects: the step language of merchant cards, its short forms, and card ids.

A merchant card's effect is a list of steps done in order (``effect:`` in the data):

- ``gain: CUBES`` take the cubes; ``pay: CUBES`` return them (the card cannot be played
  without them); ``pay_any: N`` return any N cubes, the player choosing which;
- ``upgrade: N`` 1 to N single-rank raises;
- ``repeat: STEPS`` with optional ``max: K``: the steps 1 to K times (unbounded without K);
- ``choose: [STEPS, STEPS, ...]``: exactly one of the options.

`KINDS` are short forms of steps (``kind: trade, pay: RR, get: G`` is
``effect: [repeat: [pay: RR, gain: G]]``): `effect_data` turns either form into the steps
as written, `to_steps` into the model's (cube vectors), which the engine's runtime plays
(``century.runtime.engine.effect_ways``: the one implementation of card effects). The schema
(`century.frontend.schema`) builds the short forms' part from `KINDS`.

Card ids are derived from a card's effect so that they read well in moves and data: gain
``+yyr`` · upgrade ``up3`` · trade ``yy-g`` (pay, then get, as often as the caravan can;
``yy-gx2`` at most twice) · pay ``yy-`` · pay any ``any2-`` · steps in a row, joined by
``.`` where no sign parts them (``+yy.up1``, ``any2-+b``, ``y-+r``) · a repeat of other
steps ``{...}x`` (``{...}x2``) · a choice ``{a/b}`` (``{+yyy/up2}``). Letters are the
resource codes in lower case, as written in the data. A card may name its own id instead;
derived ids follow a re-theme that changes the codes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from century.model.steps import COUNT, CUBES, OPTIONS, STEPS, STEPS_OF, step_kind

Card = Mapping[str, Any]
"""A card as written in the data."""

Step = tuple[Any, ...]
"""A step of the model and the engine: ``("gain", cubes)``, ``("pay", cubes)``,
``("pay_any", n)``, ``("upgrade", n)``, ``("repeat", steps, most)`` (most 0: no bound),
``("choose", (steps, ...))``; cubes are vectors by rank."""


FIELDS: dict[str, str] = {"get": CUBES, "pay": CUBES, "steps": COUNT}
"""Every field a short form can have, with its type, in the schema's order."""


@dataclass(frozen=True)
class CardKind:
    """A short form of merchant card: its fields and the steps it stands for."""

    name: str
    fields: tuple[str, ...]
    """The keys it takes (names in `FIELDS`), as the schema requires them."""
    summary: str
    steps: Any
    """(card as written) -> its effect as steps written in the data."""


KINDS: dict[str, CardKind] = {
    kind.name: kind
    for kind in (
        CardKind("gain", ("get",), "take the cubes shown", lambda c: [{"gain": c["get"]}]),
        CardKind(
            "upgrade",
            ("steps",),
            "raise cubes by up to `steps` single ranks",
            lambda c: [{"upgrade": c["steps"]}],
        ),
        CardKind(
            "trade",
            ("pay", "get"),
            "pay `pay` for `get`, as many times as the caravan can pay",
            lambda c: [{"repeat": [{"pay": c["pay"]}, {"gain": c["get"]}]}],
        ),
    )
}
"""Every short form of merchant card, by name."""

COMPOSED = "composed"
"""The shape of an effect that is none of the short forms (`shape`)."""


class UnknownKind(ValueError):
    """A card of a kind `KINDS` does not define."""


def card_kind(name: str) -> CardKind:
    """The short form called `name`; `UnknownKind` for any other."""
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKind(f"unknown card kind {name!r} (kinds: {', '.join(KINDS)})") from None


def is_merchant(card: Card) -> bool:
    """Whether a card as written is a merchant card (a short form or steps)."""
    return "kind" in card or "effect" in card


def effect_data(card: Card) -> list[Any]:
    """A merchant card's steps as written in the data: its ``effect``, or its short form's."""
    if "effect" in card:
        return list(card["effect"])
    return list(card_kind(str(card["kind"])).steps(card))


def step_name(step: Mapping[str, Any]) -> str:
    """The step a step as written is (its one key of `STEPS`)."""
    name = next((key for key in step if key in STEPS), None)
    if name is None:
        step_kind(next((key for key in step if key != "max"), ""))
    return str(name)


def cube_paths(card: Card) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every cube string of a card as written, with its path inside the card: a short
    form's fields, a point card's cost, every ``gain`` and ``pay`` among its steps."""
    for name in (*(n for n, t in FIELDS.items() if t == CUBES), "cost"):
        if isinstance(card.get(name), str):
            yield (name,), card[name]
    if isinstance(card.get("effect"), list):
        yield from _step_cubes(card["effect"], ("effect",))


def _step_cubes(steps: Sequence[Any], at: tuple[str | int, ...]) -> Iterator[Any]:
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            continue
        for key, takes in STEPS.items():
            value = step.get(key)
            if takes == CUBES and isinstance(value, str):
                yield (*at, i, key), value
            elif takes == STEPS_OF and isinstance(value, list):
                yield from _step_cubes(value, (*at, i, key))
            elif takes == OPTIONS and isinstance(value, list):
                for o, option in enumerate(value):
                    if isinstance(option, list):
                        yield from _step_cubes(option, (*at, i, key, o))


def to_steps(steps: Sequence[Any], vector: Any) -> tuple[Step, ...]:
    """Steps as written -> the model's steps; `vector` turns a cube string into a vector."""
    found: list[Step] = []
    for step in steps:
        name = step_name(step)
        value = step[name]
        takes = step_kind(name).takes
        if takes == CUBES:
            found.append((name, vector(value)))
        elif takes == COUNT:
            found.append((name, int(value)))
        elif takes == STEPS_OF:
            found.append((name, to_steps(value, vector), int(step.get("max", 0))))
        else:
            found.append((name, tuple(to_steps(option, vector) for option in value)))
    return tuple(found)


def steps_json(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """The model's steps as JSON (the data's form, cubes as vectors by rank)."""
    found: list[dict[str, Any]] = []
    for step in steps:
        name = step[0]
        takes = step_kind(name).takes
        if takes == STEPS_OF:
            found.append({name: steps_json(step[1]), **({"max": step[2]} if step[2] else {})})
        elif takes == OPTIONS:
            found.append({name: [steps_json(option) for option in step[1]]})
        elif takes == CUBES:
            found.append({name: list(step[1])})
        else:
            found.append({name: step[1]})
    return found


def steps_from_json(data: Sequence[Mapping[str, Any]]) -> tuple[Step, ...]:
    """`steps_json` read back."""
    return to_steps(data, lambda cubes: tuple(int(n) for n in cubes))


def shape(steps: Sequence[Step]) -> str:
    """The short form the steps are (``gain``, ``upgrade``, ``trade``), or `COMPOSED`."""
    if len(steps) == 1:
        step = steps[0]
        if step[0] == "gain":
            return "gain"
        if step[0] == "upgrade":
            return "upgrade"
        if step[0] == "repeat" and not step[2] and is_trade(step[1]):
            return "trade"
    return COMPOSED


def short_fields(steps: Sequence[Step], ranks: int) -> dict[str, Any]:
    """The short form's fields of steps (`FIELDS`: ``get`` and ``pay`` as vectors,
    ``steps``), empty or 0 where the steps are no short form or it has no such field."""
    zero = (0,) * ranks
    found: dict[str, Any] = {"get": zero, "pay": zero, "steps": 0}
    kind = shape(steps)
    if kind == "gain":
        found["get"] = steps[0][1]
    elif kind == "upgrade":
        found["steps"] = steps[0][1]
    elif kind == "trade":
        found["pay"], found["get"] = steps[0][1][0][1], steps[0][1][1][1]
    return found


def is_trade(steps: Sequence[Any]) -> bool:
    """Whether steps (the model's or as written) are one payment, then one gain."""
    names = [step[0] if isinstance(step, tuple) else step_name(step) for step in steps]
    return names == ["pay", "gain"]


def derived_id(card: Card) -> str:
    """The id of a card as written in the data (``id`` wins over the derived form); a card
    that is no merchant card is a point card, named by its cost."""
    if isinstance(card.get("id"), str):
        return card["id"]
    if not is_merchant(card):
        return str(card.get("cost", "")).lower()
    return _steps_id(effect_data(card))


def _steps_id(steps: Sequence[Any]) -> str:
    text = ""
    for step in steps:
        part = _step_id(step)
        joined = text[-1:] in ("", "-") or part[:1] == "+"
        text += part if joined else "." + part
    return text


def _step_id(step: Mapping[str, Any]) -> str:
    name = step_name(step)
    value = step[name]
    kind = step_kind(name)
    if kind.id_part is not None:
        return kind.id_part(value)
    if kind.takes == OPTIONS:
        return "{" + "/".join(_steps_id(option) for option in value) + "}"
    most = f"x{step['max']}" if step.get("max") else ""
    if is_trade(value):
        pay, get = (str(s[step_name(s)]).lower() for s in value)
        return f"{pay}-{get}{most}"
    return "{" + _steps_id(value) + "}" + (most or "x")


def depth(steps: Sequence[Any]) -> int:
    """How deep steps as written nest: 1 for plain steps, one more per repeat or choose."""
    most = 1
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        for key, takes in STEPS.items():
            value = step.get(key)
            if takes == STEPS_OF and isinstance(value, list):
                most = max(most, 1 + depth(value))
            elif takes == OPTIONS and isinstance(value, list):
                for option in value:
                    most = max(most, 1 + depth(option if isinstance(option, list) else []))
    return most
