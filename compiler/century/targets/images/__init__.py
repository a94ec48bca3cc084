"""Card images for playtesting online and for print-on-demand services.

`render(ruleset, options)` returns every file as ``{relative path: bytes}``:

- ``<lang>/<deck>/<name>.png``: each distinct card front of a deck, once however many copies
  the deck has, named by its card id (`century.render.names`: ids are data, so a
  name keeps only safe characters; the reference card, which has no id, is ``reference``);
- ``<lang>/backs/<deck>.png``: the deck's back;
- ``index.html``: a contact sheet with every card of the game, per language and deck, with
  its id, title and number of copies (text escaped, relative links only, nothing loaded
  from the network).

Every image is 63 × 88 mm plus `bleed` on every side (where only the frame colour or the
back tint goes) at `dpi` pixels per inch, so ``round((63 + 2 × bleed) / 25.4 × dpi)`` pixels
wide; the resolution is recorded in the PNG. The faces are the print kit's (`faces.typ`),
drawn by ``images.typ`` one card to a page, and Typst renders every page of a language in
one run. The same input gives the same bytes.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.model.ruleset import Ruleset
from century.model.text import shown
from century.prose import render_prose
from century.render.cards.faces import back_face, coins, decks, resources
from century.render.names import file_stem, unique_stems
from century.targets import BuildOptions, Target, write_files

TEMPLATE = "targets/images/images.typ"
FOLDER = "images"
"""Where a build puts the images, inside the game's folder."""
DEFAULT_DPI = 300
DPI_RANGE = (50, 1200)
MAX_BLEED = 10.0
"""Print services ask for 3 mm (1/8 inch); more than this is a typo."""
CARD_MM = (63.0, 88.0)
BACKS = "backs"
"""The folder of the backs, beside the deck folders (whose names are the deck kinds)."""


class ImageOptionError(ValueError):
    """The options cannot be rendered (resolution or bleed out of range, unknown language)."""


@dataclass(frozen=True)
class ImageOptions:
    """What the user chose for one set of card images."""

    dpi: float = DEFAULT_DPI
    bleed: float = 0.0
    languages: tuple[str, ...] = ()  # empty: every language of the game


@dataclass(frozen=True)
class CardImage:
    """One distinct card of a deck: its file name (without extension), face and copies."""

    name: str
    face: dict[str, Any]
    copies: int


@dataclass(frozen=True)
class DeckImages:
    """One deck in one language: its kind, the title on its backs, cards and back."""

    kind: str
    title: str
    cards: tuple[CardImage, ...]
    back: dict[str, Any]

    @property
    def count(self) -> int:
        """How many cards the deck has, copies included."""
        return sum(card.copies for card in self.cards)


def card_label(face: dict[str, Any]) -> str:
    """What names a card to players: its id, or its kind for a card without one."""
    return face["id"] or face["kind"]


def distinct(faces: tuple[dict[str, Any], ...]) -> list[tuple[dict[str, Any], int]]:
    """Each different face of a deck once, in deck order, with how often it occurs."""
    counts: dict[str, int] = {}
    first: dict[str, dict[str, Any]] = {}
    for face in faces:
        key = json.dumps(face, sort_keys=True)
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, face)
    return [(first[key], count) for key, count in counts.items()]


def deck_images(
    ruleset: Ruleset, lang: str, text: dict[str, str] | None = None
) -> list[DeckImages]:
    """The decks of `ruleset` in `lang`, as the print kit has them (starting cards for the
    most players), each distinct card once with a file name unique in its deck."""
    text = text if text is not None else render_prose(ruleset, lang)
    found = []
    for deck in decks(ruleset, text, lang):
        cards = distinct(deck.faces)
        names = unique_stems(card_label(face) for face, _ in cards)
        found.append(
            DeckImages(
                kind=deck.kind,
                title=deck.back_title,
                cards=tuple(
                    CardImage(name, face, copies)
                    for name, (face, copies) in zip(names, cards, strict=True)
                ),
                back=back_face(deck),
            )
        )
    return found


def languages(ruleset: Ruleset, chosen: tuple[str, ...]) -> list[str]:
    """`chosen` (every language of the game if empty), or `ImageOptionError` naming an
    unknown one."""
    for lang in chosen:
        if lang not in ruleset.languages:
            known = ", ".join(ruleset.languages)
            raise ImageOptionError(f"{ruleset.id} has no language {lang!r} (known: {known})")
    return list(dict.fromkeys(chosen or ruleset.languages))


def check_options(options: ImageOptions) -> None:
    low, high = DPI_RANGE
    if not low <= options.dpi <= high:
        raise ImageOptionError(f"the resolution must be {low} to {high} dpi, not {options.dpi:g}")
    if not 0 <= options.bleed <= MAX_BLEED:
        raise ImageOptionError(f"bleed must be 0 to {MAX_BLEED:g} mm, not {options.bleed:g}")


