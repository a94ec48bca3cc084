"""What bots know of a game: the engine's tables, the model's value weights, and memo tables
over caravans, shared by every bot of a process.

Everything here is read from the generated engine (its constants, and the outcome tables
on its caravans) and from the `Ruleset` (the value weights of the resource ladder, the
weights the point cards are priced with): nothing about a particular game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import islice
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import Caravan, View

Node: TypeAlias = "Caravan"
"""An engine's interned caravan (``vector``, ``size``, ``text``, outcome tables), keyed by
identity."""


class Knowledge:
    """One game as bots see it.

    A caravan's value is the weighted sum of its cubes. A merchant card's worth is what
    playing it adds to the value of a caravan at best, averaged over every caravan of half
    the limit, measured with the engine's outcome tables (so no card effect is written
    here).
    """

    MEMO_CAP: ClassVar[int] = 200_000
    """Memoised caravans per table before the table starts afresh."""
    TABLES_KEPT: ClassVar[int] = 64
    """Contexts whose memo tables are kept (`table`) before they start afresh."""
    WORTH_SAMPLE: ClassVar[int] = 500
    """The most caravans a merchant card's worth is averaged over."""

    def __init__(self, engine: Engine, ruleset: Ruleset) -> None:
        self.engine = engine
        self.limit: int = engine.CARAVAN_LIMIT
        self.ranks = len(engine.CODES)
        weights = tuple(ruleset.value_weights)
        if len(weights) != self.ranks or not all(w > 0 for w in weights):
            weights = tuple(range(1, self.ranks + 1))
        self.weights: tuple[int, ...] = weights
        self.costs = tuple(card.cost for card in engine.POINT_CARDS)
        self.points = tuple(card.points for card in engine.POINT_CARDS)
        self.coin_values = tuple(coin.value for coin in engine.COINS)
        self.empty = engine.caravan((0,) * self.ranks)
        self.values: dict[Node, int] = {}
        """The memo table of `value`, read directly where every call counts."""
        self._kept: dict[Node, Node] = {}
        self._deficits: dict[Node, tuple[int, ...]] = {}
        self._payable: dict[Node, int] = {}
        self._tables: dict[Hashable, dict[Any, Any]] = {}
        self._memo: dict[Hashable, Any] = {}
        half = self.limit // 2
        step = -(-comb(half + self.ranks - 1, self.ranks - 1) // self.WORTH_SAMPLE)
        self._worth_vectors = list(islice(vectors(self.ranks, half), 0, None, step))
        self.card_worth = tuple(self._card_worth(card) for card in range(len(engine.CARDS)))

    def value(self, node: Node) -> int:
        """The weighted value of a caravan's cubes."""
        value = self.values.get(node)
        if value is None:
            if len(self.values) > self.MEMO_CAP:
                self.values.clear()
            value = self.values[node] = sum(map(int.__mul__, node.vector, self.weights))
        return value

    def kept(self, node: Node) -> Node:
        """The caravan itself within the limit; over it, the most valuable caravan its
        discards can leave (from the engine's discard moves)."""
        if node.size <= self.limit:
            return node
        kept = self._kept.get(node)
        if kept is None:
            if len(self._kept) > self.MEMO_CAP:
                self._kept.clear()
            discards = (node.discard(move) for move in node.discard_moves())
            options = [after for after in discards if after is not None]  # all: they are legal
            kept = self._kept[node] = max(options, key=self.value)
        return kept

    def capped_value(self, node: Node) -> int:
        """The value a caravan keeps after discarding down to the limit."""
        return self.value(self.kept(node))

    def deficits(self, node: Node) -> tuple[int, ...]:
        """Per point card: the weighted value the caravan still lacks to pay it (0: it can).

        A cube pays for a cost cube of its own rank or one above it (cubes rise along the
        ladder); each cost cube, from the top rank down, takes the highest cube that can
        still rise to it, and the value of the rises and of the missing cubes counts.
        """
        found = self._deficits.get(node)
        if found is None:
            if len(self._deficits) > self.MEMO_CAP:
                self._deficits.clear()
            found = self._deficits[node] = tuple(
                deficit(node.vector, cost, self.weights) for cost in self.costs
            )
        return found

    def payable(self, node: Node) -> int:
        """The bit mask of the point cards the caravan can pay (bit i: point card i)."""
        found = self._payable.get(node)
        if found is None:
            if len(self._payable) > self.MEMO_CAP:
                self._payable.clear()
            found = sum(1 << card for card, need in enumerate(self.deficits(node)) if not need)
            self._payable[node] = found
        return found

    def plays_by_kind(
        self, node: Node, hand: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], Iterable[Node]]]:
        """Per kind of card in `hand` (sorted card indices): the rest of the hand after
        playing it from `node`, and the caravans the play can leave (from the engine's
        outcome tables; they may be over the limit)."""
        plays = node.plays()
        found: list[tuple[tuple[int, ...], Iterable[Node]]] = []
        previous = -1
        for index, card in enumerate(hand):
            if card != previous:
                previous = card
                leaves = plays[card]
                if leaves:  # a card that cannot be played here leaves nothing
                    found.append((hand[:index] + hand[index + 1 :], leaves.values()))
        return found

    def table(self, key: Hashable) -> dict[Any, Any]:
        """A memo table of figures that hold in one context, `key` (a point row, the worth
        of its cards): the same table for the same context while it lasts, so decisions
        in one position share their work."""
        found = self._tables.get(key)
        if found is None or len(found) > self.MEMO_CAP:
            if len(self._tables) >= self.TABLES_KEPT:
                self._tables.clear()
            found = self._tables[key] = {}
        return found

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """A bot's figure of this game, computed once per process (bots are made afresh
        for every game; what they derive from the rules alone is kept here)."""
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) > self.MEMO_CAP:
                self._memo.clear()
            found = self._memo[key] = compute()
        return found

    def claim_value(self, view: View, slot: int, card: int) -> int:
        """Points of claiming the point card at `slot`, with the coin it takes."""
        pile = view.coin_pile(slot)
        return self.points[card] + (self.coin_values[pile] if pile >= 0 else 0)

    def targets(self, view: View) -> list[tuple[int, int]]:
        """The point row as (card, points with the coin a claim takes)."""
        return [
            (card, self.claim_value(view, slot, card)) for slot, card in enumerate(view.point_row)
        ]

    def _card_worth(self, card: int) -> float:
        """What playing `card` adds to a caravan's value at best, averaged over the caravans
        holding half the limit (after discarding down to the limit): every one, or
        `WORTH_SAMPLE` of them evenly spread where there are more."""
        total, count = 0, 0
        for vector in self._worth_vectors:
            node = self.engine.caravan(vector)
            before = self.value(node)
            gains = [self.capped_value(after) - before for after in node.plays()[card].values()]
            total += max(gains, default=0)
            count += 1
        return total / count if count else 0.0


