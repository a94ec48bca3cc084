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
    to_steps,
)
from century.model.ruleset import Step
from century.model.steps import OPTIONS, STEPS_OF, step_kind
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


def endless_paths(ctx: Context, steps: tuple[Step, ...]) -> list[Path_]:
    """The paths (inside the effect) of the repeats without `max` that can go on forever
    (`_goes_on`), innermost first; read once per effect."""
    memo = ctx.memo.setdefault("endless", {})
    if steps not in memo:
        ranks, limit = len(ctx.data["resources"]), ctx.data["caravan_limit"]
        memo[steps] = list(_endless(steps, ranks, limit, ()))
    found: list[Path_] = memo[steps]
    return found


def _endless(steps: Sequence[Any], ranks: int, limit: int, at: Path_) -> Iterator[Path_]:
    for i, step in enumerate(steps):
        takes = step_kind(step[0]).takes
        if takes == STEPS_OF:
            inner = list(_endless(step[1], ranks, limit, (*at, i, step[0])))
            yield from inner
            if not inner and not step[2] and _goes_on(step[1], ranks, limit):
                yield (*at, i)
        elif takes == OPTIONS:
            for o, option in enumerate(step[1]):
                yield from _endless(option, ranks, limit, (*at, i, step[0], o))


ENDLESS_PAIRS = 200
"""Distinct changes of a repeat's steps up to which every two in a row are tried (`_goes_on`)."""


def _goes_on(body: tuple[Step, ...], ranks: int, limit: int) -> bool:
    """Whether a repeat of `body` without `max` can go on forever: one way through its
    steps, or two one after the other, leaves at least every cube it found and more of
    some (so it can be done again, and again). A repeat of upgrades, or one that pays more
    than it gives, runs out."""
    try:
        changes = {way.delta for way in ways(body, ranks, limit)}
    except EffectTooLarge:
        return False  # too many ways to tell: C506 says so
    grows = [d for d in changes if all(n >= 0 for n in d) and any(d)]
    if grows:
        return True
    if len(changes) > ENDLESS_PAIRS:
        return False
    listed = sorted(changes)
    return any(
        all(a + b >= 0 for a, b in zip(one, two, strict=True))
        and any(a + b for a, b in zip(one, two, strict=True))
        for i, one in enumerate(listed)
        for two in listed[i + 1 :]
    )


def most_from_one(found: Sequence[Way], limit: int, over: int = limits.MAX_CARD_MOVES) -> int:
    """The most different moves the ways `found` make from one caravan of at most `limit`
    cubes: the changes one of whose least caravans fits in it. Counted over all caravans
    first (an upper bound, returned when it is not past `over`); past it, the best caravan is
    searched for rank by rank (more cubes never make fewer moves, so the last rank takes the
    room left), each change a bit, leaving out the caravans that cannot beat the best found."""
    needs: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for way in found:
        if sum(way.need) <= limit:
            needs.setdefault(way.delta, set()).add(way.need)
    if len(needs) <= over:
        return len(needs)
    ranks = len(found[0].need)
    # layer k holds each change's k-th least caravan; fits[k][rank][cubes]: the changes
    # whose k-th least caravan needs at most `cubes` of `rank`
    layers = [sorted(least) for least in needs.values()]
    fits = [[[0] * (limit + 1) for _ in range(ranks)] for _ in range(max(map(len, layers)))]
    for c, least in enumerate(layers):
        for k, need in enumerate(least):
            for r in range(ranks):
                fits[k][r][need[r]] |= 1 << c
    for by_rank in fits:
        for row in by_rank:
            for x in range(1, limit + 1):
                row[x] |= row[x - 1]
    best = 0

    def search(rank: int, room: int, sets: list[int]) -> None:
        nonlocal best
        if rank == ranks - 1:
            count = 0
            for k, bits in enumerate(sets):
                count |= bits & fits[k][rank][room]
            best = max(best, count.bit_count())
            return
        union = 0
        for bits in sets:
            union |= bits
        if union.bit_count() <= best:
            return
        for cubes in range(room, -1, -1):
            search(rank + 1, room - cubes, [b & fits[k][rank][cubes] for k, b in enumerate(sets)])

    search(0, limit, [-1] * len(fits))
    return best


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
        if steps is None or endless_paths(ctx, steps):
            continue  # unknown codes (C302) or a repeat that never ends (C317) come later
        try:
            found = ways(steps, ranks, limit)
        except EffectTooLarge:
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} can be played in more than {MOST_WAYS:,} ways from "
                f"a caravan of at most {limit} cubes (MOST_WAYS, the most ways the engine "
                "lists for one card)",
                "a `max` on its repeats, fewer upgrades or a smaller `pay_any` keep it playable",
            )
            continue
        moves = most_from_one(found, limit)
        if moves > limits.MAX_CARD_MOVES:
            yield ctx.diag(
                _effect_at(card, path),
                f"card {derived_id(card)!r} can make up to {moves:,} different moves from one "
                f"caravan, over the limit of {limits.MAX_CARD_MOVES:,} (MAX_CARD_MOVES)",
                "fewer upgrades, a smaller `pay_any` or a `max` on its repeats keep it playable",
            )


def endless_repeats(ctx: Context) -> Iterator[Diagnostic]:
    """Every `repeat` without `max` must run out: a repeat whose steps can give back at
    least what they take (a gain alone, a payment that gets more back) never ends."""
    for path, card, steps in merchant_cards(ctx):
        if "effect" not in card or steps is None:
            continue
        for at in endless_paths(ctx, steps):
            yield ctx.diag(
                (*path, "effect", *at),
                f"card {derived_id(card)!r}: a `repeat` without `max` whose steps can give back "
                "at least what they take never ends",
                "give the repeat `max: K`, or make its steps cost more than they give",
            )


def card_ways(
    ctx: Context, card: Mapping[str, Any], steps: tuple[Step, ...] | None
) -> tuple[Way, ...] | None:
    """The ways of a card whose effect is sound so far (else None: another check says why)."""
    if steps is None or ("kind" in card and _short_form_problems(card)):
        return None
    if endless_paths(ctx, steps):
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
