"""`century experiment`: a game against itself with cards removed, added or replaced, played
on the same seeds, and the paired effect of the change (JSON and HTML)."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from century.cli.cardopts import CardText, load_changed
from century.cli.common import (
    BOT_LIST,
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
    Stop,
    StopOpt,
    WidthOpt,
    WorkersOpt,
    bots_option,
    check_out,
    fail,
    games_option,
    load_game,
    local_rules,
    stopping_on_signals,
    write_outputs,
)

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
    own: Annotated[
        str | None,
        typer.Option(
            metavar="CARD",
            help="Measure what owning this card from the start is worth to one seat: a card "
            "id, or a card written as in a deck (the seat alternates between deals).",
            show_default=False,
            autocompletion=COMPLETE_CARDS,
        ),
    ] = None,
    own_all: Annotated[
        bool,
        typer.Option(
            "--own-all",
            help="Measure every merchant card of GAME owned from the start: the reference "
            "table (cached by content in the user's cache folder).",
        ),
    ] = False,
    levels: Annotated[
        str | None,
        typer.Option(
            metavar="BOTS",
            help="The skill levels of an owner effect, one bot each, e.g. greedy,planner "
            "(default; --bots BOT measures at one level).",
            show_default=False,
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="PATH=VALUE",
            help="Change a rule value in the changed game, e.g. 'setup.seats.2=YYY', "
            "'caravan_limit=8' or 'end.point_cards.2=5' (repeatable).",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int | None,
        games_option(
            "Games on each side (default 1000; 300 per card and level for --own).",
            show_default=False,
        ),
    ] = None,
    players: PlayersOpt = 2,
    bots: Annotated[
        str | None,
        bots_option(
            f"One bot for every seat, or one per seat, e.g. planner,greedy (default greedy). "
            f"{BOT_LIST}.",
            show_default=False,
        ),
    ] = None,
    seed: SeedOpt = 0,
    stop: StopOpt = Stop.never,
    width: WidthOpt = None,
    workers: WorkersOpt = 0,
    out: ReportOutOpt = None,
    quiet: QuietOpt = False,
    rules: RulesOpt = None,
) -> None:
    """Play GAME and GAME changed (cards removed, added or replaced, rule values set) on the
    same seeds and report the paired effect on seat win rates and game length; or, with
    --own/--own-all, what owning a card from the start is worth to one seat, at two skill
    levels (95% intervals; JSON and HTML). With --stop sure or --width, each answer stops
    as soon as it is settled (--games is then the budget) and says after how many games."""
    from century.cli.screen.progress import Progress
    from century.experiments.changes import (
        CardChanges,
        ExperimentError,
        experiment_lines,
        parse_card,
        parse_setting,
        run_experiment,
        variant_text,
    )
    from century.reports.report import report_html, to_json_bytes
    from century.simulation.config import SimConfig, SimulationError, seat_bots
    from century.simulation.sequential import StopRule
    from century.simulation.simulate import workers_for

    sure, wide = stop is Stop.sure, width / 100 if width is not None else None
    owning = own is not None or own_all
    if owning and (remove or add or replace or set_):
        fail(
            "--own and --own-all measure the game as it is: drop --remove/--add/--replace/--set", 2
        )
    if not owning and not (remove or add or replace or set_):
        fail(
            "name a change: --remove CARD_ID, --add CARD, --replace ID=CARD, --set PATH=VALUE, "
            "or --own CARD / --own-all",
            2,
        )
    if levels is not None and not owning:
        fail("--levels is for --own and --own-all (one bot per level)", 2)
    base = load_game(game, rules)
    if owning:
        _own(
            base,
            own,
            own_all,
            levels,
            bots,
            games or 300,
            players,
            seed,
            workers,
            out,
            quiet,
            rules,
            (sure, wide),
        )
        return
    games = games or 1000
    folder = out or BUILD / "reports" / f"{base.id}-experiment"
    check_out(folder, FILES)  # before any game is played
    try:
        changes = CardChanges(
            remove=tuple(remove or ()),
            add=tuple(_bounded(parse_card)(text, "--add") for text in add or ()),
            replace=tuple(_replacement(text, _bounded(parse_card)) for text in replace or ()),
            settings=tuple(parse_setting(base, _bounded_setting(text)) for text in set_ or ()),
        )
        config = SimConfig(games, players, seat_bots(bots or "greedy", players), seed)
        variant_id = _free_id(f"{base.id}-changed", base.id)
        text = variant_text(base, changes, variant_id)
    except (ExperimentError, ValueError) as err:
        fail(str(err), 2)
    written = _as_written(
        [("--remove", t) for t in remove or ()]
        + [("--add", t) for t in add or ()]
        + [("--replace", t) for t in replace or ()]
        + [("--set", t) for t in set_ or ()]
    )
    changed = _changed_game(
        text, variant_id, rules, written, _typed(add or [], replace or [], changes)
    )
    count = workers_for(workers, games)
    rule = StopRule(games, sure, wide)
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} experiment", 2 * games, quiet=quiet) as progress,
        ):
            report = run_experiment(base, changed, config, changes, count, progress, rule=rule)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    played = report["config"]["games"]
    stopped = ""
    if rule.sequential:
        from century.simulation.sequential import stop_line

        stopped = (
            stop_line(report["stop"]).capitalize()
            + "; the seats' intervals hold however often they were looked at. "
        )
    note = (
        f"{stopped}The change: {changes.describe()}. Both sides played the same {played} seeds "
        "(game i of each dealt from one seed), so "
        "the intervals are those of paired differences, game by game. "
    )
    html = report_html(
        [report["base"], report["changed"]],
        report["effects"],
        note,
        report["cards"],
        title=f"Experiment: {_game_name(base)}, {changes.describe()}",
    )
    write_outputs(folder, {FILES[0]: to_json_bytes(report), FILES[1]: html.encode()})
    for line in experiment_lines(report):
        typer.echo(line)
    typer.echo(f"report written to {folder / FILES[1]}")


def _changed_game(
    text: str,
    variant_id: str,
    rules: list[Path] | None,
    described: str,
    typed: list[CardText] | None = None,
) -> Any:
    """The changed game compiled from its variant `text`; exit 1 with the problems in the
    user's own words: inside a typed card at its line and column in the option
    (`century.cli.cardopts`), else worded by the change as written (never the temporary file
    it was written to)."""
    from century.base.scratch import scratch

    with scratch("experiment") as tmp:
        return load_changed(
            Path(tmp), text, typed or [], rules or local_rules(), variant_id, described
        )


def _typed(add: list[str], replace: list[str], changes: Any) -> list[CardText]:
    """The cards as typed, for messages in the user's own text (`century.cli.cardopts`)."""
    found = [CardText("--add", text, 0, card) for text, card in zip(add, changes.add, strict=True)]
    for text, (_, card) in zip(replace, changes.replace, strict=True):
        found.append(CardText("--replace", text, text.index("=") + 1, card))
    return found


