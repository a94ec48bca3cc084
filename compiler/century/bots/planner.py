"""The planner: a bot that plans its own next turns toward the point cards in the row and
builds its hand into an engine, as people do.

Its first `OPENING` turns build the engine: while it cannot claim a point card and its
hand's pace is below `BUILT`, it acquires the merchant card that adds most (the card's worth
to its hand, with the cubes it takes and pays). After that, for each move it can make now
(every play and claim, rest, and an acquisition of each of the few merchant cards that
improve its engine most, paying the cheapest cubes), it searches its own next turns (plays
and rests, the rows as they lie; `depth` turns in all, the move included) for the first turn
each point card in the row can be paid. A card out of reach within the search is estimated
from the value the caravan still lacks and the value the hand makes per play. A move is
worth the best point card it leads to, discounted per turn (less steeply for its last `LATE`
point cards: so measured, it finishes sooner), with the points a claim takes now and a little
of the cube value it leaves in the caravan (of moves that head for the same card as fast, the
one that spends least); a card an opponent can pay now counts less, as it may be gone. An
acquisition adds what the card does to the hand as an engine: how much more value per turn a
short cycle of plays from an empty caravan reaches (a beam search over the engine's outcome
tables), over the turns the game has left.

It reads only what players see: the decks' order never enters a plan. On a C engine the
whole decision runs in C (``planner_choose`` in ``cbots.c.in``) with the same answer, unless a
subclass changes how the planner decides (tunings alone keep it in C).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from century.bots.compiled import mypyc_attr
from century.bots.knowledge import Knowledge, Node, knowledge
from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from collections.abc import Sequence

    from century.engine import Engine
    from century.runtime.engine import PointCard, State, View

UNREACHED = 99.0
"""Turns of a point card the search does not reach and cannot estimate."""

PLANNER_TUNINGS = (
    *("GAMMA", "GAMMA_LATE", "LATE", "KEEP", "THREAT", "KAPPA", "TURNS_PER_CLAIM", "ACQUIRE"),
    *("CYCLE", "BEAM", "ENDING", "OPENING", "BUILT", "FEED", "FEED_CAP", "FEED_SHARE"),
    *("PATIENCE", "CLOSE"),
)
"""The tunings the decision in C reads, in its order (``cbots.c.in``, then `UNREACHED`)."""

DECIDING = ("choose", "rate", "_pace", "_paced")
"""The methods a subclass may change that keep the decision in Python."""

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


@mypyc_attr(allow_interpreted_subclasses=True)
class PlannerBot:
    """Plans its own next turns (see the module doc); `depth` is its budget (0: `DEPTH`)."""

    name = "planner"
    # The tunings: class variables, so a subclass may change them (compiled too).
    DEPTH: ClassVar[int] = 3  # turns searched exactly, the move now included
    GAMMA: ClassVar[float] = 0.8  # worth of a point card per turn it is further away...
    GAMMA_LATE: ClassVar[float] = 0.9  # ...and from `LATE` point cards short of the end on
    LATE: ClassVar[int] = 2
    KEEP: ClassVar[float] = 0.05  # worth of a unit of cube value a move leaves in the caravan
    THREAT: ClassVar[float] = 0.5  # worth kept of a card an opponent can pay now
    KAPPA: ClassVar[float] = 0.3  # weight of an acquisition's engine gain over the turns left
    TURNS_PER_CLAIM: ClassVar[int] = 4  # own turns a point card takes: the turns left
    ACQUIRE: ClassVar[int] = 3  # merchant cards searched as acquisitions, best gains first
    CYCLE: ClassVar[int] = 5  # turns searched to measure a hand's pace...
    BEAM: ClassVar[int] = 30  # ...and states kept per turn
    ENDING: ClassVar[float] = 50.0  # worth of ending the game ahead (lost if behind)
    OPENING: ClassVar[int] = 5  # own first turns spent acquiring merchant cards (`Plan.opening`)...
    BUILT: ClassVar[float] = 1.0  # ...while the hand's pace (`rate`, points per turn) is below...
    FEED: ClassVar[int] = 2  # ...valued on the caravans the hand reaches in this many plays...
    FEED_CAP: ClassVar[int] = 200  # ...the most valuable of them at most...
    FEED_SHARE: ClassVar[float] = 0.5  # ...for this share of a card's worth (`worth_to_hand`)
    PATIENCE: ClassVar[int] = 4  # times the rounds a game should take, to wait for a better end
    CLOSE: ClassVar[bool] = True  # one card from the end: race for the cards that end it ahead

    def __init__(self, engine: Engine, ruleset: Ruleset, seed: int, depth: int = 0) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.depth = depth or self.DEPTH
        self.native: Any = getattr(engine, "planner_turns", None)
        """The search of `Plan.turns` in C, where `engine` is a C engine (else None)."""
        self.whole: Any = getattr(engine, "planner_choose", None) if self._plain() else None
        """The whole decision in C (`choose`, ``cbots.c.in``), where `engine` is a C engine
        and the class changes no more than the tunings (else None)."""
        self.tunings = (*(float(getattr(self, name)) for name in PLANNER_TUNINGS), UNREACHED)

    def _plain(self) -> bool:
        """Whether this class decides as `PlannerBot` does (a subclass may change tunings)."""
        for kind in type(self).__mro__:
            if kind is PlannerBot:
                return True
            if any(name in vars(kind) for name in DECIDING):
                return False
        return False  # pragma: no cover  (every planner is a PlannerBot)

    def choose(self, state: State) -> str:
        """The move of the highest worth (`Plan.best`); in C on a C engine's state, with
        the same answer (the Python plan where a discard is larger than the C tables)."""
        know = knowledge(self.engine, self.ruleset)
        if self.whole is not None and type(state) is self.engine.State:
            move: str | None = self.whole(
                state, know.weights, know.card_worth, self.tunings, self.depth
            )
            if move is not None:
                return move
        return Plan(self, know, state.view()).best()

    def rate(self, know: Knowledge, owned: tuple[int, ...]) -> tuple[float, float]:
        """The pace of a hand (memoised): (points per turn, cube value per play).

        From an empty caravan, a search over the hand's plays and rests (`CYCLE` turns,
        the `BEAM` most valuable states kept per turn) finds the first turn each point card
        of the game can be paid; the pace is its points over the turns to pay and claim it
        and a rest, averaged over the point deck."""
        key = ("pace", self.CYCLE, self.BEAM, owned)
        return know.memo(key, lambda: self._pace(know, owned))

    def _pace(self, know: Knowledge, owned: tuple[int, ...]) -> tuple[float, float]:
        deck = know.engine.POINT_CARDS
        pace = getattr(know.engine, "planner_pace", None)  # the search in C, on a C engine
        found = pace(owned, know.weights, self.CYCLE, self.BEAM) if pace is not None else None
        if found is not None:
            paid, per_play = found
            return self._paced(deck, paid), per_play
        first = [0] * len(deck)  # the turn each point card is first paid, 0: not yet
        unpaid = (1 << len(deck)) - 1  # bit mask of the point cards not paid yet
        start = (know.empty, owned)
        layer, seen = [start], {start}
        per_play = 0.0
        limit, values = know.limit, know.values
        for turn in range(1, self.CYCLE + 1):
            reached: dict[tuple[Node, tuple[int, ...]], int] = {}
            for node, hand in layer:
                for rest, leaves in know.plays_by_kind(node, hand):
                    for after in leaves:
                        if after.size > limit:
                            after = know.kept(after)
                        key = (after, rest)
                        if key not in seen:
                            seen.add(key)
                            worth = values.get(after)
                            reached[key] = know.value(after) if worth is None else worth
                if hand != owned:  # a rest
                    key = (node, owned)
                    if key not in seen:
                        seen.add(key)
                        reached[key] = know.value(node)
            if not reached:
                break
            kept = sorted(reached.items(), key=lambda item: -item[1])[: self.BEAM]
            per_play = max(per_play, kept[0][1] / turn)
            for (node, _), _ in kept:
                paid = know.payable(node) & unpaid
                unpaid ^= paid
                while paid:
                    low = paid & -paid
                    paid ^= low
                    first[low.bit_length() - 1] = turn
            layer = [key for key, _ in kept]
        return self._paced(deck, first), per_play

    @staticmethod
    def _paced(deck: Sequence[PointCard], first: Sequence[int]) -> float:
        """The points per turn of a hand that first pays each point card on the turn
        `first` gives (0: never), over the turns to pay and claim it and a rest, averaged
        over the point deck."""
        copies = sum(card.copies for card in deck)
        pace = sum(
            card.copies * card.points / (turns + 2)
            for card, turns in zip(deck, first, strict=True)
            if turns
        )
        return pace / copies


@mypyc_attr(allow_interpreted_subclasses=True)
class Plan:
    """One decision of a `PlannerBot`.

    `patient`: whether the game is within `PATIENCE` times the rounds it should take
    (`TURNS_PER_CLAIM` per point card that ends it). Past that the planner no longer waits
    for a better end: it plays as if the end were far and ends the game when it can, so no
    game between bots goes on for ever.
    """

    def __init__(self, bot: PlannerBot, know: Knowledge, view: View) -> None:
        self.bot, self.know, self.view = bot, know, view
        self.me = me = view.current_player
        self.row = view.point_row
        values = [float(know.claim_value(view, slot, card)) for slot, card in enumerate(self.row)]
        others = [know.deficits(view.caravan(p)) for p in range(view.players) if p != me]
        for slot, card in enumerate(self.row):
            if any(lacking[card] == 0 for lacking in others):
                values[slot] *= bot.THREAT
        self.values = values
        self.closing = self._closing()
        short = view.end_threshold - len(view.point_cards(me))
        self.gamma = bot.GAMMA_LATE if short <= bot.LATE else bot.GAMMA
        self.hand = tuple(sorted(view.hand(me)))
        self.owned = tuple(sorted(view.hand(me) + view.played(me)))
        self.rate, per_play = bot.rate(know, self.owned)
        self.per_play = max(per_play, 1.0)
        self.turns_left = self._turns_left()
        self.patient = view.rounds() <= bot.PATIENCE * view.end_threshold * bot.TURNS_PER_CLAIM
        self.last_turns = self._last_turns() if self.patient else 0
        self._missing: dict[Node, tuple[int, ...]] = know.table(("missing", self.row))
        worth = (self.row, tuple(values))
        self._kept: dict[Node, Node] = know.table(("kept", worth))
        self._closeness: dict[Node, float] = know.table(("closeness", worth))
        self._fed: list[Node] | None = None

    def _closing(self) -> list[float]:
        """Per point-row slot: `ENDING` if claiming its card would end the game with us
        ahead (one card short of the end, our score now and the card's points against the
        best opponent's score now), else 0. The search adds it to the card's worth, so a
        won game is closed by the nearest card that keeps the lead."""
        view, me, bot = self.view, self.me, self.bot
        if not bot.CLOSE or len(view.point_cards(me)) + 1 < view.end_threshold:
            return [0.0] * len(self.row)
        mine = view.score(me)
        theirs = max(view.score(p) for p in range(view.players) if p != me)
        know = self.know
        return [
            bot.ENDING if mine + know.claim_value(view, slot, card) > theirs else 0.0
            for slot, card in enumerate(self.row)
        ]

    def _turns_left(self) -> int:
        """Own turns the game has left, roughly: `TURNS_PER_CLAIM` for each point card the
        leading player still lacks to end it."""
        view = self.view
        most = max(len(view.point_cards(p)) for p in range(view.players))
        return max(1, (view.end_threshold - most) * self.bot.TURNS_PER_CLAIM)

    def _last_turns(self) -> int:
        """Own turns left when the end is near (this one included), else 0: 1 in the
        final round; 1 or 2 when an opponent one card short of the end can pay a card now
        that puts them ahead of us (2 if they move before our next turn would come). An
        opponent who would end the game behind us is no hurry: counting them would let two
        planners wait for each other for ever."""
        view, me = self.view, self.me
        if view.final_round:
            return 1
        mine = view.score(me)
        short = [
            p
            for p in range(view.players)
            if p != me
            and len(view.point_cards(p)) == view.end_threshold - 1
            and self._claims_ahead(p, mine)
        ]
        if not short:
            return 0
        return 2 if min(short) < me else 1

    def _claims_ahead(self, seat: int, score: int) -> bool:
        """Whether `seat` can pay a point card in the row now that leaves it with more than
        `score` points (the cubes it pays no longer score), as `ending` reckons."""
        view, know = self.view, self.know
        node = view.caravan(seat)
        paid = node.claims()
        base = view.score(seat) - node.points
        return any(
            (after := paid[card]) is not None
            and base + after.points + know.claim_value(view, slot, card) > score
            for slot, card in enumerate(self.row)
        )

    def best(self) -> str:
        """The move of the highest worth (the first of equal ones)."""
        return self.ranked()[0]

    def ranked(self) -> list[str]:
        """The moves `best` weighs, best first (the first of equal ones first); the
        opening's move alone while the planner builds its engine."""
        opening = self.opening()
        if opening:
            return [opening]
        candidates = self.candidates()
        worth = self.worth(candidates)
        order = sorted(range(len(candidates)), key=lambda i: (-worth[i], i))
        return [candidates[i].move for i in order]

    def opening(self) -> str | None:
        """In the planner's first `OPENING` turns, while it cannot claim a point card and
        its hand's pace is below `BUILT`: the acquisition that adds most, the card's worth
        to the hand (`worth_to_hand`) with the value of the cubes it takes and pays. An
        engine built first pays for itself; a hand that is one already needs no more."""
        view, know, bot = self.view, self.know, self.bot
        built = view.turns(self.me) >= bot.OPENING or self.rate >= bot.BUILT
        if view.discarding or built or view.claims():
            return None
        here = know.value(view.caravan(self.me))
        worth = self.worth_to_hand(view.merchant_row)
        found, best = None, 0.0
        for move, slot, _, node in view.acquires():
            net = worth[view.merchant_row[slot]] + know.value(node) - here
            if found is None or net > best:
                found, best = move, net
        return found

    def worth_to_hand(self, cards: tuple[int, ...]) -> dict[int, float]:
        """Per merchant card: what playing it adds to a caravan at best, averaged over the
        caravans the hand reaches from the caravan now in up to `FEED` plays of its cards
        (`fed_caravans`), blended by `FEED_SHARE` with its worth over every caravan
        (`Knowledge.card_worth`): a trade is worth more to a hand that feeds it.
        Memoised: openings repeat from game to game."""
        bot, start = self.bot, self.view.caravan(self.me).vector
        kinds = tuple(sorted(set(self.owned)))
        return {
            card: self.know.memo(
                ("feed", bot.FEED, bot.FEED_CAP, bot.FEED_SHARE, start, kinds, card),
                partial(self._worth_to_hand, card),
            )
            for card in dict.fromkeys(cards)
        }

    def _worth_to_hand(self, card: int) -> float:
        know, nodes, share = self.know, self.fed_caravans, self.bot.FEED_SHARE
        total = 0
        for node in nodes:
            before = know.value(node)
            gains = (know.capped_value(after) - before for after in node.plays()[card].values())
            total += max(gains, default=0)
        return share * total / len(nodes) + (1 - share) * know.card_worth[card]

    @property
    def fed_caravans(self) -> list[Node]:
        """The caravans the hand's cards (every one owned) lead to from the caravan now in
        up to `FEED` plays (after discarding to the most valuable), the `FEED_CAP` most
        valuable, the caravan now included (found once per decision)."""
        if self._fed is None:
            self._fed = self._fed_caravans()
        return self._fed

    def _fed_caravans(self) -> list[Node]:
        know, kinds = self.know, sorted(set(self.owned))
        start = self.view.caravan(self.me)
        reached: dict[Node, None] = {start: None}  # an ordered set, for the same order
        layer = [start]
        for _ in range(self.bot.FEED):
            following: dict[Node, None] = {}
            for node in layer:
                plays = node.plays()
                for card in kinds:
                    for after in plays[card].values():
                        after = know.kept(after)
                        if after not in reached:
                            reached[after] = following[after] = None
            layer = list(following)
        return sorted(reached, key=lambda node: -know.value(node))[: self.bot.FEED_CAP]

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
            best = 0.0  # the first of the closest, as max() would take
            for move in node.discard_moves():
                after = node.discard(move)
                if after is None:  # never: the moves are legal
                    continue
                near = self.closeness(after)
                if kept is None or near > best:
                    kept, best = after, near
            assert kept is not None
            self._kept[node] = kept
        return kept

    def closeness(self, node: Node) -> float:
        """How near the caravan is to the row's best card: its worth less the value it
        lacks, one and a half times over (0 for an empty row)."""
        found = self._closeness.get(node)
        if found is None:
            pairs = zip(self.values, self.missing(node), strict=True)
            found = self._closeness[node] = max((v - 1.5 * m for v, m in pairs), default=0)
        return found

    def missing(self, node: Node) -> tuple[int, ...]:
        """Per point-row slot: the value the caravan lacks to pay its card (0: it can)."""
        found = self._missing.get(node)
        if found is None:
            deficits = self.know.deficits(node)
            found = self._missing[node] = tuple(map(deficits.__getitem__, self.row))
        return found

    # -- the search ------------------------------------------------------------------------

    def worth(self, candidates: list[Candidate]) -> list[float]:
        """Each candidate's worth: its points now, the best point card it leads to, and
        `KEEP` per unit of cube value it leaves in the caravan. Many moves head for the same
        card as fast; of those, the one that spends least keeps more for the next card."""
        turns = self.turns(candidates)
        gamma, closing, keep = self.gamma, self.closing, self.bot.KEEP
        worth = []
        for candidate, reach in zip(candidates, turns, strict=True):
            left = keep * self.know.value(candidate.state[0])
            if self.last_turns:
                worth.append(self.final_worth(candidate, reach) + self.ending(candidate) + left)
                continue
            best = 0.0
            for slot, value in enumerate(self.values):
                if slot != candidate.claimed and reach[slot] < UNREACHED:
                    best = max(best, (value + closing[slot]) * gamma ** reach[slot])
            if candidate.claimed >= 0:
                best *= gamma  # the claim takes this turn
            worth.append(candidate.reward + best + self.ending(candidate) + left)
        return worth

    def final_worth(self, candidate: Candidate, reach: list[float]) -> float:
        """Near the end: the points the candidate brings before the game ends (claims now
        and within the turns left, and the cubes that score)."""
        later = self.last_turns - 1
        best = max(
            (
                value
                for slot, value in enumerate(self.values)
                if slot != candidate.claimed and reach[slot] <= later
            ),
            default=0.0,
        )
        return candidate.reward + (best if later else 0.0) + candidate.state[0].points

    def ending(self, candidate: Candidate) -> float:
        """For a claim that ends the game: a bonus if it leaves us ahead, else a penalty
        while the planner is `patient`."""
        view, me = self.view, self.me
        if candidate.claimed < 0 or len(view.point_cards(me)) + 1 < view.end_threshold:
            return 0.0
        card = self.row[candidate.claimed]
        mine = view.score(me) + self.know.claim_value(view, candidate.claimed, card)
        mine += candidate.state[0].points - view.caravan(me).points
        theirs = max(view.score(p) for p in range(view.players) if p != me)
        if mine > theirs:
            return self.bot.ENDING
        return -self.bot.ENDING if self.patient else 0.0

    def turns(self, candidates: list[Candidate]) -> list[list[float]]:
        """Per candidate and point-row slot: the turns until the card can be paid, the
        candidate's turn included (searched exactly within the depth, estimated beyond).

        On a C engine the search runs in C (`century.engine` ``cbots.c.in``), with the same
        answer, unless a subclass changes how it searches (or a discard is larger than the C
        tables)."""
        native = self.bot.native
        if native is not None and type(self) is Plan:
            states = [(c.state[0].vector, c.state[1], c.state[2]) for c in candidates]
            found: list[list[float]] | None = native(
                states, self.row, self.values, self.per_play, self.bot.depth,
                self.know.weights, UNREACHED,
            )  # fmt: skip
            if found is not None:
                return found
        return self.search(candidates)

    def search(self, candidates: list[Candidate]) -> list[list[float]]:
        """`turns` in Python.

        One layered search serves every candidate: a state carries the bit mask of the
        candidates that reach it first at this depth. Of the last layer only the caravans
        matter, so it holds caravans alone.
        """
        know, limit = self.know, self.know.limit
        reach = [[UNREACHED] * len(self.row) for _ in candidates]
        layer: dict[PlanState, int] = {}
        for index, candidate in enumerate(candidates):
            layer[candidate.state] = layer.get(candidate.state, 0) | 1 << index
        seen: dict[PlanState, int] = {}
        depth = self.bot.depth
        ahead: dict[int, set[Node]] = {}  # per bit mask: the caravans of the last layer
        for turn in range(1, depth):
            following: dict[PlanState, int] = {}
            arrived: dict[Node, int] = {}  # the candidates new to a state of each caravan
            for state, mask in layer.items():
                before = seen.get(state, 0)
                new = mask & ~before
                if not new:
                    continue
                seen[state] = before | new
                node, hand, owned = state
                arrived[node] = arrived.get(node, 0) | new
                if turn + 1 == depth:
                    found = ahead.get(new)
                    if found is None:
                        found = ahead[new] = set()
                    self.add_next(found, node, hand, hand != owned)
                    continue
                for rest, leaves in know.plays_by_kind(node, hand):
                    for after in leaves:
                        key = (after if after.size <= limit else self.kept(after), rest, owned)
                        following[key] = following.get(key, 0) | new
                if hand != owned:
                    key = (node, owned, owned)
                    following[key] = following.get(key, 0) | new
            self.reached(reach, arrived, turn, last=False)
            layer = following
        last: dict[Node, int] = {}  # the caravans of the last layer, each once
        for mask, nodes in ahead.items():
            for node in nodes:
                last[node] = last.get(node, 0) | mask
        for (node, _, _), mask in layer.items():  # the candidates themselves at depth 1
            last[node] = last.get(node, 0) | mask
        self.reached(reach, last, depth, last=True)
        return reach

    def add_next(self, found: set[Node], node: Node, hand: tuple[int, ...], rest: bool) -> None:
        """Add to `found` the caravans one more turn (a play from `hand`, or a `rest`)
        leaves."""
        limit = self.know.limit
        plays = node.plays()
        for card in set(hand):
            for after in plays[card].values():
                found.add(after if after.size <= limit else self.kept(after))
        if rest:
            found.add(node)

    def reached(
        self, reach: list[list[float]], arrived: dict[Node, int], turn: int, last: bool
    ) -> None:
        """Record in `reach` the turns to each point card from the caravans `arrived` at on
        `turn` (by the candidates of each bit mask): exact where the caravan pays the card,
        and on the `last` turn estimated from the value it still lacks.

        The turns grow with the value lacking, so per bit mask only the least value lacking
        per slot, over its caravans, counts."""
        table = self._missing
        groups: dict[int, list[tuple[int, ...]]] = {}
        for node, new in arrived.items():
            lacking = table.get(node) or self.missing(node)
            if last or 0 in lacking:
                rows = groups.get(new)
                if rows is None:
                    groups[new] = [lacking]
                else:
                    rows.append(lacking)
        per_candidate: dict[int, list[tuple[int, ...]]] = {}  # by bit: the least per group
        for new, rows in groups.items():
            least = least_of(rows)
            while new:
                low = new & -new
                new ^= low
                index = low.bit_length() - 1
                found = per_candidate.get(index)
                if found is None:
                    per_candidate[index] = [least]
                else:
                    found.append(least)
        per_play = self.per_play
        for index, rows in per_candidate.items():
            least = least_of(rows)
            if last:
                at = [turn + 1 + need / per_play if need else turn for need in least]
            else:
                at = [UNREACHED if need else turn for need in least]
            best = reach[index]
            for slot, turns in enumerate(at):
                if turns < best[slot]:
                    best[slot] = turns


def least_of(rows: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The least value per slot over rows of one length."""
    if len(rows) == 1:
        return rows[0]
    return tuple(map(min, *rows))
