"""The versions of a card `century tune` tries: the card's numbers changed one step at a time.

A card's numbers are the cubes it gains and pays, its upgrades, a `pay_any`'s count and a
repeat's `max` (a merchant card), or its points (a point card: one owned from the start is
already claimed, so its cost moves nothing the owner effect measures). One edit adds or
removes one cube of one rank in one cube string, moves one cube of a string one rank up or
down, or moves one count by one. Every edit makes the card stronger or weaker for its owner
(a cube more gained, fewer paid, one upgrade more, a repeat allowed once more, a point more:
stronger), so the versions of one direction form a lattice walked outward from the card
(`versions`); a version is kept only when it is a card the checks accept (no empty field, a
trade that pays other cubes than it gets and cannot give back what it takes, a caravan that
can hold it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from century.model.cards import STEPS, shape
from century.model.notation import flow_steps, written
from century.model.ruleset import MerchantCard, PointCard, Ruleset

STRONGER, WEAKER = 1, -1
"""The directions of an edit, for the card's owner."""

Numbers = tuple[Any, ...]
"""A version's numbers in the order `slots` finds them: cube vectors and counts."""


@dataclass(frozen=True)
class Slot:
    """One number of a card: a cube vector or a count, and which way raising it moves the
    card for its owner (`STRONGER` or `WEAKER`)."""

    name: str
    cubes: bool
    sign: int


class NothingToTune(ValueError):
    """A card with no number to change."""


def slots(card: MerchantCard | PointCard) -> tuple[list[Slot], Numbers]:
    """The numbers of `card` the search may change, with their values."""
    if isinstance(card, PointCard):  # owned from the start, its cost is paid: points only
        return [Slot("points", False, STRONGER)], (card.points,)
    found: list[tuple[Slot, Any]] = list(_step_slots(card.effect))
    if not found:
        raise NothingToTune(f"card {card.id!r} has no number to change")
    return [slot for slot, _ in found], tuple(value for _, value in found)


SIGNS = {"gain": STRONGER, "pay": WEAKER, "upgrade": STRONGER, "pay_any": WEAKER}


def _step_slots(steps: Any) -> Iterator[tuple[Slot, Any]]:
    for step in steps:
        name = step[0]
        if name in SIGNS:
            yield Slot(name, STEPS[name] == "cubes", SIGNS[name]), step[1]
        elif name == "repeat":
            yield from _step_slots(step[1])
            if step[2]:
                yield Slot("max", False, STRONGER), step[2]
        else:
            for option in step[1]:
                yield from _step_slots(option)


def rebuilt(card: MerchantCard | PointCard, numbers: Numbers) -> MerchantCard | PointCard:
    """`card` with its numbers (`slots`) replaced by `numbers`."""
    from dataclasses import replace

    if isinstance(card, PointCard):
        return replace(card, points=numbers[0])
    values = iter(numbers)
    return replace(card, effect=_rebuilt_steps(card.effect, values))


def _rebuilt_steps(steps: Any, values: Iterator[Any]) -> tuple[Any, ...]:
    found: list[Any] = []
    for step in steps:
        name = step[0]
        if name in SIGNS:
            found.append((name, next(values)))
        elif name == "repeat":
            inner = _rebuilt_steps(step[1], values)
            found.append((name, inner, next(values) if step[2] else 0))
        else:
            found.append((name, tuple(_rebuilt_steps(o, values) for o in step[1])))
    return tuple(found)


def edits(numbers: Numbers, found: list[Slot], direction: int, limit: int) -> Iterator[Numbers]:
    """The numbers one edit away from `numbers` that move the card in `direction`: a cube of
    one rank added to or removed from one cube string (at most `limit` cubes, at least one),
    one cube of a string moved one rank up or down, a count moved by one (at least 1; at most
    `limit`, but for points)."""
    for k, (slot, value) in enumerate(zip(found, numbers, strict=True)):
        if slot.cubes:
            for rank in range(len(value)):
                for step in (1, -1):
                    if slot.sign * step != direction or value[rank] + step < 0:
                        continue
                    vector = tuple(n + step * (r == rank) for r, n in enumerate(value))
                    if 1 <= sum(vector) <= limit:
                        yield (*numbers[:k], vector, *numbers[k + 1 :])
            yield from (
                (*numbers[:k], vector, *numbers[k + 1 :])
                for vector in _shifts(value, slot.sign * direction)
            )
        else:
            count = value + slot.sign * direction
            if count >= 1 and (count <= limit or slot.name == "points"):
                yield (*numbers[:k], count, *numbers[k + 1 :])