def vectors(ranks: int, size: int) -> Iterator[tuple[int, ...]]:
    """Every vector of `ranks` counts summing to exactly `size`, in lexicographic order."""
    if ranks == 1:
        yield (size,)
        return
    for n in range(size + 1):
        for rest in vectors(ranks - 1, size - n):
            yield (n, *rest)


def deficit(car: Sequence[int], cost: Sequence[int], weights: Sequence[int]) -> int:
    """The weighted value `car` lacks to pay `cost` (see `Knowledge.deficits`)."""
    avail = list(car)
    missing = 0
    for rank in range(len(cost) - 1, -1, -1):
        need = cost[rank]
        source = rank
        while need and source >= 0:
            take = min(need, avail[source])
            avail[source] -= take
            need -= take
            missing += take * (weights[rank] - weights[source])
            source -= 1
        missing += need * weights[rank]
    return missing


_KNOWLEDGE: dict[tuple[str, tuple[int, ...]], Knowledge] = {}


def knowledge(engine: Engine, ruleset: Ruleset) -> Knowledge:
    """The `Knowledge` of `engine` and the ruleset's value weights (built once per process)."""
    key = (engine.__name__, tuple(ruleset.value_weights))
    known = _KNOWLEDGE.get(key)
    if known is None or known.engine is not engine:
        known = _KNOWLEDGE[key] = Knowledge(engine, ruleset)
    return known
