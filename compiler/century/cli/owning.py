"""`century experiment --own` and `--own-all` (owner effects, the reference table) and
``--own A --versus B`` (two versions of a card on the same deals): the options read, the
games run by `century.experiments`, the words and pages written by `century.reports`."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from century.cli.cardopts import CardText
from century.cli.common import (
    BUILD,
    check_out,
    fail,
    named_levels,
    stopping_on_signals,
    write_outputs,
)
from century.cli.experiment_common import (
    Run,
    as_written,
    bounded,
    changed_game,
    free_id,
    game_name,
    shell,
)

if TYPE_CHECKING:
    from century.experiments.owner import Measured

OWN_FILES = ["own.json", "own.html", "reference.json"]
VERSUS_FILES = ["versus.json", "versus.html"]
ROW_FILES = ["row.json", "row.html"]


def own_command(
    base: Any,
    asked: tuple[list[str], bool, str | None, str | None, int],
    levels: str | None,
    bots: str | None,
    games: int,
    run: Run,
) -> None:
    """`--own CARD` (repeatable), `--own-all`, `--own A --versus B` and `--row CARD --slot K`
    (`asked`, in that order): owner effects at each level, placed in the reference table;
    two versions of a card against each other; a card placed in the merchant row."""
    from century.experiments import owner as owned

    own, own_all, versus, row, slot = asked
    chosen = _chosen_levels(levels, bots)
    if row is not None:
        if own or own_all:
            fail("--row measures one card in the row: drop --own/--own-all", 2)
        if run.stop.sequential:
            fail("--row plays a fixed number of deals: drop --stop/--width", 2)
        host, (card,), _ = _owned_cards(base, [("--row", row)], run.rules)
        if not any(c.id == card for c in host.merchant_deck):
            fail(
                f"--row {row!r}: not a merchant card of {base.id}; the row holds merchant cards", 2
            )
        plan = owned.Plan(games, run.players, chosen, run.seed, (card,), cluster=run.cluster)
        _row(base, host, (row, card), slot - 1, plan, run)
        return
    typed = [("--own", text) for text in own] + ([("--versus", versus)] if versus else [])
    host, ids, unseen = _owned_cards(base, typed, run.rules) if typed else (base, [], ())
    plan = owned.Plan(games, run.players, chosen, run.seed, unseen, run.stop, run.cluster)
    if versus is not None:
        _versus(base, host, (ids[0], ids[1]), (own[0], versus), plan, run)
        return
    _owner_effects(base, host, list(zip(own, ids, strict=True)), own_all, plan, run)


def _row(base: Any, host: Any, card: tuple[str, str], slot: int, plan: Any, run: Run) -> None:
    """Card `card` (as written, its id) placed in the merchant row at `slot`, against the
    same deals without it, at every level."""
    from century.cli.screen.progress import Progress, Stage
    from century.experiments.row import row_effect, row_report
    from century.reports.report import row_html, to_json_bytes
    from century.reports.verdicts import row_lines
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    if slot >= host.merchant_row:
        fail(f"--slot {slot + 1}: the merchant row of {base.id} has {host.merchant_row} slots", 2)
    folder = run.out or BUILD / "reports" / f"{base.id}-row"
    check_out(folder, ROW_FILES)
    count = workers_for(run.workers, plan.games)
    stages = [Stage(2 * plan.games) for _ in plan.levels]
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} row", stages, quiet=run.quiet) as progress,
        ):
            answer = row_effect(host, card[1], slot, plan, count, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    report = row_report(base, card[0], plan, answer)
    for line in row_lines(report):
        typer.echo(line)
    html = row_html(game_name(base), report)
    write_outputs(folder, {ROW_FILES[0]: to_json_bytes(report), ROW_FILES[1]: html.encode()})
    typer.echo(f"report written to {folder / ROW_FILES[1]}")


def _chosen_levels(levels: str | None, bots: str | None) -> tuple[str, ...]:
    """The skill levels of an owner effect, each a known bot named once."""
    from century.experiments.owner import DEFAULT_LEVELS

    if levels is not None and bots is not None:
        fail("--levels and --bots both name the bots of an owner effect: give one", 2)
    if bots is not None and "," in bots:
        fail(f"--bots {bots!r}: an owner effect seats one bot everywhere; --levels A,B for two", 2)
    return named_levels(levels or bots or ",".join(DEFAULT_LEVELS), "--levels")


def own_files(ids: list[str]) -> list[list[str]]:
    """The report files of each owned card: ``own.json`` and ``own.html`` for one card;
    for several, one pair each (numbered, named by the card) beside an index page."""
    if len(ids) <= 1:
        return [["own.json", "own.html"]]
    stems = [
        f"own-{k}-{re.sub(r'[^a-z0-9-]+', '_', card.lower())}" for k, card in enumerate(ids, 1)
    ]
    return [[f"{stem}.json", f"{stem}.html"] for stem in stems]


def _owner_effects(
    base: Any,
    host: Any,
    cards: list[tuple[str, str]],
    own_all: bool,
    plan: Any,
    run: Run,
) -> None:
    """Each card of `cards` (as written, its id in `host`) owned from the start, at every
    level of `plan`, one report each; the reference table with `own_all`."""
    from century.experiments import owner as owned
    from century.reports.report import own_pages

    folder = run.out or BUILD / "reports" / f"{base.id}-own"
    ids = [card for _, card in cards]
    files = own_files(ids) if cards else [["own.html"]]
    index = ["index.html"] if len(cards) > 1 else []
    check_out(folder, sorted({*OWN_FILES, *(f for pair in files for f in pair), *index}))
    measured = _measured(base, host, ids, own_all, plan, run)
    table, name = measured.table, game_name(base)
    if table is not None and own_all:
        for line in owned.table_lines(table, measured.cached):
            typer.echo(line)
    reports = []
    for (written, card), answer in zip(cards, measured.answers, strict=True):
        report = owned.own_report(base, host, card, written, plan, answer, table, name)
        hint = None
        if table is None and report["value_model"] is None:
            hint = _table_hint(base.id, plan, run)
        for line in owned.own_lines(report, name, report["placements"], hint):
            typer.echo(line)
        reports.append(report)
    write_outputs(folder, own_pages(name, reports, files, table, bool(index)))
    shown = "index.html" if index else files[0][-1]
    typer.echo(f"report written to {folder / shown}")


def _measured(
    base: Any, host: Any, cards: list[str], own_all: bool, plan: Any, run: Run
) -> Measured:
    """The owner effects of `cards` (ids of `host`) and the reference table with `own_all`
    (`century.experiments.owner.measure`), played under a progress bar."""
    from century.cli.screen.progress import Progress, Stage
    from century.experiments import owner as owned
    from century.simulation.config import SimulationError
    from century.simulation.simulate import workers_for

    asked = owned.measurement(base, host, cards, own_all, plan)
    count = workers_for(run.workers, plan.games)
    stages = [Stage(asked.games) for _ in plan.levels]
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} owner effects", stages, quiet=run.quiet) as progress,
        ):
            measured = owned.measure(asked, count, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    return measured


def _table_hint(game: str, plan: Any, run: Run) -> Any:
    """The command that measures the reference table an answer would be placed in."""
    sure, width = run.stop.sure, run.stop.width
    return lambda: (
        "place it among the game's cards: century experiment "
        f"{shell(game)} --own-all --games {plan.games} --levels {','.join(plan.levels)}"
        + (f" --seed {run.seed}" if run.seed else "")
        + (" --stop sure" if sure else "")
        + (f" --width {100 * width:g}" if width is not None else "")
        + (f" --players {run.players}" if run.players != 2 else "")
    )


def _versus(
    base: Any, host: Any, cards: tuple[str, str], written: tuple[str, str], plan: Any, run: Run
) -> None:
    """Card A against card B owned by the same seat of the same deals, at every level."""
    from century.cli.screen.progress import Progress, Stage
    from century.experiments.versus import versus_effect, versus_report
    from century.reports.report import to_json_bytes, versus_html
    from century.reports.verdicts import versus_lines
    from century.simulation.config import SimulationError
    from century.simulation.sequential import stop_line
    from century.simulation.simulate import workers_for

    folder = run.out or BUILD / "reports" / f"{base.id}-versus"
    check_out(folder, VERSUS_FILES)
    count = workers_for(run.workers, plan.games)
    stages = [Stage(2 * plan.games) for _ in plan.levels]
    try:
        with (
            stopping_on_signals("no report written"),
            Progress(f"{base.id} versus", stages, quiet=run.quiet) as progress,
        ):
            answer = versus_effect(host, cards, plan, count, progress)
    except (SimulationError, ValueError) as err:
        fail(str(err), 2)
    report = versus_report(base, written, plan, answer)
    for line in versus_lines(report, stop_line):
        typer.echo(line)
    html = versus_html(game_name(base), report)
    write_outputs(folder, {VERSUS_FILES[0]: to_json_bytes(report), VERSUS_FILES[1]: html.encode()})
    typer.echo(f"report written to {folder / VERSUS_FILES[1]}")


def _owned_card(base: Any, text: str, rules: list[Path] | None) -> tuple[Any, str, str]:
    """The game an owned card is played in, its id there, and the card taken out of every
    deal (`_owned_cards` of one card)."""
    host, (card,), unseen = _owned_cards(base, [("--own", text)], rules)
    return host, card, unseen[0] if unseen else ""


def _owned_cards(
    base: Any, typed: list[tuple[str, str]], rules: list[Path] | None
) -> tuple[Any, list[str], tuple[str, ...]]:
    """The game owned cards are played in, their ids there, and the cards taken out of
    every deal: a card of `base` by id is played as it is; cards written as data (`typed`:
    each option with its text) are added to one variant's deck and taken out of every deal.
    A card that is not valid card data is refused at its line and column in the option."""
    from century.experiments.changes import CardChanges, ExperimentError, parse_card, variant_text
    from century.model.cards import derived_id

    ids = {c.id for c in (*base.starting_cards, *base.merchant_deck, *base.point_deck)}
    found: list[str] = []
    added: list[CardText] = []
    for option, text in typed:
        if text.strip() in ids:
            found.append(text.strip())
            continue
        if not text.lstrip().startswith("{"):
            close = difflib.get_close_matches(text.strip(), sorted(ids), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            fail(
                f"{option} {text!r}: no card of that id in {base.id}{hint}; write a new card as "
                "in a deck, e.g. '{kind: trade, pay: Y, get: BB}'",
                2,
            )
        try:
            card = bounded(parse_card)(text, option)
        except (ExperimentError, ValueError) as err:
            fail(str(err) if isinstance(err, ExperimentError) else f"{option} {text!r}: {err}", 2)
        try:  # the card is not checked yet: one the id cannot be read from is checked as "owned"
            derived = derived_id(card) if isinstance(card.get("id", ""), str) else "owned"
        except (LookupError, ValueError, TypeError, AttributeError, StopIteration):
            derived = "owned"
        card_id = derived
        taken = ids | {c.card["id"] for c in added}
        stem = card_id if card_id not in taken else f"own-{card_id}"
        card_id, n = stem, 1
        while card_id in taken:  # the same card written twice
            n += 1
            card_id = f"{stem}-{n}"
        typed_as = derived == card_id and "id" not in card  # the loader names it so
        added.append(CardText(option if typed_as else "", text, 0, {**card, "id": card_id}))
        found.append(card_id)
    if not added:
        return base, found, ()
    changes = CardChanges(add=tuple(c.card for c in added))
    variant_id = free_id(f"{base.id}-owned", base.id)
    written = as_written([(c.option, c.text) for c in added])
    host = changed_game(variant_text(base, changes, variant_id), variant_id, rules, written, added)
    return host, found, tuple(c.card["id"] for c in added)
