"""`century tts`: the saved object checked field by field against the decks, the sheets read
back from their PNG headers, every URL naming a written file; big decks, hostile data, the
same bytes every run."""

from __future__ import annotations

import functools
import json
import struct
import subprocess
import sys
import urllib.parse
import urllib.request
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from century.base.output import MANIFEST, read_manifest
from century.model.ruleset import Ruleset
from century.prose import prose_texts
from century.shared.cards.faces import decks
from century.shared.cards.images import deck_images
from century.targets import Target, targets
from century.targets.images import ImageOptions
from century.targets.images import render as render_images
from century.targets.tts import MAX_COLS, MAX_ROWS, PER_SHEET, TtsOptions, card_name, render

from helpers import ROOT, bundled_rulesets, edited, spice_road, written

DPI = 50
CARD_PX = (124, 173)  # 63 × 88 mm at 50 dpi
BASE = "https://example.org/my%20game/tts"
MARKUP = '#panic("markup ran") *x* $y$ ]'


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def png_rgb(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of RGB bytes of an 8-bit RGB or RGBA PNG (as Typst writes
    it), decoded with the standard library: the five PNG filters undone row by row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + size]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b, c = prev[i], prev[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if step == 3 else bytes(v for j, v in enumerate(line) if j % 4 < 3))
        prev = line
    return width, height, rows


def difference(sheet: list[bytes], x: int, y: int, image: list[bytes]) -> float:
    """Mean difference (0 to 255) of the RGB bytes of `image` and the part of `sheet` whose
    top-left pixel is (`x`, `y`)."""
    total = count = 0
    for row, line in enumerate(image):
        part = sheet[y + row][3 * x : 3 * x + len(line)]
        total += sum(abs(p - q) for p, q in zip(part, line, strict=True))
        count += len(line)
    return total / count


@functools.cache
def kit(game: str = "spice-road") -> dict[str, bytes]:
    """The kit as `century tts` writes it into build/GAME/tts (in memory)."""
    return render(bundled_rulesets()[game], TtsOptions(dpi=DPI), BASE)


def objects(files: dict[str, bytes], name: str) -> list[dict[str, Any]]:
    return json.loads(files[name])["ObjectStates"]


def urls(value: Any) -> list[str]:
    """Every image URL anywhere in a saved object."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k.endswith("URL") and isinstance(v, str)]
        return found + [u for k, v in value.items() if not k.endswith("URL") for u in urls(v)]
    if isinstance(value, list):
        return [u for item in value for u in urls(item)]
    return []


def written_name(url: str, base: str = BASE) -> str:
    """The file a URL below `base` names, relative to the kit's folder."""
    assert url.startswith(base + "/"), url
    return urllib.parse.unquote(url[len(base) + 1 :])


def effect_cubes(steps: list[dict[str, Any]]) -> list[list[int]]:
    """Every cube vector of a face's effect (steps as JSON): its gains and payments, in
    repeats and in every option of a choice."""
    found: list[list[int]] = []
    for step in steps:
        found += [step[k] for k in ("gain", "pay") if k in step]
        found += effect_cubes(step.get("repeat", []))
        for option in step.get("choose", []):
            found += effect_cubes(option)
    return found


