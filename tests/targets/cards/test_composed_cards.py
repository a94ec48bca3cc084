"""Composed merchant cards printed: the kit draws any composition of steps from one walker
(the index corner and the body), names the cards in both languages, and prints the same
bytes twice; Tabletop Simulator names them from the same symbols."""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from century import cli
from century.model.cards import COMPOSED
from century.model.ruleset import Ruleset
from century.shared.cards.layout import layout
from century.targets.cards import CardOptions, render
from century.targets.tts import card_name, effect_name

from helpers import COMPOSED_SENTENCES, composed_variant, edited, spice_road

PT = 25.4 / 72  # mm per PDF point
UPGRADE_GREY = "#C8C8C8"
ANY_WHITE = "#FFFFFF"


@pytest.fixture(scope="module")
def composed(tmp_path_factory) -> Ruleset:
    folder = tmp_path_factory.mktemp("composed")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return composed_variant(folder)


def only_composed(ruleset: Ruleset) -> Ruleset:
    """The variant with its composed cards alone in the merchant deck (one page of fronts)."""

    def keep(data: dict[str, Any]) -> None:
        data["merchant_deck"] = [
            card
            for card, model in zip(data["merchant_deck"], ruleset.merchant_deck, strict=True)
            if model.kind == COMPOSED
        ]

    return edited(ruleset, keep)


def fills(pdf: bytes, page: int) -> list[tuple[float, float, str]]:
    """The filled shapes of a page: (width, height) in mm and the fill colour."""
    reader = PdfReader(io.BytesIO(pdf))
    found: list[tuple[float, float, str]] = []
    ctm, colour, stack, path = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "#000000", [], []
    for operands, op in ContentStream(reader.pages[page].get_contents(), reader).operations:
        args = [float(v) for v in operands if isinstance(v, int | float)]
        if op == b"q":
            stack.append((ctm, colour))
        elif op == b"Q":
            ctm, colour = stack.pop()
        elif op == b"cm":
            a, m = args, ctm
            ctm = [
                a[0] * m[0] + a[1] * m[2],
                a[0] * m[1] + a[1] * m[3],
                a[2] * m[0] + a[3] * m[2],
                a[2] * m[1] + a[3] * m[3],
                a[4] * m[0] + a[5] * m[2] + m[4],
                a[4] * m[1] + a[5] * m[3] + m[5],
            ]
        elif op in (b"scn", b"sc", b"rg", b"g") and len(args) in (1, 3):
            rgb = args * 3 if len(args) == 1 else args
            colour = "#" + "".join(f"{round(v * 255):02X}" for v in rgb)
        elif op in (b"m", b"l", b"c"):
            x, y = args[-2:]
            path.append((ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]))
        elif op == b"re":
            x, y, w, h = args
            for px, py in ((x, y), (x + w, y + h)):
                path.append(
                    (ctm[0] * px + ctm[2] * py + ctm[4], ctm[1] * px + ctm[3] * py + ctm[5])
                )
        elif op in (b"f", b"f*", b"B", b"b", b"n", b"S"):
            if path and op not in (b"n", b"S"):
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                found.append(((max(xs) - min(xs)) * PT, (max(ys) - min(ys)) * PT, colour))
            path = []
    return found


@pytest.mark.slow
def test_the_kit_draws_every_step_of_composed_cards(composed):
    """The index corners of the composed cards draw, at the corner's size, one cube per cube
    gained or paid (in every option), one grey mark per upgrade and one blank mark per cube
    of the player's choice."""
    ruleset = only_composed(composed)
    assert len(ruleset.merchant_deck) == len(COMPOSED_SENTENCES)
    pdf = render(ruleset, CardOptions(kit=False, backs=False))
    mini = 3.3 * layout("a4").scale
    drawn = Counter(
        colour for w, h, colour in fills(pdf, 0) if abs(w - mini) < 0.05 and abs(h - mini) < 0.05
    )
    expected: Counter[str] = Counter()

    def count(steps: Any) -> None:
        for step in steps:
            if step[0] in ("gain", "pay"):
                for resource, n in zip(ruleset.resources, step[1], strict=True):
                    expected[resource.colour.upper()] += n
            elif step[0] == "upgrade":
                expected[UPGRADE_GREY] += step[1]
            elif step[0] == "pay_any":
                expected[ANY_WHITE] += step[1]
            elif step[0] == "repeat":
                count(step[1])
            else:
                for option in step[1]:
                    count(option)

    for card in ruleset.merchant_deck:
        count(card.effect)
    assert drawn == expected
    assert pdf == render(ruleset, CardOptions(kit=False, backs=False))


