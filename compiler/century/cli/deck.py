"""`century deck export`: a game's deck as a spreadsheet table or a YAML deck file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import (
    COMPLETE_GAMES,
    Command,
    RulesOpt,
    fail,
    load_rulesets,
    local_rules,
    require_game,
)
from century.frontend.csvdeck import DECKS
from century.frontend.deckfile import FORMATS


def _decks(incomplete: str) -> list[str]:
    return [deck for deck in DECKS if deck.startswith(incomplete)]


DeckGameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="Game or variant id.", autocompletion=COMPLETE_GAMES),
]
DeckArg = Annotated[
    str,
    typer.Argument(metavar="DECK", help=f"The deck: {', '.join(DECKS)}.", autocompletion=_decks),
]
DeckFormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        help="csv, tsv or yaml (default: from the --out file's ending, else csv).",
        show_default=False,
    ),
]
DeckOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        "-o",
        metavar="FILE",
        help="Write here (default: print it).",
        show_default=False,
    ),
]
ForceOpt = Annotated[bool, typer.Option(help="Replace an existing file.")]


@dataclass(frozen=True)
class DeckRequest:
    """The options of one `century deck export` call, its format chosen."""

    game: str
    deck: str
    fmt: str
    out: Path | None
    rules: list[Path] | None


def export(
    game: DeckGameArg,
    deck: DeckArg,
    fmt: DeckFormatOpt = None,
    out: DeckOutOpt = None,
    rules: RulesOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write a game's deck as it plays, a variant's changes included, as a CSV or TSV table
    (header row: the card fields, then name.<lang> per language) or a YAML deck file.

    Name the file in a game's `decks:` to play with it: reading it back gives the same cards.
    """
    if deck not in DECKS:
        fail(f"unknown deck {deck!r} (decks: {', '.join(DECKS)})", 2)
    chosen = fmt or (out.suffix.lstrip(".").lower() if out is not None else "csv")
    chosen = "yaml" if chosen == "yml" else chosen
    if chosen not in FORMATS:
        fail(f"unknown format {chosen!r} (formats: {', '.join(FORMATS)})", 2)
    if out is not None:
        _check_file(out, force)
    request = DeckRequest(game, deck, chosen, out, rules)
    data, cards = _deck_data(request)
    if out is None:
        typer.echo(data.decode("utf-8"), nl=False)
        return
    from century.base.output import OutputError, write_file

    try:
        write_file(out, data)
    except OutputError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror or err}")
    typer.echo(f"wrote {out} ({cards} cards of the {deck} deck of {game})", err=True)


def _deck_data(request: DeckRequest) -> tuple[bytes, int]:
    """The deck `request` names, written in its format, and its number of cards."""
    from century.frontend import deckfile

    game, deck, chosen = request.game, request.deck, request.fmt
    compiled = load_rulesets(request.rules or local_rules(), with_bundled=True, only=game)
    require_game(compiled, game)
    ruleset = compiled.rulesets[game]
    cards = compiled.resolved[game].tree.plain()["decks"][deck]["cards"]
    try:
        if chosen == "yaml":
            data = deckfile.yaml_deck(
                deck,
                cards,
                _schema_path(request.out),
                f"The {deck} deck of {game}, as it plays ({_count(cards)} cards), "
                "written by `century deck export`.",
            )
        else:
            delimiter = "\t" if chosen == "tsv" else ","
            data = deckfile.table(deck, cards, ruleset.languages, delimiter)
    except deckfile.ExportProblem as err:
        fail(f"cannot write {deck} deck as {chosen}: {err}")
    return data, _count(cards)


def _count(cards: list[dict]) -> int:
    return sum(card.get("copies", 1) for card in cards)


def _check_file(out: Path, force: bool) -> None:
    """Refuse, before any work, an output file that exists (without --force), is a folder,
    is a symlink or lies in a folder that cannot be written."""
    from century.base.output import OutputError, check_file_target, check_inside

    if out.is_symlink():
        fail(f"{out} is a symlink; century writes only real files, never through a link")
    if out.exists() and not out.is_dir() and not force:
        fail(f"{out} exists (use --force to replace it)")
    if out.exists() and not out.is_dir() and not out.is_file():
        fail(
            f"{out} is not a regular file; century replaces only regular files, never a FIFO "
            "or a device"
        )
    try:
        check_file_target(out, "--out")
        check_inside(out.parent, out.name)
    except OutputError as err:
        fail(str(err), 2 if err.usage else 1)


def _schema_path(out: Path | None) -> str | None:
    """The deck schema as the modeline of a file written to `out` names it: a ``schema``
    folder beside or above the file's folder, or in the working folder; None without one."""
    folder = (out.parent if out is not None else Path(".")).resolve()
    for candidate in (folder / "schema", folder.parent / "schema", Path("schema").resolve()):
        if (candidate / "deck.schema.json").is_file():
            return Path(os.path.relpath(candidate / "deck.schema.json", folder)).as_posix()
    return None


def register(app: typer.Typer) -> None:
    deck_app = typer.Typer(
        name="deck",
        help="Card decks as data: export a game's deck to edit it in a spreadsheet.",
        no_args_is_help=True,
        rich_markup_mode=None,
    )
    deck_app.command(cls=Command)(export)
    app.add_typer(deck_app)
