"""Checks of merchant card effects (the step language, `century.model.cards`).

Each card's steps are played by the engine's own rules (``century.runtime.engine``: the
ways to do an effect from any caravan up to the caravan limit), so what these checks say of
an effect is what the engine will do with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from century.base import limits
from century.base.diagnostics import Diagnostic
from century.checks.context import Context
from century.engine.effects import ways
from century.frontend.loader import Path_
from century.model.cards import (
    KINDS,
    depth,
    derived_id,
    effect_data,
    is_merchant,
    step_name,
    to_steps,
)
from century.model.ruleset import Step
from century.runtime.engine import MOST_WAYS, EffectTooLarge, Way


def merchant_cards(ctx: Context) -> list[tuple[Path_, dict[str, Any], tuple[Step, ...] | None]]:
    """(path, card, its steps) for every merchant card; steps None where a cube string has
    an unknown code (`known_codes` says so) or a short form lacks a field. Read once per
    game tree."""
    found = ctx.memo.get("merchant_cards")
    if found is None:
        found = ctx.memo["merchant_cards"] = list(_merchant_cards(ctx))
    return found


def _merchant_cards(
    ctx: Context,
) -> Iterator[tuple[Path_, dict[str, Any], tuple[Step, ...] | None]]:
    ranks = len(ctx.data["resources"])

    def vector(cubes: str) -> tuple[int, ...]:
        counts = [0] * ranks
        for code in cubes.upper():
            counts[ctx.codes[code]] += 1  # KeyError: an unknown code
        return tuple(counts)

    for deck, i, card in ctx.cards():
        if not is_merchant(card):
            continue
        try:
            steps: tuple[Step, ...] | None = to_steps(effect_data(card), vector)
        except (KeyError, TypeError, ValueError):
            steps = None
        yield ("decks", deck, "cards", i), card, steps


def ladder(ctx: Context) -> str:
    """The ladder's codes, lower case, lowest rank first."""
    return "".join(resource["code"] for resource in ctx.data["resources"]).lower()


def _endless_repeats(steps: Sequence[Any], at: Path_) -> Iterator[Path_]:
    """The paths of the repeats without `max` whose steps pay nothing."""
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            continue
        if isinstance(step.get("repeat"), list):
            if not step.get("max") and not _pays(step["repeat"]):
                yield (*at, i)
            yield from _endless_repeats(step["repeat"], (*at, i, "repeat"))
        if isinstance(step.get("choose"), list):
            for o, option in enumerate(step["choose"]):
                yield from _endless_repeats(option, (*at, i, "choose", o))


def _has_endless(steps: Sequence[Any]) -> bool:
    """Whether steps as written hold a repeat without `max`."""
    for step in steps:
        name = step_name(step)
        if name == "repeat" and (not step.get("max") or _has_endless(step["repeat"])):
            return True
        if name == "choose" and any(_has_endless(option) for option in step["choose"]):
            return True
    return False


def _pays(steps: Sequence[Any]) -> bool:
    """Whether every way through `steps` pays some cubes."""
    for step in steps:
        name = step_name(step)
        if name in ("pay", "pay_any") or (name == "repeat" and _pays(step["repeat"])):
            return True
        if name == "choose" and all(_pays(option) for option in step["choose"]):
            return True
    return False


def _effect_at(card: Mapping[str, Any], path: Path_) -> Path_:
    return (*path, "effect") if "effect" in card else path


def effect_sizes(ctx: Context) -> Iterator[Diagnostic]:
    """Effects within the engine's caps: nesting at most `MAX_EFFECT_DEPTH` deep, at most
    `MAX_CARD_MOVES` moves from one caravan, and an end to every repeat."""
    ranks, limit = len(ctx.data["resources"]), ctx.data["caravan_limit"]
    if len(ctx.codes) < len(ctx.data["resources"]):
        return  # shared codes: `unique_resources` reports the cause
    for path, card, steps in merchant_cards(ctx):
        written = effect_data(card)
        deep = depth(written)
        if deep > limits.MAX_EFFECT_DEPTH:
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} nests its steps {deep} deep, over the limit of "
                f"{limits.MAX_EFFECT_DEPTH} (MAX_EFFECT_DEPTH)",
                "write the effect with fewer `repeat` and `choose` inside each other",
            )
            continue
        if steps is None or any(_endless_repeats(written, ())):
            continue  # unknown codes (C302) or a repeat that never ends (C317) come later
        try:
            found = ways(steps, ranks, limit)
        except EffectTooLarge:
            endless = _has_endless(written)
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} can be played in more than {MOST_WAYS:,} ways from "
                f"a caravan of at most {limit} cubes",
                "a `repeat` whose steps give back what they pay never ends: give it `max`"
                if endless
                else "fewer upgrades or a smaller `pay_any` keep it playable",
            )
            continue
        moves = len({way.delta for way in found})
        if moves > limits.MAX_CARD_MOVES:
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} can make up to {moves:,} different moves from one "
                f"caravan, over the limit of {limits.MAX_CARD_MOVES:,} (MAX_CARD_MOVES)",
                "fewer upgrades, a smaller `pay_any` or a `max` on its repeats keep it playable",
            )


