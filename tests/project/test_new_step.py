"""CONTRIBUTING's recipe for a new effect step, done for real: a toy step that moves cubes
(``split: N``: N cubes, each of a rank above the lowest, each broken into two cubes of the
rank below) is its runtime function and its registry record, here in the test, and its
phrase in each language's prose data. With those alone, `century validate` passes on a
variant that uses it, `century build` writes its engine and its printed cards, the generated
engine plays it, a short simulation runs, and a person plays it in `century play` and at the
browser table. Every dispatcher refuses a step the registry does not hold."""

from __future__ import annotations

import importlib.util
import json
import sys
import warnings
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.engine import load_engine
from century.engine.cgen import CGenError, generate_c
from century.model.cards import derived_id, steps_json
from century.model.steps import COUNT, StepKind, UnknownStep, registered
from century.pipeline import compile_paths
from century.prose import effect_sentence, effect_tokens, prose_context

from helpers import ROOT

pytestmark = pytest.mark.slow

# -- the toy step: its runtime function and its record ----------------------------------------


def _split_ways(step, codes, most, partials):  # type: ignore[no-untyped-def]
    """The partial ways after ``split: n``: n cubes (ranks above the lowest, chosen by the
    player, named in the move lowest first), each becoming two cubes of the rank below."""
    out = []
    ranks = len(codes)
    for key, words, delta, need in partials:
        for sources in combinations_with_replacement(range(1, ranks), step[1]):
            broken = [sources.count(r) for r in range(ranks)]
            after, needs = list(delta), list(need)
            for rank in range(ranks):
                made = 2 * broken[rank + 1] if rank + 1 < ranks else 0
                after[rank] += made - broken[rank]
                needs[rank] = max(needs[rank], broken[rank] - delta[rank])
            if sum(needs) <= most:
                text = "".join(codes[r] for r in sources)
                out.append(((*key, sources), (*words, text), tuple(after), tuple(needs)))
    return out


SPLIT = StepKind(
    "split",
    COUNT,
    id_part=lambda n: f"split{n}",
    sign="÷",
    words="breaking ",
    ways=_split_ways,
)

PHRASES = {
    "en": "break {{ n }} {{ t.resource|form(n) }} into two of the rank below each",
    "de": "zerlege {{ n }} {{ t.resource|form(n) }} in je zwei der Stufe darunter",
    "fr": "cassez {{ n }} {{ t.resource|form(n) }} en deux du rang inférieur chacune",
}
"""The prose data of the step: its phrase (``eff_split``) in every language."""