def check_decks(ruleset: Ruleset, lang: str, files: dict[str, bytes], base: str = BASE) -> None:
    """Every deck of the saved object against the decks as printed: one Deck per deck, a Card
    per card, DeckIDs naming cells that hold that card on a sheet of at most 10 × 7 cells
    whose last cell is free, sheet sizes from the PNG headers."""
    states = objects(files, f"{ruleset.id}-{lang}.json")
    deck_states = [o for o in states if o["Name"] == "Deck"]
    printed = decks(ruleset, prose_texts(ruleset, lang), lang)
    assert [d["Nickname"] for d in deck_states] == [d.label for d in printed]
    keys: set[str] = set()
    for state, deck in zip(deck_states, printed, strict=True):
        cards = state["ContainedObjects"]
        assert len(cards) == len(deck.faces)
        assert state["DeckIDs"] == [card["CardID"] for card in cards]
        # each card is named by its title and effect, its id in the description
        assert Counter(card["Description"] for card in cards) == Counter(
            face["id"] for face in deck.faces
        )
        for card, face in zip(cards, deck.faces, strict=True):
            assert card["Nickname"].startswith(face["title"])
            effect = card["Nickname"][len(face["title"]) :].split()
            assert face["id"] == "" or face["id"] not in effect
            shown = "".join(w for w in effect if w not in ("→", "+")).strip("()+")
            cubes = [face.get("cost") or [], *effect_cubes(face.get("effect", []))]
            assert sorted(c for c in shown if c in ruleset.codes) == sorted(
                "".join(ruleset.cubes(tuple(v)) for v in cubes if v)
            )
        assert not keys & set(state["CustomDeck"])  # every sheet has a key of its own
        keys |= set(state["CustomDeck"])
        sheet_cards: dict[str, dict[int, str]] = {key: {} for key in state["CustomDeck"]}
        for card in cards:
            assert card["Name"] == "Card"
            key, cell = str(card["CardID"] // 100), card["CardID"] % 100
            assert card["CustomDeck"] == {key: state["CustomDeck"][key]}
            sheet = state["CustomDeck"][key]
            assert cell < sheet["NumWidth"] * sheet["NumHeight"] - 1  # not the hidden cell
            # a cell holds one card: every copy of a card shares it, no other card does
            assert sheet_cards[key].setdefault(cell, card["Nickname"]) == card["Nickname"]
            assert card["Description"] in {face["id"] for face in deck.faces}
        back = state["CustomDeck"][next(iter(state["CustomDeck"]))]["BackURL"]
        assert png_size(files[written_name(back, base)]) == CARD_PX
        for key, sheet in state["CustomDeck"].items():
            assert 1 <= sheet["NumWidth"] <= MAX_COLS and 1 <= sheet["NumHeight"] <= MAX_ROWS
            assert len(sheet_cards[key]) <= PER_SHEET
            assert sheet["BackURL"] == back and sheet["BackIsHidden"] is True
            width, height = png_size(files[written_name(sheet["FaceURL"], base)])
            assert (width, height) == (
                sheet["NumWidth"] * CARD_PX[0],
                sheet["NumHeight"] * CARD_PX[1],
            )


@pytest.mark.slow
def test_saved_object_matches_the_decks_field_by_field():
    ruleset = spice_road()
    files = kit()
    assert sorted(n for n in files if n.endswith(".json")) == [
        "spice-road-de.json",
        "spice-road-en.json",
        "spice-road-fr.json",
    ]
    for lang in ruleset.languages:
        check_decks(ruleset, lang, files)
        save = json.loads(files[f"spice-road-{lang}.json"])
        assert save["Date"] == "" and save["SaveName"].endswith(f"({lang})")
    states = objects(files, "spice-road-en.json")
    merchant = states[0]
    assert merchant["Nickname"] == "Merchant cards" and len(merchant["DeckIDs"]) == 43
    [sheet] = merchant["CustomDeck"].values()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (10, 5)  # 43 cards and the hidden one
    assert sheet["FaceURL"] == f"{BASE}/en/merchant-1.png"
    starting, reference = states[2], states[3]
    assert Counter(c["Nickname"] for c in starting["ContainedObjects"]) == {
        "Spice card +YY": 5,
        "Upgrade card ↑↑": 5,
    }
    [sheet] = starting["CustomDeck"].values()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (3, 1)  # two cards share 3 cells
    assert reference["Nickname"] == "Reference cards"  # a deck of its own, with its own back
    assert Counter(c["Nickname"] for c in reference["ContainedObjects"]) == {"Overview": 5}
    names = {c["Description"]: c["Nickname"] for c in merchant["ContainedObjects"]}
    assert names["yy-g"] == "Trade card YY → G"  # title and effect, read back from the JSON
    assert names["up3"] == "Upgrade card ↑↑↑"
    points = {c["Description"]: c["Nickname"] for c in states[1]["ContainedObjects"]}
    card = next(p for p in ruleset.point_deck if p.id == "yyrb")
    assert points["yyrb"] == f"Point card {card.points} (YYRB)"
    german = {
        c["Description"]: c["Nickname"]
        for c in objects(files, "spice-road-de.json")[0]["ContainedObjects"]
    }
    assert german["yy-g"] == "Tauschkarte YY → G"


@pytest.mark.slow
def test_tokens_mats_and_cubes():
    ruleset = spice_road()
    states = objects(kit(), "spice-road-de.json")
    tiles = [o for o in states if o["Name"] == "Custom_Tile"]
    coins = Counter(o["Nickname"] for o in tiles if o["CustomImage"]["CustomTile"]["Type"] == 2)
    assert coins == {"Goldmünze": 10, "Silbermünze": 10}  # two per player, five players
    mats = [o for o in tiles if o["CustomImage"]["CustomTile"]["Type"] == 0]
    assert [m["Nickname"] for m in mats] == [f"Karawane {seat}" for seat in range(1, 6)]
    bags = [o for o in states if o["Name"] == "Infinite_Bag"]
    assert [b["Description"] for b in bags] == [r.code for r in ruleset.resources]
    assert bags[0]["ContainedObjects"][0]["Name"] == "BlockSquare"
    files = kit()
    assert png_size(files["de/mat-1.png"]) == (374, 263)  # 190 × 133.5 mm at 50 dpi
    assert png_size(files["coin-gold.png"]) == (71, 71)  # drawn 36 mm wide
    assert len({o["GUID"] for o in states}) == len(states)


@pytest.mark.slow
def test_every_url_names_a_written_file(run, tmp_path):
    result = run("tts", "spice-road", "--dpi", str(DPI), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "tts"
    assert f"wrote {folder / 'spice-road-en.json'}" in result.stdout
    written = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    used: set[str] = set()
    for name in ("spice-road-en.json", "spice-road-de.json", "spice-road-fr.json"):
        for url in urls(json.loads((folder / name).read_text(encoding="utf-8"))):
            assert url.startswith("file:///"), url
            path = Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path))
            assert path.is_file(), url
            used.add(path.relative_to(folder.resolve()).as_posix())
    assert used == {name for name in written if name.endswith(".png")}  # and no image unused


