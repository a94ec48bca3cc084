"""`century sheets`: the rule sheets of one game as PDFs."""

from __future__ import annotations

import typer

from century.cli.common import (
    Command,
    GameArg,
    GameOutOpt,
    LangsOpt,
    Paper,
    PapersOpt,
    RulesOpt,
    check_out,
    game_folder,
    load_game,
    write_outputs,
)


def sheets(
    game: GameArg,
    lang: LangsOpt = None,
    paper: PapersOpt = None,
    out: GameOutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write the rule sheets of GAME as rules-<lang>-<paper>.pdf."""
    from century.render.typst import RenderError
    from century.targets.sheets import SheetError, render_sheet, sheet_name

    folder = game_folder(game, out)
    ruleset = load_game(game, rules)
    languages = list(dict.fromkeys(lang or ruleset.languages))
    papers = list(dict.fromkeys(p.value for p in paper or [Paper.a4]))
    _check_language(languages, ruleset.languages)
    names = [sheet_name(language, size) for language in languages for size in papers]
    check_out(folder, names)
    pdfs: dict[str, bytes] = {}
    for language in languages:  # render every sheet first: an error writes nothing
        for size in papers:
            try:
                pdfs[sheet_name(language, size)] = render_sheet(ruleset, language, size)
            except (SheetError, RenderError) as err:
                typer.echo(f"error: {game}: {err}", err=True)
                raise typer.Exit(1) from None
    for path in write_outputs(folder, pdfs):
        typer.echo(f"wrote {path}")


def _check_language(asked: list[str], known: tuple[str, ...]) -> None:
    """Exit 2 with the game's languages when one asked for is not among them."""
    for value in asked:
        if value not in known:
            choices = ", ".join(known) or "none"
            typer.echo(f"error: unknown language {value!r} (known: {choices})", err=True)
            raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(sheets)