VARIANT = """
cards:
  merchant:
    add:
      - {effect: [split: 1, gain: Y], copies: 3}
      - {effect: [pay: Y, split: 2], copies: 2}
"""


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder with the variant ``toy`` of Spice Road whose prose data has the step's
    phrase, the step registered while the test runs."""
    monkeypatch.chdir(tmp_path)
    with registered(SPLIT):
        titles = ["--title", "en=Toy", "--title", "de=Spielzeug", "--title", "fr=Jouet"]
        made = CliRunner().invoke(cli.app, ["new", "toy", "--from", "spice-road", *titles])
        assert made.exit_code == 0, made.output
        prose = {}
        for lang, phrase in PHRASES.items():
            source = ROOT / "rules" / "prose" / f"century.{lang}.yaml"
            data = yaml.safe_load(source.read_text(encoding="utf-8"))
            data["text"]["eff_split"] = phrase
            target = tmp_path / "rules" / "prose" / f"toy.{lang}.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
            prose[lang] = f"prose/toy.{lang}.yaml"
        path = tmp_path / "rules" / "toy.yaml"
        edits = VARIANT + "prose: " + yaml.safe_dump(prose, default_flow_style=True)
        path.write_text(path.read_text("utf-8") + edits, encoding="utf-8")
        yield tmp_path


def century(*args: str) -> Any:
    return CliRunner().invoke(cli.app, list(args))


def test_a_toy_step_is_a_function_a_record_and_its_phrases(toy_game: Path) -> None:
    checked = century("validate", "--strict", "rules")
    assert checked.exit_code == 0, checked.output

    ruleset = compile_paths([toy_game / "rules"]).rulesets["toy"]
    assert ("split", 1) in {step for card in ruleset.merchant_deck for step in card.effect}
    built = century("build", "rules", "--out", "out", "--target", "engine", "--target", "cards")
    assert built.exit_code == 0, built.output
    engine_file = toy_game / "out" / "toy" / "toy.py"
    assert "def _split_ways(" in engine_file.read_text(encoding="utf-8")
    kit = next((toy_game / "out" / "toy").rglob("cards-en-*.pdf"))
    assert len(PdfReader(kit).pages) > 0

    # the engine as written: a caravan of one saffron breaks it into two turmeric
    spec = importlib.util.spec_from_file_location("toy_engine", engine_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["toy_engine"] = module
    try:
        spec.loader.exec_module(module)
        card = next(i for i, c in enumerate(module.CARDS) if c.effect[0] == ("split", 1))
        plays = module.caravan((0, 1, 0, 0)).plays()[card]
        assert {move: result.vector for move, result in plays.items()} == {
            f"play {module.CARDS[card].id} r": (3, 0, 0, 0)
        }
        assert module.caravan((1, 0, 0, 0)).plays()[card] == {}  # nothing above the lowest
    finally:
        del sys.modules["toy_engine"]

    sim = century("simulate", "toy", "-n", "4", "-s", "1", "-b", "random", "-w", "1", "-q")
    assert sim.exit_code == 0, sim.output
    assert load_engine(ruleset).new_game(2, seed=3).legal_moves()


def test_the_legend_of_the_symbols_shows_the_added_step(toy_game: Path) -> None:
    """The toy game's rule sheet lists the step's sign and its phrase for one unit after the
    language's own symbols; a game without it lists only those."""
    made = century("sheets", "toy", "--rules", "rules", "-l", "en", "-o", "sheets")
    assert made.exit_code == 0, made.output
    pdf = PdfReader(toy_game / "sheets" / "rules-en-a4.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)
    legend = text[text.index("Symbols on the cards") :]
    assert "÷ break 1 spice into two of the rank below each" in legend
    assert legend.index("do exactly one of the options") < legend.index("÷ break 1")
    spice = century("sheets", "spice-road", "-l", "en", "-o", "base")
    assert spice.exit_code == 0, spice.output
    base = PdfReader(toy_game / "base" / "rules-en-a4.pdf")
    assert "÷" not in "".join(page.extract_text() for page in base.pages)


PLAYED = ["acquire 1", "play up2 yy", "play split1+y r"]
"""A person's first moves in the toy game of seed 1 (the toy card is first in the row): take
it, raise two cubes for a red one, break the red one into two yellow."""


def test_a_person_plays_the_toy_card_in_the_terminal(toy_game: Path) -> None:
    """The one-line effect of the board and the hand comes from the step's record (the
    engine of a game of built-in steps knows no other step)."""
    record = toy_game / "game.json"
    args = ["play", "toy", "--rules", "rules", "--seed", "1", "--record", str(record)]
    played = CliRunner().invoke(cli.app, args, input="\n".join([*PLAYED, "quit"]) + "\n")
    assert played.exit_code == 0, played.output
    out = played.output
    assert "Merchant cards: 1: split1+y(split 1, then +Y)" in out
    assert "Your hand:   +yy(+YY) split1+y(split 1, then +Y)" in out
    assert "seat 1 (you): play split1+y r" in out
    assert "Played:      up2(upgrade 2) split1+y(split 1, then +Y)" in out
    assert "caravan YYYYR (5/10)" in out  # Y R R: a red broken into two yellow, and +Y
    assert json.loads(record.read_text(encoding="utf-8"))["moves"][0::2] == PLAYED


def test_the_browser_table_shows_and_plays_the_toy_card(toy_game: Path) -> None:
    pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from century.serve.app import Config, make_app

    ruleset = compile_paths([toy_game / "rules"]).rulesets["toy"]
    base = "http://127.0.0.1:8000"
    config = Config(games={"toy": ruleset}, bot_pause=0.0, port=8000)
    with TestClient(make_app(config), base_url=base) as client:
        client.headers["Origin"] = base
        body = {"game": "toy", "seats": ["human", "human"], "seed": 1}
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table, token = made.json()["table"], made.json()["links"][0]["token"]
        seat = {"X-Seat-Token": token}
        for move in ["acquire 1", "rest", "play up2 yy", "rest"]:
            sent = client.post(f"/api/tables/{table}/move", json={"move": move}, headers=seat)
            assert sent.status_code == 200, sent.text
        seen = client.get(f"/api/tables/{table}", headers=seat).json()
        (entry,) = [m for m in seen["moves"] if m["key"] == "play split1+y"]
        # the card worded as the rule sheet words it, from the step's own phrase
        worded = "Break 1 spice into two of the rank below each, then take 1 turmeric"
        assert entry["name"] == f"the merchant card ({worded})"
        (option,) = entry["options"]
        assert option["words"] == "breaking R"
        assert (option["move"], option["after"]) == ("play split1+y r", "yyyyr")
        sent = client.post(f"/api/tables/{table}/move", json={"move": option["move"]}, headers=seat)
        assert sent.status_code == 200, sent.text
        log = client.get(f"/api/tables/{table}", headers=seat).json()["log"]
        assert (
            "Break 1 spice into two of the rank below each, then take 1 turmeric" in log[-1]["text"]
        ), log[-1]


def test_a_step_the_registry_does_not_hold_is_refused(toy_game: Path) -> None:
    """Every dispatcher looks the step up: one it does not know is a clear error, never
    taken for another step (the prose once drew any unknown step as a choice)."""
    ruleset = compile_paths([toy_game / "rules"]).rulesets["toy"]
    assert generate_c(ruleset)  # tabled from the engine's plays: no C of its own
    card = replace(ruleset.merchant_deck[0], effect=(("toss", 1),), id="toss1")
    odd = replace(ruleset, merchant_deck=(*ruleset.merchant_deck, card))
    with pytest.raises(CGenError, match=r"^the C backend cannot play card 'toss1': unknown step"):
        generate_c(odd)
    unknown = "unknown step 'toss'"
    with pytest.raises(UnknownStep, match=unknown):
        effect_tokens((("toss", 1),), ruleset.codes)
    with pytest.raises(UnknownStep, match=unknown):
        effect_sentence((("toss", 1),), ruleset, "en", prose_context(ruleset, "en"), None)
    with pytest.raises(UnknownStep, match=unknown):
        steps_json((("toss", 1),))
    with pytest.raises(UnknownStep, match=unknown):
        derived_id({"effect": [{"toss": 1}]})


def test_a_game_using_the_step_needs_its_phrase(toy_game: Path) -> None:
    for lang in PHRASES:
        prose = toy_game / "rules" / "prose" / f"toy.{lang}.yaml"
        data = yaml.safe_load(prose.read_text(encoding="utf-8"))
        del data["text"]["eff_split"]
        prose.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    checked = century("validate", "rules")
    assert checked.exit_code == 1
    for lang in PHRASES:
        said = f"error C401: rule-sheet text ({lang}) lacks keys the sheet needs: eff_split"
        assert said in checked.output