@pytest.mark.slow
def test_the_kit_names_composed_cards_in_each_language(composed):
    for lang, title in (("en", "Crossroads"), ("de", "Kreuzweg")):
        pdf = render(only_composed(composed), CardOptions(lang=lang, kit=False, backs=False))
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert title in text
        for card_id in COMPOSED_SENTENCES:
            assert card_id in text  # the small print names every card


def test_tabletop_simulator_names_composed_cards_by_their_symbols(composed):
    names = {
        card.id: effect_name(card.effect, composed.codes)
        for card in composed.merchant_deck
        if card.id in COMPOSED_SENTENCES
    }
    assert names == {
        "+yy.up1": "+YY ↑",
        "{+yyy/up2}": "+YYY / ↑↑",
        "any2-+b": "?? ↓ B",
        "y-rx2": "(Y ↓ R)≤2×",
        "{+gg/r-gx3}": "+GG / (R ↓ G)≤3×",
    }
    # the short forms keep their names
    by_kind = {card.kind: card for card in composed.merchant_deck}
    assert effect_name(by_kind["trade"].effect, composed.codes).count("→") == 1
    face = {"kind": "upgrade", "title": "Upgrade card", "effect": [{"upgrade": 3}]}
    assert card_name(face, composed.codes) == "Upgrade card ↑↑↑"


@pytest.mark.slow
def test_the_kit_explains_the_symbols_when_cards_are_composed(composed):
    """The kit's second page holds the legend of the card symbols for a game with composed
    cards, in its language; a game of short forms alone keeps its page as it was."""
    legend = {
        "en": "Symbols on the cards",
        "de": "Symbole auf den Karten",
        "fr": "Symboles des cartes",
    }
    for lang, heading in legend.items():
        guide = PdfReader(io.BytesIO(render(composed, CardOptions(lang=lang)))).pages[1]
        assert heading in guide.extract_text(), lang
    base = PdfReader(io.BytesIO(render(spice_road(), CardOptions(lang="en")))).pages[1]
    assert legend["en"] not in base.extract_text()


@pytest.mark.slow
def test_images_and_tabletop_simulator_show_composed_cards(composed, tmp_path, monkeypatch):
    """`century images` writes an image per composed card, and `century tts` names each
    composed card by its title and symbols, built with the commands a user types."""
    monkeypatch.chdir(tmp_path)
    composed_variant(tmp_path)
    runner = CliRunner()
    for command in (["images", "composed", "--lang", "en"], ["tts", "composed", "--lang", "de"]):
        made = runner.invoke(cli.app, [*command, "--dpi", "50"])
        assert made.exit_code == 0, made.output
    build = tmp_path / "build" / "composed"
    images = {p.stem for p in (build / "images" / "en" / "merchant").glob("*.png")}
    assert len(images) == len({c.id for c in composed.merchant_deck})
    saved = json.loads((build / "tts" / "composed-de.json").read_text("utf-8"))
    nicknames = {
        card["Description"]: card["Nickname"]
        for deck in saved["ObjectStates"]
        if deck["Name"] == "Deck"
        for card in deck["ContainedObjects"]
    }
    assert nicknames["{+yyy/up2}"] == "Kreuzweg +YYY / ↑↑"
    assert nicknames["any2-+b"] == "Händlerkarte ?? ↓ B"
