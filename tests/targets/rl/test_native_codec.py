"""The learning targets with ``--native``: the engine and the action codec compiled with
mypyc beside the Python modules, imported by name as a user imports them, give the same
actions, masks and observations as the pure modules over seeded games; a codec whose engine
import changed shape is refused rather than compiled wrong.

Compiling takes a minute or two, so the folder is built once; without mypyc or a C compiler
the compiled tests are skipped, saying why (CI has both)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from century.engine.native import extension_name, missing
from century.shared.rl import codec_sources, native_codec

from helpers import spice_road

pytestmark = pytest.mark.slow

PLAYED = """
import hashlib, json, random, sys
import {game} as engine, {game}_actions as codec
digest = hashlib.sha256()
for seed in range({games}):
    state = engine.new_game(3, seed)
    turn = codec.Turn(state.legal_moves())
    chooser = random.Random(seed)
    for _ in range({moves}):
        if state.is_over():
            break
        legal = turn.legal()
        for seat in range(3):
            digest.update(bytes(str(codec.observation(state, seat, turn)), "ascii"))
        digest.update(bytes(str(legal), "ascii"))
        move = turn.choose(chooser.choice(legal))
        if move is not None:
            state.play(move)
            turn = codec.Turn(state.legal_moves())
print(json.dumps({{"digest": digest.hexdigest(), "engine": engine.__file__,
                  "codec": codec.__file__}}))
"""
GAMES, MOVES = 8, 150
"""Seeded random games, each capped at this many actions."""


def played(folder: Path) -> dict[str, str]:
    """The digest of seeded games played through the codec in `folder` (a fresh process)."""
    script = PLAYED.format(game="spice_road", games=GAMES, moves=MOVES)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def write(folder: Path, *options: str) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "century", "pettingzoo", "spice-road", "--out", folder, *options],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.fixture(scope="module")
def native_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lacking = missing()
    if lacking:
        pytest.skip(f"no native build here: {lacking}")
    return write(tmp_path_factory.mktemp("native") / "pettingzoo", "--native")


def test_the_compiled_codec_plays_as_the_pure_one(native_folder, tmp_path):
    pure = played(write(tmp_path / "pure"))
    compiled = played(native_folder)
    assert Path(pure["codec"]).name == "spice_road_actions.py"
    assert Path(compiled["codec"]).name == extension_name("spice_road_actions")
    assert Path(compiled["engine"]).name == extension_name("spice_road")
    assert compiled["digest"] == pure["digest"]


def test_the_compiled_codec_refuses_another_source(native_folder, tmp_path):
    """As the engine does: an extension whose .py beside it changed does not load."""
    folder = tmp_path / "changed"
    folder.mkdir()
    for path in native_folder.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    codec = folder / "spice_road_actions.py"
    codec.write_text(codec.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "import spice_road_actions"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "was compiled from another" in done.stderr


def test_the_codec_is_compiled_with_its_engine_imported_by_name():
    codec = codec_sources(spice_road())["spice_road_actions"]
    compiled = native_codec(codec)
    assert "engine = _sibling(ENGINE_MODULE)" in codec
    assert "engine = _sibling(ENGINE_MODULE)" not in compiled
    assert "\nimport spice_road as engine\n" in compiled
    with pytest.raises(ValueError, match="no longer imports its engine"):
        native_codec(compiled)
