"""The engine API refuses what is not a position: `State.from_dict` checks every field, a
refused dict changes nothing, `to_dict` carries the turn and the seat that triggered the end,
and `replay` refuses records that are tampered, truncated or foreign."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from century.engine import load_engine

from helpers import changed, five_ranks, position, spice_road

MOVE_COUNTS = (0, 7, 40, 400)
"""The random moves played to reach the positions of each seed: the last caps a playout."""
SEEDS = 4
"""Seeded games per engine whose positions are checked."""
ROUND_TRIPS = 24
"""Positions checked one by one: the first engine's, of its first two seeds."""


@pytest.fixture(scope="module")
def engines() -> dict[str, Any]:
    """The engines of Spice Road and of its five-rank variant, by name."""
    base = spice_road()
    return {"spice-road": load_engine(base), "five-ranks": load_engine(five_ranks(base))}


@pytest.fixture(scope="module")
def engine(engines: dict[str, Any]) -> Any:
    """Spice Road's engine."""
    return engines["spice-road"]


@pytest.fixture(scope="module")
def all_positions(engines: dict[str, Any]) -> list[tuple[str, dict]]:
    """Positions met in seeded random games of every engine (`positions`)."""
    return positions(engines)


def played(engine: Any, players: int, seed: int, moves: int) -> Any:
    """A seeded game after at most `moves` random moves."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(moves):
        if state.is_over():
            break
        options = state.legal_moves()
        state.play(options[rng.randrange(len(options))])
    return state


def positions(engines: dict[str, Any]) -> list[tuple[str, dict]]:
    """Per engine, seed and move count: the position with its moves, as a new start, and hand
    made (no seed)."""
    found = []
    for name, engine in engines.items():
        for seed in range(SEEDS):
            players = 2 + seed % 3
            for moves in MOVE_COUNTS:
                state = played(engine, players, seed, moves)
                found.append((name, state.to_dict()))  # with the moves from the seed
                found.append((name, state.to_dict(moves=False)))  # a new start
                hand_made = {k: v for k, v in state.to_dict().items() if k != "seed"}
                found.append((name, hand_made))
    return found


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["+yy", "up2", "yyrr", "gggg", "yy-g", "gold", "silver", "", "yyyyyyyyyyyy"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


def paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value (mapping keys and list indexes)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*path, i))
    return found


def mutate(data: dict, where: tuple, how: int, value: Any) -> dict:
    """A deep copy of `data` with one change at `where`: replaced, removed or added to."""
    result = copy.deepcopy(data)
    if not where:
        return value if how == 0 else result
    parent = result
    for part in where[:-1]:
        parent = parent[part]
    last = where[-1]
    if how == 0:
        parent[last] = value
    elif how == 1:
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last]["extra"] = value
    elif isinstance(parent[last], list):
        parent[last].append(value)
    else:
        parent[last] = [parent[last], value]
    return result


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_positions_raise_only_value_errors_and_change_nothing(data, engines, all_positions):
    name, valid = data.draw(st.sampled_from(all_positions))
    engine = engines[name]
    where = data.draw(st.sampled_from(paths(valid)))
    mutated = mutate(valid, where, data.draw(st.integers(0, 2)), data.draw(JSON))
    before = copy.deepcopy(mutated)
    try:
        state = engine.State.from_dict(mutated)
    except ValueError as err:
        assert str(err), "a refusal says why"
        assert mutated == before, "a refused dict is left as it was"
        return
    assert mutated == before
    # what is accepted is a position: it plays, and it round-trips
    state.legal_moves()
    state.scores()
    again = engine.State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize("index", range(ROUND_TRIPS))
def test_valid_positions_round_trip(index, engines, all_positions):
    name, data = all_positions[index]
    engine = engines[name]
    state = engine.State.from_dict(copy.deepcopy(data))
    assert engine.State.from_dict(state.to_dict()).to_dict() == state.to_dict()


# -- each field is checked and named ----------------------------------------------------------


@pytest.fixture(scope="module")
def start(engine: Any) -> dict:
    """A new two-player game of Spice Road, without its seed."""
    return engine.new_game(2, 3).to_dict(moves=False)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": 1}, "players"),
        ({"players": 9}, "players"),
        ({"players": True}, "players"),
        ({"players": "2"}, "players"),
        ({"current_player": 2}, "current_player"),
        ({"current_player": -1}, "current_player"),
        ({"phase": "dance"}, "phase"),
        ({"final_round": "yes"}, "final_round"),
        ({"merchant_row": ["nope"]}, r"merchant_row\[0\]"),
        ({"merchant_row": [{"card": "+yy", "cubes": "x"}]}, r"merchant_row\[0\].cubes"),
        ({"merchant_deck": [True]}, r"merchant_deck\[0\]"),
        ({"point_row": ["nope"]}, r"point_row\[0\]"),
        ({"point_deck": "yyrr"}, "point_deck"),
        ({"coins": {"gold": {"count": -1}}}, "coins.gold.count"),
        ({"coins": {"gold": {"count": 2.0}}}, "coins.gold.count"),
        ({"coins": {"lead": {}}}, "coins.lead"),
        ({"coins": {"gold": {"position": 9}}}, "coins.gold.position"),
        ({"seats": [{}]}, "seats"),
        ({"seats": [{"caravan": "y" * 11}, {}]}, r"seats\[0\].caravan"),
        ({"seats": [{"caravan": "yz"}, {}]}, r"seats\[0\].caravan"),
        ({"seats": [{"hand": ["+yy", "nope"]}, {}]}, r"seats\[0\].hand\[1\]"),
        ({"seats": [{"coins": {"gold": -2}}, {}]}, r"seats\[0\].coins.gold"),
        ({"seats": [{"coins": {"gold": False}}, {}]}, r"seats\[0\].coins.gold"),
        ({"seats": [{"turns": 2}, {"turns": 0}]}, r"seats\[1\].turns"),
        ({"seats": [{"colour": "red"}, {}]}, r"seats\[0\].colour"),
        ({"seats": [{}, {}], "turn": 3, "current_player": 0}, "turn"),
        ({"end_trigger": 0}, "end_trigger"),
        ({"over": True}, "over"),
        ({"rounds": 4}, "rounds"),
        ({"rules": "golem"}, "rules"),
        ({"favourite": 1}, "favourite"),
        ({"start": {"players": 7}}, "start.players"),
        ({"seed": 3, "moves": ["claim 5"]}, r"moves\[0\]"),
        ({"seed": 3, "moves": [7]}, r"moves\[0\]"),
        ({"seed": 4, "moves": []}, "moves"),
        ({"moves": 5}, "moves"),
        ({"seed": None, "moves": [None]}, r"moves\[0\]"),
    ],
)
def test_each_bad_field_is_named(change, field, engine, start):
    data = {**copy.deepcopy(start), **change}
    before = copy.deepcopy(data)
    with pytest.raises(ValueError, match=f"^{field}"):
        engine.State.from_dict(data)
    assert data == before


def test_a_position_that_is_not_a_mapping_is_refused(engine):
    for value in (None, [], "position", 3):
        with pytest.raises(ValueError, match="position"):
            engine.State.from_dict(value)


def test_hand_made_turns_follow_the_player_to_move(engine):
    state = position(engine, players=3, current_player=2)
    data = state.to_dict()
    assert [s["turns"] for s in data["seats"]] == [1, 1, 0]
    assert data["turn"] == 2
    state.play("rest")
    assert state.rounds() == 1 and state.current_player == 0
    from_turn = position(engine, players=3, turn=7)
    assert from_turn.current_player == 1
    assert [s["turns"] for s in from_turn.to_dict()["seats"]] == [3, 2, 2]


def test_to_dict_carries_the_turn_and_the_seat_that_triggered_the_end(engine):
    seats = [{"turns": 1}, {"turns": 1}, {"turns": 0}]
    seats[2] |= {"caravan": "yyrr", "point_cards": ["rrrr"] * 5}
    state = position(engine, players=3, seats=seats, current_player=2, point_row=["yyrr", "bbbb"])
    state.play("claim 1")
    data = state.to_dict()
    assert data["end_trigger"] == 2 and data["final_round"] and data["turn"] == 3
    assert engine.State.from_dict(data).to_dict() == data
    assert engine.new_game(2, 1).to_dict()["end_trigger"] is None


@pytest.mark.parametrize("runout", ["shift", "stay"])
def test_a_coin_pile_empty_from_the_start_has_run_out(runout, base):
    coins = tuple(
        dataclasses.replace(c, per_player=0) if c.position == 1 else c for c in base.coins
    )
    engine = load_engine(changed(base, coins=coins, coin_runout=runout))
    data = engine.new_game(2, 1).to_dict()
    empty = next(c.id for c in base.coins if c.position == 1)
    other = next(c.id for c in base.coins if c.position == 2)
    assert data["coins"][empty]["count"] == 0
    if runout == "shift":
        assert data["coins"][empty]["position"] == 0
        assert data["coins"][other]["position"] == 1  # moved left at setup
    else:
        assert data["coins"][other]["position"] == 2
    hand_made = position(engine, coins={empty: {"count": 0}})
    assert hand_made.to_dict()["coins"] == data["coins"]


# -- records ----------------------------------------------------------------------------------


def test_replay_refuses_tampered_truncated_and_foreign_records(engine):
    record = played(engine, 2, 5, 30).record()
    assert engine.replay(copy.deepcopy(record)).moves() == record["moves"]
    bad = [
        ({**record, "rules": "golem"}, "rules"),
        ({**record, "source_hash": "0" * 64}, "source_hash"),
        ({**record, "moves": [*record["moves"][:5], "claim 5"]}, "move 6"),
        ({**record, "moves": "rest"}, "moves"),
        ({**record, "players": "two"}, "players"),
        ({k: v for k, v in record.items() if k != "seed"}, "seed"),
        ({**record, "extra": 1}, "extra"),
        ([record], "a record is a mapping"),
    ]
    for tampered, field in bad:
        with pytest.raises(ValueError, match=f"^{field}"):
            engine.replay(tampered)
