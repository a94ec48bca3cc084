"""`century images`: one PNG per card and back, read back with the standard library, and the
contact sheet; safe file names from hostile ids; the same bytes every run."""

from __future__ import annotations

import functools
import html
import json
import re
import struct
import subprocess
import sys
import zlib
from collections import Counter
from typing import Any

import pytest

from century.base.output import MANIFEST, read_manifest
from century.model.ruleset import Ruleset
from century.prose import prose_texts
from century.shared.cards.faces import DECK_COLOURS, decks
from century.shared.cards.layout import DEFAULT_BLEED
from century.shared.names import MAX_STEM, file_stem, unique_stems
from century.targets.images import ImageOptions, image_size, render

from helpers import ROOT, bundled_rulesets, edited, spice_road

HOSTILE_IDS = ["../../escape", "a/b\\c", "CON", "con", "Con", "nul", "..", ".hidden", "-rf"]
HOSTILE_IDS += ["x" * 300, "x" * 299 + "y", "é", "e\u0301", "<b>&'\"", "tab\there", "_2e"]
SCRIPT = "<script>alert(1)</script>"
MARKUP = '#panic("markup ran") *x* $y$ ]'
"""A card name that would stop Typst if it were read as markup, not shown as text."""
SAFE_STEM = re.compile(r"[a-z0-9+_~-]+")


# -- reading PNGs ------------------------------------------------------------------------------