def test_base_url_replaces_the_file_urls():
    files = kit()
    names = {
        written_name(url)
        for name in ("spice-road-en.json", "spice-road-de.json", "spice-road-fr.json")
        for url in urls(json.loads(files[name]))
    }
    assert names == {name for name in files if name.endswith(".png")}


def many_cards(data: dict[str, Any]) -> None:
    """150 distinct merchant cards (three sheets: 69, 69 and 12) and a second point card."""
    template = data["merchant_deck"][0]
    data["merchant_deck"] = [{**template, "id": f"m{i:03}", "copies": 1} for i in range(150)]
    data["point_deck"][0]["copies"] = 2


@pytest.mark.slow
def test_a_deck_of_more_than_69_cards_takes_several_sheets():
    ruleset = edited(spice_road(), many_cards)
    files = render(ruleset, TtsOptions(dpi=DPI, languages=("en",)), BASE)
    check_decks(ruleset, "en", files)
    merchant, point, *_ = (o for o in objects(files, "spice-road-en.json") if o["Name"] == "Deck")
    grids = [(s["NumWidth"], s["NumHeight"]) for s in merchant["CustomDeck"].values()]
    assert grids == [(10, 7), (10, 7), (10, 2)]
    assert len(merchant["DeckIDs"]) == 150 and len(set(merchant["DeckIDs"])) == 150
    assert sorted(n for n in files if n.startswith("en/merchant-") and n[-5].isdigit()) == [
        "en/merchant-1.png",
        "en/merchant-2.png",
        "en/merchant-3.png",
    ]
    assert len(point["DeckIDs"]) == 37 and len(set(point["DeckIDs"])) == 36  # copies share


