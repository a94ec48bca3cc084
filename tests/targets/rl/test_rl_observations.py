"""The learning adapters' observation vectors, written from the engine's View by an encoder
that keeps its buffer, against the reference encoding from ``to_dict()`` (below, the way the
codec first encoded them): equal over random games of every bundled game and the five-rank
variant, for every seat, in the middle of spelled moves, while discarding, once over, and
for encoders that move between games, positions and seats; seat 0's observation turned
for the others (``observation_order``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from century.shared.rl import load_actions

from helpers import bundled_rulesets, decisions, five_ranks

GAMES = dict(bundled_rulesets())
GAMES["five-ranks"] = five_ranks(GAMES["spice-road"])


# -- the reference: the observation read from to_dict() ------------------------------------


def reference(actions: Any, state: Any, seat: int, prefix: str = "") -> list[int]:
    """The observation of `state` from `seat`'s side, from ``to_dict()`` field by field."""
    return references(actions, state, prefix)[seat]


def references(actions: Any, state: Any, prefix: str = "") -> list[list[int]]:
    """`reference` for every seat (one ``to_dict()``)."""
    engine, codes = actions.engine, actions.CODES
    data = state.to_dict(moves=False)

    def counts(cubes: str) -> list[int]:
        return [cubes.count(code) for code in codes]

    def card_counts(cards: list[str]) -> list[int]:
        found = [0] * len(engine.CARDS)
        for card in cards:
            found[engine.CARD_INDEX[card]] += 1
        return found

    players = data["players"]
    phase, slot, left, cubes = [1, 0, 0], [0] * engine.MERCHANT_ROW, 0, ""
    if prefix.startswith("discard "):
        phase, cubes = [0, 0, 1], prefix[len("discard ") :]
        caravan = data["seats"][data["current_player"]]["caravan"]
        left = len(caravan) - engine.CARAVAN_LIMIT - len(cubes)
    elif prefix:
        _, number, cubes = prefix.split(" ", 2)
        phase = [0, 1, 0]
        slot[int(number) - 1] = 1
        left = int(number) - 1 - len(cubes)
    decision = [*phase, *slot, *counts(cubes), left]
    out = [int(data["final_round"]), data["rounds"]]
    out += [len(data["merchant_deck"]), len(data["point_deck"])]
    row = data["merchant_row"]
    for entry in row:
        out += card_counts([entry["card"]]) + counts(entry["cubes"])
    out += [0] * ((len(engine.CARDS) + len(codes)) * (engine.MERCHANT_ROW - len(row)))
    coin_at: dict[int, int] = {}
    for coin in engine.COINS:
        pile = data["coins"][coin.id]
        if pile["count"] > 0 and pile["position"]:
            coin_at.setdefault(pile["position"], coin.value)
    for number, card in enumerate(data["point_row"], 1):
        spec = engine.POINT_CARDS[engine.POINT_INDEX[card]]
        out += [1, *spec.cost, spec.points, coin_at.get(number, 0)]
    out += [0] * ((len(codes) + 3) * (engine.POINT_ROW - len(data["point_row"])))
    for coin in engine.COINS:
        pile = data["coins"][coin.id]
        out += [pile["count"], pile["position"]]
    blocks = []
    for info in data["seats"]:
        points = [engine.POINT_VALUES[engine.POINT_INDEX[card]] for card in info["point_cards"]]
        blocks.append(
            [
                *counts(info["caravan"]),
                *card_counts(info["hand"]),
                *card_counts(info["played"]),
                len(points),
                sum(points),
                *(info["coins"][coin.id] for coin in engine.COINS),
                info["turns"],
                info["score"],
            ]
        )
    found = []
    for seat in range(players):
        to_move = [0] * players
        if not data["over"]:
            to_move[(data["current_player"] - seat) % players] = 1
        found.append(to_move + decision + out)
        for offset in range(players):
            found[-1] += blocks[(seat + offset) % players]
    return found


# -- random positions -----------------------------------------------------------------------


def positions(actions: Any, players: int, seed: int):
    """(state, turn) at every decision of a random game, claims preferred half the time (so
    the point row and coin piles run down), including after some actions of a spelled move;
    then the final position."""
    rng = random.Random(seed)
    state = actions.engine.new_game(players, seed)
    for _ in decisions(state):
        moves = state.legal_moves()
        claims = [m for m in moves if m.startswith("claim")]
        move = rng.choice(claims if claims and rng.random() < 0.5 else moves)
        turn = actions.Turn(moves)
        yield state, turn
        for action in actions.actions_of(move)[:-1]:
            turn.choose(action)
            yield state, turn
        state.play(move)
    yield state, actions.Turn([])


def buffer_kinds():
    """A list, and a NumPy float32 vector where NumPy is installed."""
    kinds = ["list"]
    try:
        import numpy  # noqa: F401
    except ImportError:
        return kinds
    return [*kinds, "numpy"]


