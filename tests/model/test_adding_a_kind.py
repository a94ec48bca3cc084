"""CONTRIBUTING.md's recipe for a new card kind, done for real: a kind with a field no kind had
(a ``swap``: pay ``pay`` for ``get``, at most ``times`` times) is added where the recipe says,
and nothing else, and the whole pipeline plays and prints it.

The recipe's edits are written out below as the changes they make (`EDITS` counts them): the
registry and the runtime are patched in this process, the card faces template in a copy of
the templates, and the texts and a swap card in a copy of the bundled rules (which stands for
them). Then the data validates (the schema reads the registry), the engine plays the card (its
rules record), the learning adapters' action codec numbers its plays, the terminal shows it,
the move bound counts it, and the rule sheet and the print kit draw it.
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

import century.engine as engine_package
from century import pipeline
from century.engine import load_engine, runtime
from century.engine.size import move_bound
from century.model import cards
from century.model.ruleset import Ruleset
from century.pipeline import compile_paths
from century.render import typst
from century.render.rl import load_actions
from century.targets.cards import CardOptions
from century.targets.cards import render as render_kit
from century.targets.sheets import render_sheet

from helpers import ROOT, kind_rules_disagree

# -- the recipe -------------------------------------------------------------------------------

REGISTRY = {
    "field": ("times", cards.COUNT),
    "kind": cards.CardKind(
        "swap",
        ("pay", "get", "times"),
        "pay `pay` for `get`, at most `times` times",
        lambda card: f"{card['pay']}-{card['get']}-{card['times']}".lower(),
        lambda card: iter([("times", "a swap needs 1 time or more")] if card["times"] < 1 else []),
        lambda card, have, ladder: (
            frozenset(card["get"].upper()) if set(card["pay"].upper()) <= have else frozenset()
        ),
    ),
}
"""compiler/century/model/cards.py: the new field in `FIELDS`, the kind in `KINDS`."""

RUNTIME = [
    (
        "    steps: int\n    starting: int\n",
        "    steps: int\n    times: int\n    starting: int\n",
    ),
    (
        '    "upgrade": KindRules(\n',
        """    "swap": KindRules(
        lambda vector, card, name: {
            move: node
            for move, node in _trade_outcomes(vector, card, name).items()
            if move in _trade_moves(card, name, card.times * sum(card.pay))
        },
        moves=lambda card, name, cubes: _trade_moves(
            card, name, min(cubes, card.times * sum(card.pay))
        ),
        most_moves=lambda card, ranks, cubes: min(card.times, cubes // max(sum(card.pay), 1)),
        refusal=lambda card, caravan: f"a swap trades at most {card.times} times",
        text=lambda card: ("", _cube_text(card.pay), ">", _cube_text(card.get), f" x{card.times}"),
    ),
    "upgrade": KindRules(
""",
    ),
]
"""compiler/century/engine/runtime.py: the field of the engine's `Card`, the kind's rules."""

FACES = [
    (
        '  } else if kind == "point" {\n    column((label(str(effect.points))',
        '  } else if kind == "swap" {\n'
        "    column((..minis(effect.pay), trade-arrow(size: 7.5pt), ..minis(effect.get),"
        ' label("x" + str(effect.times))))\n'
        '  } else if kind == "point" {\n    column((label(str(effect.points))',
    ),
    (
        '} else if kind == "trade" { trade-body(effect, res) }',
        '} else if kind == "trade" { trade-body(effect, res) } else if kind == "swap" {\n'
        "    trade-body(effect, res)\n  }",
    ),
]
"""compiler/century/render/cards/faces.typ: the index corner and the body of the card."""

TEXTS = {
    "rules/prose/century.en.yaml": (
        '  card_trade_title: "{{ t.trade_card|cap }}"\n',
        '  card_swap_title: "{{ t.swap_card|cap }}"\n'
        "  card_swap: Pay the cubes on the left for those on the right, as often as the card"
        " says at most.\n",
    ),
    "rules/prose/century.de.yaml": (
        '  card_trade_title: "{{ t.trade_card }}"\n',
        '  card_swap_title: "{{ t.swap_card }}"\n'
        "  card_swap: Zahle die Würfel links für die rechts, höchstens so oft wie die Karte"
        " sagt.\n",
    ),
    "rules/spice-road.yaml": (
        "  trade_card: {en: trade card, de: Tauschkarte}\n",
        "  swap_card: {en: swap card, de: Wechselkarte}\n"
        "  swap_cards: {en: swap cards, de: Wechselkarten}\n",
    ),
}
"""The kind's texts: its title and text on the rule sheet (each language), and its term with
its plural."""

EDITS = {
    "compiler/century/model/cards.py": len(REGISTRY),
    "compiler/century/engine/runtime.py": len(RUNTIME),
    "compiler/century/render/cards/faces.typ": len(FACES),
    "rules/prose/century.en.yaml": 2,
    "rules/prose/century.de.yaml": 2,
    "rules/spice-road.yaml": 1,
}
"""Where the recipe edits, and how many places in each file (CONTRIBUTING.md says the same)."""

SWAP_CARD = "  - {kind: swap, pay: YY, get: G, times: 2}\n"
"""A swap card in the merchant deck of the copied rules: the data of a game, not the recipe."""


def edited(text: str, edits: list[tuple[str, str]]) -> str:
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


# -- the kind added -------------------------------------------------------------------------


@dataclass
class Added:
    ruleset: Ruleset
    engine: Any
    card: int  # the swap card's index in the engine's cards
    folder: Path


@pytest.fixture(scope="module")
def added(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Added]:
    folder = tmp_path_factory.mktemp("swap")
    with pytest.MonkeyPatch.context() as patch:
        # the registry
        name, kind = REGISTRY["field"]
        patch.setitem(cards.FIELDS, name, kind)
        patch.setitem(cards.KINDS, "swap", REGISTRY["kind"])
        # the runtime: its source (what generated engines are) and the module the compiler
        # reads (the move bound)
        source = Path(runtime.__file__).read_text(encoding="utf-8")
        changed = edited(source, RUNTIME)
        module: dict[str, Any] = {"__name__": "century_swap_runtime"}
        exec(compile(changed, "<runtime with swap>", "exec"), module)
        patch.setattr(runtime, "Card", module["Card"])
        patch.setitem(runtime.KIND_RULES, "swap", module["KIND_RULES"]["swap"])
        _, template = engine_package._parts()
        patch.setattr(engine_package, "_parts", lambda: (changed[changed.index('"""') :], template))
        # the card faces template, in a copy of the templates
        templates = folder / "templates"
        for path in typst.ROOT.rglob("*.typ"):
            copy = templates / path.relative_to(typst.ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        faces = templates / "render" / "cards" / "faces.typ"
        faces.write_text(edited(faces.read_text(encoding="utf-8"), FACES), encoding="utf-8")
        patch.setattr(typst, "ROOT", templates)
        # the texts, and a swap card, in a copy of the bundled rules
        for data in ("rules", "cards"):
            shutil.copytree(ROOT / data, folder / data)
        for file, (anchor, addition) in TEXTS.items():
            path = folder / file
            path.write_text(edited(path.read_text("utf-8"), [(anchor, anchor + addition)]), "utf-8")
        deck = folder / "cards" / "spice-road" / "merchant.yaml"
        deck.write_text(deck.read_text("utf-8") + SWAP_CARD, "utf-8")
        patch.setattr(pipeline, "RULES", folder / "rules")  # these are the bundled rules now

        compiled = compile_paths()
        assert [d for d in compiled.diagnostics if d.severity == "error"] == []
        ruleset = compiled.rulesets["spice-road"]
        engine = load_engine(ruleset)
        yield Added(ruleset, engine, engine.CARD_INDEX["yy-g-2"], folder)


def test_the_recipe_touches_the_registry_the_runtime_the_faces_and_the_texts():
    assert (len(EDITS), sum(EDITS.values())) == (6, 11)  # files, places
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    recipe = text[text.index("## Add a card kind") : text.index("## Add a target")]
    assert "(6 files, 11 places)" in recipe
    for file in EDITS:
        named = file.replace(".en.", ".<lang>.").replace(".de.", ".<lang>.")
        assert f"`{named}`" in recipe, file


def test_the_data_validates_with_the_new_field(added, tmp_path):
    card = next(c for c in added.ruleset.merchant_deck if c.kind == "swap")
    assert card.id == "yy-g-2" and card.count("times") == 2
    assert card.cubes("pay") == added.ruleset.vector("YY")
    for data in ("rules", "cards"):
        shutil.copytree(added.folder / data, tmp_path / data)
    deck = tmp_path / "cards" / "spice-road" / "merchant.yaml"
    deck.write_text(deck.read_text("utf-8").replace(", times: 2}", "}"), "utf-8")
    broken = compile_paths([tmp_path / "rules", tmp_path / "cards"])
    assert "missing required key 'times'" in "\n".join(d.message for d in broken.diagnostics)


def test_the_engine_plays_the_card_by_its_rules(added):
    engine, card = added.engine, added.card
    assert engine.CARDS[card].times == 2
    state = engine.State.from_dict(
        {"players": 2, "seats": [{"caravan": "yyyyyy", "hand": ["yy-g-2"]}, {}]}
    )
    plays = [move for move in state.legal_moves() if move.startswith("play yy-g-2")]
    assert plays == ["play yy-g-2 x1", "play yy-g-2 x2"]  # the caravan pays three: times caps
    with pytest.raises(engine.IllegalMove, match="a swap trades at most 2 times"):
        state.play("play yy-g-2 x3")
    state.play("play yy-g-2 x2")
    assert state.cubes(0) == "yygg"
    assert "1:" in str(state) and "seat 1: score" in str(state)


def test_its_rules_agree_with_themselves(added):
    assert kind_rules_disagree(added.engine, 6) == []


def test_the_action_codec_numbers_its_plays(added):
    codec = load_actions(added.ruleset)
    plays = [name for name in codec.ACTIONS if name.startswith("play yy-g-2")]
    assert plays == ["play yy-g-2 x1", "play yy-g-2 x2"]
    assert codec.actions_of("play yy-g-2 x2") == [codec.INDEX["play yy-g-2 x2"]]


def test_the_terminal_shows_the_card(added):
    from century.play.terminal import Painter, card_text, render

    engine = added.engine
    paint = Painter(added.ruleset, colour=False)
    assert card_text(engine, engine.CARDS[added.card], paint) == "yy-g-2(YY>G x2)"
    state = engine.State.from_dict({"players": 2, "seats": [{"hand": ["yy-g-2"]}, {}]})
    assert "yy-g-2(YY>G x2)" in render(engine, state, added.ruleset, 0, ["you", "bot"], paint)


def test_the_move_bound_counts_its_plays(added):
    without = [c for c in added.ruleset.merchant_deck if c.kind != "swap"]
    plain = replace(added.ruleset, merchant_deck=tuple(without))
    assert move_bound(added.ruleset).plays == move_bound(plain).plays + 2


def test_the_rule_sheet_and_the_kit_draw_it(added):
    for lang, title in (("en", "Swap card"), ("de", "Wechselkarte")):
        sheet = pdf_text(render_sheet(added.ruleset, lang))
        assert title in sheet
    kit = pdf_text(render_kit(added.ruleset, CardOptions(lang="en", kit=False)))
    assert "Swap card" in kit


def pdf_text(pdf: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