def _own(
    base: Any,
    own: str | None,
    own_all: bool,
    levels: str | None,
    bots: str | None,
    games: int,
    players: int,
    seed: int,
    workers: int,
    out: Path | None,
    quiet: bool,
    rules: list[Path] | None,
    stopping: tuple[bool, float | None] = (False, None),
) -> None:
    """`--own CARD` and `--own-all`: owner effects at each level, the reference table
    (`stopping`: stop each answer when sure, or when narrower than a width)."""
    from century.bots.registry import check_spec
    from century.cli.screen.progress import Progress, Stage
    from century.experiments import owner as owned
    from century.reports.report import to_json_bytes
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    if levels is not None and bots is not None:
        fail("--levels and --bots both name the bots of an owner effect: give one", 2)
    if bots is not None and "," in bots:
        fail(f"--bots {bots!r}: an owner effect seats one bot everywhere; --levels A,B for two", 2)
    chosen = tuple(b.strip() for b in (levels or bots or ",".join(owned.DEFAULT_LEVELS)).split(","))
    if not all(chosen) or len(set(chosen)) != len(chosen):
        fail(f"--levels {levels or bots!r}: name each bot once, e.g. greedy,planner", 2)
    try:
        for spec in chosen:  # before any game is played
            check_spec(spec)
    except ValueError as err:
        fail(str(err), 2)
    host, card, unseen = base, "", ""
    if own is not None:
        host, card, unseen = _owned_card(base, own, rules)
    plan = owned.Plan(games, players, chosen, seed, unseen, *stopping)
    whole = owned.Plan(games, players, chosen, seed, "", *stopping)  # the reference table
    folder = out or BUILD / "reports" / f"{base.id}-own"
    check_out(folder, OWN_FILES)
    count = workers_for(workers, games)
    table, cached = None, False
    if own_all:
        table = owned.cached_table(base, whole)
        cached = table is not None
    cards = 0 if cached or not own_all else len(owned.merchant_ids(base))
    table_games = games * (cards + 1) if cards else 0  # the base side, then one per card
    stages = [Stage(table_games + (2 * games if own else 0)) for _ in chosen]
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} owner effects", stages, quiet=quiet) as progress,
        ):
            if own_all and table is None:
                table, cached = owned.reference_table(base, whole, count, progress)
            answer = owned.owner_effect(host, card, plan, count, progress) if own else None
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    if table is None:
        table = owned.cached_table(base, whole)
    name = _game_name(base)
    outputs: dict[str, bytes] = {}
    if table is not None:
        if own_all:
            for line in owned.table_lines(table, cached):
                typer.echo(line)
        outputs["reference.json"] = to_json_bytes(table)
    if answer is not None:
        report = {
            "own_version": owned.OWN_VERSION,
            "game": base.id,
            "written": own,
            "plan": plan.to_json(),
            **answer,
            "value_model": owned.value_model(host, card),
        }
        placements = {}
        merchant = report["value_model"] is None
        if table is not None and merchant:
            for entry in report["levels"]:
                placements[entry["bots"]] = owned.place(
                    entry["owner"]["difference"], entry["bots"], table, skip=card
                )
        report["placements"] = placements
        hint = None
        if table is None and merchant:
            hint = lambda: (  # noqa: E731
                "place it among the game's cards: century experiment "
                f"{_shell(base.id)} --own-all --games {games} --levels {','.join(chosen)}"
                + (f" --seed {seed}" if seed else "")
                + (" --stop sure" if stopping[0] else "")
                + (f" --width {100 * stopping[1]:g}" if stopping[1] is not None else "")
                + (f" --players {players}" if players != 2 else "")
            )
        for line in owned.own_lines(report, name, placements, hint):
            typer.echo(line)
        outputs["own.json"] = to_json_bytes(report)
    outputs["own.html"] = _own_html(base, table, outputs).encode()
    write_outputs(folder, outputs)
    typer.echo(f"report written to {folder / 'own.html'}")


