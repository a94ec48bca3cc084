"""A card layout as data (``look.layout``) and a card's own text (``text:``), built through
every target and read back: the kit prints each language's text inside its region's box (by
pypdf's text positions, within 0.2 mm), the card images and `century preview` draw the same
card pixel for pixel, the Tabletop Simulator kit and the rule sheet's card drawings take the
layout; the layout's own problems are located warnings."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.pipeline import compile_paths
from century.shared.cards.images import deck_images
from century.targets.cards import CardOptions, document
from century.targets.images import ImageOptions, preview
from century.targets.tts import sheets as tts_sheets

pytestmark = pytest.mark.slow

MM = 72 / 25.4
"""PDF points per millimetre."""
TOLERANCE = 0.2
CARD = "yy-g"
"""The card given a text: the trade card the rule sheet draws as its example."""
TEXT = {
    "en": "Pay [YY] for [G]. Traders swear by it.",
    "de": "Zahle [YY] für [G]. Händler schwören darauf.",
}
REGION = {"x": 6.0, "y": 58.0, "width": 51.0, "height": 22.0}
"""The text region, moved from its default to the card's lower part."""

VARIANT = f"""\
id: laid
extends: spice-road
languages: [en, de]
name: {{en: "Laid Road", de: "Gelegte Straße"}}
look:
  layout:
    title: {{x: 4, y: 4, width: 55, height: 9, size: 11, align: left}}
    index: {{x: 4, y: 14, width: 7, height: 40}}
    effect: {{x: 13, y: 15, width: 38, height: 40}}
    text: {{x: {REGION["x"]}, y: {REGION["y"]}, width: {REGION["width"]},
            height: {REGION["height"]}, size: 8, min_size: 5, align: left, valign: top}}
  decks:
    point:
      layout:
        points: {{x: 20, y: 15, width: 23, height: 18}}
        effect: {{x: 13, y: 36, width: 38, height: 20}}
cards:
  merchant:
    replace:
      {CARD}:
        kind: trade
        pay: YY
        get: G
        text: {{en: "{TEXT["en"]}", de: "{TEXT["de"]}"}}
"""


