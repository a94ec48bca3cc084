"""Random card effects for property tests: every step of the language (`gain`, `pay`,
`pay_any`, `upgrade`, `repeat` with and without `max`, `choose`), nested up to the limit
(`MAX_EFFECT_DEPTH`), counts and bounds up to theirs, as the model's steps."""

from __future__ import annotations

from typing import Any

from century.base import limits


def random_effects(ranks: int = 4, level: int = 1, small: bool = False) -> Any:
    """Steps in a row at nesting `level` (1: a card's own steps) on a ladder of `ranks` (a
    Hypothesis strategy; Hypothesis is imported when one is made). `small` effects (for a
    printed sheet) have at most two steps in a row, two cubes of a rank and counts to 3."""
    from hypothesis import strategies as st

    return st.lists(_step(ranks, level, small), min_size=1, max_size=2 if small else 3).map(tuple)


def _step(ranks: int, level: int, small: bool) -> Any:
    from hypothesis import strategies as st

    cubes = st.lists(st.integers(0, 2 if small else 5), min_size=ranks, max_size=ranks)
    cubes = cubes.filter(any).map(tuple)
    count = st.integers(1, 3 if small else limits.MAX_UPGRADE_STEPS)
    leaves = [
        cubes.map(lambda v: ("gain", v)),
        cubes.map(lambda v: ("pay", v)),
        count.map(lambda n: ("pay_any", n)),
        count.map(lambda n: ("upgrade", n)),
    ]
    if level >= limits.MAX_EFFECT_DEPTH:
        return st.one_of(leaves)
    inner = st.deferred(lambda: random_effects(ranks, level + 1, small))
    repeat = st.tuples(inner, st.integers(0, 3 if small else limits.MAX_UPGRADE_STEPS))
    choose = st.lists(inner, min_size=2, max_size=2 if small else 3).map(tuple)
    return st.one_of(
        *leaves,
        repeat.map(lambda r: ("repeat", r[0], r[1])),
        choose.map(lambda options: ("choose", options)),
    )


def nesting(steps: Any) -> int:
    """How deep the model's steps nest (1: none), as `century.model.cards.depth` counts."""
    most = 1
    for step in steps:
        if step[0] == "repeat":
            most = max(most, 1 + nesting(step[1]))
        elif step[0] == "choose":
            most = max(most, *(1 + nesting(option) for option in step[1]))
    return most
