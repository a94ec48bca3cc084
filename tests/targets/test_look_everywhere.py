"""A game's look as data (``look:``): a variant with its own art, font, icons and bridge-size
cards, built through every target and read back; the bundled Golem Edition's own look against
Spice Road's; `century watch` rebuilding when a picture changes."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from century import cli
from century.shared.typst import FONTS
from century.targets import targets

from helpers import written

pytestmark = pytest.mark.slow

MM = 72 / 25.4
"""PDF points per millimetre."""

ART = (620, 860)
"""The merchant art, in pixels: over 300 dpi on a bridge card's art area (51.8 × 71.8 mm)."""
BACK = (745, 1122)
"""The back picture: 63 × 95 mm (the card and 3 mm of bleed) at 300 dpi."""
ICON_COLOUR = (0, 200, 120)
"""The one colour of the turmeric icon (a PNG): nothing else on a card has it."""
FAMILY = "Lookalike Test"


def striped(size: tuple[int, int], seed: int) -> Image.Image:
    """A picture whose pixels are checked back: bands of colours that depend on `seed`."""
    img = Image.new("RGB", size)
    img.putdata(
        [
            ((x * 7 + seed) % 256, (y * 3 + seed) % 256, ((x // 40 + y // 40) * 60) % 256)
            for y in range(size[1])
            for x in range(size[0])
        ]
    )
    return img


def renamed_font(target: Path) -> None:
    """The bundled oblique DejaVu under a family name of its own (as the licence asks of a
    changed copy), so the kit can only have it from the look."""
    font = TTFont(FONTS / "DejaVuSans-Oblique.ttf", recalcTimestamp=False)
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 6, 16):
            text = record.toUnicode()
            text = text.replace("DejaVu Sans", FAMILY).replace("DejaVuSans", "LookalikeTest")
            record.string = text
    font.save(target)


ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
    '<path d="M5 0 L10 5 L5 10 L0 5 Z" fill="{}"/></svg>'
)

VARIANT = """\
id: bridge
extends: spice-road
name: {en: "Bridge Road", de: "Brückenstraße", fr: "Bridge Road"}
look:
  card_size: bridge
  decks:
    merchant: {frame: "#5A2A82", back: art/back.png, art: {file: art/merchant.png, fit: cover}}
  fonts: {title: art/Lookalike.ttf}
  icons:
    turmeric: art/turmeric.png
    saffron: art/saffron.svg
    cardamom: art/cardamom.svg
    cinnamon: art/cinnamon.svg
"""


def project(folder: Path) -> Path:
    """A project with the variant and its art; returns the art folder."""
    art = folder / "rules" / "art"
    art.mkdir(parents=True)
    (folder / "rules" / "bridge.yaml").write_text(VARIANT, encoding="utf-8")
    striped(ART, 1).save(art / "merchant.png")
    striped(BACK, 2).save(art / "back.png")
    Image.new("RGB", (160, 160), ICON_COLOUR).save(art / "turmeric.png")
    for name, colour in (("saffron", "#AA0000"), ("cardamom", "#0000AA"), ("cinnamon", "#333333")):
        (art / f"{name}.svg").write_text(ICON_SVG.format(colour), encoding="utf-8")
    renamed_font(art / "Lookalike.ttf")
    return art


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The variant built with every target."""
    folder = tmp_path_factory.mktemp("look-everywhere")
    project(folder)
    every = [arg for name in sorted(targets()) for arg in ("--target", name)]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        result = CliRunner().invoke(
            cli.app, ["build", *every, "--out", "out", "--paper", "a4", "--paper", "letter"]
        )
        assert result.exit_code == 0, result.output
        check = CliRunner().invoke(cli.app, ["validate", "--strict", "rules"])
    assert check.exit_code == 0, check.output  # sharp art, covered bleed, a full font
    return folder / "out" / "bridge"


def _fonts(reader: PdfReader) -> set[str]:
    found = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            found.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return found


def _pictures(page) -> list[Image.Image]:
    return [Image.open(io.BytesIO(image.data)).convert("RGB") for image in page.images]


def _box_mm(box) -> list[float]:
    return [float(v) / MM for v in (box.left, box.bottom, box.right, box.top)]


@pytest.mark.parametrize(
    ("paper", "rows", "page"),
    [("a4", 3, (210.0, 297.0)), ("letter", 2, (215.9, 279.4))],
)
def test_the_kit_prints_bridge_cards_at_true_size(built, paper, rows, page):
    reader = PdfReader(built / f"cards-en-{paper}.pdf")
    card_pages = [p for p in reader.pages if "/TrimBox" in p]
    assert card_pages
    width, height = 3 * 57 + 2 * 3, rows * 89 + (rows - 1) * 3  # three columns, 3 mm gaps
    left, bottom = (page[0] - width) / 2, (page[1] - height) / 2
    for each in card_pages:
        got = _box_mm(each.trimbox)
        assert got == pytest.approx([left, bottom, left + width, bottom + height], abs=0.1)
        bleed = _box_mm(each.bleedbox)
        assert bleed == pytest.approx([got[0] - 1, got[1] - 1, got[2] + 1, got[3] + 1], abs=0.1)
    cover = reader.pages[0].extract_text().replace("\u00a0", " ")
    assert "57 × 89 mm" in cover


def test_the_kit_shows_the_art_the_font_and_the_icons(built, tmp_path):
    art = project(tmp_path)
    merchant = Image.open(art / "merchant.png").convert("RGB")
    back = Image.open(art / "back.png").convert("RGB")
    reader = PdfReader(built / "cards-en-a4.pdf")
    first = next(i for i, p in enumerate(reader.pages) if "/TrimBox" in p)
    fronts, backs = _pictures(reader.pages[first]), _pictures(reader.pages[first + 1])
    # the pictures' own pixels are on the pages, not a resampled copy
    assert any(p.size == ART and p.tobytes() == merchant.tobytes() for p in fronts)
    assert any(p.size == BACK and p.tobytes() == back.tobytes() for p in backs)
    icons = [p for p in fronts if p.size == (160, 160)]
    assert icons and all(p.getpixel((80, 80)) == ICON_COLOUR for p in icons)
    assert any(name.startswith("LookalikeTest") for name in _fonts(reader))
    frame = (0x5A / 255, 0x2A / 255, 0x82 / 255)
    assert frame in _fills(reader.pages[first])


def _fills(page) -> set[tuple[float, ...]]:
    """The fill colours a page's content sets (``r g b scn``), to 1/255."""
    data = page.get_contents().get_data().decode("latin-1")
    found = re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) scn", data)
    return {tuple(round(float(v) * 255) / 255 for v in rgb) for rgb in found}


