"""Random-simulation consistency of the generated engine: thousands of seeded games for every
bundled game and variant and the built-in test variants, 2-5 players.

Invariants checked: no move from `legal_moves()` is ever rejected and none repeats; every
caravan is within the limit whenever a turn is over; merchant cards, point cards and coins
are conserved; the game ends; `scores()` equals the sum of its parts; `to_dict()` survives
JSON and `from_dict`; the record replays to the same state; the moves of a position lead to
pairwise different positions.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from century.engine import load_engine
from century.model.ruleset import Ruleset

from helpers import with_test_variants

GAMES = 250  # per ruleset and player count: 1000 per ruleset
MAX_DECISIONS = 20_000
RULESETS = with_test_variants()
CASES = [(game, players) for game, r in RULESETS.items() for players in r.player_counts]


def expected_cards(ruleset: Ruleset, players: int) -> tuple[Counter, Counter, dict]:
    merchant = Counter({c.id: c.copies for c in ruleset.merchant_deck})
    for card in ruleset.starting_cards:
        merchant[card.id] += card.copies * players
    points = Counter({p.id: p.copies for p in ruleset.point_deck})
    coins = {c.id: c.per_player * players for c in ruleset.coins}
    return merchant, points, coins


def check_conservation(data: dict, expected: tuple[Counter, Counter, dict]) -> None:
    merchant, points, coins = expected
    seen = Counter(data["merchant_deck"]) + Counter(e["card"] for e in data["merchant_row"])
    for seat in data["seats"]:
        seen += Counter(seat["hand"]) + Counter(seat["played"])
    assert seen == merchant
    claimed = Counter(data["point_deck"]) + Counter(data["point_row"])
    for seat in data["seats"]:
        claimed += Counter(seat["point_cards"])
    assert claimed == points
    for coin, total in coins.items():
        held = sum(seat["coins"][coin] for seat in data["seats"])
        assert data["coins"][coin]["count"] + held == total


def check_scores(ruleset: Ruleset, data: dict, scores: list[int]) -> None:
    values = {p.id: p.points for p in ruleset.point_deck}
    coin_values = {c.id: c.value for c in ruleset.coins}
    for seat, score in zip(data["seats"], scores, strict=True):
        cubes = ruleset.vector(seat["caravan"])
        total = sum(values[p] for p in seat["point_cards"])
        total += sum(coin_values[c] * n for c, n in seat["coins"].items())
        total += sum(n * w for n, w in zip(cubes, ruleset.resource_points, strict=True))
        assert score == total == seat["score"]


def check_round_trip(engine, state) -> None:
    data = state.to_dict()
    again = engine.State.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.legal_moves() == state.legal_moves()
    assert engine.replay(json.loads(json.dumps(state.record()))).to_dict() == data


def check_distinct_outcomes(state, moves: list[str]) -> None:
    outcomes = set()
    for move in moves:
        clone = state.clone()
        clone.play(move)
        data = clone.to_dict()
        del data["moves"]
        outcomes.add(json.dumps(data, sort_keys=True))
    assert len(outcomes) == len(moves)


def play_game(engine, ruleset: Ruleset, players: int, seed: int) -> int:
    """One seeded game with random moves (claims preferred half the time); returns decisions."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    expected = expected_cards(ruleset, players)
    probes = {rng.randrange(60), rng.randrange(300)}
    decisions = 0
    while not state.is_over():
        moves = state.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        if decisions in probes:
            check_round_trip(engine, state)
            check_conservation(state.to_dict(), expected)
            if seed % 10 == 0:
                check_distinct_outcomes(state, moves)
        claims = [m for m in moves if m.startswith("claim")]
        move = rng.choice(claims if claims and rng.random() < 0.5 else moves)
        seat = state.current_player
        state.play(move)
        decisions += 1
        assert decisions < MAX_DECISIONS
        if state.current_player != seat or state.is_over():  # a turn ended
            assert all(len(state.cubes(s)) <= ruleset.caravan_limit for s in range(players))
    data = state.to_dict()
    check_conservation(data, expected)
    check_scores(ruleset, data, state.scores())
    assert state.winner() in state.winners()
    assert data["rounds"] == min(s["turns"] for s in data["seats"])
    if ruleset.finish_round:
        assert len({s["turns"] for s in data["seats"]}) == 1
    check_round_trip(engine, state)
    return decisions


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{p}p" for g, p in CASES])
def test_random_games_keep_every_invariant(game: str, players: int) -> None:
    ruleset = RULESETS[game]
    engine = load_engine(ruleset)
    total = sum(play_game(engine, ruleset, players, seed) for seed in range(GAMES))
    assert total > GAMES


def test_cases_cover_bundled_games_and_test_variants() -> None:
    assert {"spice-road", "five-ranks", "stay-no-finish"} <= set(RULESETS)
    assert len(CASES) >= 4 * len(RULESETS)
