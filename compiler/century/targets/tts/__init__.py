"""A Tabletop Simulator kit: card sheets, backs, tokens and a saved object that loads them.

`render(ruleset, options, url)` returns every file as ``{relative path: bytes}``, for each
language of the game:

- ``<lang>/<deck>-<n>.png``: the deck's face sheets. A sheet holds at most 10 × 7 cells and
  at most 69 distinct cards (copies share a cell); its last cell shows the deck's back, as the
  "hidden" card Tabletop Simulator shows for a card in another player's hand. A deck with
  more distinct cards gets several sheets;
- ``<lang>/<deck>-back.png``: the deck's back;
- ``<lang>/mat-<seat>.png``: each seat's caravan mat; ``coin-<id>.png``: each coin pile's
  coin (they have no words, so every language shares them);
- ``<game>-<lang>.json``: a saved object (put it in Tabletop Simulator's ``Saves/Saved
  Objects`` folder): one ``Deck`` per deck, its ``CustomDeck`` entries naming the sheets
  (``FaceURL``, ``BackURL``, ``NumWidth``, ``NumHeight``), ``DeckIDs`` and one ``Card`` per
  card, named by its title and effect (``Trade card YY → G``, `card_name`) with its id as
  the description; the coins of every pile for the most players, a caravan mat per seat,
  and a bag of cubes per resource.

The images are named by URL: `url` is the URL of the kit's folder, so every URL is `url`
followed by the file's relative path. For online play that is where the folder will be
hosted (``--base-url``); the default, the folder's ``file:///`` URL, works only on the
computer that built the kit. Everything is drawn from the print kit's faces and tokens at
`dpi` pixels per inch (150 by default keeps a 10 × 7 sheet within the 4096 pixels Tabletop
Simulator recommends). The same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import math
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from century.model.cards import steps_from_json
from century.model.ruleset import Ruleset, cube_string
from century.model.text import shown, term
from century.prose import effect_tokens, prose_texts
from century.shared.cards import kit
from century.shared.cards.faces import card_size, look_assets, mat_text
from century.shared.cards.images import (
    CardImage,
    DeckImages,
    deck_images,
    face_context,
    pixels,
)
from century.shared.names import file_stem
from century.targets import (
    Files,
    Languages,
    Target,
    TargetError,
    Told,
    check_options,
    languages,
    option,
    tell,
)

TEMPLATE = "targets/tts/tts.typ"
FOLDER = "tts"
"""Where a build puts the kit, inside the game's folder."""
DEFAULT_DPI = 150
DPI_RANGE = (50, 165)
"""At most 165 dpi keeps a sheet of ten cards within 4096 pixels."""
MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1
"""Cards on one sheet: every cell but the last, which holds the hidden card."""
COIN_MM = 2 * kit.COIN_SIZE
"""Coins are drawn twice their printed size: Tabletop Simulator scales them anyway."""
URL_SCHEMES = ("http", "https", "file")


class TtsError(TargetError):
    """A kit that cannot be made (resolution out of range, a base URL that is not one: usage
    errors)."""


@dataclass(frozen=True)
class TtsOptions(Languages, Told):
    """What the user chose for one kit."""

    dpi: float = option(
        DEFAULT_DPI,
        "--dpi",
        metavar="N",
        help="Resolution in pixels per inch (50 to 165: a sheet of ten cards stays "
        "within 4096 pixels).",
    )
    base_url: str | None = option(
        None,
        "--base-url",
        metavar="URL",
        help="For online play: the web address where you will upload the tts folder "
        "(e.g. https://example.org/game/tts); the saved objects name the images below it. "
        "Without it they name file:/// URLs, which work only on this computer.",
    )
    dest: Path | None = None
    """The folder the kit's folder goes into (its images' file URLs name it; None: the
    working folder)."""


@dataclass(frozen=True)
class Sheet:
    """One face sheet of a deck: its cards, row by row, and the grid they fill."""

    number: int  # 1, 2, ... within the deck
    cards: tuple[CardImage, ...]
    cols: int
    rows: int

    @property
    def hidden(self) -> int:
        """The cell of the hidden card: the last one."""
        return self.cols * self.rows - 1


