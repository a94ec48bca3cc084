"""The bots on the C engine (``--backend c``): the greedy bot and the planner find their moves
in C, and both play exactly the moves the Python bots play on the
Python engine, over seeded games of every bundled game and of a variant with composed cards
(digests of the move lists); `century simulate` and `century experiment` with
``--backend c`` write the same reports as on the Python engine.

The C engines are compiled once per session (`helpers.native.c_engine`); the tests skip,
saying why, where no C compiler is found (CI has one)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from century.bots.knowledge import knowledge
from century.bots.planner import Plan, PlannerBot
from century.bots.registry import GreedyBot, make_bot
from century.engine import load_engine
from century.engine.cbuild import missing
from century.simulation.backend import chosen_backend, use_backend

from helpers import with_composed_variant
from helpers.native import c_engine

GAMES = 12
"""Seeded games per ruleset and bot."""


@pytest.fixture(scope="module")
def rulesets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every bundled game, and the variant with composed cards."""
    return with_composed_variant(tmp_path_factory.mktemp("composed"))


def bot_game(engine: Any, ruleset: Any, spec: str, seed: int, players: int) -> str:
    """A digest of the moves of a seeded game the bot `spec` plays in every seat."""
    state = engine.new_game(players, seed)
    bots = [make_bot(spec, engine, ruleset, seed * 10 + seat) for seat in range(players)]
    for _ in range(20_000):
        if state.is_over():
            break
        state.play(bots[state.current_player].choose(state))
    assert state.is_over()
    return hashlib.sha256("\n".join(state.moves()).encode()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("key", ["spice-road", "golem", "spice-road-classic", "composed-variant"])
@pytest.mark.parametrize(("spec", "games"), [("greedy", 12), ("planner", 4), ("planner:2", 2)])
def test_the_bots_play_the_same_moves_on_the_c_engine(rulesets, key, spec, games):
    ruleset = rulesets[key]
    fast, pure = c_engine(ruleset), load_engine(ruleset)
    low, high = pure.PLAYERS_MIN, pure.PLAYERS_MAX
    for seed in range(games):
        players = low + seed % (high - low + 1)
        assert bot_game(fast, ruleset, spec, seed, players) == bot_game(
            pure, ruleset, spec, seed, players
        ), seed


@pytest.mark.slow
def test_the_bots_search_in_c_on_a_c_engine_only(rulesets):
    ruleset = rulesets["spice-road"]
    fast, pure = c_engine(ruleset), load_engine(ruleset)
    assert GreedyBot(fast, ruleset, 0).native is not None  # the move is found in C
    assert GreedyBot(pure, ruleset, 0).native is None
    assert PlannerBot(fast, ruleset, 0).native is not None  # the search runs in C
    assert PlannerBot(pure, ruleset, 0).native is None
    assert PlannerBot(fast, ruleset, 0).whole is not None  # so does the whole decision
    assert PlannerBot(pure, ruleset, 0).whole is None
    know = knowledge(fast, ruleset)
    owned = (0, 0, 1, 5)
    paid, per_play = fast.planner_pace(owned, know.weights, PlannerBot.CYCLE, PlannerBot.BEAM)
    assert len(paid) == len(fast.POINT_CARDS) and any(paid) and per_play > 0
    assert PlannerBot(fast, ruleset, 0)._pace(know, owned) == PlannerBot(pure, ruleset, 0)._pace(
        knowledge(pure, ruleset), owned
    )


@pytest.mark.slow
def test_the_c_greedy_bot_answers_as_the_python_one_from_random_positions(rulesets):
    """Positions the games between greedy bots rarely reach: random moves first, then the
    greedy bot's choice asked on both engines at every decision of the rest of the game."""
    import random

    ruleset = rulesets["spice-road"]
    fast, pure = c_engine(ruleset), load_engine(ruleset)
    fast_bot, pure_bot = GreedyBot(fast, ruleset, 0), GreedyBot(pure, ruleset, 0)
    asked = 0
    for seed in range(40):
        chooser = random.Random(seed)
        state = fast.new_game(2 + seed % 4, seed)
        for _ in range(chooser.randrange(120)):
            if state.is_over():
                break
            moves = state.legal_moves()
            state.play(moves[chooser.randrange(len(moves))])
        while not state.is_over() and asked < 4000:
            twin = pure.State.from_dict(state.to_dict())
            move = fast_bot.choose(state)
            assert move == pure_bot.choose(twin), (seed, state.moves())
            asked += 1
            moves = state.legal_moves()
            state.play(moves[chooser.randrange(len(moves))] if chooser.random() < 0.5 else move)


class _Patient(PlannerBot):
    """A planner of other tunings: it still decides in C."""

    GAMMA = 0.6
    ACQUIRE = 1
    FEED = 1


class _Paced(PlannerBot):
    """A planner of its own pace: it decides in Python."""

    def rate(self, know, owned):
        return (0.5, 1.0)


@pytest.mark.slow
def test_a_planner_subclass_decides_in_c_only_with_the_planners_methods(rulesets):
    ruleset = rulesets["spice-road"]
    fast, pure = c_engine(ruleset), load_engine(ruleset)
    assert _Patient(fast, ruleset, 0).whole is not None
    assert _Paced(fast, ruleset, 0).whole is None
    for kind in (_Patient, _Paced):
        for seed in range(2):
            games = []
            for engine in (fast, pure):
                state = engine.new_game(2, seed)
                bots = [kind(engine, ruleset, seed * 10 + seat) for seat in range(2)]
                while not state.is_over():
                    state.play(bots[state.current_player].choose(state))
                games.append(state.moves())
            assert games[0] == games[1], (kind.__name__, seed)


@pytest.mark.slow
@pytest.mark.parametrize("key", ["spice-road", "golem"])
def test_the_c_planner_answers_as_the_python_one_from_random_positions(rulesets, key):
    """Positions the games between planners rarely reach (discards, final rounds, seats one
    card from the end): random moves first, then the decision in C asked at every turn of the
    rest of the game and compared with the Python plan of the same position on the Python
    engine, at depths 1 to 3."""
    import random

    ruleset = rulesets[key]
    fast, pure = c_engine(ruleset), load_engine(ruleset)
    know = knowledge(pure, ruleset)
    fast_know = knowledge(fast, ruleset)
    asked, reached = 0, set()
    for seed in range(30):
        chooser = random.Random(seed)
        depth = 1 + seed % 3
        fast_bot, pure_bot = (
            PlannerBot(fast, ruleset, 0, depth),
            PlannerBot(pure, ruleset, 0, depth),
        )
        state = fast.new_game(2 + seed % 3, seed)
        for _ in range(chooser.randrange(150)):
            if state.is_over():
                break
            moves = state.legal_moves()
            state.play(moves[chooser.randrange(len(moves))])
        while not state.is_over() and asked < 1500:
            twin = pure.State.from_dict(state.to_dict())
            view = twin.view()
            reached.add("discard" if view.discarding else "final" if view.final_round else "play")
            move = fast_bot.whole(
                state, fast_know.weights, fast_know.card_worth, fast_bot.tunings, depth
            )
            assert move is not None  # decided in C, not handed back to Python
            assert move == Plan(pure_bot, know, view).best(), (seed, state.moves())
            asked += 1
            moves = state.legal_moves()
            state.play(moves[chooser.randrange(len(moves))] if chooser.random() < 0.3 else move)
    assert asked == 1500
    assert reached == {"discard", "final", "play"}


@pytest.fixture
def python_after():
    """The simulations of later tests play the Python engine, whatever a test chose."""
    yield
    use_backend("python")


@pytest.mark.slow
def test_simulate_and_experiment_on_the_c_engine_write_the_same_reports(
    run, tmp_path, python_after
):
    if missing():
        pytest.skip(f"no C engine here: {missing()}")
    commands = {
        "simulate": ["simulate", "spice-road", "--games=24", "--bots=greedy,planner"],
        "experiment": [
            *("experiment", "spice-road", "--own=yy-rr", "--levels=planner", "--games=6"),
        ],
    }
    for name, args in commands.items():
        written = {}
        for backend in ("python", "c"):
            out = tmp_path / f"{name}-{backend}"
            done = run(
                *args, "--workers=1", "--seed=3", "-q", f"--out={out}", f"--backend={backend}"
            )
            assert done.exit_code == 0, done.output
            written[backend] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
            assert chosen_backend() == backend
        assert written["c"] == written["python"], name
        assert any(name.endswith(".json") for name in written["c"])


def test_simulate_on_the_c_engine_without_a_compiler_says_so_in_one_line(
    run, tmp_path, monkeypatch, python_after
):
    monkeypatch.setenv("CC", "")
    out = tmp_path / "report"
    done = run("simulate", "spice-road", "--games=4", "--backend=c", f"--out={out}")
    assert done.exit_code == 1
    assert done.output.strip() == "error: cannot compile the C engine: no C compiler (CC is empty)"
    assert not out.exists()
