"""A dozen new cards as data alone (``tests/data/composed.yaml``), through every target and a
simulation: no Python knows them, every output takes them."""

from __future__ import annotations

import importlib.util
import json
import random
import sys

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.targets import targets

from helpers import COMPOSED, COMPOSED_ID

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The composed variant in a project of its own, built with every target."""
    folder = tmp_path_factory.mktemp("composed-everywhere")
    (folder / "rules").mkdir()
    (folder / "rules" / "composed.yaml").write_text(COMPOSED, encoding="utf-8")
    every = [arg for name in sorted(targets()) for arg in ("--target", name)]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        result = CliRunner().invoke(cli.app, ["build", *every, "--out", "out"])
    assert result.exit_code == 0, result.output
    return folder / "out" / COMPOSED_ID


@pytest.mark.slow
def test_every_target_builds_the_composed_cards(built):
    names = {path.relative_to(built).as_posix() for path in built.rglob("*") if path.is_file()}
    for wanted in ("ruleset.json", "spice_road_composed.py", "rules-en-a4.pdf", "cards-de-a4.pdf"):
        assert wanted in names, sorted(names)
    assert any(name.startswith("images/") for name in names)
    assert any(name.startswith("tts/") for name in names)
    ruleset = json.loads((built / "ruleset.json").read_text("utf-8"))
    effects = [card["effect"] for card in ruleset["merchant_deck"]]
    assert [{"gain": [2, 0, 0, 0]}, {"upgrade": 1}] in effects


@pytest.mark.slow
def test_the_composed_cards_are_explained_on_both_sheets(built):
    english = " ".join(PdfReader(built / "rules-en-a4.pdf").pages[i].extract_text() for i in (0, 1))
    german = " ".join(PdfReader(built / "rules-de-a4.pdf").pages[i].extract_text() for i in (0, 1))
    assert "Sacrifice" in " ".join(
        p.extract_text() for p in PdfReader(built / "rules-en-a4.pdf").pages
    )
    assert "Opfer" in " ".join(p.extract_text() for p in PdfReader(built / "rules-de-a4.pdf").pages)
    assert english and german


def test_the_generated_engine_and_learning_modules_play_them(built):
    spec = importlib.util.spec_from_file_location(
        "composed_engine", built / "spice_road_composed.py"
    )
    engine = importlib.util.module_from_spec(spec)
    sys.modules["composed_engine"] = engine
    spec.loader.exec_module(engine)
    ids = {card.id for card in engine.CARDS}
    assert {"+yy.up1", "{+yyy/up2}", "sacrifice"} <= ids
    rng = random.Random(5)
    state = engine.new_game(3, 5)
    for _ in range(20_000):  # a random game ends long before; the cap ends a test that would not
        if state.is_over():
            break
        state.play(rng.choice(state.legal_moves()))
    assert state.is_over()
    assert engine.replay(state.record()).scores() == state.scores()
