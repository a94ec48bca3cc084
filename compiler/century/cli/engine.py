"""`century replay`: check a game record with the game's engine (`century engine` writes
the engine: a target command, `century.cli.targets`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from century.cli.common import (
    Command,
    RulesOpt,
    fail,
    load_rulesets,
    local_rules,
    read_json_input,
)


def _read_record(path: Path) -> dict[str, Any]:
    from century.base.limits import MAX_RECORD_BYTES

    record = read_json_input(path, MAX_RECORD_BYTES)
    if not isinstance(record, dict) or not isinstance(record.get("rules"), str):
        fail(f"{path} is not a game record (no 'rules' id)")
    if not isinstance(record.get("moves", []), list):
        fail(f"{path}: 'moves' must be a list of moves")
    return record


def replay(
    record_path: Annotated[
        Path, typer.Argument(metavar="RECORD", help="A game record (JSON), e.g. from play.")
    ],
    rules: RulesOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")] = False,
    force: Annotated[
        bool, typer.Option(help="Replay even if the rules data changed since the record.")
    ] = False,
) -> None:
    """Check a game record: replay every move with the game's engine and print the game.

    Exit 0 when every move is legal, 1 when a move is rejected or the record is unusable.
    """
    from century.engine import load_engine

    record = _read_record(record_path)
    compiled = load_rulesets(rules or local_rules(), with_bundled=True, only=record["rules"])
    if record["rules"] not in compiled.rulesets:
        known = ", ".join(compiled.known) or "none"
        fail(f"{record_path} is a record of {record['rules']!r}, a game not known here ({known})")
    module = load_engine(compiled.rulesets[record["rules"]])
    if record.get("source_hash") not in (None, module.SOURCE_HASH):
        if not force:
            fail(
                "the record was made with other rules data (source hash differs); "
                "use --force to replay it anyway"
            )
        record = {**record, "source_hash": module.SOURCE_HASH}
    moves = record.get("moves", [])
    if not all(isinstance(move, str) for move in moves):
        fail(f"{record_path}: 'moves' must be a list of moves written as text")
    try:
        state = module.replay({**record, "moves": []})
    except (ValueError, KeyError, TypeError) as err:
        fail(f"cannot set up the game: {err}")
    names = _seats(record, state.view().players)
    for number, move in enumerate(moves, start=1):
        seat = state.current_player
        try:
            state.play(move)
        except module.IllegalMove as err:
            fail(f"move {number} (seat {seat + 1}): {err}")
        if not quiet:
            typer.echo(f"{number:4d}. seat {seat + 1}{names[seat]}: {move}")
    if not quiet:
        _board(module, state, compiled.rulesets[record["rules"]], names)
    _summary(state, len(moves))


def _seats(record: dict[str, Any], players: int) -> list[str]:
    """`` (greedy)`` per seat, from the players a record names (``century play`` names them),
    else nothing."""
    from century.base.diagnostics import printable

    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        return [""] * players
    return [f" ({printable(str(name)[:40])})" for name in seats]


def _board(module: Any, state: Any, ruleset: Any, names: list[str]) -> None:
    """The final position, as `century play` draws it (coloured on a terminal)."""
    import os
    import sys

    from century.cli.screen.table import Painter, draw

    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    labels = [name.strip(" ()") or "seat" for name in names]
    typer.echo(draw(module, state, ruleset, None, labels, Painter(ruleset, colour)), color=colour)


def _summary(state: Any, moves: int) -> None:
    scores = ", ".join(f"seat {i + 1}: {s}" for i, s in enumerate(state.scores()))
    if state.is_over():
        winners = " and ".join(f"seat {seat + 1}" for seat in state.winners())
        typer.echo(f"game over after {moves} moves; scores {scores}; winner {winners}")
    else:
        typer.echo(
            f"{moves} moves, game not over; seat {state.current_player + 1} to move; "
            f"scores {scores}"
        )


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(replay)
