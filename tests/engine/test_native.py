"""The engine compiled with mypyc (``--native``): the same moves as the pure module over
seeded games, the documented API (errors, copies, pickling, NumPy seeds, positions), a
refusal to load beside another source, and a clear error where it cannot be compiled.

The engine is compiled once per session (tens of seconds); the tests that need it are
skipped, saying why, where mypyc or a C compiler is missing (CI has both)."""

from __future__ import annotations

import copy
import hashlib
import importlib
import pickle
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import century.engine.native as native_module
from century.engine import load_engine
from century.engine.native import extension_name, missing
from century.targets import BuildOptions, targets

from helpers import ROOT, api_answers, decisions, spice_road
from helpers.native import assert_source_guard, engine_written

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def native_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`century engine spice-road --native` written into a temporary folder."""
    lacking = missing()
    if lacking:
        pytest.skip(f"no native engine here: {lacking}")
    return engine_written(tmp_path_factory.mktemp("native"), "--native")


@pytest.fixture(scope="session")
def native(native_folder: Path):
    """The compiled engine, imported by its name as a user would (`import spice_road`)."""
    earlier = sys.modules.pop("spice_road", None)  # a test may have imported a pure one
    importlib.invalidate_caches()
    sys.path.insert(0, str(native_folder))
    try:
        module = importlib.import_module("spice_road")
    finally:
        sys.path.remove(str(native_folder))
    assert Path(module.__file__).name == extension_name("spice_road")
    yield module
    sys.modules.pop("spice_road", None)
    if earlier is not None:
        sys.modules["spice_road"] = earlier


@pytest.fixture(scope="session")
def pure():
    return load_engine(spice_road())


def digest(engine, games: int = 60) -> str:
    """Every legal list, move, score and winner of seeded random games at 2 to 4 players."""
    hashed = hashlib.sha256()
    for seed in range(games):
        state = engine.new_game(2 + seed % 3, seed)
        chooser = random.Random(seed)
        for _ in decisions(state):
            moves = state.legal_moves()
            move = chooser.choice(moves)
            hashed.update(repr((moves, move)).encode())
            state.play(move)
        hashed.update(repr((state.scores(), state.winners(), state.to_dict())).encode())
    return hashed.hexdigest()


@pytest.mark.slow
def test_the_compiled_engine_is_the_pure_one_compiled(native, pure):
    assert native.SOURCE_HASH == pure.SOURCE_HASH
    assert native.CODES == pure.CODES and native.CARDS == pure.CARDS


@pytest.mark.slow
def test_the_compiled_engine_plays_the_same_moves(native, pure):
    assert digest(native) == digest(pure)


def test_records_and_positions_round_trip_between_the_two(native, pure):
    state = native.new_game(3, 8)
    chooser = random.Random(8)
    for _ in range(90):
        state.play(chooser.choice(state.legal_moves()))
    data = state.to_dict()
    assert pure.State.from_dict(data).to_dict() == data
    assert native.State.from_dict(data).to_dict() == data
    assert native.replay(state.record()).to_dict() == pure.replay(state.record()).to_dict()


def test_copies_and_pickles_are_independent_states(native):
    state = native.new_game(2, 5)
    state.play(state.legal_moves()[0])
    for twin in (
        state.clone(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        assert type(twin) is native.State
        assert twin.to_dict() == state.to_dict() and twin.record() == state.record()
        twin.play(twin.legal_moves()[0])
        assert twin.moves() != state.moves()
    cubes = state.view().caravan(0)
    assert pickle.loads(pickle.dumps(cubes)) is cubes  # caravans unpickle interned


def test_the_api_answers_alike(native, pure):
    assert api_answers(native, pure) == api_answers(pure, pure)
    with pytest.raises(native.IllegalMove):
        native.new_game(2).play("zzz")
    assert issubclass(native.IllegalMove, ValueError)


def test_numpy_integers_are_seeds_and_player_counts(native, pure):
    numpy = pytest.importorskip("numpy")
    state = native.new_game(numpy.int8(3), numpy.int64(12))
    assert state.to_dict() == pure.new_game(3, 12).to_dict()
    assert isinstance(state.to_dict()["seed"], int)


def test_a_compiled_engine_refuses_to_load_beside_another_source(native_folder, tmp_path):
    shown = "spice_road.new_game(2).players"
    assert_source_guard(native_folder, tmp_path, shown, "2\n", [], "--native")


# -- without a compiler (always run) ------------------------------------------------------


def test_a_build_asks_the_engine_for_a_native_module():
    engine = targets()["engine"]
    assert engine.options_for(BuildOptions(native=True)).native is True
    assert engine.options_for(BuildOptions()).native is False


@pytest.mark.skipif(sys.platform == "win32", reason="setuptools finds MSVC itself")
@pytest.mark.parametrize("command", [["engine", "spice-road"], ["build", "--target", "engine"]])
def test_no_compiler_is_an_error_saying_so_and_writes_nothing(run, monkeypatch, tmp_path, command):
    monkeypatch.setenv("CC", "no-such-cc-for-century")
    monkeypatch.chdir(tmp_path)
    rules = [] if command[0] == "engine" else [str(Path(__file__).parents[2] / "rules")]
    result = run(*command, *rules, "--native", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert "cannot compile the engine natively: no C compiler found" in result.output
    assert "no-such-cc-for-century" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.py"))


def test_without_mypyc_the_error_names_the_native_extra(run, monkeypatch, tmp_path):
    monkeypatch.setattr(native_module.importlib.util, "find_spec", lambda name: None)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [required] = project["optional-dependencies"]["native"]
    package = required.split(">")[0]
    result = run("engine", "spice-road", "--native", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        "error: spice-road: cannot compile the engine natively: mypyc is not installed: "
        f"pip install '{package}' (installed with pipx: pipx inject {project['name']} "
        f"'{package}'; in a checkout: pip install -e '.[native]')\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="setuptools finds MSVC itself")
def test_an_empty_cc_is_no_compiler(run, monkeypatch, tmp_path):
    monkeypatch.setenv("CC", "")
    result = run("engine", "spice-road", "--native", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert "cannot compile the engine natively: CC is set but empty" in result.stderr
    assert not (tmp_path / "out").exists()


def test_mypycs_log_is_printed_line_by_line(run, monkeypatch, tmp_path):
    log = "engine.c:1:1: error: one\nengine.c:2:1: error: two\n\x1b[31mthree"
    failed = subprocess.CompletedProcess([], 1, stdout="", stderr=log)
    monkeypatch.setattr(native_module, "missing", lambda: "")
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: failed)
    result = run("engine", "spice-road", "--native", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        "error: spice-road: mypyc failed (exit 1); its last lines:",
        "  engine.c:1:1: error: one",
        "  engine.c:2:1: error: two",
        "  \\x1b[31mthree",
    ]
    assert not (tmp_path / "out").exists()