def run(*args: str, cwd: Path) -> str:
    import os

    here = Path.cwd()
    os.chdir(cwd)
    try:
        done = CliRunner().invoke(cli.app, list(args), catch_exceptions=False)
    finally:
        os.chdir(here)
    assert done.exit_code == 0, done.output
    return done.output


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("laid")
    (folder / "rules").mkdir()
    (folder / "rules" / "laid.yaml").write_text(VARIANT, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def ruleset(project):
    compiled = compile_paths([project / "rules"])
    assert not [d for d in compiled.diagnostics if d.file.startswith("rules/")], [
        str(d) for d in compiled.diagnostics
    ]
    return compiled.rulesets["laid"]


def _words(page) -> list[tuple[str, float, float]]:
    """Every piece of text on a page with its baseline origin in mm from the top left."""
    height = float(page.mediabox.height)
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text, x / MM, (height - y) / MM))

    page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_kit_prints_the_text_inside_its_region(project, ruleset, lang):
    run("cards", "laid", "--lang", lang, "--out", "out", cwd=project)
    reader = PdfReader(project / "out" / f"cards-{lang}-a4.pdf")
    data = document(ruleset, CardOptions(lang=lang, paper="a4"))
    placed = [
        (number, front)
        for number, page in enumerate(data["pages"])
        if page["type"] == "cards"
        for front in page["fronts"]
        if front["face"]["id"] == CARD
    ]
    assert placed, "the card is not in the kit"
    number, front = placed[0]
    left, top = front["x"] + REGION["x"], front["y"] + REGION["y"]
    right, bottom = left + REGION["width"], top + REGION["height"]
    words = [w for w in _words(reader.pages[number]) if left - 5 < w[1] < right + 5]
    first_word = TEXT[lang].split()[0]
    hits = [w for w in words if w[0].strip().startswith(first_word)]
    assert hits, words
    line = "".join(w[0] for w in words if top - TOLERANCE <= w[2] <= bottom + TOLERANCE)
    for word in re.sub(r"\[\w+\]", " ", TEXT[lang]).split():
        assert word.strip(".,") in line, (word, line)
    own = [w.strip(".,") for w in re.sub(r"\[\w+\]", " ", TEXT[lang]).split() if len(w) > 2]
    for text, x, y in words:
        if any(part in text for part in own):
            assert left - TOLERANCE <= x <= right + TOLERANCE, (text, x, left, right)
            assert top - TOLERANCE <= y <= bottom + TOLERANCE, (text, y, top, bottom)
    # the kit's face is what the preview draws: the same Typst call's inputs
    drawn = next(
        card.face
        for deck in deck_images(ruleset, lang)
        for card in deck.cards
        if card.face["id"] == CARD
    )
    assert front["face"] == drawn
    assert front["face"]["layout"]["text"]["y"] == REGION["y"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_preview_is_the_card_image(project, ruleset, lang):
    run(
        "images",
        "laid",
        "--card",
        CARD,
        "--lang",
        lang,
        "--bleed",
        "0",
        "--dpi",
        "150",
        "--out",
        "img",
        cwd=project,
    )
    folder = project / "img" / "images" / lang
    assert [p.name for p in folder.rglob("*.png")] == [f"{CARD}.png"]
    assert not (project / "img" / "images" / "index.html").exists()
    run("preview", "laid", CARD, "--lang", lang, "--dpi", "150", "--out", "p.png", cwd=project)
    image = Image.open(folder / "merchant" / f"{CARD}.png").convert("RGB")
    shown = Image.open(project / "p.png").convert("RGB")
    assert ImageChops.difference(image, shown).getbbox() is None
    pdf = preview(ruleset, CARD, lang, pdf=True, options=ImageOptions(bleed=0.0))
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert TEXT[lang].split()[-1].rstrip(".") in text


def test_another_language_draws_another_text(project):
    run("preview", "laid", CARD, "--lang", "en", "--out", "en.png", cwd=project)
    run("preview", "laid", CARD, "--lang", "de", "--out", "de.png", cwd=project)
    en = Image.open(project / "en.png").convert("RGB")
    de = Image.open(project / "de.png").convert("RGB")
    box = ImageChops.difference(en, de).getbbox()
    assert box is not None
    dpm = 300 / 25.4
    # the languages differ only in the title band, the text region and the small print
    assert box[1] >= 3.9 * dpm


def test_the_sheet_and_the_tabletop_kit_draw_from_the_layout(project, ruleset):
    run("sheets", "laid", "--lang", "en", "--out", "out", cwd=project)
    sheet = PdfReader(project / "out" / "rules-en-a4.pdf")
    text = " ".join(page.extract_text() for page in sheet.pages)
    assert "Traders swear by it." in text
    run("tts", "laid", "--lang", "en", "--out", "out", cwd=project)
    (deck,) = [d for d in deck_images(ruleset, "en") if d.kind == "merchant"]
    first = tts_sheets(deck)[0]
    cell = next(i for i, card in enumerate(first.cards) if card.face["id"] == CARD)
    grid = Image.open(project / "out" / "tts" / "en" / "merchant-1.png").convert("RGB")
    width, height = grid.width // first.cols, grid.height // first.rows

    def crop(i: int) -> Image.Image:
        left, top = (i % first.cols) * width, (i // first.cols) * height
        return grid.crop((left, top, left + width, top + height))

    drawn = preview(ruleset, CARD, "en", options=ImageOptions(bleed=0.0, dpi=150))
    shown = Image.open(io.BytesIO(drawn)).convert("RGB").resize((width, height))
    same = _mean_difference(crop(cell), shown)
    other = _mean_difference(crop(0 if cell else 1), shown)
    assert same < 3 < other, (same, other)


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    """The mean difference of two pictures' pixels, 0 to 255."""
    histogram = ImageChops.difference(a, b).convert("L").histogram()
    return sum(value * count for value, count in enumerate(histogram)) / (a.width * a.height)


def test_a_game_without_a_layout_keeps_its_face(bundled):
    faces = [
        card.face
        for deck in deck_images(bundled.rulesets["spice-road"], "en")
        for card in deck.cards
    ]
    assert faces and not any("layout" in face for face in faces)
    assert not any("text" in face for face in faces if face["kind"] != "reference")


def test_the_layouts_problems_are_located_warnings(tmp_path):
    (tmp_path / "rules").mkdir()
    broken = VARIANT.replace("title: {x: 4, y: 4,", "title: {x: 1, y: 4,").replace(
        "effect: {x: 13, y: 15, width: 38, height: 40}",
        "effect: {x: 13, y: 15, width: 38, height: 50}",
    )
    broken = broken.replace("Traders swear by it.", "Traders swear by it. " * 25)
    (tmp_path / "rules" / "laid.yaml").write_text(broken, encoding="utf-8")
    compiled = compile_paths([tmp_path / "rules"])
    found = {(d.code, d.line) for d in compiled.diagnostics if d.severity == "warning"}
    lines = broken.splitlines()
    title = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("title:"))
    effect = next(i for i, line in enumerate(lines, 1) if "height: 50" in line)
    text = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("text: {en:"))
    assert ("C324", title) in found, found
    region = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("text: {x:"))
    assert {("C323", effect), ("C323", region)} & found, found  # at one of the two
    assert ("C325", text) in found, found
    needs = next(str(d) for d in compiled.diagnostics if d.code == "C325")
    assert re.search(r"it needs (\d+(\.\d+)? pt|under 2 pt)", needs), needs


def test_an_unknown_card_names_the_close_ones(project):
    import os

    here = Path.cwd()
    os.chdir(project)
    try:
        wrong = CliRunner().invoke(cli.app, ["preview", "laid", "yyg", "--lang", "en"])
        images = CliRunner().invoke(cli.app, ["images", "laid", "--card", "yy_g", "-o", "x"])
        both = CliRunner().invoke(cli.app, ["preview", "laid", CARD, "--out", "two.png"])
    finally:
        os.chdir(here)
    assert wrong.exit_code == 2 and "no card 'yyg'; did you mean " in wrong.output
    assert "yy-g" in wrong.output.split("did you mean", 1)[1]
    assert images.exit_code == 2 and "yy-g" in images.output.split("did you mean", 1)[1]
    assert both.exit_code == 2 and "--out names one file" in both.output
    assert not (project / "two.png").exists() and not (project / "x").exists()
