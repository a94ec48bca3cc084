"""Rule scenarios for the generated engine: positions set up with `from_dict`, one rule each,
asserting the exact legal-move list or the exact resulting state."""

from __future__ import annotations

import json

import pytest

from century.engine import load_engine

from helpers import changed, five_ranks, position


@pytest.fixture(scope="module")
def E(base):  # the engine module
    return load_engine(base)


def seat(state, index=None):
    """One seat of `to_dict()` (the player to move by default)."""
    data = state.to_dict()
    return data["seats"][data["current_player"] if index is None else index]


# -- setup -----------------------------------------------------------------------------------


def test_new_game_deals_rows_coins_and_starting_caravans(E, base):
    for players in base.player_counts:
        data = E.new_game(players, 3).to_dict()
        assert len(data["merchant_row"]) == base.merchant_row
        assert len(data["point_row"]) == base.point_row
        assert [s["caravan"] for s in data["seats"]] == [
            base.cubes(v).lower() for v in base.seats[:players]
        ]
        assert {c: p["count"] for c, p in data["coins"].items()} == {
            c.id: c.per_player * players for c in base.coins
        }
        assert all(s["hand"] == ["+yy", "up2"] for s in data["seats"])
        assert data["current_player"] == 0 and data["phase"] == "action"


def test_same_seed_same_game_other_seed_other_deal(E):
    assert E.new_game(3, 11).to_dict() == E.new_game(3, 11).to_dict()
    assert (
        E.new_game(3, 11).to_dict()["merchant_row"] != E.new_game(3, 12).to_dict()["merchant_row"]
    )


def test_player_count_out_of_range_is_refused(E):
    with pytest.raises(ValueError, match="players"):
        E.new_game(1, 0)
    with pytest.raises(ValueError, match="players"):
        E.new_game(6, 0)


# -- play a card ----------------------------------------------------------------------------


def test_gain_card(E):
    state = position(E, seats=[{"caravan": "y", "hand": ["+yy"]}, {}])
    assert state.legal_moves() == ["play +yy", "rest"]
    state.play("play +yy")
    assert state.to_dict()["seats"][0] | {"score": 0} == {
        "caravan": "yyy",
        "hand": [],
        "played": ["+yy"],
        "point_cards": [],
        "merchant_cards": [],
        "coins": {"gold": 0, "silver": 0},
        "turns": 1,
        "score": 0,
    }
    assert state.current_player == 1
    assert [state.cubes(0), state.cubes(1)] == ["yyy", ""]


def test_upgrade_lists_every_step_multiset_and_top_rank_cannot_rise(E):
    state = position(E, seats=[{"caravan": "yb", "hand": ["up2"]}, {}])
    assert state.legal_moves() == ["play up2 y", "play up2 yr", "rest"]


def test_upgrade_chained_and_fewer_steps(E):
    state = position(E, seats=[{"caravan": "yy", "hand": ["up2"]}, {}])
    assert state.legal_moves() == ["play up2 y", "play up2 yy", "play up2 yr", "rest"]
    state.play("play up2 yr")
    assert seat(state, 0)["caravan"] == "yg"


def test_upgrade_three_steps_outcomes(E):
    state = position(E, seats=[{"caravan": "yr", "hand": ["up3"]}, {}])
    outcomes = {}
    for move in state.legal_moves():
        clone = state.clone()
        clone.play(move)
        outcomes[move] = seat(clone, 0)["caravan"]
    assert outcomes == {
        "play up3 y": "rr",
        "play up3 r": "yg",
        "play up3 yr": "rg",
        "play up3 rg": "yb",
        "play up3 yrr": "gg",
        "play up3 yrg": "rb",
        "rest": "yr",
    }
    assert list(outcomes) == state.legal_moves()


def test_upgrade_of_top_rank_only_is_not_a_move(E):
    state = position(E, seats=[{"caravan": "bb", "hand": ["up3"]}, {}])
    assert state.legal_moves() == ["rest"]


def test_trade_any_number_of_times(E):
    state = position(E, seats=[{"caravan": "yyyyy", "hand": ["yy-g"]}, {}])
    assert state.legal_moves() == ["play yy-g x1", "play yy-g x2", "rest"]
    state.play("play yy-g x2")
    assert seat(state, 0)["caravan"] == "ygg"


def test_trade_that_cannot_be_paid_is_not_listed(E):
    state = position(E, seats=[{"caravan": "y", "hand": ["yy-g"]}, {}])
    assert state.legal_moves() == ["rest"]
    before = state.to_dict()
    with pytest.raises(E.IllegalMove, match="cannot play"):
        state.play("play yy-g x1")
    assert state.to_dict() == before


