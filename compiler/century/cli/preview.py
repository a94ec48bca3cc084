"""`century preview`: one card's front or back as a PNG or PDF, drawn as the kit draws it.

The card is drawn by the card images' template (``faces.typ``, which every output draws cards
with), alone, so one card takes about a second instead of a whole deck's images. Without
``--out`` the file is ``build/GAME/preview/ID-LANG.png`` (``-back`` for the back), written
as the other commands write into ``build/``; ``--out FILE`` names the file, whose suffix
(``.png`` or ``.pdf``) chooses the format, and which it replaces only if it is a PNG or PDF.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BUILD,
    Command,
    GameArg,
    RulesOpt,
    check_out_file,
    fail,
    load_game,
    write_outputs,
)

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset

FORMATS = {".png": False, ".pdf": True}
"""The suffixes `--out` may have, and whether each is a PDF."""
MAGIC = (b"\x89PNG\r\n\x1a\n", b"%PDF-")
"""How a PNG or PDF begins: `--out` replaces only such a file."""

CardArg = Annotated[
    str, typer.Argument(metavar="CARD", help="The card's id (century show GAME lists them).")
]
LangsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--lang", "-l", metavar="LANG", help="Language (repeatable; default: all of the game's)."
    ),
]
BackOpt = Annotated[bool, typer.Option("--back", help="Draw the back of the card's deck.")]
FileOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="FILE",
        help="The file to write, .png or .pdf (default: build/GAME/preview/CARD-LANG.png).",
    ),
]
DpiOpt = Annotated[
    float, typer.Option("--dpi", metavar="N", help="Resolution of a PNG (50 to 1200).")
]


def preview(
    game: GameArg,
    card: CardArg,
    lang: LangsOpt = None,
    back: BackOpt = False,
    out: FileOpt = None,
    dpi: DpiOpt = 300,
    rules: RulesOpt = None,
) -> None:
    """Write one card of GAME, its front or (--back) its deck's back, as a PNG or PDF.

    The card is drawn exactly as in the print kit and the card images, alone, so a change to
    its look or layout shows in about a second: one file per language, in
    build/GAME/preview/, or the one file --out names (for one language). An unknown card id
    names the ids close to it.
    """
    pdf = False
    if out is not None:
        if out.suffix.lower() not in FORMATS:
            fail(f"--out must end in .png or .pdf, not {out.name!r}", 2)
        pdf = FORMATS[out.suffix.lower()]
        check_out_file(out, "--out")
        if out.is_file() and not out.read_bytes()[:8].startswith(MAGIC):
            fail(f"{out} is not a PNG or PDF; century replaces only pictures it may have written")
    ruleset = load_game(game, rules)
    languages = list(dict.fromkeys(lang or ruleset.languages))
    if out is not None and len(languages) > 1:
        fail(f"--out names one file: choose one of {', '.join(languages)} with --lang", 2)
    for each in languages:
        written = write_preview(ruleset, card, each, back, out, pdf, dpi)
        typer.echo(f"wrote {written}")


def write_preview(
    ruleset: Ruleset,
    card: str,
    lang: str,
    back: bool,
    out: Path | None = None,
    pdf: bool = False,
    dpi: float = 300,
) -> Path:
    """Draw and write one card (see `preview`); exit 2 for an unknown card or language."""
    from century.base.output import OutputError, write_file
    from century.targets.images import ImageError, ImageOptions
    from century.targets.images import preview as draw

    try:
        data = draw(ruleset, card, lang, back, pdf, ImageOptions(bleed=0.0, dpi=dpi))
    except ImageError as err:
        fail(str(err) if err.usage else f"{ruleset.id}: {err}", 2 if err.usage else 1)
    if out is None:
        from century.shared.names import file_stem

        name = f"preview/{file_stem(card)}-{file_stem(lang)}{'-back' if back else ''}.png"
        return write_outputs(BUILD / ruleset.id, {name: data})[0]
    try:
        write_file(out, data)
    except OutputError as err:
        fail(str(err))
    return out


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(preview)
