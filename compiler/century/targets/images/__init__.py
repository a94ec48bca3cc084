"""Card images for playtesting online and for print-on-demand services.

`render(ruleset, options)` returns every file as ``{relative path: bytes}``:

- ``<lang>/<deck>/<name>.png``: each distinct card front of a deck, once however many copies
  the deck has, named by its card id (`century.shared.names`: ids are data, so a
  name keeps only safe characters; the reference card, which has no id, is ``reference``);
- ``<lang>/backs/<deck>.png``: the deck's back;
- ``index.html``: a contact sheet with every card of the game, per language and deck, with
  its id, title and number of copies, each language's section in its own words (text
  escaped, relative links only, nothing loaded from the network).

Every image is the game's card size (63 × 88 mm unless its look gives another) plus `bleed`
on every side (where only the frame colour, the back tint or the back picture goes; by
default the print kit's, `DEFAULT_BLEED`) at `dpi` pixels per inch, so
``round((63 + 2 × bleed) / 25.4 × dpi)`` pixels wide for poker cards; the resolution is
recorded in the PNG, and an image with every pixel opaque is RGB, without an alpha channel.
The faces are the print kit's (`faces.typ`), drawn by ``images.typ`` one card to a page, and
Typst renders every page of a language in one run. The same input gives the same bytes.
"""

from __future__ import annotations

import dataclasses
import difflib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from century.base.resources import templates
from century.model.ruleset import Ruleset
from century.model.text import TextError, form, shown
from century.prose import prose_texts
from century.shared.cards.faces import card_size, look_assets
from century.shared.cards.images import (
    CARD_MM,
    DeckImages,
    card_label,
    deck_images,
    face_context,
    pixels,
)
from century.shared.cards.layout import DEFAULT_BLEED
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

TEMPLATE = "targets/images/images.typ"
FOLDER = "images"
"""Where a build puts the images, inside the game's folder."""
DEFAULT_DPI = 300
DPI_RANGE = (50, 1200)
MAX_BLEED = 10.0
"""Print services ask for 3 mm (1/8 inch); more than this is a typo."""
BACKS = "backs"
"""The folder of the backs, beside the deck folders (whose names are the deck kinds)."""


class ImageError(TargetError):
    """Images that cannot be rendered (resolution or bleed out of range: a usage error)."""


@dataclass(frozen=True)
class ImageOptions(Languages, Told):
    """What the user chose for one set of card images."""

    dpi: float = option(
        DEFAULT_DPI, "--dpi", metavar="N", help="Resolution in pixels per inch (50 to 1200)."
    )
    bleed: float = option(
        DEFAULT_BLEED,
        "--bleed",
        metavar="MM",
        help="Extend every image this many mm past the card's edges, as the print kit does "
        "(print services usually ask for 3).",
    )
    cards: tuple[str, ...] = option(
        (),
        "--card",
        metavar="ID",
        help="Render only this card, by id (repeatable): its front in each language, without "
        "backs or the contact sheet.",
    )


def check_size(options: ImageOptions) -> None:
    """`ImageError` (a usage error) for a resolution or bleed out of range."""
    low, high = DPI_RANGE
    if not low <= options.dpi <= high:
        raise ImageError(
            f"the resolution must be {low} to {high} dpi, not {options.dpi:g}", usage=True
        )
    if not 0 <= options.bleed <= MAX_BLEED:
        raise ImageError(f"bleed must be 0 to {MAX_BLEED:g} mm, not {options.bleed:g}", usage=True)


def image_size(options: ImageOptions, ruleset: Ruleset | None = None) -> tuple[int, int]:
    """Width and height in pixels of every card image (of `ruleset`'s card size; poker size
    without it)."""
    w, h = card_size(ruleset) if ruleset is not None else CARD_MM
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
    words: dict[str, str]
    """The contact sheet's words in this language (``img_card``, ``img_back``)."""


def plan(ruleset: Ruleset, options: ImageOptions) -> list[Language]:
    """Every language's images, named but not drawn (`ImageError` for bad options)."""
    check_size(options)
    check_options(ruleset, options, ImageError)
    found = []
    for lang in languages(ruleset, options.languages):
        folder = file_stem(lang)
        text = prose_texts(ruleset, lang)
        decks_found = deck_images(ruleset, lang, text)
        if options.cards:
            decks_found = only(decks_found, options.cards)
        paths, faces = [], []
        for deck in decks_found:
            for card in deck.cards:
                paths.append(_path(folder, file_stem(deck.kind), card.name))
                faces.append(card.face)
            if not options.cards:
                paths.append(_path(folder, BACKS, file_stem(deck.kind)))
                faces.append(deck.back)
        words = {key: text[key] for key in ("img_card", "img_back")}
        found.append(Language(lang, folder, decks_found, paths, faces, words))
    return found


def only(decks: list[DeckImages], wanted: tuple[str, ...]) -> list[DeckImages]:
    """The cards of `decks` named in `wanted` (by id, or ``reference``), or `ImageError`
    (a usage error) naming a card the game does not have and the ids close to it."""
    labels = [card_label(card.face) for deck in decks for card in deck.cards]
    for name in wanted:
        if name not in labels:
            raise ImageError(unknown_card(name, labels), usage=True)
    found = []
    for deck in decks:
        cards = tuple(card for card in deck.cards if card_label(card.face) in wanted)
        if cards:
            found.append(dataclasses.replace(deck, cards=cards))
    return found


def unknown_card(name: str, labels: list[str]) -> str:
    """What to say of a card id the game does not have: the close ones, or a few known."""
    close = difflib.get_close_matches(name, sorted(set(labels)), n=4, cutoff=0.5)
    known = close or sorted(set(labels))[:8]
    say = "did you mean" if close else "its cards include"
    return (
        f"the game has no card {name!r}; {say} {', '.join(known)}? (century show GAME lists them)"
    )