def test_duplicate_cards_give_one_move_and_the_copy_stays_playable(E):
    state = position(E, seats=[{"caravan": "", "hand": ["+g", "+g"]}, {}])
    assert state.legal_moves() == ["play +g", "rest"]
    state.play("play +g")
    state.play("rest")
    assert state.legal_moves() == ["play +g", "rest"]
    assert seat(state)["hand"] == ["+g"] and seat(state)["played"] == ["+g"]


def test_played_card_cannot_be_played_again_before_rest(E):
    state = position(E, seats=[{"caravan": "", "played": ["+g"]}, {}])
    with pytest.raises(E.IllegalMove, match="already played"):
        state.play("play +g")


def test_rest_takes_played_cards_back_and_is_always_legal(E):
    state = position(E, seats=[{"caravan": "", "hand": ["+b"], "played": ["+g", "up2"]}, {}])
    assert state.legal_moves() == ["play +b", "rest"]
    state.play("rest")
    assert seat(state, 0)["hand"] == ["up2", "+g", "+b"]
    assert seat(state, 0)["played"] == []
    empty = position(E)
    assert empty.legal_moves() == ["rest"]


# -- acquire ----------------------------------------------------------------------------------


def test_acquire_one_cube_per_card_to_the_left_in_row_order(E):
    row = ["+g", "+b", "+yr"]
    state = position(E, seats=[{"caravan": "yr"}, {}], merchant_row=row)
    assert state.legal_moves() == [
        "acquire 1",
        "acquire 2 y",
        "acquire 2 r",
        "acquire 3 yr",
        "acquire 3 ry",
        "rest",
    ]


def test_acquire_places_cubes_collects_cubes_slides_and_refills(E):
    row = [{"card": "+g", "cubes": "y"}, {"card": "+b", "cubes": "rr"}, "+yr"]
    state = position(
        E, seats=[{"caravan": "yg"}, {}], merchant_row=row, merchant_deck=["+yyy", "+rr"]
    )
    state.play("acquire 2 g")
    data = state.to_dict()
    assert data["merchant_row"] == [
        {"card": "+g", "cubes": "yg"},
        {"card": "+yr", "cubes": ""},
        {"card": "+yyy", "cubes": ""},
    ]
    assert data["merchant_deck"] == ["+rr"]
    assert data["seats"][0]["caravan"] == "yrr"
    assert data["seats"][0]["hand"] == ["+b"]
    assert data["seats"][0]["merchant_cards"] == ["+b"]


def test_acquire_from_an_empty_deck_leaves_the_row_short(E):
    state = position(E, seats=[{"caravan": ""}, {}], merchant_row=["+g", "+b"])
    state.play("acquire 1")
    assert state.to_dict()["merchant_row"] == [{"card": "+b", "cubes": ""}]
    assert state.legal_moves() == ["acquire 1", "rest"]


def test_acquire_with_wrong_cubes_is_rejected_with_a_reason(E):
    state = position(E, seats=[{"caravan": "y"}, {}], merchant_row=["+g", "+b", "+yr"])
    before = state.to_dict()
    with pytest.raises(E.IllegalMove, match="one cube on each"):
        state.play("acquire 3 y")
    with pytest.raises(E.IllegalMove, match="does not hold"):
        state.play("acquire 2 r")
    with pytest.raises(E.IllegalMove, match=r"slots 1\.\.3"):
        state.play("acquire 4 yyy")
    assert state.to_dict() == before


# -- claim and coins ------------------------------------------------------------------------


def claim_state(E, coins=None, caravan="yyrrgg", **fields):
    fields.setdefault("point_row", ["yyrr", "rrgg", "yygg", "bbbb"])
    return position(E, seats=[{"caravan": caravan}, {}], coins=coins or {}, **fields)


def test_claim_lists_only_affordable_cards(E):
    state = claim_state(E)
    assert state.legal_moves() == ["claim 1", "claim 2", "claim 3", "rest"]


def test_claim_first_slot_takes_gold_and_refills(E):
    state = claim_state(E, point_deck=["gggg"])
    state.play("claim 1")
    data = state.to_dict()
    assert data["point_row"] == ["rrgg", "yygg", "bbbb", "gggg"]
    assert data["seats"][0]["point_cards"] == ["yyrr"]
    assert data["seats"][0]["coins"] == {"gold": 1, "silver": 0}
    assert data["seats"][0]["caravan"] == "gg"
    assert data["coins"]["gold"] == {"count": 3, "position": 1}