def new_buffer(kind: str, size: int):
    if kind == "list":
        return [0] * size
    if kind == "array":  # the environments' buffer, read by NumPy without a copy
        from array import array

        return array("f", bytes(4 * size))
    import numpy as np

    return np.zeros(size, np.float32)


CASES = [(game, players) for game, r in GAMES.items() for players in r.player_counts]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_encoders_write_the_reference_observation(game, players):
    actions = load_actions(GAMES[game])
    size = sum(width for _, width in actions.observation_layout(players))
    rng = random.Random(players)
    kinds = buffer_kinds()
    # one encoder per observing seat, kept across games (as the environments keep them), and
    # one that wanders between seats and earlier positions
    keep = [actions.Encoder(players, new_buffer(kinds[-1], size)) for _ in range(players)]
    wander = actions.Encoder(players, new_buffer(kinds[0], size))
    # and one that writes seat 0's side into an array("f"), turned for the others (as the
    # environments do)
    first = actions.Encoder(players, new_buffer("array", size))
    orders = [actions.observation_order(players, seat) for seat in range(players)]
    seen: list[Any] = []
    checked = 0
    for seed in range(2 if players == 2 else 1):  # more players: longer games
        for state, turn in positions(actions, players, seed + 10 * players):
            view = state.view()
            expected = references(actions, state, turn.prefix)
            first.write(view, 0, turn.prefix)
            for seat in range(players):
                assert [first.buffer[index] for index in orders[seat]] == expected[seat]
                keep[seat].write(view, seat, turn.prefix)
                assert list(keep[seat].buffer) == expected[seat], (seed, seat, state.moves()[-3:])
                checked += 1
            if rng.random() < 0.2:
                seen.append((state.clone(), turn.prefix))
            old, prefix = rng.choice(seen) if seen and rng.random() < 0.5 else (state, "")
            seat = rng.randrange(players)
            wander.write(old.view(), seat, prefix)
            assert list(wander.buffer) == reference(actions, old, seat, prefix)
            if state.is_over():
                assert actions.observation(state, 0, turn) == expected[0]
    assert checked > 200


def test_hand_made_positions_and_the_codec_function():
    """Positions from from_dict (piles run out, short rows, empty decks) and the list the
    codec's ``observation`` gives."""
    actions = load_actions(GAMES["spice-road"])
    engine = actions.engine
    state = engine.new_game(3, 4)
    data = state.to_dict(moves=False)
    data["point_row"] = data["point_row"][:2]
    data["point_deck"] = []
    data["merchant_row"] = data["merchant_row"][:3]
    data["merchant_deck"] = []
    first = engine.COINS[0].id
    data["coins"][first] = {"count": 0, "position": 0}
    data["coins"][engine.COINS[1].id] = {"count": 2, "position": 1}
    data["seats"][1]["point_cards"] = [engine.POINT_CARDS[0].id]
    data["seats"][1]["coins"] = {first: 2}
    data["seats"][2]["caravan"] = "y" * engine.CARAVAN_LIMIT
    made = engine.State.from_dict(data)
    encoder = actions.Encoder(3)
    for position in (state, made, state, made):
        for seat in range(3):
            encoder.write(position.view(), seat)
            expected = reference(actions, position, seat)
            assert encoder.buffer == expected == actions.observation(position, seat)
    assert sum(expected) > 0
    with pytest.raises(ValueError, match="players"):
        encoder.write(engine.new_game(2, 1).view(), 0)
    with pytest.raises(ValueError, match="values"):
        actions.Encoder(3, [0] * 5)


def test_the_views_whole_table_reads_agree_with_to_dict():
    """``View.seats``, ``coin_piles`` and ``decks_left`` (what the encoder reads) against
    ``to_dict()`` and the one-seat reads, over random positions."""
    actions = load_actions(GAMES["five-ranks"])
    engine = actions.engine
    checked = 0
    for state, turn in positions(actions, 3, 5):
        if turn.prefix:
            continue
        view, data = state.view(), state.to_dict(moves=False)
        seats = view.seats
        for seat, info in enumerate(data["seats"]):
            assert seats.caravans[seat] is view.caravan(seat)
            assert seats.caravans[seat].text == info["caravan"]
            for field, read in (("hands", view.hand), ("played", view.played)):
                assert getattr(seats, field)[seat] is read(seat)
            assert seats.point_cards[seat] is view.point_cards(seat)
            assert [engine.POINT_CARDS[c].id for c in seats.point_cards[seat]] == info[
                "point_cards"
            ]
            assert seats.coins[seat] == tuple(info["coins"].values())
            assert seats.turns[seat] == info["turns"]
        assert view.coin_piles == tuple((c["count"], c["position"]) for c in data["coins"].values())
        assert view.decks_left == (len(data["merchant_deck"]), len(data["point_deck"]))
        checked += 1
    assert checked > 50
