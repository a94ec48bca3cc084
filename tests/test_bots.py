"""Bots: they finish games of every ruleset, and their measured strength order holds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from century.model.ruleset import Ruleset
from century.pipeline import compile_paths
from century.play.bots import BOTS, check_spec, make_bot
from century.play.report import wilson
from century.play.simulate import derive_seed
from century.targets.engine import load_engine

HOSTILE = 'Pink "; import os #import ] $x$ \n<b>'


def base_ruleset() -> Ruleset:
    return compile_paths().rulesets["spice-road"]


def five_ranks(base: Ruleset | None = None) -> Ruleset:
    """A variant: a fifth resource, a caravan of 12, three coin piles, hostile names."""
    data: dict[str, Any] = (base or base_ruleset()).to_json()

    def widen(vector: list[int], extra: int = 0) -> list[int]:
        return [*vector, extra]

    data["id"] = "five-ranks"
    data["name"] = {"en": HOSTILE, "de": HOSTILE}
    data["source_hash"] = "0" * 64
    data["resources"].append(
        {"id": "amber", "code": "P", "colour": "#AA00AA", "name": {"en": HOSTILE}}
    )
    data["caravan_limit"] = 12
    data["seats"] = [widen(s) for s in data["seats"]]
    for card in data["starting_cards"] + data["merchant_deck"]:
        card["get"], card["pay"] = widen(card["get"]), widen(card["pay"])
        card["name"] = {"en": HOSTILE}
    for card in data["point_deck"]:
        card["cost"] = widen(card["cost"])
    data["merchant_deck"] += [
        {
            "id": "+p",
            "kind": "gain",
            "copies": 2,
            "get": [0, 0, 0, 0, 1],
            "pay": [0] * 5,
            "steps": 0,
            "name": {"en": HOSTILE},
        },
        {
            "id": "b-p",
            "kind": "trade",
            "copies": 2,
            "get": [0, 0, 0, 0, 1],
            "pay": [0, 0, 0, 1, 0],
            "steps": 0,
            "name": {},
        },
    ]
    data["point_deck"] += [
        {"id": "ggpp", "cost": [0, 0, 2, 0, 2], "points": 18, "copies": 2},
        {"id": "yrp", "cost": [1, 1, 0, 0, 1], "points": 9, "copies": 2},
    ]
    data["coins"].append(
        {
            "id": "copper",
            "value": 1,
            "per_player": 1,
            "position": 3,
            "colour": "#B87333",
            "name": {"en": HOSTILE},
        }
    )
    data["value_weights"] = widen(data["value_weights"], 5)
    data["resource_points"] = widen(data["resource_points"], 1)
    return Ruleset.from_json(json.loads(json.dumps(data)))


def play_out(ruleset: Ruleset, specs: list[str], seed: int) -> Any:
    """One game between bots (seat i plays specs[i]); the finished state."""
    engine = load_engine(ruleset)
    state = engine.new_game(len(specs), seed)
    bots = [make_bot(s, ruleset, derive_seed(seed, i)) for i, s in enumerate(specs)]
    while not state.is_over():
        move = bots[state.current_player].choose(state)
        assert move in state.legal_moves()
        state.play(move)
    return state


def duel(ruleset: Ruleset, a: str, b: str, games: int, first_seed: int) -> int:
    """Wins of bot `a` over `b` in two-player games, seats alternating."""
    wins = 0
    for g in range(games):
        specs = [a, b] if g % 2 == 0 else [b, a]
        state = play_out(ruleset, specs, first_seed + g)
        wins += state.winner() == (g % 2)
    return wins


@pytest.mark.parametrize("game", sorted(compile_paths().rulesets))
def test_every_bot_finishes_every_bundled_game(game: str) -> None:
    ruleset = compile_paths().rulesets[game]
    state = play_out(ruleset, ["random", "greedy", "search"], seed=7)
    assert state.is_over()
    assert len(state.scores()) == 3


@pytest.mark.parametrize("players", [2, 5])
def test_bots_play_a_variant_with_five_ranks_and_three_coin_piles(players: int) -> None:
    ruleset = five_ranks()
    specs = (["greedy", "search", "random"] * 2)[:players]
    state = play_out(ruleset, specs, seed=3)
    data = state.to_dict()
    assert state.is_over()
    assert all(len(seat["caravan"]) <= 12 for seat in data["seats"])
    assert set(data["coins"]) == {"gold", "silver", "copper"}


def test_greedy_claims_the_best_card_it_can_pay() -> None:
    ruleset = base_ruleset()
    engine = load_engine(ruleset)
    row = [c.id for c in ruleset.point_deck[:5]]
    caravan = "".join(
        ruleset.cubes(ruleset.point_deck[0].cost) + ruleset.cubes(ruleset.point_deck[1].cost)
    )
    state = engine.State.from_dict(
        {"players": 2, "point_row": row, "seats": [{"caravan": caravan[:10]}, {}]}
    )
    claims = [m for m in state.legal_moves() if m.startswith("claim")]
    assert claims
    move = make_bot("greedy", ruleset, 0).choose(state)
    assert move.startswith("claim")
    points = {c.id: c.points for c in ruleset.point_deck}

    def value(m: str) -> int:
        slot = int(m.split()[1])
        coin = {c.position: c.value for c in ruleset.coins}.get(slot, 0)
        return points[row[slot - 1]] + coin

    assert value(move) == max(value(m) for m in claims)


def test_random_bot_is_reproducible_from_its_seed() -> None:
    ruleset = base_ruleset()
    a = play_out(ruleset, ["random", "random"], seed=11).record()["moves"]
    b = play_out(ruleset, ["random", "random"], seed=11).record()["moves"]
    assert a == b


def test_bot_specs_are_checked() -> None:
    assert set(BOTS) == {"random", "greedy", "search", "planner"}
    check_spec("search:2")
    check_spec("planner:4")
    for bad in ("minimax", "greedy:3", "search:0", "search:x", "planner:", "planner:10"):
        with pytest.raises(ValueError):
            check_spec(bad)


def test_greedy_beats_random_in_at_least_90_percent() -> None:
    games = 30
    wins = duel(base_ruleset(), "greedy", "random", games, first_seed=1000)
    assert wins / games >= 0.9
    assert wilson(wins, games)[0] > 0.75


def test_search_beats_greedy_in_at_least_60_percent() -> None:
    games = 30
    wins = duel(base_ruleset(), "search", "greedy", games, first_seed=2000)
    assert wins / games >= 0.6
    assert wilson(wins, games)[0] > 0.5  # significant, not luck


def test_greedy_rests_when_its_hand_is_spent() -> None:
    ruleset = base_ruleset()
    engine = load_engine(ruleset)
    played = [c.id for c in ruleset.merchant_deck if c.kind == "gain"][:8]
    state = engine.State.from_dict(
        {
            "players": 2,
            "point_row": [c.id for c in ruleset.point_deck[-5:]],
            "merchant_row": [c.id for c in ruleset.merchant_deck[:6]],
            "seats": [{"caravan": "", "hand": [], "played": played}, {}],
        }
    )
    assert make_bot("greedy", ruleset, 0).choose(state) == "rest"


def test_greedy_acquires_merchant_cards_early() -> None:
    ruleset = base_ruleset()
    engine = load_engine(ruleset)
    first = [make_bot("greedy", ruleset, 0).choose(engine.new_game(2, s)) for s in range(10)]
    assert all(m.startswith("acquire") for m in first), first
