"""The C engine (``--backend c``): generated from the same model as the Python engine and
compiled into an extension module with its API, it lists the same moves in the same order and
reaches the same states and records over a thousand seeded games of every bundled game and of
a variant with composed cards, and from random positions; it refuses to load beside another
source, and a missing compiler is refused in one line before anything is written.

Each engine is compiled once per session (a few seconds each); the tests that need one are
skipped, saying why, where no C compiler is found (CI has one)."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import importlib
import json
import pickle
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from century.engine import generate, load_engine, module_name
from century.engine.cbuild import compile_c, missing
from century.engine.cgen import HEADER, generate_c
from century.engine.native import extension_name
from century.targets import BuildOptions, targets

from helpers import (
    ROOT,
    api_answers,
    bundled_rulesets,
    composed_variant,
    decisions,
    spice_road,
    with_composed_variant,
)
from helpers.native import assert_source_guard, engine_written

GAMES = 1000
"""Seeded random games per ruleset in the differential test."""
POSITIONS = 300
"""Random positions per ruleset (each played on to the end)."""


def _import(folder: Path, name: str) -> Any:
    earlier = sys.modules.pop(name, None)
    importlib.invalidate_caches()
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
        if earlier is not None:
            sys.modules[name] = earlier
        else:
            sys.modules.pop(name, None)  # no other test finds this module by the engine's name
    assert Path(module.__file__).name == extension_name(name)
    return module


@pytest.fixture(scope="session")
def c_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`century engine spice-road --backend c` written into a temporary folder."""
    lacking = missing()
    if lacking:
        pytest.skip(f"no C engine here: {lacking}")
    return engine_written(tmp_path_factory.mktemp("c"), "--backend=c")


@pytest.fixture(scope="session")
def rulesets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every bundled game, and the variant with composed cards."""
    return with_composed_variant(tmp_path_factory.mktemp("composed"))


@pytest.fixture(scope="session")
def engines(c_folder, rulesets, tmp_path_factory) -> dict[str, tuple[Any, Any]]:
    """Per ruleset: (the C engine, the Python engine); Spice Road's as the command wrote it."""
    pairs = {"spice-road": (_import(c_folder, "spice_road"), load_engine(spice_road()))}
    others = {key: ruleset for key, ruleset in rulesets.items() if key not in pairs}

    def build(ruleset: Any) -> tuple[str, str, bytes, str]:
        name = module_name(ruleset)
        return (name, *compile_c(generate_c(ruleset), name))

    with ThreadPoolExecutor(2) as pool:  # the compiler runs beside the next generation
        built = dict(zip(others, pool.map(build, others.values()), strict=True))
    for key, (name, extension, data, warnings) in built.items():
        assert warnings == ""  # -Wall: nothing to say
        folder = tmp_path_factory.mktemp(name)
        (folder / extension).write_bytes(data)
        (folder / f"{name}.py").write_text(generate(others[key]), encoding="utf-8")
        pairs[key] = (_import(folder, name), load_engine(others[key]))
    return pairs


def game_digest(engine: Any, seed: int, players: int) -> str:
    """Every legal-move list, the final state and the record of a seeded random game."""
    hashed = hashlib.sha256()
    state = engine.new_game(players, seed)
    chooser = random.Random(seed)
    play_out(state, chooser, hashed)
    return hashed.hexdigest()


def play_out(state: Any, chooser: random.Random, hashed: Any, most: int = 0) -> None:
    """Random moves to the end (at most `most` of them, if given), hashing what is seen."""
    for count in decisions(state):
        if most and count == most:
            break
        moves = state.legal_moves()
        hashed.update("\n".join(moves).encode())
        state.play(moves[chooser.randrange(len(moves))])
    hashed.update(json.dumps(state.to_dict(), sort_keys=True).encode())
    hashed.update(json.dumps(state.record(), sort_keys=True).encode())
    hashed.update(repr((state.scores(), state.winners(), state.winner())).encode())


@pytest.mark.slow
@pytest.mark.parametrize("key", ["spice-road", "golem", "spice-road-classic", "composed-variant"])
def test_the_c_engine_plays_every_game_as_the_python_engine(engines, key):
    fast, pure = engines[key]
    assert fast.BACKEND == "c" and fast.SOURCE_HASH == pure.SOURCE_HASH
    low, high = pure.PLAYERS_MIN, pure.PLAYERS_MAX
    for seed in range(GAMES):
        players = low + seed % (high - low + 1)
        assert game_digest(fast, seed, players) == game_digest(pure, seed, players), seed


