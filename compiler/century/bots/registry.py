"""Bots that play any generated engine through its public API, and their registry.

- ``random``: a uniformly random legal move.
- ``greedy``: claims the best point card it can; otherwise plays the card that brings its
  caravan closest to a point card in the row, acquires merchant cards while its hand is
  small and a card is worth its price, and rests when nothing in hand helps.
- ``search`` (``search:N``): greedy moves looked ahead: it tries the greedy bot's N best
  moves (default 3, one per merchant slot for acquisitions), lets the opponents answer as
  the greedy bot would and repeats for its next own turns (3 in all), on a deal of the
  unseen cards drawn afresh each decision (the real decks' order is hidden).
- ``planner`` (``planner:N``): plans its own next N turns (default 3) toward the point
  cards in the row and builds its engine; see `century.bots.planner`.
- ``expert`` (``expert:N``): weighs the planner's best moves by short planner games on N
  sampled deals (default 6); a slow reference, see `century.bots.expert`.

Bots are made for one engine (`century.engine.Engine`, passed to them) and play its states.
They read the position through ``state.view()`` (live, nothing converted) and learn what a
move does only from the engine: each legal move comes with the caravan it leaves, from the
engine's memo tables, so the rules of the cards are written once, in the engine. What they
know of a game is in `century.bots.knowledge`. They never read the decks' order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from century.bots.expert import ExpertBot
from century.bots.knowledge import Knowledge, Node, knowledge
from century.bots.planner import PlannerBot
from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import State

CLAIM_SCORE = 1000.0
"""Greedy scores of claims start here, above every other kind of move."""


class Bot(Protocol):
    """Anything that picks a move for the player to move."""

    name: str

    def choose(self, state: State) -> str: ...


class RandomBot:
    """A uniformly random legal move."""

    name = "random"

    def __init__(self, engine: Engine, ruleset: Ruleset, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> str:
        return self.rng.choice(state.legal_moves())


Scored = tuple[float, str, object]
"""A move with its greedy score and a key that is the same for acquisitions of one slot."""


class GreedyBot:
    """One-step heuristics toward the point card it is closest to (see the module doc)."""

    name = "greedy"
    DISTANCE_WEIGHT: ClassVar[int] = 2  # points lost per unit of missing cube value
    HAND_EARLY: ClassVar[int] = 4  # acquire before all but a claim while owning fewer cards...
    HAND_TARGET: ClassVar[int] = 8  # ...and rather than rest while owning fewer than this...
    ACQUIRE_MIN: ClassVar[float] = 2.0  # ...and the card is worth at least this much net
    PAY_WEIGHT: ClassVar[float] = 0.5  # worth lost per unit of cube value placed on the row

    def __init__(self, engine: Engine, ruleset: Ruleset, seed: int) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.native: Callable[[State], str | None] | None = native_greedy(self, engine, ruleset)

    def choose(self, state: State) -> str:
        if self.native is not None and type(state) is self.engine.State:
            move = self.native(state)  # the same move, found in C (None: a large discard)
            if move is not None:
                return move
        return best_move(self.scored(state))

    def scored(self, state: State) -> list[Scored]:
        """The legal moves with their greedy scores, in the engine's order; acquisitions
        once per slot and multiset of cubes paid. Claims score above everything else."""
        know = knowledge(self.engine, self.ruleset)
        view = state.view()
        potential = self.potential(know, know.targets(view))
        if view.discarding:
            return [(potential(node), move, move) for move, node in view.discards()]
        claims = view.claims()
        if claims:
            row = view.point_row
            return [
                (CLAIM_SCORE + know.claim_value(view, slot, row[slot]), move, move)
                for move, slot, _ in claims
            ]
        me = view.current_player
        base = potential(view.caravan(me))
        owned = len(view.hand(me)) + len(view.played(me))
        scored: list[Scored] = []
        for move, _, node in view.plays():
            gain = potential(node) - base
            scored.append((100.0 + gain if gain > 0 else gain - 1.0, move, move))
        row, cubes = view.merchant_row, view.merchant_cubes
        worth = [
            know.card_worth[card] + know.value(on) for card, on in zip(row, cubes, strict=True)
        ]
        for move, slot, paid, _ in view.acquires():
            net = worth[slot] - self.PAY_WEIGHT * know.value(paid)
            if owned < self.HAND_EARLY and net > 0:
                score = 150.0 + net
            elif owned < self.HAND_TARGET and net >= self.ACQUIRE_MIN:
                score = 50.0 + net
            else:
                score = net - 20.0
            scored.append((score, move, ("acquire", slot)))
        scored.append((10.0 if view.played(me) else -50.0, "rest", "rest"))
        return scored

    def potential(self, know: Knowledge, targets: list[tuple[int, int]]) -> Callable[[Node], float]:
        """How close a caravan is to the best point card in the row, in points (memoised)."""
        memo: dict[Node, float] = {}
        weight, limit = self.DISTANCE_WEIGHT, know.limit

        def potential(node: Node) -> float:
            found = memo.get(node)
            if found is None:
                missing = know.deficits(node)
                best = max((pts - weight * missing[card] for card, pts in targets), default=0)
                over = node.size - limit
                found = best + 0.05 * know.value(node) - (3.0 * over if over > 0 else 0.0)
                memo[node] = found
            return found

        return potential


def native_greedy(
    bot: GreedyBot, engine: Engine, ruleset: Ruleset
) -> Callable[[State], str | None] | None:
    """The greedy bot's move found in C, where `engine` is a C engine (``--backend c``) and
    the bot scores moves as `GreedyBot` does (a subclass that scores otherwise stays in
    Python); else None. The C function reads the state and the outcome tables and scores the
    moves as `GreedyBot.scored` does, with what the bot derives from the rules alone (the
    value weights, each card's worth, the tunings) passed in once."""
    found = getattr(engine, "greedy", None)
    cls = type(bot)
    if found is None or cls.scored is not GreedyBot.scored:
        return None
    if cls.potential is not GreedyBot.potential:
        return None
    know = knowledge(engine, ruleset)
    weights = tuple(float(w) for w in know.weights)
    worth = tuple(know.card_worth)
    tunings = (
        float(bot.DISTANCE_WEIGHT),
        float(bot.HAND_EARLY),
        float(bot.HAND_TARGET),
        float(bot.ACQUIRE_MIN),
        float(bot.PAY_WEIGHT),
    )

    def native(state: State) -> str | None:
        move: str | None = found(state, weights, worth, tunings)
        return move

    return native


def best_move(scored: Iterable[Scored]) -> str:
    """The move of the highest score; the first of equal ones."""
    best, best_score = "", 0.0
    for score, move, _ in scored:
        if not best or score > best_score:
            best, best_score = move, score
    return best


class SearchBot:
    """Greedy moves looked ahead on a sampled deal (see the module doc)."""

    name = "search"
    BREADTH: ClassVar[int] = 3  # moves tried per own turn
    DEPTH: ClassVar[int] = 3  # own turns looked ahead

    def __init__(self, engine: Engine, ruleset: Ruleset, seed: int, breadth: int = 0) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.greedy = GreedyBot(engine, ruleset, seed)
        self.breadth = breadth or self.BREADTH
        self.rng = random.Random(seed)

    def choose(self, state: State) -> str:
        ranked = self.ranked(state)
        if len(ranked) == 1 or ranked[0][0] >= CLAIM_SCORE:
            return ranked[0][1]  # a claim now beats any plan that claims later
        me = state.current_player
        deal = state.view().sample(self.rng)  # the unseen cards in an order of its own
        best, best_value = ranked[0][1], -1e18
        for move in self.candidates(ranked):
            child = deal.clone()
            child.play(move)
            value = self.value(child, me, self.DEPTH - 1)
            if value > best_value:
                best, best_value = move, value
        return best

    def ranked(self, state: State) -> list[Scored]:
        """The greedy scores, best first (the engine's order among equal scores)."""
        scored = self.greedy.scored(state)
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        return [scored[i] for i in order]

    def candidates(self, ranked: list[Scored]) -> list[str]:
        """The best moves by greedy score, one per merchant-row slot for acquisitions."""
        found: list[str] = []
        keys: set[object] = set()
        for _, move, key in ranked:
            if key in keys:
                continue
            keys.add(key)
            found.append(move)
            if len(found) == self.breadth:
                break
        return found

    def value(self, state: State, me: int, depth: int) -> float:
        """The best evaluation reachable in `depth` more own turns."""
        self.advance(state, me)
        if depth == 0 or state.is_over():
            return self.evaluate(state, me)
        best = -1e18
        for move in self.candidates(self.ranked(state)):
            child = state.clone()
            child.play(move)
            best = max(best, self.value(child, me, depth - 1))
        return best

    def advance(self, state: State, me: int) -> None:
        """Play greedy moves (own discards, the opponents' turns) until our next action."""
        view = state.view()
        while not view.over and (view.current_player != me or view.discarding):
            state.play(self.greedy.choose(state))

    def evaluate(self, state: State, me: int) -> float:
        """Own score and progress minus the best opponent's; a finished game is won or lost."""
        view = state.view()
        scores = [view.score(seat) for seat in range(view.players)]
        if view.over:
            return 1000.0 if state.winner() == me else -1000.0 + scores[me] - max(scores)
        know = knowledge(self.engine, self.ruleset)
        potential = self.greedy.potential(know, know.targets(view))
        estimate = [
            scores[seat]
            + 0.5 * max(0.0, potential(view.caravan(seat)))
            + 0.5 * (len(view.hand(seat)) + len(view.played(seat)))
            for seat in range(view.players)
        ]
        return estimate[me] - max(e for seat, e in enumerate(estimate) if seat != me)


# -- the registry -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BotKind:
    """A bot the CLI can name: how to make it, what it does, what ``name:N`` sets."""

    make: Callable[..., Bot]
    summary: str
    option: str = ""  # what N in ``name:N`` sets; empty when the bot takes none
    auto: bool = True  # whether ``--bots auto`` may pick it (fast enough for large runs)


BOTS: dict[str, BotKind] = {
    "random": BotKind(RandomBot, "a uniformly random legal move"),
    "greedy": BotKind(GreedyBot, "one-step heuristics toward the nearest point card"),
    "search": BotKind(
        SearchBot,
        "greedy moves looked ahead over its next 3 turns, on sampled deals",
        "moves tried per turn (default 3)",
    ),
    "planner": BotKind(
        PlannerBot,
        "plans its own next turns toward the point cards in the row, builds an engine",
        "turns searched (default 3)",
    ),
    "expert": BotKind(
        ExpertBot,
        "weighs the planner's best moves by short planner games on sampled deals (slow)",
        "deals sampled per decision (default 6)",
        auto=False,
    ),
}

STRONGEST_FIRST = ("expert", "planner", "search", "greedy", "random")
"""The bots from the strongest down, as the bot ladder measures them (see the docs: the bots)."""


class SpecError(ValueError):
    """A bot spec refused, for `reason`: ``unknown`` (no such bot; `choices`, the bots) or
    ``option`` (a ``:N`` the bot does not take; `choices`, the bots that take one)."""

    def __init__(self, message: str, reason: str, spec: str, choices: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.spec = spec
        self.choices = choices


def check_spec(spec: str) -> None:
    """Raise `SpecError` (a ValueError) unless `spec` names a bot, with ``:N`` only where the
    bot takes it."""
    name, colon, arg = spec.partition(":")
    if name not in BOTS:
        known = ", ".join(BOTS)
        raise SpecError(f"unknown bot {spec!r} (known: {known})", "unknown", spec, known)
    if colon and (not BOTS[name].option or not arg.isdigit() or not 1 <= int(arg) <= 9):
        takes = ", ".join(f"{n}:N" for n, kind in BOTS.items() if kind.option)
        message = f"bad bot option in {spec!r}: N is 1..9, taken by {takes}"
        raise SpecError(message, "option", spec, takes)


def make_bot(spec: str, engine: Engine, ruleset: Ruleset, seed: int) -> Bot:
    """A bot from its spec (a name from `BOTS`, with ``:N`` for the bots that take it) that
    plays the states of `engine` (the engine of `ruleset`)."""
    check_spec(spec)
    name, _, arg = spec.partition(":")
    kind = BOTS[name]
    return kind.make(engine, ruleset, seed, int(arg)) if arg else kind.make(engine, ruleset, seed)