def _shifts(value: tuple[int, ...], up: int) -> Iterator[tuple[int, ...]]:
    """`value` with one cube moved one rank up (`up` 1) or down (`up` -1)."""
    for rank, count in enumerate(value):
        to = rank + up
        if count and 0 <= to < len(value):
            moved = list(value)
            moved[rank] -= 1
            moved[to] += 1
            yield tuple(moved)


def sound(card: MerchantCard | PointCard) -> bool:
    """Whether a version is a card the checks accept: a trade that pays other cubes than it
    gets and cannot give back what it takes (a repeat without end)."""
    if isinstance(card, PointCard):
        return True
    if shape(card.effect) == "trade":
        pay, get = card.effect[0][1][0][1], card.effect[0][1][1][1]
        return pay != get and not all(g >= p for g, p in zip(get, pay, strict=True))
    return shape(card.effect) != "composed" or not _endless(card.effect)


def _endless(steps: Any) -> bool:
    """Whether a repeat without `max` of `steps` pays nothing (so it could go on)."""
    for step in steps:
        if step[0] == "repeat":
            paid = any(s[0] in ("pay", "pay_any") for s in step[1])
            if (not step[2] and not paid) or _endless(step[1]):
                return True
        elif step[0] == "choose" and any(_endless(o) for o in step[1]):
            return True
    return False


def card_text(card: MerchantCard | PointCard, codes: str) -> str:
    """A version written as in a deck, e.g. ``{kind: trade, pay: YY, get: RR}``."""

    def cubes(vector: Any) -> str:
        return "".join(code * n for code, n in zip(codes, vector, strict=False))

    if isinstance(card, PointCard):
        return f"{{cost: {cubes(card.cost)}, points: {card.points}}}"
    kind = shape(card.effect)
    if kind == "gain":
        return f"{{kind: gain, get: {cubes(card.effect[0][1])}}}"
    if kind == "upgrade":
        return f"{{kind: upgrade, steps: {card.effect[0][1]}}}"
    if kind == "trade":
        pay, get = card.effect[0][1][0][1], card.effect[0][1][1][1]
        return f"{{kind: trade, pay: {cubes(pay)}, get: {cubes(get)}}}"
    return f"{{effect: {flow_steps(written(card.effect, codes))}}}"


@dataclass(frozen=True)
class Version:
    """A version of the tuned card: as written in a deck, its edits from the card, and the
    versions one edit nearer the card it is one edit from (none for the first edits)."""

    text: str
    edits: int
    parents: tuple[str, ...] = ()


def versions(
    ruleset: Ruleset, card: MerchantCard | PointCard, direction: int, most: int, depth: int
) -> list[Version]:
    """At most `most` versions of `card` (of `ruleset`) in `direction`, nearest first: every
    sound version one edit away, then two, up to `depth` edits (each written once, at its
    fewest edits; in the order the edits find them), each with its sound parents."""
    found_slots, start = slots(card)
    limit = ruleset.caravan_limit
    texts = {start: ""}
    layer, found = [start], []
    for distance in range(1, depth + 1):
        parents: dict[Numbers, list[str]] = {}
        for numbers in layer:
            for near in edits(numbers, found_slots, direction, limit):
                if near in texts:
                    continue
                parents.setdefault(near, [])
                if texts[numbers]:
                    parents[near].append(texts[numbers])
        for near, above in parents.items():
            version = rebuilt(card, near)
            texts[near] = card_text(version, ruleset.codes) if sound(version) else ""
            if texts[near]:
                found.append(Version(texts[near], distance, tuple(above)))
                if len(found) == most:
                    return found
        layer = list(parents)
    return found