def png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk of a PNG as (type, data), its CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, pos = [], 8
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + size]
        (crc,) = struct.unpack(">I", png[pos + 8 + size : pos + 12 + size])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        pos += 12 + size
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    return chunks


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG header."""
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def png_dpi(png: bytes) -> float:
    [body] = [body for kind, body in png_chunks(png) if kind == b"pHYs"]
    x, y, unit = struct.unpack(">IIB", body)
    assert x == y and unit == 1  # per metre
    return x * 0.0254


def first_pixel(png: bytes) -> str:
    """The top-left pixel as #RRGGBB (8-bit RGB or RGBA, as Typst writes). Every PNG filter
    predicts it from zeros (nothing is left of or above it), so its bytes are its colour."""
    header = png_chunks(png)[0][1]
    depth, colour = header[8], header[9]
    assert depth == 8 and colour in (2, 6)
    raw = zlib.decompress(b"".join(body for kind, body in png_chunks(png) if kind == b"IDAT"))
    assert raw[0] in range(5)  # the first row's filter type
    return "#" + raw[1:4].hex().upper()


# -- rulesets ----------------------------------------------------------------------------------


def hostile(data: dict[str, Any]) -> None:
    """Card ids no schema would let through, and markup in every name the page shows."""
    for card, card_id in zip(data["merchant_deck"], HOSTILE_IDS, strict=False):
        card["id"] = card_id
    data["starting_cards"][0]["id"] = "reference"  # the name the reference card takes
    data["merchant_deck"][-1]["name"] = {"en": SCRIPT, "de": SCRIPT}
    data["merchant_deck"][-2]["name"] = {"en": MARKUP, "de": MARKUP}
    data["name"] = {lang: f"Game {SCRIPT}" for lang in data["name"]}
    data["terms"]["point_cards"] = {"en": f"Deck {SCRIPT}", "de": "Stapel"}


def expected_decks(ruleset: Ruleset, lang: str) -> dict[str, Counter[str]]:
    """Per deck kind, how often each face occurs (faces as JSON), counted independently."""
    text = prose_texts(ruleset, lang)
    return {
        deck.kind: Counter(json.dumps(face, sort_keys=True) for face in deck.faces)
        for deck in decks(ruleset, text, lang)
    }


@functools.cache
def rendered(game: str = "spice-road", dpi: float = 50, bleed: float = 0.0) -> dict[str, bytes]:
    return render(bundled_rulesets()[game], ImageOptions(dpi=dpi, bleed=bleed))


# -- names -------------------------------------------------------------------------------------


def test_file_stems_are_safe_stable_and_distinct():
    stems = [file_stem(text) for text in HOSTILE_IDS]
    for stem in stems:
        assert SAFE_STEM.fullmatch(stem), stem
        assert len(stem) <= MAX_STEM and not stem.startswith("-")
        assert stem not in {"con", "nul", "prn", "aux", "com1", "lpt1"}
    assert len({s.lower() for s in stems}) == len(HOSTILE_IDS)  # distinct, whatever the case
    assert file_stem("yy-g") == "yy-g" and file_stem("+yyr") == "+yyr"  # ids stay readable
    assert file_stem("con") == "con_" and file_stem("CON") == "_43_4f_4e"
    assert file_stem("../x") == "_2e_2e_2fx"
    assert [file_stem(t) for t in HOSTILE_IDS] == stems  # stable
    assert unique_stems(["a", "a", "b", "a"]) == ["a", "a~2", "b", "a~3"]


# -- the images --------------------------------------------------------------------------------


@pytest.mark.slow
def test_one_image_per_distinct_card_and_back_in_every_language():
    ruleset = spice_road()
    files = rendered()
    assert ruleset.languages == ("en", "de", "fr")
    pngs = [name for name in files if name.endswith(".png")]
    for lang in ruleset.languages:
        expected = expected_decks(ruleset, lang)
        for kind, faces in expected.items():
            names = [n for n in pngs if n.startswith(f"{lang}/{kind}/")]
            assert len(names) == len(faces), (lang, kind)
            assert f"{lang}/backs/{kind}.png" in files
        assert sum(len(f) for f in expected.values()) == 43 + 36 + 3  # spice-road: 82 cards
    assert len(pngs) == 3 * (82 + 4)  # and four backs: the reference cards have their own
    assert "en/merchant/yy-g.png" in files and "de/point/yyrr.png" in files  # named by id
    assert "en/reference/reference.png" in files and "en/backs/reference.png" in files
    for name in pngs:
        assert png_size(files[name]) == image_size(ImageOptions(dpi=50, bleed=0)) == (124, 173), (
            name
        )


@pytest.mark.slow
def test_default_is_300_dpi_poker_size_with_the_kits_bleed_and_bleed_adds_frame_colour(
    run, tmp_path
):
    result = run("images", "spice-road", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert DEFAULT_BLEED == 1.0  # the print kit's
    assert "wrote 86 card images of 768 × 1063 pixels" in result.stdout
    folder = tmp_path / "images"
    pngs = sorted(folder.rglob("*.png"))
    assert len(pngs) == 86 and not (folder / "de").exists()
    for path in pngs:
        data = path.read_bytes()
        assert png_size(data) == (768, 1063), path  # 65 × 90 mm (1 mm bleed) at 300 dpi
        assert png_dpi(data) == pytest.approx(300, abs=0.01)
        assert png_chunks(data)[0][1][9] == 2, path  # RGB: every pixel is opaque
    bled = rendered(dpi=100, bleed=3.0)
    assert png_size(bled["en/point/yyrr.png"]) == (272, 370)  # 69 × 94 mm at 100 dpi
    assert first_pixel(bled["en/point/yyrr.png"]) == DECK_COLOURS["point"].upper()
    assert first_pixel(bled["de/merchant/yy-g.png"]) == DECK_COLOURS["merchant"].upper()


def png_pixels(png: bytes) -> tuple[int, list[bytes]]:
    """The colour type and the rows of pixel bytes of an 8-bit PNG, its filters undone."""
    chunks = png_chunks(png)
    width, height, _, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    step = {2: 3, 6: 4}[colour]
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    rows, prev, stride = [], bytearray(width * step), width * step
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            a, b = (line[i - step] if i >= step else 0), prev[i]
            c = prev[i - step] if i >= step else 0
            p = a + b - c
            paeth = (
                a
                if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                else b
                if abs(p - b) <= abs(p - c)
                else c
            )
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth)[kind]) & 255
        rows.append(bytes(line))
        prev = line
    return colour, rows


def test_opaque_images_lose_their_alpha_channel_and_nothing_else():
    from century.shared.typst import without_opaque_alpha

    page = (
        "#set page(width: 12mm, height: 9mm, fill: {fill})\n#place(circle(radius: 3mm, fill: red))"
    )
    opaque = _compile_source(page.format(fill="rgb(250, 240, 200)"))
    colour, rgba = png_pixels(opaque)
    assert colour == 6  # as Typst writes it
    rgb = without_opaque_alpha(opaque)
    assert png_pixels(rgb) == (
        2,
        [bytes(b for i, b in enumerate(row) if i % 4 != 3) for row in rgba],
    )
    seen = _compile_source(page.format(fill="none"))  # transparent around the circle
    assert without_opaque_alpha(seen) == seen


def _compile_source(source: str) -> bytes:
    """A PNG of a small Typst page at 100 dpi (fonts and inputs as the targets have them)."""
    import typst

    return typst.compile(source.encode(), format="png", ppi=100)


@pytest.mark.slow
def test_contact_sheet_shows_every_card_with_relative_links():
    ruleset = spice_road()
    files = rendered()
    page = files["index.html"].decode("utf-8")
    sources = re.findall(r'<img src="([^"]+)"', page)
    pngs = {name for name in files if name.endswith(".png")}
    assert {html.unescape(s).replace("%2B", "+") for s in sources} == pngs  # every image once
    assert len(sources) == len(pngs)
    for link in re.findall(r'(?:src|href)="([^"]+)"', page):
        assert not re.match(r"[a-z]+:|/|\.\.", link), link  # relative, inside the folder
    assert "<script" not in page and "http" not in page and "@import" not in page
    words = {"en": ("cards", "back"), "de": ("Karten", "Rückseite"), "fr": ("cartes", "verso")}
    for lang in ruleset.languages:
        section = page[page.index(f'lang="{lang}">') :]
        section = section[: section.find("</section>")]
        cards, back = words[lang]
        for deck in decks(ruleset, prose_texts(ruleset, lang), lang):
            assert f"{html.escape(deck.label)}: {len(deck.faces)} {cards}</h3>" in section
        assert f"<figcaption>{back}</figcaption>" in section
        other = words["de" if lang == "en" else "en"]
        assert f" {other[0]}</h3>" not in section  # each section in its own language
    assert "Upgrade card × 5" in page  # the starting cards for five players


@pytest.mark.slow
def test_hostile_ids_and_names_stay_inside_and_stay_text(tmp_path):
    ruleset = edited(spice_road(), hostile)
    files = render(ruleset, ImageOptions(dpi=50, languages=("en",)))
    merchant = [n for n in files if n.startswith("en/merchant/")]
    assert len(merchant) == len(ruleset.merchant_deck)
    assert len({n.lower() for n in files}) == len(files)  # no clash on any file system
    for name in files:
        parts = name.split("/")
        assert all(SAFE_STEM.fullmatch(p.removesuffix(".png")) for p in parts[:-1]), name
        assert SAFE_STEM.fullmatch(parts[-1].removesuffix(".png").removesuffix(".html")), name
        path = (tmp_path / name).resolve()
        assert path.is_relative_to(tmp_path.resolve())
    assert "en/starting/reference.png" in files and "en/reference/reference.png" in files
    page = files["index.html"].decode("utf-8")
    assert SCRIPT not in page and html.escape(SCRIPT) in page
    assert "<b>" not in page and "&lt;b&gt;&amp;&#39;&#34;" in page  # the id shown as text
    assert MARKUP in html.unescape(page)  # and Typst drew the card with it (no panic)
    sources = {html.unescape(s) for s in re.findall(r'src="([^"]+)"', page)}
    assert {s.replace("%2B", "+") for s in sources} == {n for n in files if n.endswith(".png")}


@pytest.mark.slow
def test_images_are_byte_identical_across_processes(tmp_path):
    command = [
        sys.executable,
        "-m",
        "century",
        "images",
        "spice-road",
        "--dpi",
        "50",
        "--bleed",
        "0",
    ]
    command += ["--out", str(tmp_path)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    written = {
        p.relative_to(tmp_path / "images").as_posix(): p.read_bytes()
        for p in (tmp_path / "images").rglob("*")
        if p.is_file()
    }
    assert written == rendered()
    for png in (data for name, data in written.items() if name.endswith(".png")):
        kinds = {kind for kind, _ in png_chunks(png)}
        assert not kinds & {b"tIME", b"tEXt", b"zTXt", b"iTXt"}


@pytest.mark.slow
def test_images_command_errors_write_nothing(run, tmp_path):
    out = tmp_path / "out"
    cases = [
        (["--dpi", "20"], "the resolution must be 50 to 1200 dpi, not 20"),
        (["--bleed", "11"], "bleed must be 0 to 10 mm, not 11"),
        (["--bleed", "-1"], "bleed must be 0 to 10 mm, not -1"),
        (["--lang", "it"], "spice-road has no language 'it' (known: en, de, fr)"),
    ]
    for args, message in cases:
        result = run("images", "spice-road", *args, "--out", str(out))
        assert result.exit_code == 2, args
        assert result.stderr.strip() == f"error: {message}"
    result = run("images", "no-such-game", "--out", str(out))
    assert result.exit_code == 2 and "unknown game 'no-such-game'" in result.stderr
    assert not out.exists()


def test_images_help_names_its_options(run):
    result = run("images", "--help")
    assert result.exit_code == 0
    for option in ("--dpi N", "--bleed MM", "--lang LANG", "--out DIR", "[default: 300]"):
        assert option in result.stdout
    assert "Usage: century images [OPTIONS] GAME" in result.stdout


def files_below(folder) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.slow
def test_images_replace_only_what_century_wrote(run, tmp_path, monkeypatch):
    """A user's file where an image goes is refused before anything is drawn; the tool's own
    files, listed in the output folder's manifest, are replaced; other files stay."""
    out = tmp_path / "kit"
    mine = out / "images" / "en" / "merchant" / "yy-g.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"my own drawing")
    (out / "images" / "notes.txt").write_text("mine", encoding="utf-8")
    before = files_below(out)
    args = ("images", "spice-road", "--lang", "en", "--dpi", "50", "--out", str(out))
    with monkeypatch.context() as patch:

        def no_drawing(*args: object) -> None:
            raise AssertionError("drew before checking the output folder")

        patch.setattr("century.shared.typst.compile_png", no_drawing)
        result = run(*args)
    assert result.exit_code == 1, result.output
    assert "holds files century did not write (images/en/merchant/yy-g.png)" in result.stderr
    assert files_below(out) == before  # nothing written, nothing removed
    mine.unlink()
    result = run(*args)
    assert result.exit_code == 0, result.output
    written = files_below(out)
    assert written["images/notes.txt"] == b"mine"
    ours = read_manifest(out)
    assert ours == {name for name in written if name not in ("images/notes.txt", MANIFEST)}
    assert len([n for n in ours if n.endswith(".png")]) == 86 and "images/index.html" in ours
    again = run(*args)  # its own files: replaced, by the same bytes
    assert again.exit_code == 0, again.output
    assert files_below(out) == written


@pytest.mark.slow
def test_build_replaces_a_game_folder_that_images_wrote_into(run, tmp_path):
    """`century images` lists its files in the game folder's manifest, so a later build may
    replace that folder (and `--target images` writes them again)."""
    game = tmp_path / "spice-road"
    result = run("images", "spice-road", "--lang", "en", "--dpi", "50", "--out", str(game))
    assert result.exit_code == 0, result.output
    result = run("build", "rules", "cards", "--target", "ruleset", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(files_below(game)) == [MANIFEST, "ruleset.json"]
