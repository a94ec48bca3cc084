"""The planner: a bot that plans its own next turns toward the point cards in the row and
builds its hand into an engine, as people do.

For each move it can make now (every play and claim, rest, and an acquisition of each of
the few merchant cards that improve its engine most, paying the cheapest cubes), it
searches its own next turns (plays and rests, the rows as they lie; `depth` turns in all,
the move included) for the first turn each point card in the row can be paid. A card out
of reach within the search is estimated from the value the caravan still lacks and the
value the hand makes per play. A move is worth the best point card it leads to, discounted
per turn, with the points a claim takes now; a card an opponent can pay now counts less,
as it may be gone. An acquisition adds what the card does to the hand as an engine: how
much more value per turn a short cycle of plays from an empty caravan reaches (a beam
search over the engine's outcome tables), over the turns the game has left.

It reads only what players see: the decks' order never enters a plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from century.model.ruleset import Ruleset
from century.play.knowledge import Knowledge, Node, knowledge

UNREACHED = 99.0
"""Turns of a point card the search does not reach and cannot estimate."""

PlanState = tuple[Node, tuple[int, ...], tuple[int, ...]]
"""A planning state: the caravan, the cards in hand, and the cards owned (hand and played)."""


@dataclass
class Candidate:
    """A move to consider now: the state it leaves, the points it brings now, and the point
    row slot it claims (-1 for none)."""

    move: str
    state: PlanState
    reward: float = 0.0
    claimed: int = -1


class PlannerBot:
    """Plans its own next turns (see the module doc); `depth` is its budget."""

    name = "planner"
    DEPTH = 3  # turns searched exactly, the move now included
    GAMMA = 0.8  # worth of a point card per turn it is further away
    THREAT = 0.5  # worth kept of a card an opponent can pay now
    KAPPA = 0.3  # weight of an acquisition's engine gain over the turns left
    TURNS_PER_CLAIM = 4  # own turns a point card takes, to estimate the turns left
    ACQUIRE = 3  # merchant cards searched as acquisitions, the best engine gains first
    CYCLE = 5  # plays per cycle in the engine estimate...
    BEAM = 24  # ...and states kept per play

    def __init__(self, ruleset: Ruleset, seed: int, depth: int = DEPTH) -> None:
        self.ruleset = ruleset
        self.depth = depth
        self._rates: dict[tuple[int, ...], tuple[float, float]] = {}

    def choose(self, state: Any) -> str:
        know = knowledge(state, self.ruleset)
        return Plan(self, know, state.view()).best()

    def rate(self, know: Knowledge, owned: tuple[int, ...]) -> tuple[float, float]:
        """(value per turn, value per play) of a hand's best short cycle of plays from an
        empty caravan, a rest and a claim included (memoised)."""
        found = self._rates.get(owned)
        if found is None:
            found = self._rates[owned] = self._cycle(know, owned)
        return found

    def _cycle(self, know: Knowledge, owned: tuple[int, ...]) -> tuple[float, float]:
        layer = [(know.empty, owned)]
        per_turn = per_play = 0.0
        for plays in range(1, self.CYCLE + 1):
            reached: dict[tuple[Node, tuple[int, ...]], int] = {}
            for node, hand in layer:
                for after, rest in _children(node, hand):
                    kept = know.kept(after)
                    reached[(kept, rest)] = know.value(kept)
            if not reached:
                break
            best = sorted(reached.items(), key=lambda item: -item[1])[: self.BEAM]
            top = best[0][1]
            per_turn = max(per_turn, top / (plays + 2))
            per_play = max(per_play, top / plays)
            layer = [key for key, _ in best]
        return per_turn, per_play


def _children(node: Node, hand: tuple[int, ...]) -> list[tuple[Node, tuple[int, ...]]]:
    """Every (caravan, hand) one play from `hand` (sorted) leads to."""
    found = []
    plays = node.plays()
    previous = -1
    for index, card in enumerate(hand):
        if card == previous:
            continue
        previous = card
        rest = hand[:index] + hand[index + 1 :]
        found += [(after, rest) for after in plays[card].values()]
    return found


class Plan:
    """One decision of a `PlannerBot`."""

    def __init__(self, bot: PlannerBot, know: Knowledge, view: Any) -> None:
        self.bot, self.know, self.view = bot, know, view
        self.me = me = view.current_player
        self.row = view.point_row
        deficits = know.deficits
        values = [float(know.claim_value(view, slot, card)) for slot, card in enumerate(self.row)]
        for slot, card in enumerate(self.row):
            if any(deficits(view.caravan(p))[card] == 0 for p in range(view.players) if p != me):
                values[slot] *= bot.THREAT
        self.values = values
        self.hand = tuple(sorted(view.hand(me)))
        self.owned = tuple(sorted(view.hand(me) + view.played(me)))
        self.rate, per_play = bot.rate(know, self.owned)
        self.per_play = max(per_play, 1.0)
        most = max(len(view.point_cards(p)) for p in range(view.players))
        self.turns_left = max(1, (view.end_threshold - most) * bot.TURNS_PER_CLAIM)
        self._kept: dict[Node, Node] = {}

    def best(self) -> str:
        """The move of the highest worth (the first of equal ones)."""
        candidates = self.candidates()
        worth = self.worth(candidates)
        best = 0
        for index in range(1, len(candidates)):
            if worth[index] > worth[best]:
                best = index
        return candidates[best].move

    # -- the moves to consider -------------------------------------------------------------

    def candidates(self) -> list[Candidate]:
        view, hand, owned = self.view, self.hand, self.owned
        if view.discarding:
            return [Candidate(move, (node, hand, owned)) for move, node in view.discards()]
        found = [
            Candidate(move, (self.kept(node), hand, owned), self.values[slot], slot)
            for move, slot, node in view.claims()
        ]
        for move, card, node in view.plays():
            index = hand.index(card)
            found.append(
                Candidate(move, (self.kept(node), hand[:index] + hand[index + 1 :], owned))
            )
        found += self.acquisitions()
        found.append(Candidate("rest", (view.caravan(self.me), owned, owned)))
        return found

    def acquisitions(self) -> list[Candidate]:
        """Per merchant slot the cheapest acquisition, for the cards that add most to the
        hand's engine."""
        know, bot = self.know, self.bot
        cheapest: dict[int, tuple[int, str, Node]] = {}
        for move, slot, paid, node in self.view.acquires():
            price = know.value(paid)
            if slot not in cheapest or price < cheapest[slot][0]:
                cheapest[slot] = (price, move, node)
        row = self.view.merchant_row
        found = []
        for slot, (_, move, node) in cheapest.items():
            card = row[slot]
            owned = tuple(sorted((*self.owned, card)))
            gain = (bot.rate(know, owned)[0] - self.rate) * self.turns_left * bot.KAPPA
            hand = tuple(sorted((*self.hand, card)))
            found.append(Candidate(move, (self.kept(node), hand, owned), gain))
        found.sort(key=lambda c: -c.reward)
        return found[: bot.ACQUIRE]

    def kept(self, node: Node) -> Node:
        """The caravan after the discard that leaves it closest to the row's best card."""
        if node.size <= self.know.limit:
            return node
        kept = self._kept.get(node)
        if kept is None:
            deficits, row, values = self.know.deficits, self.row, self.values

            def closeness(after: Node) -> float:
                missing = deficits(after)
                return max(
                    (v - 1.5 * missing[c] for v, c in zip(values, row, strict=True)), default=0
                )

            kept = self._kept[node] = max(
                (node.discard(move) for move in node.discard_moves()), key=closeness
            )
        return kept

    # -- the search ------------------------------------------------------------------------

    def worth(self, candidates: list[Candidate]) -> list[float]:
        """Each candidate's worth: its points now and the best point card it leads to."""
        turns = self.turns(candidates)
        gamma = self.bot.GAMMA
        worth = []
        for candidate, reach in zip(candidates, turns, strict=True):
            best = 0.0
            for slot, value in enumerate(self.values):
                if slot != candidate.claimed and reach[slot] < UNREACHED:
                    best = max(best, value * gamma ** reach[slot])
            if candidate.claimed >= 0:
                best *= gamma  # the claim takes this turn
            worth.append(candidate.reward + best)
        return worth

    def turns(self, candidates: list[Candidate]) -> list[list[float]]:
        """Per candidate and point-row slot: the turns until the card can be paid, the
        candidate's turn included (searched exactly within the depth, estimated beyond).

        One layered search serves every candidate: a state carries the bit mask of the
        candidates that reach it first at this depth.
        """
        row, deficits = self.row, self.know.deficits
        slots = range(len(row))
        reach = [[UNREACHED] * len(row) for _ in candidates]
        layer: dict[PlanState, int] = {}
        for index, candidate in enumerate(candidates):
            layer[candidate.state] = layer.get(candidate.state, 0) | 1 << index
        seen: dict[PlanState, int] = {}
        depth = self.bot.depth
        for turn in range(1, depth + 1):
            last = turn == depth
            following: dict[PlanState, int] = {}
            for state, mask in layer.items():
                new = mask & ~seen.get(state, 0)
                if not new:
                    continue
                seen[state] = seen.get(state, 0) | new
                node, hand, owned = state
                missing = deficits(node)
                paid = [slot for slot in slots if missing[row[slot]] == 0]
                if paid or last:
                    members = [i for i in range(len(candidates)) if new >> i & 1]
                    for slot in slots:
                        need = missing[row[slot]]
                        at = turn if need == 0 else turn + 1 + need / self.per_play
                        if need and not last:
                            continue
                        for i in members:
                            if reach[i][slot] > at:
                                reach[i][slot] = at
                if last:
                    continue
                for after, rest in _children(node, hand):
                    key = (self.kept(after), rest, owned)
                    following[key] = following.get(key, 0) | new
                if hand != owned:
                    key = (node, owned, owned)
                    following[key] = following.get(key, 0) | new
            layer = following
        return reach
