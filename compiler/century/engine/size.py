"""How large the engine's move lists and memo tables can grow, computed from the rules alone.

`move_bound` gives an upper bound of ``len(legal_moves())`` over every position a game can
reach, term by term, without building a table:

- plays: every distinct merchant card may be in the hand, with the most moves its effect
  makes from a caravan of at most ``caravan_limit`` cubes (``effect_most_moves`` in the
  engine: one per distinct change to the caravan among the ways to play it; a gain card is
  one move, a trade card one per number of trades a full caravan can pay, an upgrade card
  one per multiset of 1..steps single-rank steps over the ranks that can rise);
- acquires: taking slot ``k + 1`` leaves one cube on each of the ``k`` cards before it, in row
  order, so there is one move per sequence of ``k`` cubes the caravan holds. Among caravans
  of at most ``caravan_limit`` cubes, the most such sequences has the caravan that spreads
  its cubes evenly over the ranks (moving one cube of headroom from a larger count to a
  smaller one never loses a sequence), counted exactly by `_sequences`;
- claims: one per point-row slot; and ``rest``;
- discards (a separate decision): one per caravan of exactly ``caravan_limit`` cubes kept.

The engine's memo tables hold at most that many moves for every caravan a game meets.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from century.engine.effects import most_moves
from century.model.ruleset import Ruleset


@dataclass(frozen=True)
class MoveBound:
    """Upper bounds of the moves of one decision, by kind."""

    plays: int
    acquires: int
    claims: int
    discards: int

    @property
    def per_decision(self) -> int:
        """The most moves `legal_moves()` can list: an action or a discard decision."""
        return max(self.plays + self.acquires + self.claims + 1, self.discards)


def move_bound(ruleset: Ruleset) -> MoveBound:
    """The bounds for `ruleset` (see the module docstring)."""
    ranks = len(ruleset.resources)
    limit = ruleset.caravan_limit
    cards = {card.id: card for card in (*ruleset.starting_cards, *ruleset.merchant_deck)}
    plays = sum(most_moves(card.effect, ranks, limit) for card in cards.values())
    acquires = sum(_sequences(k, ranks, limit) for k in range(ruleset.merchant_row))
    return MoveBound(
        plays=plays,
        acquires=acquires,
        claims=ruleset.point_row,
        discards=comb(limit + ranks - 1, ranks - 1),
    )


def _sequences(length: int, ranks: int, limit: int) -> int:
    """The cube sequences of `length` that the best caravan of at most `limit` cubes holds:
    `limit` spread evenly over `ranks`, each rank used at most as often as it is held."""
    if length > limit:
        return 0
    caps = [limit // ranks + (rank < limit % ranks) for rank in range(ranks)]
    # ways[n]: sequences of n cubes over the ranks so far (choose the places of the new rank)
    ways = [1] + [0] * length
    for cap in caps:
        ways = [
            sum(comb(n, j) * ways[n - j] for j in range(min(cap, n) + 1)) for n in range(length + 1)
        ]
    return ways[length]
