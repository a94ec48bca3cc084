"""Hand-made positions for the generated engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_DECISIONS = 20_000
"""The decisions a test's playout may take: a game ends long before (a random five-player game
takes about a thousand); the cap fails a test whose game would not end."""


def position(engine: Any, players: int = 2, seats: list[dict] | None = None, **fields: Any):
    """A hand-made state: empty merchant row, decks and hands unless given; the point row
    holds one card nobody can pay (an empty point row would end the game)."""
    fields.setdefault("point_row", ["bbbbb"])
    if seats is None:
        seats = [{} for _ in range(players)]
    seats = [{"caravan": "", "hand": [], **seat} for seat in seats]
    data = {"players": players, "seats": seats, **fields}
    return engine.State.from_dict(data)


def caravans(ranks: int, most: int) -> list[tuple[int, ...]]:
    """Every caravan vector of `ranks` counts holding at most `most` cubes."""
    if ranks == 0:
        return [()]
    return [(n, *rest) for n in range(most + 1) for rest in caravans(ranks - 1, most - n)]


def decisions(state: Any, cap: int = MAX_DECISIONS) -> Iterator[int]:
    """The decisions of a playout, counted until `state` is over: ``for _ in
    decisions(state): state.play(...)``; an AssertionError after `cap` of them."""
    for decision in range(cap):
        if state.is_over():
            return
        yield decision
    raise AssertionError(f"the game did not end in {cap} decisions")


def api_answers(engine: Any, other: Any) -> list[tuple[str, str]]:
    """What `engine`'s documented API answers to calls right and wrong (bad player counts,
    seeds, records, states and moves): per call the error's type and words, or ``ok`` and the
    result; `other` is an engine whose record it is asked to replay."""

    def outcome(call: Any) -> tuple[str, str]:
        try:
            result = call()
        except Exception as err:
            return type(err).__name__, str(err)
        return "ok", repr(result.to_dict() if hasattr(result, "to_dict") else result)

    started = engine.new_game(2, 1)
    calls = [
        lambda: engine.new_game(1.5),
        lambda: engine.new_game(9),
        lambda: engine.new_game("2"),
        lambda: engine.new_game(2, 1.5),
        lambda: engine.new_game(2, None),
        lambda: engine.new_game(True),
        lambda: engine.new_game(3, -7),
        lambda: engine.new_game(2, 2**80),
        lambda: engine.replay("x"),
        lambda: engine.replay({"rules": engine.GAME_ID, "players": 2, "moves": ["nope"]}),
        lambda: engine.replay(other.new_game(2, 4).record()),
        lambda: engine.State.from_dict({}),
        lambda: engine.State.from_dict([]),
        lambda: engine.State(3),
        lambda: started.clone().play("zzz"),
        lambda: started.clone().play(3),
        lambda: started.clone().play(None),
        lambda: started.clone().play(" REST "),
        lambda: started.clone().play("claim 9"),
        lambda: started.cubes(1),
        lambda: started.cubes(7),
        lambda: str(started),
        lambda: started.view().outcomes(),
        lambda: (started.rounds(), started.current_player, started.players),
    ]
    return [outcome(call) for call in calls]