def test_claim_second_slot_takes_silver(E):
    state = claim_state(E)
    state.play("claim 2")
    data = state.to_dict()
    assert data["seats"][0]["coins"] == {"gold": 0, "silver": 1}
    assert data["coins"]["silver"]["count"] == 3


def test_claim_third_slot_gives_no_coin(E):
    state = claim_state(E)
    state.play("claim 3")
    assert seat(state, 0)["coins"] == {"gold": 0, "silver": 0}
    assert seat(state, 0)["score"] == 8 + 2  # yygg + rr left


def test_last_gold_coin_moves_silver_to_the_first_card(E):
    state = claim_state(E, coins={"gold": {"count": 1}}, point_deck=["gggg"])
    state.play("claim 1")
    coins = state.to_dict()["coins"]
    assert coins == {
        "gold": {"count": 0, "position": 0},
        "silver": {"count": 4, "position": 1},
    }
    other = claim_state(E, coins=coins)
    other.play("claim 1")
    assert seat(other, 0)["coins"] == {"gold": 0, "silver": 1}
    again = claim_state(E, coins=coins)
    again.play("claim 2")
    assert seat(again, 0)["coins"] == {"gold": 0, "silver": 0}


def test_empty_piles_give_nothing(E):
    empty = {"gold": {"count": 0, "position": 0}, "silver": {"count": 0, "position": 0}}
    state = claim_state(E, coins=empty)
    state.play("claim 1")
    assert seat(state, 0)["coins"] == {"gold": 0, "silver": 0}


def test_coin_runout_stay_leaves_the_other_pile_in_place(base):
    engine = load_engine(changed(base, coin_runout="stay"))
    state = claim_state(engine, coins={"gold": {"count": 1}})
    state.play("claim 1")
    assert state.to_dict()["coins"] == {
        "gold": {"count": 0, "position": 1},
        "silver": {"count": 4, "position": 2},
    }
    state.play("rest")
    assert state.current_player == 0
    state = claim_state(engine, coins=state.to_dict()["coins"])
    state.play("claim 1")
    assert seat(state, 0)["coins"] == {"gold": 0, "silver": 0}


def test_three_piles_shift_down_one_position(base):
    engine = load_engine(five_ranks(base))
    coins = {"gold": {"count": 1}, "silver": {"count": 2}, "copper": {"count": 2}}
    state = position(
        engine,
        seats=[{"caravan": "yyrrrrrr"}, {}],
        point_row=["yyrr", "rrrr", "yyyrr"],
        coins=coins,
    )
    state.play("claim 1")
    assert state.to_dict()["coins"] == {
        "gold": {"count": 0, "position": 0},
        "silver": {"count": 2, "position": 1},
        "copper": {"count": 2, "position": 2},
    }


def test_claim_that_cannot_be_paid_is_rejected(E):
    state = claim_state(E)
    before = state.to_dict()
    with pytest.raises(E.IllegalMove, match="cannot pay bbbb"):
        state.play("claim 4")
    with pytest.raises(E.IllegalMove, match=r"slots 1\.\.4"):
        state.play("claim 7")
    assert state.to_dict() == before


# -- the caravan limit ----------------------------------------------------------------------


def test_over_the_limit_is_a_separate_discard_decision(E):
    state = position(E, seats=[{"caravan": "yyyyyyyyrg", "hand": ["+yy"]}, {}])
    state.play("play +yy")
    assert state.current_player == 0
    assert state.to_dict()["phase"] == "discard"
    assert state.legal_moves() == ["discard yy", "discard yr", "discard yg", "discard rg"]
    with pytest.raises(E.IllegalMove, match="first discard 2"):
        state.play("rest")
    with pytest.raises(E.IllegalMove, match="exactly 2"):
        state.play("discard y")
    state.play("discard rg")
    data = state.to_dict()
    assert data["seats"][0]["caravan"] == "y" * 10
    assert data["seats"][0]["turns"] == 1 and data["phase"] == "action"
    assert state.current_player == 1
    assert state.moves() == ["play +yy", "discard rg"]