def face_context(ruleset: Ruleset, lang: str) -> dict[str, Any]:
    """What every face template needs besides the faces: game name, ladder and coins."""
    return {
        "game": shown(ruleset.name, lang, ruleset.id),
        "lang": lang,
        "resources": resources(ruleset),
        "coins": coins(ruleset, ruleset.players_max),
    }


def pixels(mm: float, dpi: float) -> int:
    """How many pixels `mm` millimetres take at `dpi` (as Typst rounds a page)."""
    return round(mm / 25.4 * dpi)


def image_size(options: ImageOptions) -> tuple[int, int]:
    """Width and height in pixels of every card image."""
    w, h = CARD_MM
    return pixels(w + 2 * options.bleed, options.dpi), pixels(h + 2 * options.bleed, options.dpi)


def _path(*parts: str) -> str:
    return "/".join(parts) + ".png"


@dataclass(frozen=True)
class Language:
    """What one language's images are: its decks, and each page Typst draws with its file."""

    lang: str
    folder: str
    decks: list[DeckImages]
    paths: list[str]
    faces: list[dict[str, Any]]


def plan(ruleset: Ruleset, options: ImageOptions) -> list[Language]:
    """Every language's images, named but not drawn (`ImageOptionError` for bad options)."""
    check_options(options)
    found = []
    for lang in languages(ruleset, options.languages):
        folder = file_stem(lang)
        decks_found = deck_images(ruleset, lang)
        paths, faces = [], []
        for deck in decks_found:
            for card in deck.cards:
                paths.append(_path(folder, file_stem(deck.kind), card.name))
                faces.append(card.face)
            paths.append(_path(folder, BACKS, file_stem(deck.kind)))
            faces.append(deck.back)
        found.append(Language(lang, folder, decks_found, paths, faces))
    return found


def file_names(planned: list[Language]) -> list[str]:
    """The files `render` writes for a plan, relative to the images folder."""
    return [path for each in planned for path in each.paths] + ["index.html"]


def render(
    ruleset: Ruleset, options: ImageOptions, planned: list[Language] | None = None
) -> dict[str, bytes]:
    """Every card image and the contact sheet, by path relative to the images folder
    (`planned`: what `plan` gave for these options, to save working it out again)."""
    from century.render.typst import render_png

    planned = plan(ruleset, options) if planned is None else planned
    files: dict[str, bytes] = {}
    for each in planned:
        data = {**face_context(ruleset, each.lang), "bleed": options.bleed, "faces": each.faces}
        files.update(zip(each.paths, render_png(TEMPLATE, data, options.dpi), strict=True))
    files["index.html"] = contact_sheet(ruleset, planned, options).encode("utf-8")
    return files


def contact_sheet(ruleset: Ruleset, planned: list[Language], options: ImageOptions) -> str:
    """``index.html``: every card of the game on one page, linking to the full images."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(Path(__file__).resolve().parent),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    width, height = image_size(options)
    languages = []
    for each in planned:
        lang, lang_dir = each.lang, each.folder
        deck_list = []
        for deck in each.decks:
            folder = file_stem(deck.kind)
            cards = [
                {
                    "src": _href(_path(lang_dir, folder, card.name)),
                    "label": card_label(card.face),
                    "title": card.face["title"],
                    "copies": card.copies,
                }
                for card in deck.cards
            ]
            back = {"src": _href(_path(lang_dir, BACKS, folder)), "title": deck.title}
            deck_list.append(
                {"title": deck.title, "count": deck.count, "cards": cards, "back": back}
            )
        game = shown(ruleset.name, lang, ruleset.id)
        languages.append({"lang": lang, "game": game, "decks": deck_list})
    return env.get_template("index.html.j2").render(
        title=ruleset.name.get(ruleset.languages[0], ruleset.id),
        languages=languages,
        dpi=f"{options.dpi:g}",
        bleed=f"{options.bleed:g}",
        width=width,
        height=height,
    )


def _href(path: str) -> str:
    """A relative link to `path` (already a safe name; quoted all the same)."""
    return urllib.parse.quote(path, safe="/+")


def write(ruleset: Ruleset, out: Path, options: BuildOptions) -> list[Path]:
    """Build target: ``images/`` with every card image at 300 dpi and ``index.html``, for
    every language of the game (or those the build names that the game has)."""
    chosen = tuple(lang for lang in options.languages if lang in ruleset.languages)
    return write_files(out / FOLDER, render(ruleset, ImageOptions(languages=chosen)))


TARGET = Target(
    "images",
    "card images, one PNG per card and back at 300 dpi, and a contact sheet (images/)",
    write,
    in_build=False,
)
