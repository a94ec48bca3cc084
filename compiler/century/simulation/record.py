"""What a game of a simulation records for the card and game-quality figures of the report,
watched move by move (`Recorder`).

The rows change only when a card is taken, so a row is counted once it is left, for the
turns that began while it lay: the cost per move is two reads of the rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import State


class Glance:
    """What a `Recorder` reads of a C engine's state (``--backend c``), read in one call
    (`refresh`) after every move (the state changes only in a move): a C state's `view` is a
    copy, not a live view."""

    def __init__(self, glance: Callable[[State], tuple[Any, ...]], state: State) -> None:
        self.glance, self.state = glance, state
        self.merchant_row: tuple[int, ...] = ()
        self.point_row: tuple[int, ...] = ()
        self.discarding = False
        self._rounds = 0
        self._turns: tuple[int, ...] = ()
        self.refresh()

    def refresh(self) -> None:
        """Read the state again."""
        found = self.glance(self.state)
        self.merchant_row, self.point_row, self.discarding, self._rounds, self._turns = found

    def turns(self, seat: int) -> int:
        return self._turns[seat]

    def rounds(self) -> int:
        return self._rounds


class Recorder:
    """The market and scores of one game: call `before` ahead of each move and `after` it
    (with the seat that moved), then `result` at the end."""

    def __init__(self, engine: Engine, state: State) -> None:
        glance = getattr(engine, "glance", None)
        self.glance = Glance(glance, state) if glance is not None else None
        self.engine, self.state = engine, state
        self.view: Any = self.glance or state.view()
        seats = state.players
        self.offered: list[set[int]] = [set() for _ in range(seats)]  # merchant cards seen
        self.slots: Counter = Counter()  # (card, slot) -> turns on offer there
        self.bought: Counter = Counter()  # (card, slot) -> times taken from there
        self.takes: list[tuple[int, int, int]] = []  # (card, seat, its turn) of each take
        self.points: Counter = Counter()  # point card -> turns in the row
        self.claim_turns: list[list[int]] = [[] for _ in range(seats)]
        self.round_scores: list[list[int]] = []
        self.last = seats - 1
        self.mrow, self.prow = self.view.merchant_row, self.view.point_row
        self.turn = self.mrow_since = self.prow_since = 0  # turns begun; rows' first turns

    def before(self, seat: int) -> None:
        """A move of `seat` is about to be played (a turn begins unless it discards)."""
        if not self.view.discarding:
            self.offered[seat].update(self.mrow)
            self.turn += 1

    def after(self, seat: int) -> None:
        """`seat`'s move was played: note a card taken from either row, a round's end."""
        if self.glance is not None:
            self.glance.refresh()
        view = self.view
        row = view.merchant_row
        if row != self.mrow:  # a card taken: the first slot that differs held it
            old = self.mrow
            slot = next(i for i, c in enumerate(old) if i >= len(row) or row[i] != c)
            self.bought[old[slot], slot] += 1
            self.takes.append((old[slot], seat, view.turns(seat)))
            self._leave_merchant_row(row)
        row = view.point_row
        if row != self.prow:
            self.claim_turns[seat].append(view.turns(seat))
            self._leave_point_row(row)
        if seat == self.last and not view.discarding and view.rounds() > len(self.round_scores):
            self.round_scores.append(self.state.scores())

    def first_take(self, card_id: str) -> dict[str, int] | None:
        """The seat that first took merchant card `card_id` from the row and on which of
        its turns (1 for its first), or None when no one took it."""
        cards = self.engine.CARDS
        for card, seat, number in self.takes:
            if cards[card].id == card_id:
                return {"seat": seat, "turn": number}
        return None

    def _leave_merchant_row(self, row: tuple[int, ...]) -> None:
        for slot, card in enumerate(self.mrow):
            self.slots[card, slot] += self.turn - self.mrow_since
        self.mrow, self.mrow_since = row, self.turn

    def _leave_point_row(self, row: tuple[int, ...]) -> None:
        for card in self.prow:
            self.points[card] += self.turn - self.prow_since
        self.prow, self.prow_since = row, self.turn

    def result(self) -> dict[str, Any]:
        """The record as JSON-ready data keyed by card id: the merchant cards each seat had
        on offer (`offered`); per merchant card its turns on offer and takes by market slot
        (`market`); per point card its turns in the row (`point_offers`); each seat's turn
        at each claim (`claim_turns`); every seat's score at each round's end."""
        self._leave_merchant_row(())
        self._leave_point_row(())
        cards = self.engine.CARDS
        width = 1 + max((slot for _, slot in self.slots), default=0)
        market: dict[str, dict[str, list[int]]] = {}
        for (card, slot), n in sorted(self.slots.items()):
            if n:
                entry = market.setdefault(
                    cards[card].id, {"offers": [0] * width, "taken": [0] * width}
                )
                entry["offers"][slot] += n
        for (card, slot), n in sorted(self.bought.items()):
            market[cards[card].id]["taken"][slot] += n
        points = self.engine.POINT_CARDS
        return {
            "offered": [sorted({cards[c].id for c in seen}) for seen in self.offered],
            "market": market,
            "point_offers": {points[c].id: n for c, n in sorted(self.points.items()) if n},
            "claim_turns": self.claim_turns,
            "round_scores": self.round_scores,
        }
