"""The reference cards take a layout of their own deck (``look.decks.reference.layout``), as
the other decks do: their title in the title region and their aid in the effect region, read
back from the kit; the look's common layout (the game's cards) leaves them their face."""

from __future__ import annotations

import io

from pypdf import PdfReader

from century.pipeline import compile_paths
from century.shared.cards.faces import look_assets
from century.shared.typst import compile_pdf
from century.targets import cards

from helpers.rulesets import checked

PT = 25.4 / 72
TITLE = {"x": 4.0, "y": 60.0, "width": 55.0, "height": 9.0}
AID = {"x": 6.0, "y": 6.0, "width": 51.0, "height": 52.0}
VARIANT = f"""\
id: aid
extends: spice-road
look:
  layout:
    effect: {{x: 13, y: 15, width: 38, height: 40}}
  decks:
    reference:
      layout:
        title: {{x: {TITLE["x"]}, y: {TITLE["y"]}, width: {TITLE["width"]},
                 height: {TITLE["height"]}, size: 11, align: left}}
        effect: {{x: {AID["x"]}, y: {AID["y"]}, width: {AID["width"]}, height: {AID["height"]}}}
"""


def reference_front(ruleset, lang: str = "en") -> tuple[dict, list[tuple[str, float, float]]]:
    """The first reference card of the A4 kit and the text drawn on its page: each piece
    with its left and its baseline in mm from the page's top left corner."""
    doc = cards.document(ruleset, cards.CardOptions(paper="a4", lang=lang))
    page, front = next(
        (p, c)
        for p in doc["pages"]
        if p["type"] == "cards"
        for c in p["fronts"]
        if c["face"]["kind"] == "reference"
    )
    pdf = compile_pdf(cards.TEMPLATE, {**doc, "pages": [page]}, look_assets(ruleset))
    height = page["height"]
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            found.append((text.strip(), x * PT, height - y * PT))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return front, found


def test_a_reference_card_is_drawn_in_its_decks_layout(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "aid.yaml").write_text(VARIANT, encoding="utf-8")
    ruleset = checked(compile_paths([tmp_path / "rules"])).rulesets["aid"]
    front, found = reference_front(ruleset)
    x0, y0 = front["x"], front["y"]
    title = front["face"]["title"]
    card = [(t, x, y) for t, x, y in found if x0 <= x < x0 + 63 and y0 <= y < y0 + 88]
    [(_, tx, ty)] = [(t, x, y) for t, x, y in card if t == title]
    assert x0 + TITLE["x"] <= tx <= x0 + TITLE["x"] + 2.5  # left, inside its band's inset
    assert y0 + TITLE["y"] < ty < y0 + TITLE["y"] + TITLE["height"]
    aid = [(t, x, y) for t, x, y in card if t != title and y < y0 + TITLE["y"]]
    assert len(aid) > 10  # the aid's sentences are there, and all inside its region
    for text, x, y in aid:
        assert x0 + AID["x"] - 0.2 <= x <= x0 + AID["x"] + AID["width"], text
        assert y0 + AID["y"] < y <= y0 + AID["y"] + AID["height"] + 0.2, text


def test_the_common_layout_leaves_the_reference_card_its_face(tmp_path):
    (tmp_path / "rules").mkdir()
    common = VARIANT.split("  decks:")[0]
    (tmp_path / "rules" / "aid.yaml").write_text(common, encoding="utf-8")
    ruleset = checked(compile_paths([tmp_path / "rules"])).rulesets["aid"]
    front, _ = reference_front(ruleset)
    assert front["face"]["kind"] == "reference" and "layout" not in front["face"]
