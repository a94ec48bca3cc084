"""`century experiment`: a game against itself with cards removed, added or replaced, played
on the same seeds, and the paired effect of the change (JSON and HTML)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from century.cli.cardopts import CardText
from century.cli.common import (
    BOT_LIST,
    BUILD,
    COMPLETE_CARDS,
    COMPLETE_GAMES,
    COMPLETE_REPLACEMENTS,
    Backend,
    BackendOpt,
    Command,
    PlayersOpt,
    QuietOpt,
    ReportOutOpt,
    RulesOpt,
    SeedOpt,
    Stop,
    StopOpt,
    WidthOpt,
    WorkersOpt,
    bots_option,
    check_out,
    fail,
    games_option,
    load_game,
    play_backend,
    stop_rule,
    stopping_on_signals,
    write_outputs,
)
from century.cli.experiment_common import (
    Run,
    as_written,
    bounded,
    bounded_setting,
    changed_game,
    free_id,
    game_name,
)

FILES = ["experiment.json", "experiment.html"]


ExperimentGameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME", help="The game or variant to change.", autocompletion=COMPLETE_GAMES
    ),
]
RemoveOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CARD_ID",
        help="Remove this card (repeatable).",
        show_default=False,
        autocompletion=COMPLETE_CARDS,
    ),
]
AddOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CARD",
        help="Add this card, written as in a deck, e.g. '{kind: gain, get: YY}' (repeatable).",
        show_default=False,
    ),
]
ReplaceOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="ID=CARD",
        help="Replace a card by another, e.g. 'up3={kind: upgrade, steps: 2}' (repeatable).",
        show_default=False,
        autocompletion=COMPLETE_REPLACEMENTS,
    ),
]
OwnOpt = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CARD",
        help="Measure what owning this card from the start is worth to one seat: a card "
        "id, or a card written as in a deck (the seat alternates between deals; "
        "repeatable, one report each).",
        show_default=False,
        autocompletion=COMPLETE_CARDS,
    ),
]
VersusOpt = Annotated[
    str | None,
    typer.Option(
        metavar="CARD",
        help="With --own A: version A against this version B of a card, owned by the same "
        "seat of the same deals; the paired difference B minus A.",
        show_default=False,
        autocompletion=COMPLETE_CARDS,
    ),
]
RowOpt = Annotated[
    str | None,
    typer.Option(
        metavar="CARD",
        help="Place this merchant card (an id, or written as in a deck) in the merchant "
        "row at the start, against the same deals without it: who takes it, when, and "
        "what it is worth to the seat that takes it.",
        show_default=False,
        autocompletion=COMPLETE_CARDS,
    ),
]
SlotOpt = Annotated[
    int | None,
    typer.Option(
        metavar="K",
        min=1,
        help="The merchant row's slot of --row (1: the first, default).",
        show_default=False,
    ),
]
OwnAllOpt = Annotated[
    bool,
    typer.Option(
        "--own-all",
        help="Measure every merchant card of GAME owned from the start: the reference "
        "table (cached by content in the user's cache folder).",
    ),
]
LevelsOpt = Annotated[
    str | None,
    typer.Option(
        metavar="BOTS",
        help="The skill levels of an owner effect, one bot each, e.g. greedy,planner "
        "(default; --bots BOT measures at one level).",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PATH=VALUE",
        help="Change a rule value in the changed game, e.g. 'setup.seats.2=YYY', "
        "'caravan_limit=8' or 'end.point_cards.2=5' (repeatable).",
        show_default=False,
    ),
]
ExperimentGamesOpt = Annotated[
    int | None,
    games_option(
        "Games on each side (default 1000; 300 per card and level for --own).",
        show_default=False,
    ),
]
ExperimentBotsOpt = Annotated[
    str | None,
    bots_option(
        f"One bot for every seat, or one per seat, e.g. planner,greedy (default greedy). "
        f"{BOT_LIST}.",
        show_default=False,
    ),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        metavar="ADDRESS", help="Run on a Dask scheduler at this address (extra 'cluster')."
    ),
]


def experiment(
    game: ExperimentGameArg,
    remove: RemoveOpt = None,
    add: AddOpt = None,
    replace: ReplaceOpt = None,
    own: OwnOpt = None,
    versus: VersusOpt = None,
    row: RowOpt = None,
    slot: SlotOpt = None,
    own_all: OwnAllOpt = False,
    levels: LevelsOpt = None,
    set_: SetOpt = None,
    games: ExperimentGamesOpt = None,
    players: PlayersOpt = 2,
    bots: ExperimentBotsOpt = None,
    seed: SeedOpt = 0,
    stop: StopOpt = Stop.never,
    width: WidthOpt = None,
    workers: WorkersOpt = 0,
    cluster: ClusterOpt = None,
    out: ReportOutOpt = None,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
    backend: BackendOpt = Backend.python,
) -> None:
    """Play GAME and GAME changed (cards removed, added or replaced, rule values set) on the
    same seeds and report the paired effect on seat win rates and game length; or, with
    --own/--own-all, what owning a card from the start is worth to one seat, at two skill
    levels (95% intervals; JSON and HTML). With --stop sure or --width, each answer stops
    as soon as it is settled (--games is then the budget) and says after how many games."""
    play_backend(backend)
    owning = bool(own) or own_all or row is not None
    changes = (remove or [], add or [], replace or [], set_ or [])
    if versus is not None and len(own or []) != 1:
        fail("--versus B compares two versions of a card: give one --own A with it", 2)
    _check_kind(owning, any(changes), row is not None)
    if slot is not None and row is None:
        fail("--slot K places the card of --row: give --row CARD with it", 2)
    if levels is not None and not owning:
        fail("--levels is for --own and --own-all (one bot per level)", 2)
    budget = games or (300 if owning else 1000)
    run = Run(players, seed, workers, out, quiet, rules, stop_rule(budget, stop, width), cluster)
    base = load_game(game, rules)
    if owning:
        from century.cli.owning import own_command

        own_command(base, (own or [], own_all, versus, row, slot or 1), levels, bots, budget, run)
        return
    _change_command(base, changes, bots, budget, run)


def _check_kind(owning: bool, changing: bool, placing: bool) -> None:
    """Exit 2 unless the options ask for one kind of experiment: a change of the game, or
    a card owned or placed in the row."""
    if owning and changing:
        fail(
            "--own, --own-all and --row measure the game as it is: drop "
            "--remove/--add/--replace/--set",
            2,
        )
    if not owning and not changing:
        fail(
            "name a change: --remove CARD_ID, --add CARD, --replace ID=CARD, --set PATH=VALUE, "
            "or --own CARD / --own-all",
            2,
        )


def _change_command(
    base: Any, options: tuple[list[str], ...], bots: str | None, games: int, run: Run
) -> None:
    """Cards removed, added or replaced and rule values set: the paired experiment."""
    from century.cli.screen.progress import Progress
    from century.experiments.changes import experiment_lines, run_experiment
    from century.reports.report import experiment_html, to_json_bytes
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    folder = run.out or BUILD / "reports" / f"{base.id}-experiment"
    check_out(folder, FILES)  # before any game is played
    changes, config, changed = _changed(base, options, bots, games, run)
    count = workers_for(run.workers, games)
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} experiment", 2 * games, quiet=run.quiet) as progress,
        ):
            report = run_experiment(
                base, changed, config, changes, count, progress, rule=run.stop, cluster=run.cluster
            )
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    html = experiment_html(report, changes.describe(), game_name(base), run.stop.sequential)
    write_outputs(folder, {FILES[0]: to_json_bytes(report), FILES[1]: html.encode()})
    for line in experiment_lines(report):
        typer.echo(line)
    typer.echo(f"report written to {folder / FILES[1]}")


def _changed(
    base: Any, options: tuple[list[str], ...], bots: str | None, games: int, run: Run
) -> tuple[Any, Any, Any]:
    """The changes typed (`--remove`, `--add`, `--replace`, `--set`), the simulation of
    each side and the changed game; a clear error and exit 2 for a change that cannot be."""
    from century.experiments.changes import (
        CardChanges,
        ExperimentError,
        parse_card,
        parse_setting,
        variant_text,
    )
    from century.simulation.config import SimConfig, seat_bots

    remove, add, replace, set_ = options
    try:
        changes = CardChanges(
            remove=tuple(remove),
            add=tuple(bounded(parse_card)(text, "--add") for text in add),
            replace=tuple(_replacement(text, bounded(parse_card)) for text in replace),
            settings=tuple(parse_setting(base, bounded_setting(text)) for text in set_),
        )
        config = SimConfig(games, run.players, seat_bots(bots or "greedy", run.players), run.seed)
        variant_id = free_id(f"{base.id}-changed", base.id)
        text = variant_text(base, changes, variant_id)
    except (ExperimentError, ValueError) as err:
        fail(str(err), 2)
    written = as_written(
        [("--remove", t) for t in remove]
        + [("--add", t) for t in add]
        + [("--replace", t) for t in replace]
        + [("--set", t) for t in set_]
    )
    changed = changed_game(text, variant_id, run.rules, written, _typed(add, replace, changes))
    return changes, config, changed


def _typed(add: list[str], replace: list[str], changes: Any) -> list[CardText]:
    """The cards as typed, for messages in the user's own text (`century.cli.cardopts`)."""
    found = [CardText("--add", text, 0, card) for text, card in zip(add, changes.add, strict=True)]
    for text, (_, card) in zip(replace, changes.replace, strict=True):
        found.append(CardText("--replace", text, text.index("=") + 1, card))
    return found


def _replacement(
    text: str, parse: Callable[[str, str], dict[str, Any]]
) -> tuple[str, dict[str, Any]]:
    """The id and the card of a ``--replace ID=CARD``."""
    card_id, sep, card = text.partition("=")
    if not sep or not card_id.strip():
        raise ValueError(f"--replace {text!r}: write ID=CARD, e.g. 'up3={{kind: upgrade, ...}}'")
    return card_id.strip(), parse(card, "--replace")


def register(app: typer.Typer) -> None:
    """Add `experiment` to `app`."""
    app.command(cls=Command)(experiment)