def test_the_card_images_and_the_contact_sheet_take_the_size_and_icons(built):
    images = built / "images"
    gain = Image.open(images / "en" / "starting" / "+yy.png").convert("RGB")
    assert gain.size == (697, 1075)  # 57 × 89 mm and the kit's 1 mm bleed at 300 dpi
    colours = {colour: n for n, colour in gain.getcolors(1 << 20)}
    assert colours.get(ICON_COLOUR, 0) > 1000  # the two icons of the gain, and the corner's
    assert colours.get((0xE9, 0xB8, 0x24), 0) == 0  # no turmeric cube
    merchant = Image.open(images / "en" / "merchant" / "+rr.png").convert("RGB")
    assert merchant.getpixel((3, 500)) == (0x5A, 0x2A, 0x82)  # the look's frame
    html = (images / "index.html").read_text("utf-8")
    assert "697 × 1075" in html


def test_the_tabletop_kit_cuts_bridge_cells(built):
    tts = built / "tts"
    sheet = Image.open(tts / "en" / "merchant-1.png")
    cell = (round(57 / 25.4 * 150), round(89 / 25.4 * 150))
    saved = json.loads((tts / "bridge-en.json").read_text("utf-8"))
    deck = next(o for o in saved["ObjectStates"] if o["Name"] == "Deck")
    custom = next(iter(deck["CustomDeck"].values()))
    assert sheet.size == (custom["NumWidth"] * cell[0], custom["NumHeight"] * cell[1])
    colours = dict((colour, n) for n, colour in sheet.convert("RGB").getcolors(1 << 22))
    assert colours.get(ICON_COLOUR, 0) > 0