OWN_FILES = ["own.json", "own.html", "reference.json"]


def _owned_card(base: Any, text: str, rules: list[Path] | None) -> tuple[Any, str, str]:
    """The game an owned card is played in, its id there, and the card taken out of every
    deal: a card of `base` by id is played in `base`; a card written as data is added to a
    variant's deck (and taken out of every deal)."""
    from century.experiments.changes import CardChanges, ExperimentError, parse_card, variant_text
    from century.model.cards import derived_id

    ids = {c.id for c in (*base.starting_cards, *base.merchant_deck, *base.point_deck)}
    if text.strip() in ids:
        return base, text.strip(), ""
    if not text.lstrip().startswith("{"):
        close = difflib.get_close_matches(text.strip(), sorted(ids), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        fail(
            f"--own {text!r}: no card of that id in {base.id}{hint}; write a new card as in "
            "a deck, e.g. '{kind: trade, pay: Y, get: BB}'",
            2,
        )
    try:
        card = _bounded(parse_card)(text, "--own")
    except (ExperimentError, ValueError) as err:
        fail(str(err) if isinstance(err, ExperimentError) else f"--own {text!r}: {err}", 2)
    try:  # the card is not checked yet: one the id cannot be read from is checked as "owned"
        card_id = derived_id(card) if isinstance(card.get("id", ""), str) else "owned"
    except (LookupError, ValueError, TypeError, AttributeError, StopIteration):
        card_id = "owned"
    if card_id in ids:
        card_id = f"own-{card_id}"
    card = {**card, "id": card_id}
    changes = CardChanges(add=(card,))
    variant_id = _free_id(f"{base.id}-owned", base.id)
    host = _changed_game(
        variant_text(base, changes, variant_id), variant_id, rules, _as_written([("--own", text)])
    )
    return host, card_id, card_id


def _game_name(ruleset: Any) -> str:
    from century.model.text import shown
    from century.reports.report import REPORT_LANGUAGE

    return shown(ruleset.name, REPORT_LANGUAGE, ruleset.id)


def _shell(word: str) -> str:
    import shlex

    return shlex.quote(word)


def _own_html(base: Any, table: dict[str, Any] | None, outputs: dict[str, bytes]) -> str:
    from century.reports.report import own_report_html

    answer = json.loads(outputs["own.json"]) if "own.json" in outputs else None
    return own_report_html(_game_name(base), answer, table)


def _as_written(options: list[tuple[str, str]]) -> str:
    """Command-line options as the user wrote them, e.g. ``--add '{kind: gain, get: QQ}'``."""
    import shlex

    return " ".join(f"{option} {shlex.quote(value)}" for option, value in options)


def _bounded(
    parse: Callable[[str, str], dict[str, Any]],
) -> Callable[[str, str], dict[str, Any]]:
    """`parse` behind the limits every YAML file is read with (`century.frontend.loader`: no
    aliases or tags, bounded nesting, values and size), so a card typed on the command line
    cannot make the parser do more work than a rules file can."""
    from century.base.diagnostics import DiagnosticError
    from century.frontend.loader import load_text

    def bounded(text: str, option: str) -> dict[str, Any]:
        try:
            load_text(text.encode("utf-8", "surrogateescape"), option)
        except DiagnosticError as err:
            problem = err.diagnostics[0]
            raise ValueError(f"{option} {text[:40]!r} is not a card: {problem.message}") from None
        return parse(text, option)

    return bounded


def _bounded_setting(text: str) -> str:
    """`text`, a ``--set PATH=VALUE``, once its VALUE is shown to be within the limits every
    YAML file is read with (as `_bounded` for a card); ValueError saying which it passes."""
    from century.base.diagnostics import DiagnosticError
    from century.frontend.loader import load_text

    _path, sep, value = text.partition("=")
    if sep and value.strip():
        try:
            load_text(value.encode("utf-8", "surrogateescape"), "--set")
        except DiagnosticError as err:
            shown = text if len(text) <= 40 else text[:37] + "..."
            problem = err.diagnostics[0].message
            raise ValueError(f"--set {shown!r}: its value cannot be read: {problem}") from None
    return text


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