def file_names(planned: list[Language], options: ImageOptions | None = None) -> list[str]:
    """The files `render` writes for a plan, relative to the images folder (no contact
    sheet for a few chosen cards)."""
    sheet = [] if options is not None and options.cards else ["index.html"]
    return [path for each in planned for path in each.paths] + sheet


def render(
    ruleset: Ruleset, options: ImageOptions, planned: list[Language] | None = None
) -> dict[str, bytes]:
    """Every card image and the contact sheet, by path relative to the images folder
    (`planned`: what `plan` gave for these options, to save working it out again)."""
    from century.shared.typst import compile_png

    planned = plan(ruleset, options) if planned is None else planned
    files: dict[str, bytes] = {}
    for each in planned:
        data = {**face_context(ruleset, each.lang), "bleed": options.bleed, "faces": each.faces}
        pngs = compile_png(TEMPLATE, data, options.dpi, look_assets(ruleset))
        files.update(zip(each.paths, pngs, strict=True))
        tell(options, len(each.paths))
    if not options.cards:
        files["index.html"] = contact_sheet(ruleset, planned, options).encode("utf-8")
        tell(options, 1)
    return files


def preview(
    ruleset: Ruleset,
    card: str,
    lang: str,
    back: bool = False,
    pdf: bool = False,
    options: ImageOptions | None = None,
) -> bytes:
    """One card's front (or its deck's back) in `lang`, drawn as the card images and the kit
    draw it, as a PNG at `options.dpi` or a PDF: `ImageError` (a usage error) for a card the
    game does not have."""
    from century.shared.typst import compile_pdf, compile_png

    options = options if options is not None else ImageOptions(bleed=0.0)
    check_size(options)
    check_options(ruleset, dataclasses.replace(options, languages=(lang,)), ImageError)
    decks = deck_images(ruleset, lang, prose_texts(ruleset, lang))
    [deck] = only(decks, (card,))[:1]
    face = deck.back if back else deck.cards[0].face
    data = {**face_context(ruleset, lang), "bleed": options.bleed, "faces": [face]}
    if pdf:
        return compile_pdf(TEMPLATE, data, look_assets(ruleset))
    return compile_png(TEMPLATE, data, options.dpi, look_assets(ruleset))[0]


def contact_sheet(ruleset: Ruleset, planned: list[Language], options: ImageOptions) -> str:
    """``index.html``: every card of the game on one page, linking to the full images."""
    env = templates(__name__, html=True)
    width, height = image_size(options, ruleset)
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
            noun = _counted(ruleset, lang, each.words["img_card"], deck.count)
            deck_list.append(
                {
                    "title": deck.title,
                    "count": deck.count,
                    "noun": noun,
                    "cards": cards,
                    "back": back,
                }
            )
        game = shown(ruleset.name, lang, ruleset.id)
        words = {"back": each.words["img_back"]}
        languages.append({"lang": lang, "game": game, "decks": deck_list, "words": words})
    return env.get_template("index.html.j2").render(
        title=ruleset.name.get(ruleset.languages[0], ruleset.id),
        languages=languages,
        dpi=f"{options.dpi:g}",
        bleed=f"{options.bleed:g}",
        width=width,
        height=height,
    )


def _counted(ruleset: Ruleset, lang: str, word: str, count: int) -> str:
    """`word` (the prose's ``img_card``) in its form for `count` cards: the game's ``forms``
    for `lang`, by the CLDR plural category of `count`; `ImageError` when it has none."""
    forms = ruleset.forms.get(lang, {}).get(word)
    if forms is None:
        raise ImageError(f"the word {word!r} (img_card) has no forms in {lang!r} (forms: {lang}:)")
    try:
        return form(forms, lang, count)
    except TextError as err:
        raise ImageError(f"the word {word!r} (img_card): {err} in {lang!r}") from None


def _href(path: str) -> str:
    """A relative link to `path` (already a safe name; quoted all the same)."""
    return urllib.parse.quote(path, safe="/+")


def names(ruleset: Ruleset, options: ImageOptions) -> list[str]:
    """The files `files` returns, below `FOLDER`."""
    return [f"{FOLDER}/{name}" for name in file_names(plan(ruleset, options), options)]


def files(ruleset: Ruleset, options: ImageOptions) -> dict[str, bytes]:
    """`render`'s files below `FOLDER`: ``images/`` in the game's folder."""
    return {f"{FOLDER}/{name}": data for name, data in render(ruleset, options).items()}


def report(out: Path, written: Files, options: ImageOptions) -> list[str]:
    """How many images of what size, and the contact sheet."""
    pngs = [data for name, data in sorted(written.items()) if name.endswith(".png")]
    width, height = image_size(options)
    if pngs and pngs[0][12:16] == b"IHDR":  # the card size of the game's look
        width, height = (int.from_bytes(pngs[0][i : i + 4], "big") for i in (16, 20))
    count = len(pngs)
    return [
        f"wrote {count} card images of {width} × {height} pixels to {out / FOLDER}",
        f"wrote {out / FOLDER / 'index.html'}",
    ]


TARGET = Target(
    "images",
    "card images, one PNG per card and back at 300 dpi, and a contact sheet (images/)",
    files,
    in_build=False,
    options=ImageOptions,
    error=ImageError,
    names=names,
    help="Write DIR/images/: one PNG per card and per back, and an index.html contact sheet."
    "\n\nEach distinct card of each deck is one image, LANG/DECK/ID.png, the game's card size "
    "(63 × 88 mm, poker size, unless its look gives another) plus the bleed; the backs are "
    "LANG/backs/DECK.png. index.html shows every card of the game on one page.",
    report=report,
)