def sheets(deck: DeckImages) -> list[Sheet]:
    """The face sheets of `deck`: at most `PER_SHEET` cards each, every grid as small as
    it can be with its last cell free (ten columns once a sheet has ten cards or more)."""
    found: list[Sheet] = []
    for start in range(0, len(deck.cards), PER_SHEET):
        cards = deck.cards[start : start + PER_SHEET]
        cols = min(MAX_COLS, len(cards) + 1)
        rows = math.ceil((len(cards) + 1) / cols)
        found.append(Sheet(len(found) + 1, cards, cols, rows))
    return found


def check_url(url: str) -> str:
    """`url` without a trailing ``/``, or `TtsError` unless it is an absolute http,
    https or file URL without spaces, quotes, a query or a fragment."""
    bad = next((c for c in url if c.isspace() or ord(c) < 32 or c in "\"'<>\\`{}|^"), None)
    if bad is not None:
        raise TtsError(f"the base URL {url!r} holds the character {bad!r}", usage=True)
    parts = urllib.parse.urlsplit(url)
    web = parts.scheme != "file"
    if parts.scheme not in URL_SCHEMES or not (parts.netloc if web else parts.path[:1] == "/"):
        raise TtsError(
            f"the base URL {url!r} is not an absolute URL (https://..., http://... or file:///...)",
            usage=True,
        )
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        raise TtsError(f"the base URL {url!r} has a query or fragment", usage=True)
    return url.rstrip("/")


def folder_url(folder: Path) -> str:
    """The ``file:///`` URL of `folder` (made absolute)."""
    return folder.resolve().as_uri()


def _join(url: str, path: str) -> str:
    return f"{url}/{urllib.parse.quote(path, safe='/+')}"


def _guid(*parts: object) -> str:
    """A stable six-hex-digit object id (Tabletop Simulator makes its own on a clash)."""
    return hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _transform(
    x: float, z: float, y: float = 1.0, flip: bool = False, scale: float = 1.0
) -> dict[str, float]:
    return {
        "posX": round(x, 3),
        "posY": round(y, 3),
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if flip else 0.0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
    }


def _colour(hex_colour: str) -> dict[str, float]:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return {"r": round(r, 4), "g": round(g, 4), "b": round(b, 4)}


# -- the saved object ------------------------------------------------------------------------


def card_name(face: dict[str, Any], codes: str) -> str:
    """What a card is called in Tabletop Simulator: its title and its effect in the ladder's
    `codes` (``Upgrade card ↑↑``, ``Trade card YY → G``, ``Merchant card +YY ↑``, ``Point
    card 12 (YGBP)``); a card without an effect (the reference card) by its title."""
    title = face["title"]
    if "effect" in face:
        return f"{title} {effect_name(steps_from_json(face['effect']), codes)}"
    if face["kind"] == "point":
        return f"{title} {face['points']} ({cube_string(codes, tuple(face['cost']))})"
    return str(title)


_SIGNS = {"arrow": "→", "pay": "↓", "up": "↑", "any": "?"}
"""The text of the icon tokens of an effect (`century.prose.effect_tokens`)."""


def effect_name(steps: Any, codes: str) -> str:
    """A merchant card's effect in one line of text, from the same tokens the rule sheet's
    icons are drawn from: ``+YY``, ``↑↑``, ``YY → G``, ``+YY ↑``, ``?? ↓ +B``, ``(Y ↓ R)≤2×``,
    ``YYY / ↑↑``."""
    tokens = effect_tokens(steps, codes)
    text = ""
    for i, token in enumerate(tokens):
        marked = token.startswith(("cubes:", "sign:"))  # cubes, or an added step's sign
        part = token.partition(":")[2] if marked else _SIGNS.get(token, token)
        if token.startswith("cubes:"):  # a gain (no arrow after it) is marked +, as in ids
            before, after = tokens[i - 1] if i else "", tokens[i + 1 : i + 2]
            gain = after not in (["arrow"], ["pay"]) and before not in ("arrow", "pay", "+")
            part = "+" + part if gain else part
        glued = text.endswith(("(", "+")) or token == ")" or token.startswith(("≤", "×"))
        glued = glued or (
            (token in ("up", "any") or token.startswith("sign:")) and text.endswith(part)
        )
        text += part if glued or not text else " " + part
    return text