def random_position(engine: Any, chooser: random.Random) -> dict[str, Any]:
    """A position made up at random (as `from_dict` reads one written by hand); some are
    not positions of the game, and both engines must refuse those alike."""
    players = chooser.randint(engine.PLAYERS_MIN, engine.PLAYERS_MAX)
    cards = [card.id for card in engine.CARDS]
    points = [card.id for card in engine.POINT_CARDS]
    current = chooser.randrange(players)
    discard = chooser.random() < 0.3

    def cubes(most: int) -> str:
        return "".join(chooser.choice(engine.CODES) for _ in range(chooser.randint(0, most)))

    seats = []
    for seat in range(players):
        over = discard and seat == current
        caravan = cubes(engine.CARAVAN_LIMIT)
        if over:  # over the limit, sometimes by more than the discard tables hold
            caravan += cubes(chooser.choice([3, 30])) + engine.CODES[0]
        seats.append(
            {
                "caravan": caravan,
                "hand": chooser.sample(cards, chooser.randint(0, 8)),
                "played": chooser.sample(cards, chooser.randint(0, 3)),
                "point_cards": chooser.sample(points, chooser.randint(0, 3)),
                "merchant_cards": chooser.sample(cards, chooser.randint(0, 2)),
                "coins": {coin.id: chooser.randint(0, 1) for coin in engine.COINS},
            }
        )
    row = [
        {"card": card, "cubes": cubes(3)}
        for card in chooser.sample(cards, chooser.randint(0, engine.MERCHANT_ROW))
    ]
    return {
        "players": players,
        "current_player": current,
        "phase": "discard" if discard else "action",
        "seats": seats,
        "merchant_row": row,
        "merchant_deck": chooser.sample(cards, chooser.randint(0, 20)),
        "point_row": chooser.sample(points, chooser.randint(0, engine.POINT_ROW)),
        "point_deck": chooser.sample(points, chooser.randint(0, 10)),
    }


def position_digest(engine: Any, data: dict[str, Any], seed: int) -> str:
    hashed = hashlib.sha256()
    try:
        state = engine.State.from_dict(copy.deepcopy(data))
    except ValueError as err:
        return f"{type(err).__name__}: {err}"
    play_out(state, random.Random(seed), hashed, most=400)  # a made-up game may not end
    return hashed.hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("key", ["spice-road", "composed-variant"])
def test_the_c_engine_plays_on_from_random_positions_as_the_python_engine(engines, key):
    fast, pure = engines[key]
    chooser = random.Random(key)
    played = 0
    for seed in range(POSITIONS):
        data = random_position(pure, chooser)
        answer = position_digest(pure, data, seed)
        assert position_digest(fast, data, seed) == answer, (seed, data)
        played += not answer.startswith("ValueError")
    assert played > POSITIONS // 3  # most made-up positions are positions


@pytest.mark.slow
def test_the_generated_c_is_the_same_for_the_same_rules_and_headed(c_folder):
    text = (c_folder / "spice_road.c").read_text(encoding="utf-8")
    assert generate_c(spice_road()) == text
    source = (c_folder / "spice_road.py").read_bytes()
    assert text.startswith(HEADER + "\n * Source hash: " + spice_road().source_hash + "\n")
    assert hashlib.sha256(source).hexdigest() in text.splitlines()[2]


@pytest.mark.slow
def test_the_api_answers_alike(engines):
    fast, pure = engines["spice-road"]
    assert api_answers(fast, pure) == api_answers(pure, pure)
    with pytest.raises(fast.IllegalMove):
        fast.new_game(2).play("zzz")
    assert issubclass(fast.IllegalMove, ValueError)
    assert fast.__all__ == pure.__all__
    assert all(hasattr(fast, name) for name in pure.__all__)


@pytest.mark.slow
def test_copies_and_pickles_are_independent_states(engines):
    fast, _ = engines["spice-road"]
    state = fast.new_game(2, 5)
    state.play(state.legal_moves()[0])
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert type(twin) is fast.State
        assert twin.to_dict() == state.to_dict() and twin.record() == state.record()
        twin.play(twin.legal_moves()[0])
        assert twin.moves() != state.moves()
    earlier = sys.modules.get("spice_road")  # the engine another test imported, if any
    sys.modules["spice_road"] = fast  # pickles name the module, as for an imported engine
    try:
        thawed = pickle.loads(pickle.dumps(state))
    finally:
        if earlier is None:
            del sys.modules["spice_road"]
        else:
            sys.modules["spice_road"] = earlier
    assert thawed.to_dict() == state.to_dict()


