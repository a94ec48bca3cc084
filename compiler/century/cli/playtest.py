"""`century images` and `century tts`: cards for playtesting on screen and in Tabletop
Simulator."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import BUILD, Command, RulesOpt, fail, load_game

GameArg = Annotated[
    str, typer.Argument(metavar="GAME", help="Game or variant id (listed by `century validate`).")
]
LangOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--lang", "-l", metavar="LANG", help="Language (repeatable; default: all of the game's)."
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", "-o", metavar="DIR", help="Output folder (default: build/GAME)."),
]


def _write(folder: Path, files: dict[str, bytes]) -> None:
    """Write `files` (relative paths) below `folder`, each atomically."""
    from century.output import atomic_write_bytes

    for name, data in files.items():
        atomic_write_bytes(folder / name, data)


def _render(game: str, render) -> dict[str, bytes]:
    """`render()`, or exit with its error: options 2, data 1 (nothing is written)."""
    from century.prose import TextError
    from century.targets.images import ImageOptionError
    from century.targets.typst import RenderError

    try:
        return render()
    except ImageOptionError as err:
        fail(str(err), 2)
    except TextError as err:
        fail(f"{game}: {err}", 1)
    except RenderError as err:
        fail(f"could not render the images: {err}", 1)


def images(
    game: GameArg,
    dpi: Annotated[
        float, typer.Option(metavar="N", help="Resolution in pixels per inch (50 to 1200).")
    ] = 300,
    bleed: Annotated[
        float,
        typer.Option(
            metavar="MM",
            help="Extend every image this many mm past the card's edges (print services "
            "usually ask for 3).",
        ),
    ] = 0.0,
    lang: LangOpt = None,
    out: OutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write DIR/images/: one PNG per card and per back, and an index.html contact sheet.

    Each distinct card of each deck is one image, LANG/DECK/ID.png, 63 × 88 mm plus the bleed
    (poker size, as print-on-demand services take it); the backs are LANG/backs/DECK.png.
    index.html shows every card of the game on one page.
    """
    from century.targets.images import FOLDER, ImageOptions, image_size, render

    ruleset = load_game(game, rules)
    options = ImageOptions(dpi=dpi, bleed=bleed, languages=tuple(lang or ()))
    files = _render(game, lambda: render(ruleset, options))
    folder = (out if out is not None else BUILD / game) / FOLDER
    _write(folder, files)
    width, height = image_size(options)
    count = sum(name.endswith(".png") for name in files)
    typer.echo(f"wrote {count} card images of {width} × {height} pixels to {folder}")
    typer.echo(f"wrote {folder / 'index.html'}")


def tts(
    game: GameArg,
    dpi: Annotated[
        float,
        typer.Option(
            metavar="N",
            help="Resolution in pixels per inch (50 to 165: a sheet of ten cards stays "
            "within 4096 pixels).",
        ),
    ] = 150,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            metavar="URL",
            help="Where you will host the tts folder (e.g. https://example.org/game/tts): the "
            "saved objects name the images below it (default: their file:/// URLs).",
        ),
    ] = None,
    lang: LangOpt = None,
    out: OutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write DIR/tts/: a Tabletop Simulator kit with a saved object per language.

    Per deck a sheet of up to 10 × 7 cards (the last cell is the hidden card) and a back;
    coins, a caravan mat per seat and cube bags. Copy GAME-LANG.json into Tabletop Simulator's
    Saves/Saved Objects folder; with --base-url, upload the tts folder there first.
    """
    from century.targets.tts import FOLDER, TtsOptions, folder_url, render

    folder = (out if out is not None else BUILD / game) / FOLDER
    ruleset = load_game(game, rules)
    options = TtsOptions(dpi=dpi, languages=tuple(lang or ()))
    url = base_url if base_url is not None else folder_url(folder)
    files = _render(game, lambda: render(ruleset, options, url))
    _write(folder, files)
    count = sum(name.endswith(".png") for name in files)
    typer.echo(f"wrote {count} images to {folder}")
    for name in sorted(n for n in files if n.endswith(".json")):
        typer.echo(f"wrote {folder / name}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(images)
    app.command(cls=Command)(tts)
