"""The engine's card effects as the compiler reads them: `ways` is the runtime's
``effect_ways`` (the one implementation of card effects), computed once per effect, number
of ranks and bound in a process, for the checks and the move bound that ask of the same
cards (a re-theme's cards are its base's: the checks read what a way needs and changes, not
the letters of its move)."""

from __future__ import annotations

from functools import cache
from typing import Any

from century.engine.steps import rules
from century.model.steps import added, used
from century.runtime.engine import Way, effect_ways

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@cache
def ways(steps: tuple[Any, ...], ranks: int, most: int) -> tuple[Way, ...]:
    """Every way to do `steps` on a ladder of `ranks` from a caravan of at most `most` cubes
    (``effect_ways``; the words of their moves name the ranks a, b, c, ...)."""
    names = used(steps)
    if added(names):  # a step added to the language: the rules code with its function
        found: tuple[Way, ...] = rules(names).effect_ways(steps, _LETTERS[:ranks], most)
        return found
    return effect_ways(steps, _LETTERS[:ranks], most)


def most_moves(steps: tuple[Any, ...], ranks: int, most: int) -> int:
    """The most moves a play of `steps` lists from one caravan of at most `most` cubes: one
    per distinct change among its ways (``effect_most_moves``)."""
    return len({way.delta for way in ways(steps, ranks, most)})