@pytest.mark.slow
def test_a_build_with_the_c_backend_writes_the_c_engine_beside_the_python_one(
    engines, rulesets, tmp_path
):
    folder = tmp_path / "variant"
    folder.mkdir()
    with contextlib.chdir(folder):
        composed_variant(folder)  # the variant's rules file alone, in variant/rules
    out = tmp_path / "out"
    command = ["build", str(folder / "rules"), "--backend=c", "--target=engine", f"--out={out}"]
    done = subprocess.run(
        [sys.executable, "-m", "century", *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    name = module_name(rulesets["composed-variant"])
    built = out / "composed"
    assert sorted(p.name for p in built.glob(f"{name}*")) == sorted(
        [f"{name}.py", f"{name}.c", extension_name(name)]
    )
    _, pure = engines["composed-variant"]
    assert (built / f"{name}.c").read_text(encoding="utf-8") == generate_c(
        rulesets["composed-variant"]
    )
    script = (
        f"import random, sys; sys.path.insert(0, {str(built)!r}); import {name} as e; "
        "s, r = e.new_game(3, 11), random.Random(11)\n"
        "while not s.is_over(): s.play(r.choice(s.legal_moves()))\n"
        "print(e.BACKEND, len(s.moves()), s.scores())"
    )
    ran = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60
    )
    state, chooser = pure.new_game(3, 11), random.Random(11)
    for _ in decisions(state):
        state.play(chooser.choice(state.legal_moves()))
    assert ran.stdout == f"c {len(state.moves())} {state.scores()}\n", ran.stderr


@pytest.mark.slow
def test_the_c_engine_plays_random_games_inside_c_for_benchmarks(engines):
    fast, _ = engines["spice-road"]
    row = fast.playouts(3, 20, 7)
    assert row == fast.playouts(3, 20, 7)  # its own generator: the same games again
    assert row["games"] == 20 and 0 < row["decisions"] <= row["moves"]


@pytest.mark.slow
def test_a_c_engine_refuses_to_load_beside_another_source(c_folder, tmp_path):
    golem = generate(bundled_rulesets()["golem"])  # a foreign source under the same name
    shown = "spice_road.BACKEND, spice_road.new_game(2).players"
    assert_source_guard(c_folder, tmp_path, shown, "c 2\n", [golem], "--backend c")


# -- without a compiler (always run) ------------------------------------------------------


def test_a_build_asks_the_engine_for_its_backend():
    engine = targets()["engine"]
    assert engine.options_for(BuildOptions(backend="c")).backend == "c"
    assert engine.options_for(BuildOptions()).backend == "python"


@pytest.mark.parametrize("cc", ["", "no-such-cc-for-century"])
@pytest.mark.parametrize("command", [["engine", "spice-road"], ["build", "--target", "engine"]])
def test_no_compiler_is_refused_in_one_line_and_writes_nothing(
    run, monkeypatch, tmp_path, command, cc
):
    monkeypatch.setenv("CC", cc)
    monkeypatch.chdir(tmp_path)
    # as in a pure install: no C engine compiled into the package (CENTURY_C=1) to write
    monkeypatch.setattr("century.targets.engine.prebuilt", lambda ruleset: None)
    rules = [] if command[0] == "engine" else [str(ROOT / "rules")]
    result = run(*command, *rules, "--backend", "c", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    said = "no C compiler (CC is empty)" if not cc else f"no C compiler found ({cc})"
    game = "spice-road: " if command[0] == "engine" else ""
    assert result.stderr == f"error: {game}cannot compile the C engine: {said}\n"
    assert result.stdout == ""
    assert not (tmp_path / "out").exists()


def test_native_and_the_c_backend_are_one_choice(run, tmp_path):
    result = run("engine", "spice-road", "--backend", "c", "--native", "--out", str(tmp_path))
    if missing():
        pytest.skip(f"no C engine here: {missing()}")
    assert result.exit_code == 2, result.output
    assert "pick one" in result.stderr
