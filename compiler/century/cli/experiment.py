"""`century experiment`: a game against itself with cards removed, added or replaced, played
on the same seeds, and the paired effect of the change (JSON and HTML)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from century.cli.common import (
    BUILD,
    COMPLETE_CARDS,
    COMPLETE_GAMES,
    COMPLETE_REPLACEMENTS,
    Command,
    PlayersOpt,
    QuietOpt,
    ReportOutOpt,
    RulesOpt,
    SeedOpt,
    WorkersOpt,
    check_out,
    fail,
    load_game,
    load_rulesets,
    local_rules,
    stopping_on_signals,
    write_outputs,
)
from century.limits import MAX_GAMES

FILES = ["experiment.json", "experiment.html"]


def experiment(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help="The game or variant to change.", autocompletion=COMPLETE_GAMES
        ),
    ],
    remove: Annotated[
        list[str] | None,
        typer.Option(
            metavar="CARD_ID",
            help="Remove this card (repeatable).",
            show_default=False,
            autocompletion=COMPLETE_CARDS,
        ),
    ] = None,
    add: Annotated[
        list[str] | None,
        typer.Option(
            metavar="CARD",
            help="Add this card, written as in a deck, e.g. '{kind: gain, get: YY}' (repeatable).",
            show_default=False,
        ),
    ] = None,
    replace: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ID=CARD",
            help="Replace a card by another, e.g. 'up3={kind: upgrade, steps: 2}' (repeatable).",
            show_default=False,
            autocompletion=COMPLETE_REPLACEMENTS,
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", metavar="N", help="Games on each side.", min=1, max=MAX_GAMES
        ),
    ] = 1000,
    players: PlayersOpt = 2,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            help="One bot for every seat, or one per seat, e.g. planner,greedy.",
        ),
    ] = "greedy",
    seed: SeedOpt = 0,
    workers: WorkersOpt = 0,
    out: ReportOutOpt = None,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
) -> None:
    """Play GAME and GAME with its cards changed on the same seeds; report the paired effect
    on seat win rates and game length with 95% intervals (JSON and HTML)."""
    from century.play.config import SimConfig, SimulationError, seat_bots
    from century.play.experiment import (
        CardChanges,
        ExperimentError,
        experiment_lines,
        parse_card,
        run_experiment,
        variant_text,
    )
    from century.play.progress import Progress
    from century.play.report import render_html, to_json_bytes
    from century.play.simulate import workers_for

    if not (remove or add or replace):
        fail("name a change: --remove CARD_ID, --add CARD or --replace ID=CARD", 2)
    base = load_game(game, rules)
    folder = out or BUILD / "reports" / f"{base.id}-experiment"
    check_out(folder, FILES)  # before any game is played
    try:
        changes = CardChanges(
            remove=tuple(remove or ()),
            add=tuple(_bounded(parse_card)(text, "--add") for text in add or ()),
            replace=tuple(_replacement(text, _bounded(parse_card)) for text in replace or ()),
        )
        config = SimConfig(games, players, seat_bots(bots, players), seed)
        variant_id = _free_id(f"{base.id}-changed", base.id)
        text = variant_text(base, changes, variant_id)
    except (ExperimentError, ValueError) as err:
        fail(str(err), 2)
    with tempfile.TemporaryDirectory(prefix="century-experiment-") as tmp:
        (Path(tmp) / "changed.yaml").write_text(text, encoding="utf-8")
        paths = [*(rules or local_rules()), Path(tmp)]
        changed = load_rulesets(paths, with_bundled=True, only=variant_id).rulesets[variant_id]
    count = workers_for(workers, games)
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} experiment", 2 * games, quiet=quiet) as progress,
        ):
            report = run_experiment(base, changed, config, changes, count, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    note = (
        f"The change: {changes.describe()}. Both sides played the same {games} seeds "
        "(game i of each dealt from one seed), so "
        "the intervals are those of paired differences, game by game. "
    )
    html = render_html(
        [report["base"], report["changed"]], report["effects"], note, report["cards"]
    )
    write_outputs(folder, {FILES[0]: to_json_bytes(report), FILES[1]: html.encode()})
    for line in experiment_lines(report):
        typer.echo(line)
    typer.echo(f"report written to {folder / FILES[1]}")


def _bounded(
    parse: Callable[[str, str], dict[str, Any]],
) -> Callable[[str, str], dict[str, Any]]:
    """`parse` behind the limits every YAML file is read with (`century.frontend.loader`: no
    aliases or tags, bounded nesting, values and size), so a card typed on the command line
    cannot make the parser do more work than a rules file can."""
    from century.diagnostics import DiagnosticError
    from century.frontend.loader import load_text

    def bounded(text: str, option: str) -> dict[str, Any]:
        try:
            load_text(text.encode("utf-8", "surrogateescape"), option)
        except DiagnosticError as err:
            problem = err.diagnostics[0]
            raise ValueError(f"{option} {text[:40]!r} is not a card: {problem.message}") from None
        return parse(text, option)

    return bounded


def _replacement(
    text: str, parse: Callable[[str, str], dict[str, Any]]
) -> tuple[str, dict[str, Any]]:
    """The id and the card of a ``--replace ID=CARD``."""
    card_id, sep, card = text.partition("=")
    if not sep or not card_id.strip():
        raise ValueError(f"--replace {text!r}: write ID=CARD, e.g. 'up3={{kind: upgrade, ...}}'")
    return card_id.strip(), parse(card, "--replace")


def _free_id(wanted: str, base: str) -> str:
    """A game id for the changed game (ids are at most 64 characters)."""
    return wanted if len(wanted) <= 64 else f"{base[:56]}-changed"


def register(app: typer.Typer) -> None:
    """Add `experiment` to `app`."""
    app.command(cls=Command)(experiment)
