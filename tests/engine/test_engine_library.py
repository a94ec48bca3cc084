"""The engine as a library others call: every public call given a wrong type or value raises
the documented error (TypeError or ValueError naming the argument, IllegalMove for a move),
never an error from inside; seeds are whole numbers; copies are independent games; messages
quote at most a short prefix of a hostile string."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from century.engine import load_engine

from helpers import decisions

LONG = "x" * 100_000
NOT_WHOLE = [1.5, 2.0, math.nan, math.inf, "3", b"3", True, None, [], (1,), object()]
"""Values that are not whole numbers (a float that is whole is still a float)."""


@pytest.fixture(scope="module")
def E(base):  # the engine module
    return load_engine(base)


def numpy_or_skip() -> Any:
    return pytest.importorskip("numpy", reason="NumPy's integers (pip install -e '.[rl]')")


@pytest.mark.parametrize("seed", NOT_WHOLE, ids=repr)
def test_a_seed_must_be_a_whole_number(E, seed):
    with pytest.raises(TypeError, match=r"^seed must be a whole number, not "):
        E.new_game(2, seed)


def test_python_and_numpy_integer_seeds_give_the_same_game(E):
    np = numpy_or_skip()
    by_int = E.new_game(2, 7).to_dict()
    for seed in (np.int64(7), np.uint8(7), np.int32(7)):
        game = E.new_game(np.int8(2), seed)
        assert game.to_dict() == by_int
        assert type(game.record()["seed"]) is int  # the record stays JSON
    with pytest.raises(TypeError, match="seed must be a whole number, not true or false"):
        E.new_game(2, np.True_)
    with pytest.raises(TypeError, match="seed must be a whole number, not float64"):
        E.new_game(2, np.float64(7))


@pytest.mark.parametrize("seed", [1.5, "7", True, None], ids=repr)
def test_a_record_or_position_with_a_seed_that_is_not_whole_is_refused(E, seed):
    record = E.new_game(2, 7).record()
    with pytest.raises(ValueError, match=r"^seed: expected a whole number"):
        E.replay({**record, "seed": seed})
    if seed is not None:  # a position may have no seed
        with pytest.raises(ValueError, match=r"^seed: expected a whole number"):
            E.State.from_dict({**E.new_game(2, 7).to_dict(), "seed": seed})


@pytest.mark.parametrize("players", [*NOT_WHOLE, -1, 0, 99, 10**30], ids=repr)
def test_a_player_count_is_checked(E, players):
    error = ValueError if isinstance(players, int) and not isinstance(players, bool) else TypeError
    with pytest.raises(error, match="players"):
        E.new_game(players, 1)
    with pytest.raises(error, match="players"):
        E.State(players)


def calls(E) -> dict[str, Callable[[Any], Any]]:
    """Every public call that takes a seat, pile, slot or other single argument."""
    state = E.new_game(2, 3)
    view = state.view()
    found: dict[str, Callable[[Any], Any]] = {
        "State.cubes": state.cubes,
        "caravan": E.caravan,
        "cubes_vector": E.cubes_vector,
        "View.sample": view.sample,
        "View.coin_count": view.coin_count,
        "View.coin_pile": view.coin_pile,
    }
    for name in ("caravan", "hand", "hand_kinds", "played", "point_cards", "merchant_cards"):
        found[f"View.{name}"] = getattr(view, name)
    for name in ("coins", "turns", "score"):
        found[f"View.{name}"] = getattr(view, name)
    return found


@pytest.mark.parametrize("value", [*NOT_WHOLE, -1, 2, 10**30, LONG], ids=lambda v: repr(v)[:20])
def test_every_call_with_a_wrong_argument_raises_the_documented_error(E, value):
    for name, call in calls(E).items():
        try:
            call(value)
        except (TypeError, ValueError) as err:
            assert len(str(err)) < 200, f"{name}({value!r:.20}): a long message"
        except Exception as err:  # an error from inside, e.g. IndexError
            pytest.fail(f"{name}({value!r:.20}) raised {type(err).__name__}: {err}")


@pytest.mark.parametrize(
    "move", [None, 3, 1.5, b"rest", ["rest"], {"rest": 1}, LONG, "claim " + "9" * 5000]
)
def test_a_move_that_is_not_legal_text_raises_illegal_move(E, move):
    state = E.new_game(2, 3)
    before = state.to_dict()
    with pytest.raises(E.IllegalMove) as raised:
        state.play(move)
    assert len(str(raised.value)) < 200
    assert state.to_dict() == before


@pytest.mark.parametrize("field", ["rules", "phase", "players", "seed", "seats", "moves", "x"])
def test_positions_and_records_with_hostile_values_are_refused_briefly(E, field):
    state = E.new_game(2, 3)
    with pytest.raises(ValueError) as raised:
        E.State.from_dict({**state.to_dict(), field: LONG})
    assert len(str(raised.value)) < 200
    with pytest.raises(ValueError) as raised:
        E.replay({**state.record(), field: LONG})
    assert len(str(raised.value)) < 200


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy, lambda state: state.clone()])
def test_copies_of_a_state_are_independent_games(E, copier):
    state = E.new_game(2, 5)
    state.play(state.legal_moves()[0])
    before = state.to_dict()
    twin = copier(state)
    assert twin.to_dict() == before
    rng = random.Random(1)
    for _ in decisions(twin):
        moves = twin.legal_moves()
        twin.play(moves[rng.randrange(len(moves))])
    assert state.to_dict() == before  # the original did not move
    assert E.replay(twin.record()).to_dict() == twin.to_dict()


def test_records_and_positions_share_nothing_with_the_state(E):
    """What `record()` and `to_dict()` return, and what `from_dict` was given, may be changed
    by the caller without changing the game (a hand-made start is held as a copy)."""
    given = E.new_game(2, 3).to_dict(moves=False)
    given.pop("seed")
    state = E.State.from_dict(given)
    start = state.record()["start"]
    before = copy.deepcopy((state.record(), state.to_dict()))
    given["seats"][0]["caravan"] = "changed"
    for data in (state.record(), state.to_dict()):
        data["start"]["seats"][0]["caravan"] = "changed"
        data["start"]["merchant_row"].clear()
    start["point_row"].clear()
    assert (state.record(), state.to_dict()) == before
    assert E.replay(state.record()).to_dict() == state.to_dict()
