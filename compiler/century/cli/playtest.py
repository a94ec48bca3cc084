"""`century images` and `century tts`: cards for playtesting on screen and in Tabletop
Simulator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from century.cli.common import (
    Command,
    GameArg,
    GameOutOpt,
    LangsOpt,
    RulesOpt,
    check_out,
    fail,
    game_folder,
    load_game,
    write_outputs,
)

T = TypeVar("T")


def _write(out: Path, subfolder: str, files: dict[str, bytes]) -> list[Path]:
    """Write `files` (relative to `out`/`subfolder`) under `out`'s lock, each atomically,
    listed in `out`'s manifest; exit 1 (nothing written) if that would replace a file
    century did not write."""
    return write_outputs(out, {f"{subfolder}/{name}": data for name, data in files.items()})


def _check(out: Path, subfolder: str, names: list[str]) -> None:
    """Refuse, before any drawing, an output folder where one of the files `names` (relative
    to `out`/`subfolder`) exists without century having written it."""
    check_out(out, [f"{subfolder}/{name}" for name in names])


def _render(game: str, render: Callable[[], T]) -> T:
    """`render()`, or exit with its error: options 2, data 1 (nothing is written)."""
    from century.prose import TextError
    from century.render.typst import RenderError
    from century.targets.images import ImageOptionError

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
    lang: LangsOpt = None,
    out: GameOutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write DIR/images/: one PNG per card and per back, and an index.html contact sheet.

    Each distinct card of each deck is one image, LANG/DECK/ID.png, 63 × 88 mm plus the bleed
    (poker size, as print-on-demand services take it); the backs are LANG/backs/DECK.png.
    index.html shows every card of the game on one page.
    """
    from century.targets.images import FOLDER, ImageOptions, file_names, image_size, plan, render

    folder = game_folder(game, out)
    ruleset = load_game(game, rules)
    options = ImageOptions(dpi=dpi, bleed=bleed, languages=tuple(lang or ()))
    planned = _render(game, lambda: plan(ruleset, options))
    _check(folder, FOLDER, file_names(planned))
    files = _render(game, lambda: render(ruleset, options, planned))
    _write(folder, FOLDER, files)
    width, height = image_size(options)
    count = sum(name.endswith(".png") for name in files)
    typer.echo(f"wrote {count} card images of {width} × {height} pixels to {folder / FOLDER}")
    typer.echo(f"wrote {folder / FOLDER / 'index.html'}")


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
    lang: LangsOpt = None,
    out: GameOutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write DIR/tts/: a Tabletop Simulator kit with a saved object per language.

    Per deck a sheet of up to 10 × 7 cards (the last cell is the hidden card) and a back;
    coins, a caravan mat per seat and cube bags. Copy GAME-LANG.json into Tabletop Simulator's
    Saves/Saved Objects folder; with --base-url, upload the tts folder there first.
    """
    from century.targets.tts import FOLDER, TtsOptions, file_names, folder_url, plan, render

    folder = game_folder(game, out)
    ruleset = load_game(game, rules)
    options = TtsOptions(dpi=dpi, languages=tuple(lang or ()))
    url = base_url if base_url is not None else folder_url(folder / FOLDER)
    planned = _render(game, lambda: plan(ruleset, options, url))
    _check(folder, FOLDER, file_names(planned))
    files = _render(game, lambda: render(ruleset, options, url, planned))
    _write(folder, FOLDER, files)
    count = sum(name.endswith(".png") for name in files)
    typer.echo(f"wrote {count} images to {folder / FOLDER}")
    for name in sorted(n for n in files if n.endswith(".json")):
        typer.echo(f"wrote {folder / FOLDER / name}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(images)
    app.command(cls=Command)(tts)