def endless_repeats(ctx: Context) -> Iterator[Diagnostic]:
    """Every `repeat` without `max` must pay something each time, or it never ends."""
    for path, card, _ in merchant_cards(ctx):
        if "effect" not in card:
            continue
        for at in _endless_repeats(card["effect"], ()):
            yield ctx.diag(
                (*path, "effect", *at),
                f"card {derived_id(card)!r}: a `repeat` without `max` that pays nothing never ends",
                "give the repeat `max: K`, or a `pay` or `pay_any` step",
            )


def card_ways(
    ctx: Context, card: Mapping[str, Any], steps: tuple[Step, ...] | None
) -> tuple[Way, ...] | None:
    """The ways of a card whose effect is sound so far (else None: another check says why)."""
    if steps is None or ("kind" in card and _short_form_problems(card)):
        return None
    if "effect" in card and any(_endless_repeats(card["effect"], ())):
        return None
    try:
        return ways(steps, len(ctx.data["resources"]), ctx.data["caravan_limit"])
    except EffectTooLarge:
        return None  # C506


def playable(ctx: Context) -> Iterator[Diagnostic]:
    """Every merchant card can be played from some caravan within the caravan limit: one
    error, at the first card that cannot, naming the others (they share the cause)."""
    limit = ctx.data["caravan_limit"]
    found = [
        (path, card)
        for path, card, steps in merchant_cards(ctx)
        if card_ways(ctx, card, steps) == ()
    ]
    if found:
        (path, card), others = found[0], [derived_id(card) for _, card in found[1:]]
        more = ""
        if others:
            names = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
            more = f" (nor can {len(others)} more: {names})"
        yield ctx.diag(
            _effect_at(card, path),
            f"card {derived_id(card)!r} cannot be played: no caravan of at most {limit} "
            f"cubes can pay what it asks{more}",
            "pay fewer cubes, or raise the caravan limit",
            because=(("caravan_limit",),),
        )


def _short_form_problems(card: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for each way a short form's fields are empty or do nothing."""
    kind = KINDS.get(str(card.get("kind")))
    if kind is None:
        return []
    found = []
    if "get" in kind.fields and not card.get("get"):
        found.append(("get", "the card gives nothing"))
    if "steps" in kind.fields and card.get("steps", 0) < 1:
        found.append(("steps", "an upgrade card needs at least 1 step"))
    if "pay" in kind.fields:
        if not card.get("pay"):
            found.append(("pay", "a trade card must take something"))
        elif sorted(str(card["pay"]).upper()) == sorted(str(card.get("get", "")).upper()):
            found.append(("", "the trade pays and gets the same cubes"))
    return found


def card_effects(ctx: Context) -> Iterator[Diagnostic]:
    """Cards whose effect is empty or does nothing: a short form's empty fields, an effect
    every way of which gives back what it takes, a point card that costs nothing."""
    for deck, i, card in ctx.cards():
        path: Path_ = ("decks", deck, "cards", i)
        if "kind" in card:
            for field, message in _short_form_problems(card):
                yield ctx.diag((*path, field) if field else path, message)
        elif not is_merchant(card) and not card["cost"]:
            yield ctx.diag((*path, "cost"), "a point card must cost something")
    for path, card, steps in merchant_cards(ctx):
        found = card_ways(ctx, card, steps)
        if found and not any(any(way.delta) for way in found):
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} never changes a caravan: every way to play it "
                "gives back what it takes",
                "make it gain, pay or upgrade something",
            )
