"""`century cards`: the print-and-play kit of one game, per language."""

from __future__ import annotations

from typing import Annotated

import typer

from century.cli.common import (
    Command,
    GameArg,
    GameOutOpt,
    LangsOpt,
    Paper,
    RulesOpt,
    check_out,
    fail,
    game_folder,
    load_game,
    write_outputs,
)


def paper_help() -> str:
    """The command's epilog: what fits on each paper, computed from the layout."""
    from century.render.cards.layout import (
        CARD_H,
        CARD_W,
        MARK_MIN,
        MARK_MIN_GAP,
        PRINT_MARGIN,
        fit_summary,
        layout,
    )

    duplex, fold = layout("a4"), layout("a4", fold=True)
    return (
        f"Cards are {CARD_W:g} × {CARD_H:g} mm, {duplex.cols} × {duplex.rows} to a page (with "
        f"--fold, {fold.front_cols} × {fold.rows} fronts beside their backs on landscape "
        f"pages). Cut marks stay {PRINT_MARGIN:g} mm clear of the paper edge and are at least "
        f"{MARK_MIN:g} mm long ({MARK_MIN_GAP:g} mm with a gap, where the marks across the gaps "
        "repeat every cut line); where that does not fit, the block of cards shrinks just "
        "enough (the cover page gives the printed size). Printed card size on " + fit_summary()
    )


def parse_offset(value: str) -> tuple[float, float]:
    """``"X,Y"`` in mm, e.g. ``"1.5,-0.5"``."""
    parts = value.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise typer.BadParameter(f"expected X,Y in mm (e.g. 1.5,-0.5), not {value!r}") from None
    return x, y


def cards(
    game: GameArg,
    paper: Annotated[
        Paper,
        typer.Option(metavar="PAPER", help="Paper size: a4 or letter (see below for what fits)."),
    ] = Paper.a4,
    lang: LangsOpt = None,
    gap: Annotated[
        float,
        typer.Option(
            metavar="MM", help="Space between cards in mm; 0 puts them edge to edge (guillotine)."
        ),
    ] = 3.0,
    bleed: Annotated[
        float,
        typer.Option(
            metavar="MM",
            help="Extend the card frames this many mm past the cut lines "
            "(with a gap, on every side, up to (gap - 1) / 2).",
        ),
    ] = 0.0,
    backs: Annotated[bool, typer.Option("--backs/--no-backs", help="Print the card backs.")] = True,
    low_ink: Annotated[
        bool,
        typer.Option(
            "--low-ink", help="White backs with an outlined motif instead of tinted ones."
        ),
    ] = False,
    fold: Annotated[
        bool,
        typer.Option(
            "--fold", help="For printers without duplex: fronts and backs side by side, to fold."
        ),
    ] = False,
    kit: Annotated[
        bool,
        typer.Option(
            "--kit/--no-kit", help="Add the cover page, coin and cube tokens and caravan mats."
        ),
    ] = True,
    players: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Print starting cards, tokens and mats for this many players "
            "(default: the most players).",
        ),
    ] = None,
    back_offset: Annotated[
        str,
        typer.Option(
            "--back-offset",
            metavar="X,Y",
            help="Move the backs X mm right and Y mm down (as seen on the back) to correct "
            "a printer that shifts the back side.",
        ),
    ] = "0,0",
    out: GameOutOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Write cards-LANG-PAPER.pdf: the print-and-play kit, backs mirrored for long-edge duplex.

    Besides every card, the kit has a cover page (print at 100 %, how to flip, a 50 mm scale
    bar, contents, cutting order), coin and cube tokens and a caravan mat per player.
    """
    from century.model.text import TextError
    from century.render.typst import RenderError
    from century.targets.cards import CardOptionError, CardOptions, file_name, render

    offset = parse_offset(back_offset)
    folder = game_folder(game, out)
    ruleset = load_game(game, rules)
    languages = list(dict.fromkeys(lang or ruleset.languages))
    for value in languages:
        if value not in ruleset.languages:
            known = ", ".join(ruleset.languages)
            fail(f"{game} has no language {value!r} (known: {known})", 2)
    check_out(folder, [file_name(language, paper.value) for language in languages])
    pdfs: dict[str, bytes] = {}
    for language in languages:  # render everything first: an error writes nothing
        options = CardOptions(
            paper=paper.value,
            gap=gap,
            bleed=bleed,
            backs=backs,
            low_ink=low_ink,
            fold=fold,
            kit=kit,
            players=players,
            back_offset=offset,
            lang=language,
        )
        try:
            pdfs[file_name(language, paper.value)] = render(ruleset, options)
        except CardOptionError as err:
            fail(str(err), 2)
        except TextError as err:
            fail(f"{game}: {err}", 1)
        except RenderError as err:
            fail(f"could not render the cards: {err}", 1)
    for path in write_outputs(folder, pdfs):
        typer.echo(f"wrote {path}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command, epilog=paper_help())(cards)
