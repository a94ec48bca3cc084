"""The expert: a reference bot above the planner, searching the planner's best moves on
sampled deals.

At each decision past the planner's opening, it takes the planner's `BREADTH` best moves
(`Plan.ranked`) and plays each on `deals` deals of the unseen cards (`View.sample`, drawn
with the bot's own seeded generator: the real decks' order is never read; every move meets
the same deals). After the move, the planner plays every seat for `TURNS` turns each, and
the position is scored for the expert: its score and the value of its cubes against the
best opponent's, a finished game counted as won or lost. The move of the best mean score is
played (the planner's order among equal ones).

It costs about `BREADTH` x `deals` x `TURNS` x players planner decisions per decision: a
reference for ladders and benchmarks of a few hundred games, not for large simulations
(`century simulate --bots auto` never picks it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from century.bots.knowledge import knowledge
from century.bots.planner import Plan, PlannerBot
from century.model.ruleset import Ruleset

if TYPE_CHECKING:
    from century.engine import Engine
    from century.runtime.engine import State


class ExpertBot:
    """Planner moves weighed by short planner games on sampled deals (see the module doc);
    `deals` is its budget (0: `DEALS`)."""

    name = "expert"
    DEALS: ClassVar[int] = 6  # sampled deals per decision
    BREADTH: ClassVar[int] = 3  # the planner's best moves weighed
    TURNS: ClassVar[int] = 4  # turns per seat the planner plays after a move
    CUBES: ClassVar[float] = 0.3  # points per unit of cube value in a position's score
    WIN: ClassVar[float] = 100.0  # score of a finished game won (lost: negative), with the margin

    def __init__(self, engine: Engine, ruleset: Ruleset, seed: int, deals: int = 0) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.deals = deals or self.DEALS
        self.planner = PlannerBot(engine, ruleset, seed)
        self.rng = random.Random(seed)

    def choose(self, state: State) -> str:
        know = knowledge(self.engine, self.ruleset)
        view = state.view()
        moves = Plan(self.planner, know, view).ranked()[: self.BREADTH]
        if len(moves) == 1 or view.discarding:
            return moves[0]
        me = view.current_player
        totals = [0.0] * len(moves)
        for _ in range(self.deals):
            deal = view.sample(self.rng)
            for index, move in enumerate(moves):
                child = deal.clone()
                child.play(move)
                totals[index] += self.rollout(child, me)
        best = 0
        for index in range(1, len(moves)):
            if totals[index] > totals[best]:
                best = index
        return moves[best]

    def rollout(self, state: State, me: int) -> float:
        """Let the planner play every seat for `TURNS` turns each; the score for `me`."""
        view = state.view()
        plies = self.TURNS * view.players
        while plies and not view.over:
            state.play(self.planner.choose(state))
            if not view.discarding:
                plies -= 1
        return self.evaluate(state, me)

    def evaluate(self, state: State, me: int) -> float:
        """Own score and cube value less the best opponent's; a finished game is won or
        lost, with its margin."""
        view = state.view()
        scores = [view.score(seat) for seat in range(view.players)]
        margin = scores[me] - max(s for seat, s in enumerate(scores) if seat != me)
        if view.over:
            return (self.WIN if state.winner() == me else -self.WIN) + margin
        know = knowledge(self.engine, self.ruleset)
        values = [know.value(view.caravan(seat)) for seat in range(view.players)]
        cubes = values[me] - max(v for seat, v in enumerate(values) if seat != me)
        return margin + self.CUBES * cubes