def deck_object(
    deck: DeckImages,
    deck_sheets: list[tuple[Sheet, int, str]],
    back_url: str,
    x: float,
    guid: Callable[..., str],
    codes: str,
) -> dict[str, Any]:
    """A ``Deck`` of every card of `deck`, face down; `deck_sheets` are (sheet, CustomDeck
    key, face URL); cards are named in the ladder's `codes`."""
    custom = {
        str(key): {
            "FaceURL": url,
            "BackURL": back_url,
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for sheet, key, url in deck_sheets
    }
    cards: list[dict[str, Any]] = []
    for sheet, key, _ in deck_sheets:
        for cell, card in enumerate(sheet.cards):
            for _copy in range(card.copies):
                cards.append(
                    {
                        "GUID": guid("card", len(cards)),
                        "Name": "Card",
                        "Transform": _transform(x, 0.0, flip=True),
                        "Nickname": card_name(card.face, codes),
                        "Description": card.face["id"],
                        "CardID": key * 100 + cell,
                        "CustomDeck": {str(key): custom[str(key)]},
                        "SidewaysCard": False,
                        "HideWhenFaceDown": True,
                        "Hands": True,
                    }
                )
    return {
        "GUID": guid("deck"),
        "Name": "Deck",
        "Transform": _transform(x, 0.0, flip=True),
        "Nickname": deck.title,
        "Description": "",
        "DeckIDs": [card["CardID"] for card in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
        "SidewaysCard": False,
        "HideWhenFaceDown": True,
        "Hands": False,
    }


def _tile(
    guid: str, url: str, nickname: str, transform: dict[str, float], circle: bool
) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": "Custom_Tile",
        "Transform": transform,
        "Nickname": nickname,
        "Description": "",
        "CustomImage": {
            "ImageURL": url,
            "ImageSecondaryURL": url,
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {
                "Type": 2 if circle else 0,
                "Thickness": 0.1 if circle else 0.2,
                "Stackable": circle,
                "Stretch": False,
            },
        },
    }


def _cube_bag(ruleset: Ruleset, lang: str, index: int) -> dict[str, Any]:
    """An endless bag of one resource's cubes, in its colour."""
    resource = ruleset.resources[index]

    def guid(*parts: object) -> str:
        return _guid(ruleset.id, lang, "cubes", index, *parts)

    name = shown(resource.name, lang, resource.id)
    cube = {
        "GUID": guid("cube"),
        "Name": "BlockSquare",
        "Transform": _transform(0.0, 0.0, scale=0.4),
        "Nickname": name,
        "Description": resource.code,
        "ColorDiffuse": _colour(resource.colour),
    }
    return {
        "GUID": guid("bag"),
        "Name": "Infinite_Bag",
        "Transform": _transform(12.0 + 2.5 * index, 6.0),
        "Nickname": name,
        "Description": resource.code,
        "ColorDiffuse": _colour(resource.colour),
        "ContainedObjects": [cube],
    }


def saved_object(name: str, objects: list[dict[str, Any]]) -> bytes:
    """The saved-object file: Tabletop Simulator's save format with only objects in it."""
    save = {
        "SaveName": name,
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": objects,
    }
    return (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# -- rendering -------------------------------------------------------------------------------


def check_dpi(options: TtsOptions) -> None:
    """`TtsError` (a usage error) for a resolution out of range."""
    low, high = DPI_RANGE
    if not low <= options.dpi <= high:
        raise TtsError(
            f"the resolution must be {low} to {high} dpi, not {options.dpi:g}", usage=True
        )


@dataclass
class Drawing:
    """The pages one Typst run draws, and the file each becomes."""

    pages: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)

    def add(self, path: str, page: dict[str, Any]) -> str:
        self.paths.append(path)
        self.pages.append(page)
        return path


@dataclass(frozen=True)
class Language:
    """One language's kit before Typst draws it: the pages with their files, what the
    template reads besides, and the saved object."""

    drawing: Drawing
    data: dict[str, Any]
    save_name: str
    save: bytes


def plan(ruleset: Ruleset, options: TtsOptions, url: str) -> list[Language]:
    """Every language's kit, named but not drawn, its images below `url` (`TtsError`
    for bad options)."""
    check_dpi(options)
    check_options(ruleset, options, TtsError)
    url = check_url(url)
    found = []
    for number, lang in enumerate(languages(ruleset, options.languages)):
        text = prose_texts(ruleset, lang)
        drawing = Drawing()
        objects: list[dict[str, Any]] = []
        for index, deck in enumerate(deck_images(ruleset, lang, text)):
            objects.append(_deck(ruleset, lang, deck, index, url, drawing))
        objects += _coins(ruleset, lang, url, drawing if number == 0 else None)
        objects += _mats(ruleset, lang, url, drawing)
        objects += [_cube_bag(ruleset, lang, index) for index in range(len(ruleset.resources))]
        data = {
            **face_context(ruleset, lang),
            "kit": mat_text(ruleset, lang, text),
            "cell": [pixels(mm, options.dpi) / options.dpi * 25.4 for mm in card_size(ruleset)],
            "pages": drawing.pages,
        }
        name = f"{file_stem(ruleset.id)}-{file_stem(lang)}.json"
        save = saved_object(f"{shown(ruleset.name, lang, ruleset.id)} ({lang})", objects)
        found.append(Language(drawing, data, name, save))
    return found


def file_names(planned: list[Language]) -> list[str]:
    """The files `render` writes for a plan, relative to the kit's folder."""
    return [name for each in planned for name in [*each.drawing.paths, each.save_name]]


def render(
    ruleset: Ruleset,
    options: TtsOptions,
    url: str,
    planned: list[Language] | None = None,
) -> dict[str, bytes]:
    """Every file of the kit by path relative to its folder, whose URL is `url`
    (`planned`: what `plan` gave for these arguments, to save working it out again)."""
    from century.shared.typst import compile_png

    planned = plan(ruleset, options, url) if planned is None else planned
    files: dict[str, bytes] = {}
    for each in planned:
        pngs = compile_png(TEMPLATE, each.data, options.dpi, look_assets(ruleset))
        files.update(zip(each.drawing.paths, pngs, strict=True))
        files[each.save_name] = each.save
        tell(options, len(each.drawing.paths) + 1)
    return files


def _deck(
    ruleset: Ruleset, lang: str, deck: DeckImages, index: int, url: str, drawing: Drawing
) -> dict[str, Any]:
    """The ``Deck`` object of `deck` (the `index`-th deck), its sheets and back added to
    `drawing`."""
    stem = f"{file_stem(lang)}/{file_stem(deck.kind)}"
    deck_sheets = []
    for sheet in sheets(deck):
        page = {
            "type": "sheet",
            "cols": sheet.cols,
            "rows": sheet.rows,
            "faces": [card.face for card in sheet.cards],
            "hidden": sheet.hidden,
            "back": deck.back,
        }
        path = drawing.add(f"{stem}-{sheet.number}.png", page)
        deck_sheets.append((sheet, deck_key(index, sheet.number), _join(url, path)))
    back = drawing.add(f"{stem}-back.png", {"type": "card", "face": deck.back})

    def guid(*parts: object) -> str:
        return _guid(ruleset.id, lang, deck.kind, *parts)

    return deck_object(deck, deck_sheets, _join(url, back), index * 3.5, guid, ruleset.codes)


def deck_key(index: int, number: int) -> int:
    """The CustomDeck key of sheet `number` of the deck at `index`: unique in the saved
    object, and small enough that ``key × 100 + cell`` stays a 32-bit card id."""
    return (index + 1) * 1000 + number


def _coins(ruleset: Ruleset, lang: str, url: str, drawing: Drawing | None) -> list[dict[str, Any]]:
    """Each coin pile for the most players, stacked; the coin images are drawn into
    `drawing` (once for every language: they have no words)."""
    objects = []
    for index, coin in enumerate(sorted(ruleset.coins, key=lambda c: (c.position, c.id))):
        path = f"coin-{file_stem(coin.id)}.png"
        if drawing is not None:
            drawing.add(path, {"type": "coin", "index": index, "size": COIN_MM})
        name = shown(coin.name, lang, coin.id)
        for n in range(coin.count(ruleset.players_max)):
            transform = _transform(index * 2.0, -5.0, y=1.0 + 0.2 * n, scale=0.5)
            guid = _guid(ruleset.id, lang, "coin", coin.id, n)
            objects.append(_tile(guid, _join(url, path), name, transform, circle=True))
    return objects


def _mats(ruleset: Ruleset, lang: str, url: str, drawing: Drawing) -> list[dict[str, Any]]:
    """A caravan mat for every seat of the most players."""
    size = kit.mat_pages(1, "a4")[0][0]
    objects = []
    for seat in range(1, ruleset.players_max + 1):
        start = list(ruleset.seats[seat - 1])
        mat = {"seat": seat, "x": 0, "y": 0, "w": size["w"], "h": size["h"], "start": start}
        path = drawing.add(f"{file_stem(lang)}/mat-{seat}.png", {"type": "mat", "mat": mat})
        transform = _transform((seat - 1) * 9.0, -12.0, scale=4.0)
        name = f"{term(ruleset, 'caravan', lang)} {seat}"
        guid = _guid(ruleset.id, lang, "mat", seat)
        objects.append(_tile(guid, _join(url, path), name, transform, circle=False))
    return objects


def url_of(options: TtsOptions) -> str:
    """The kit folder's URL: ``--base-url``, else the file URL of ``tts/`` in `dest`."""
    if options.base_url is not None:
        return options.base_url
    return folder_url((options.dest or Path()) / FOLDER)


def names(ruleset: Ruleset, options: TtsOptions) -> list[str]:
    """The files `files` returns, below `FOLDER`."""
    return [f"{FOLDER}/{name}" for name in file_names(plan(ruleset, options, url_of(options)))]


def files(ruleset: Ruleset, options: TtsOptions) -> dict[str, bytes]:
    """`render`'s files below `FOLDER` (``tts/`` in the game's folder), their URLs naming
    where `dest` puts them."""
    rendered = render(ruleset, options, url_of(options))
    return {f"{FOLDER}/{name}": data for name, data in rendered.items()}


def report(out: Path, written: Files, options: TtsOptions) -> list[str]:
    """How many images, and each saved object; without a base URL, that the kit works only
    on this computer."""
    count = sum(name.endswith(".png") for name in written)
    saves = sorted(name for name in written if name.endswith(".json"))
    lines = [f"wrote {count} images to {out / FOLDER}", *(f"wrote {out / name}" for name in saves)]
    if options.base_url is None:
        lines.append(
            "note: the images are named by file:/// URLs, which work only on this computer; "
            "to play online, upload the tts folder and run again with --base-url URL"
        )
    return lines


TARGET = Target(
    "tts",
    "a Tabletop Simulator kit: card sheets, tokens and a saved object per language (tts/)",
    files,
    in_build=False,
    options=TtsOptions,
    error=TtsError,
    names=names,
    help="Write DIR/tts/: a Tabletop Simulator kit with a saved object per language.\n\n"
    "To play online, give --base-url with the address where you will upload the tts folder, "
    "upload it there, and copy GAME-LANG.json into Tabletop Simulator's Saves/Saved Objects "
    "folder. Without --base-url the images are named by file:/// URLs, which work only on the "
    "computer that built the kit (never for the other players).\n\n"
    "Per deck a sheet of up to 10 × 7 cards (the last cell is the hidden card) and a back; "
    "coins, a caravan mat per seat and cube bags; each card is named by its title and effect.",
    report=report,
)