def test_the_rule_sheet_draws_its_cards_with_the_look(built):
    reader = PdfReader(built / "rules-en-a4.pdf")
    pictures = [p for page in reader.pages for p in _pictures(page)]
    assert any(p.size == (160, 160) for p in pictures)  # the icon, in cards and ladder
    assert any(name.startswith("LookalikeTest") for name in _fonts(reader))  # card titles


def test_every_target_built(built):
    names = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()}
    for wanted in ("ruleset.json", "rules-de-letter.pdf", "cards-de-letter.pdf"):
        assert wanted in names
    ruleset = json.loads((built / "ruleset.json").read_text("utf-8"))
    assert "look" not in ruleset  # it names files of this computer


# -- the Golem Edition's own look ---------------------------------------------------------------


def test_golem_kit_differs_from_spice_road_in_icons_and_frames(bundled, tmp_path):
    golem = written("cards", bundled.rulesets["golem"], tmp_path / "g", languages=("en",))
    base = written("cards", bundled.rulesets["spice-road"], tmp_path / "s", languages=("en",))
    pages = {}
    for name, files in (("golem", golem), ("base", base)):
        reader = PdfReader(files[0])
        pages[name] = next(p for p in reader.pages if "/TrimBox" in p)

    def forms(page) -> int:
        found = page["/Resources"].get("/XObject") or {}
        return sum(1 for x in found.values() if x.get_object()["/Subtype"] == "/Form")

    assert forms(pages["base"]) == 0  # cubes are drawn, not pictures
    assert forms(pages["golem"]) >= 4  # the four crystals (SVG)
    golem_frame = (0x3B / 255, 0x4A / 255, 0x5A / 255)
    base_frame = (0x2F / 255, 0x48 / 255, 0x58 / 255)
    assert golem_frame in _fills(pages["golem"]) and golem_frame not in _fills(pages["base"])
    assert base_frame in _fills(pages["base"]) and base_frame not in _fills(pages["golem"])


@pytest.mark.parametrize(
    ("size", "card", "grid"),
    [("mini", (44, 63), (4, 4)), ("tarot", (70, 120), (2, 2)), ("[60, 90]", (60, 90), (3, 3))],
)
def test_every_card_size_prints_true_size_on_a4(tmp_path, monkeypatch, size, card, grid):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "sized.yaml").write_text(
        f"id: sized\nextends: spice-road\nlook: {{card_size: {size}}}\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    args = ["cards", "sized", "--lang", "en", "--no-kit", "--no-backs", "--out", "out"]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "out" / "cards-en-a4.pdf")
    cols, rows = grid
    width, height = cols * card[0] + (cols - 1) * 3, rows * card[1] + (rows - 1) * 3
    left, bottom = (210 - width) / 2, (297 - height) / 2
    got = _box_mm(reader.pages[0].trimbox)
    assert got == pytest.approx([left, bottom, left + width, bottom + height], abs=0.1)


def test_the_same_look_gives_the_same_bytes(built, tmp_path, monkeypatch):
    project(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["build", "--target", "cards", "--target", "images", "--out", "again"]
    result = CliRunner().invoke(cli.app, [*args, "--paper", "a4", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again" / "bridge"
    for name in ("cards-de-a4.pdf", "cards-en-letter.pdf", "images/en/merchant/+rr.png"):
        assert (again / name).read_bytes() == (built / name).read_bytes(), name