def few_cards(data: dict[str, Any]) -> None:
    """Small decks: quick to draw at the default resolution."""
    data["merchant_deck"] = data["merchant_deck"][:2]
    data["point_deck"] = data["point_deck"][:2]


@pytest.mark.slow
def test_deck_ids_name_the_cells_that_show_those_cards():
    """Every cell a card's DeckID names shows that card, and the hidden cell the back: each
    cell of each sheet, read from the PNG, against the card images of `century images`."""
    ruleset = edited(spice_road(), few_cards)
    files = render(ruleset, TtsOptions(dpi=DPI, languages=("en",)), BASE)
    check_decks(ruleset, "en", files)
    images = render_images(ruleset, ImageOptions(dpi=DPI, bleed=0, languages=("en",)))
    states = [o for o in objects(files, "spice-road-en.json") if o["Name"] == "Deck"]
    for state, deck in zip(states, deck_images(ruleset, "en"), strict=True):
        shown = {
            card_name(card.face, ruleset.codes): png_rgb(images[f"en/{deck.kind}/{card.name}.png"])[
                2
            ]
            for card in deck.cards
        }
        shown["back"] = png_rgb(images[f"en/backs/{deck.kind}.png"])[2]
        [(key, sheet)] = state["CustomDeck"].items()
        _, _, pixels = png_rgb(files[written_name(sheet["FaceURL"])])
        cells = {card["CardID"] % 100: card["Nickname"] for card in state["ContainedObjects"]}
        cells[sheet["NumWidth"] * sheet["NumHeight"] - 1] = "back"
        assert all(card["CardID"] // 100 == int(key) for card in state["ContainedObjects"])
        for cell, expected in cells.items():
            x = cell % sheet["NumWidth"] * CARD_PX[0]
            y = cell // sheet["NumWidth"] * CARD_PX[1]
            scores = {name: difference(pixels, x, y, image) for name, image in shown.items()}
            best = min(scores, key=scores.__getitem__)
            assert best == expected and scores[best] < 5, (deck.kind, cell, scores)


def hostile(data: dict[str, Any]) -> None:
    data["id"] = "../evil game"
    data["merchant_deck"][0]["id"] = "../../x"
    data["merchant_deck"][1]["id"] = 'q"<\\>'
    data["name"] = {lang: 'Name "quoted" </script>' for lang in data["name"]}
    data["coins"][0]["id"] = "/etc/passwd"
    data["merchant_deck"][2]["name"] = {lang: MARKUP for lang in data["name"]}


@pytest.mark.slow
def test_hostile_ids_stay_text_and_inside_the_folder(tmp_path):
    ruleset = edited(spice_road(), hostile)
    base = tmp_path.resolve().as_uri()
    files = render(ruleset, TtsOptions(dpi=DPI, languages=("en",)), base)
    for name in files:
        assert (tmp_path / name).resolve().is_relative_to(tmp_path.resolve()), name
        assert ".." not in name and "\\" not in name and '"' not in name
    [json_name] = [n for n in files if n.endswith(".json")]
    save = json.loads(files[json_name])
    assert save["SaveName"] == 'Name "quoted" </script> (en)'
    ids = {c["Description"] for c in save["ObjectStates"][0]["ContainedObjects"]}
    assert {"../../x", 'q"<\\>'} <= ids  # the ids, as text
    names = {c["Nickname"] for c in save["ObjectStates"][0]["ContainedObjects"]}
    assert any(name.startswith(MARKUP) for name in names)  # drawn by Typst as text
    for url in urls(save):
        assert written_name(url, base) in files


@pytest.mark.slow
def test_tts_is_byte_identical_across_processes(tmp_path):
    command = [sys.executable, "-m", "century", "tts", "spice-road", "--dpi", str(DPI)]
    command += ["--base-url", BASE, "--out", str(tmp_path)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    folder = tmp_path / "tts"
    written = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.*")}
    assert written == kit()


@pytest.mark.slow
def test_build_tells_targets_where_the_folder_ends_up(run, tmp_path, monkeypatch):
    seen: list[Path | None] = []

    @dataclass(frozen=True)
    class Probe:
        dest: Path | None = None

    def record(ruleset: Ruleset, options: Probe) -> dict[str, bytes]:
        seen.append(options.dest)
        return {}

    probe = Target("probe", "records its options", record, False, options=Probe)
    known = {**targets(), "probe": probe}
    monkeypatch.setattr("century.targets.targets", lambda: known)
    result = run("build", "rules", "cards", "--target", "probe", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(seen) == sorted(tmp_path / game for game in bundled_rulesets())
    # and the kit written into a temporary folder names the files where they end up
    scratch, final = tmp_path / "scratch", tmp_path / "final"
    scratch.mkdir()
    paths = written("tts", edited(spice_road(), few_cards), scratch, languages=("en",), dest=final)
    assert all(p.is_relative_to(scratch / "tts") for p in paths)
    save = json.loads((scratch / "tts" / "spice-road-en.json").read_bytes())
    assert {u.rsplit("/tts/", 1)[0] for u in urls(save)} == {final.resolve().as_uri()}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dpi", "200"], "the resolution must be 50 to 165 dpi, not 200"),
        (["--base-url", "example.org/x"], "is not an absolute URL"),
        (["--base-url", "ftp://example.org/x"], "is not an absolute URL"),
        (["--base-url", "https://example.org/a b"], "holds the character ' '"),
        (["--base-url", "https://example.org/x?a=1"], "has a query or fragment"),
        (["--lang", "it"], "spice-road has no language 'it'"),
    ],
)
def test_tts_command_errors_write_nothing(run, tmp_path, args, message):
    result = run("tts", "spice-road", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert not (tmp_path / "out").exists()


def test_tts_help_names_its_options(run):
    result = run("tts", "--help")
    assert result.exit_code == 0
    for option in ("--dpi N", "--base-url URL", "--lang LANG", "--out DIR", "[default: 150]"):
        assert option in result.stdout


@pytest.mark.slow
def test_tts_replaces_only_what_century_wrote(run, tmp_path, monkeypatch):
    """A user's saved object where the kit's goes is refused before anything is drawn; the
    kit's own files, listed in the output folder's manifest, are replaced."""
    out = tmp_path / "kit"
    mine = out / "tts" / "spice-road-en.json"
    mine.parent.mkdir(parents=True)
    mine.write_text("{}", encoding="utf-8")
    args = ("tts", "spice-road", "--lang", "en", "--dpi", str(DPI), "--out", str(out))
    with monkeypatch.context() as patch:

        def no_drawing(*args: object) -> None:
            raise AssertionError("drew before checking the output folder")

        patch.setattr("century.shared.typst.compile_png", no_drawing)
        result = run(*args)
    assert result.exit_code == 1, result.output
    assert "holds files century did not write (tts/spice-road-en.json)" in result.stderr
    assert [p for p in out.rglob("*") if p.is_file()] == [mine] and mine.read_text() == "{}"
    mine.unlink()
    for _ in range(2):  # the second run replaces the first one's files
        result = run(*args)
        assert result.exit_code == 0, result.output
    written = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert read_manifest(out) == written - {MANIFEST}
    assert "tts/spice-road-en.json" in written and "tts/en/merchant-1.png" in written


@pytest.mark.slow
@pytest.mark.parametrize("name", ["images", "tts"])
def test_long_renders_tell_their_progress_file_by_file(name: str) -> None:
    """`images` and `tts` tell the command's progress display how many of the files they list
    beforehand are done, language by language, ending at all of them."""
    target = targets()[name]
    told: list[int] = []
    options = target.options(languages=("en", "de"), dpi=50, progress=told.append)
    listed = target.paths(spice_road(), options)
    files = target.files(spice_road(), options)
    assert sorted(files) == sorted(listed)
    assert sum(told) == len(listed) and len(told) >= 2