def test_five_ranks_caravan_of_twelve(base):
    engine = load_engine(five_ranks(base))
    state = position(engine, seats=[{"caravan": "bbbbbbbbbbb", "hand": ["bb-v"]}, {}])
    assert state.legal_moves()[:2] == ["play bb-v x1", "play bb-v x2"]
    state.play("play bb-v x1")  # 11 cubes -> 10: within 12
    assert seat(state, 0)["caravan"] == "bbbbbbbbbv"
    state = position(engine, seats=[{"caravan": "yyyyyyyyyyyy", "hand": ["+v"]}, {}])
    state.play("play +v")
    assert state.legal_moves() == ["discard y", "discard v"]


def test_top_of_five_ranks_cannot_rise(base):
    engine = load_engine(five_ranks(base))
    state = position(engine, seats=[{"caravan": "bv", "hand": ["up2"]}, {}])
    assert state.legal_moves() == ["play up2 b", "rest"]


def test_no_discard_in_the_action_phase(E):
    state = position(E, seats=[{"caravan": "yyy"}, {}])
    with pytest.raises(E.IllegalMove, match="nothing to discard"):
        state.play("discard y")


# -- the end ----------------------------------------------------------------------------------


def end_state(engine, players, claimer, have, turns, **fields):
    """Seat `claimer` holds `have` point cards and can claim one more."""
    seats = [{"turns": turns[i]} for i in range(players)]
    seats[claimer] |= {"caravan": "yyrr", "point_cards": ["rrrr"] * have}
    return position(
        engine,
        players=players,
        seats=seats,
        current_player=claimer,
        point_row=["yyrr", "bbbb"],
        **fields,
    )


@pytest.mark.parametrize(("players", "threshold"), [(2, 6), (3, 6), (4, 5), (5, 5)])
def test_end_threshold_per_player_count_with_the_round_completed(E, players, threshold):
    state = end_state(E, players, 0, threshold - 2, [0] * players)
    state.play("claim 1")
    assert not state.to_dict()["final_round"]
    state = end_state(E, players, 0, threshold - 1, [0] * players)
    state.play("claim 1")
    assert state.to_dict()["final_round"] and not state.is_over()
    for _ in range(players - 2):
        state.play("rest")
        assert not state.is_over()
    state.play("rest")
    assert state.is_over()
    assert state.legal_moves() == []
    assert state.rounds() == 1
    with pytest.raises(E.IllegalMove, match="over"):
        state.play("rest")


def test_last_seat_reaching_the_threshold_ends_at_once(E):
    state = end_state(E, 3, 2, 5, [1, 1, 0])
    state.play("claim 1")
    assert state.is_over()


def test_without_finish_round_the_game_ends_after_that_turn(base):
    engine = load_engine(changed(base, finish_round=False))
    state = end_state(engine, 3, 0, 5, [0, 0, 0])
    state.play("claim 1")
    assert state.is_over()


def test_empty_point_row_triggers_the_end(E):
    state = position(E, seats=[{"caravan": "yyrr"}, {}], point_row=["yyrr"])
    state.play("claim 1")
    assert state.to_dict()["final_round"]
    state.play("rest")
    assert state.is_over()


# -- scores and ties ------------------------------------------------------------------------


def test_scores_add_point_cards_coins_and_cubes_by_rank(E):
    seats = [
        {"caravan": "yyrgb", "point_cards": ["yyrr", "bbbb"], "coins": {"gold": 2, "silver": 1}},
        {"caravan": "yyyy", "point_cards": ["gggg"]},
    ]
    state = position(E, seats=seats)
    assert state.scores() == [(6 + 16) + (2 * 3 + 1) + 3, 12]


def tie_state(engine):
    seats = [{"point_cards": ["gggg"], "turns": 3}, {"point_cards": ["rrgb"], "turns": 3}]
    return position(engine, seats=seats)


def test_tie_break_latest_turn(E):
    state = tie_state(E)
    assert state.scores() == [12, 12]
    assert state.winner() == 1 and state.winners() == [1]


def test_tie_break_latest_turn_counts_turns_not_seats(E):
    seats = [{"point_cards": ["gggg"], "turns": 4}, {"point_cards": ["rrgb"], "turns": 3}]
    assert position(E, seats=seats, current_player=1).winner() == 0


def test_tie_break_earliest_turn(base):
    engine = load_engine(changed(base, tie_break="earliest_turn"))
    assert tie_state(engine).winner() == 0


def test_tie_break_shared(base):
    engine = load_engine(changed(base, tie_break="shared"))
    state = tie_state(engine)
    assert state.winners() == [0, 1] and state.winner() == 0


# -- notation, records, JSON ----------------------------------------------------------------


def test_moves_parse_case_insensitively_and_are_recorded_canonically(E):
    state = position(E, seats=[{"caravan": "y", "hand": ["+yy"]}, {}])
    state.play("  PLAY   +YY ")
    assert state.moves() == ["play +yy"]
    state = position(E, seats=[{"caravan": "yy", "hand": ["up2"]}, {}])
    state.play("play up2 RY")
    assert state.moves() == ["play up2 yr"] and seat(state, 0)["caravan"] == "yg"


def test_unknown_words_are_rejected(E):
    state = position(E)
    with pytest.raises(E.IllegalMove, match="unknown move"):
        state.play("dance")
    with pytest.raises(E.IllegalMove, match="no such card"):
        state.play("play +zz")
    with pytest.raises(E.IllegalMove, match="slots"):
        state.play("claim ²")
    with pytest.raises(E.IllegalMove, match="a move is a string"):
        state.play(None)


def test_hand_made_state_round_trips_and_its_record_replays(E):
    state = position(
        E,
        seats=[{"caravan": "yyrg", "hand": ["up2", "yy-g"]}, {"caravan": "b"}],
        merchant_row=["+g", {"card": "+b", "cubes": "y"}],
        point_row=["yyrr", "gggg"],
        merchant_deck=["+yr"],
    )
    for move in ("play yy-g x1", "acquire 2 b", "play up2 rg"):
        state.play(move)
    text = json.dumps(state.to_dict())
    again = E.State.from_dict(json.loads(text))
    assert again.to_dict() == state.to_dict()
    record = json.loads(json.dumps(state.record()))
    assert "start" in record and record["moves"] == ["play yy-g x1", "acquire 2 b", "play up2 rg"]
    assert E.replay(record).to_dict() == state.to_dict()


def test_record_of_another_game_or_data_is_refused(E):
    record = E.new_game(2, 1).record()
    with pytest.raises(ValueError, match="record is for"):
        E.replay({**record, "rules": "other"})
    with pytest.raises(ValueError, match="source hash"):
        E.replay({**record, "source_hash": "0" * 64})


def test_from_dict_rejects_unknown_cards_and_inconsistent_phase(E):
    with pytest.raises(ValueError, match="unknown merchant card"):
        position(E, merchant_row=["nope"])
    with pytest.raises(ValueError, match="unknown point card"):
        position(E, point_row=["nope"])
    with pytest.raises(ValueError, match="does not fit the phase"):
        position(E, seats=[{"caravan": "y" * 11}, {}])


def test_rows_longer_than_the_rules_allow_are_refused(E, base):
    with pytest.raises(ValueError, match="rows hold at most"):
        position(E, point_row=[p.id for p in base.point_deck[: base.point_row + 1]])


def test_position_without_moves_becomes_the_start_of_the_record(E):
    state = E.new_game(2, 8)
    for _ in range(5):
        state.play(state.legal_moves()[0])
    copy = E.State.from_dict(json.loads(json.dumps(state.to_dict(moves=False))))
    assert copy.moves() == []
    copy.play(copy.legal_moves()[-1])
    state.play(state.legal_moves()[-1])
    record = copy.record()
    assert record["start"]["seats"] and record["moves"] == state.moves()[-1:]
    replayed = E.replay(record).to_dict(moves=False)
    assert replayed.pop("start") == record["start"]
    assert replayed == state.to_dict(moves=False)


def test_states_pickle_and_clones_are_independent(E):
    import pickle

    state = E.new_game(3, 2)
    for _ in range(7):
        state.play(state.legal_moves()[-2])
    copy = pickle.loads(pickle.dumps(state))
    assert copy.to_dict() == state.to_dict()
    assert copy.legal_moves() == state.legal_moves()
    clone = state.clone()
    clone.play(clone.legal_moves()[0])
    assert clone.to_dict() != state.to_dict()
    state.play(state.legal_moves()[-1])
    assert clone.moves()[:-1] == state.moves()[:-1] and clone.moves() != state.moves()


def test_the_same_card_twice_side_by_side_is_one_claim(E):
    row = ["gggg", "bbbb", "yyrr", "yyrr"]
    state = position(E, seats=[{"caravan": "yyrr"}, {}], point_row=row)
    assert state.legal_moves() == ["claim 3", "rest"]
    with pytest.raises(E.IllegalMove, match="same card as claim 3"):
        state.play("claim 4")
    coins = {"silver": {"count": 2, "position": 4}}
    state = position(E, seats=[{"caravan": "yyrr"}, {}], point_row=row, coins=coins)
    assert state.legal_moves() == ["claim 3", "claim 4", "rest"]
