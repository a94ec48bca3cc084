"""`century play`: a game in the terminal against bots."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BUILD,
    Command,
    RulesOpt,
    Stopped,
    check_out_file,
    fail,
    load_game,
    raise_stopped,
    signals_call,
)
from century.play.terminal import HELP, Painter, list_moves, render

if TYPE_CHECKING:
    from century.engine import Engine
    from century.engine.runtime import State
    from century.model.ruleset import Ruleset
    from century.play.bots import Bot


@dataclass
class Table:
    """A game in progress in the terminal: the state, who sits where, how to draw it."""

    state: State
    engine: Engine
    ruleset: Ruleset
    you: int
    bots: dict[int, Bot]
    labels: list[str]
    paint: Painter


def play(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help="The game or variant id, e.g. from `century validate`."
        ),
    ],
    players: Annotated[int, typer.Option(metavar="N", help="Number of players, you included.")] = 2,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOTS",
            help="Bot for the other seats, or one per other seat: greedy,random,search.",
        ),
    ] = "greedy",
    seat: Annotated[int, typer.Option(metavar="N", help="Your seat, 1 = first to play.")] = 1,
    seed: Annotated[
        int | None, typer.Option(metavar="N", help="Game seed (default: a random one).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(metavar="FILE", help="Where to save the game record (default: under build/)."),
    ] = None,
    colour: Annotated[
        bool | None, typer.Option("--colour/--no-colour", help="Colour (default: on a terminal).")
    ] = None,
    rules: RulesOpt = None,
) -> None:
    """Play a game in the terminal against bots; the record is saved when you leave (also on
    end of input, Ctrl-C, SIGTERM and SIGHUP)."""
    if record is not None:
        _check_record_path(record)
    ruleset = load_game(game, rules)
    if not ruleset.players_min <= players <= ruleset.players_max:
        fail(f"{game} is for {ruleset.players_min} to {ruleset.players_max} players", 2)
    if not 1 <= seat <= players:
        fail(f"--seat must be between 1 and {players}", 2)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    if colour is None:
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    table = _set_table(ruleset, players, _other_bots(bots, players), seat - 1, seed, colour)
    path = record or BUILD / "records" / f"{re.sub(r'[^A-Za-z0-9_-]', '_', game)}-{seed}.json"
    if record is None:
        _check_record_path(path)
    typer.echo(f"{_title(ruleset)}: {players} players, seed {seed}. You are seat {seat}.")
    typer.echo("Type help for the notation and the commands.")
    stopped = None
    try:
        with signals_call(raise_stopped):
            _loop(table)
    except Stopped as stop:
        stopped = stop.signum
        typer.echo(f"\n{signal.Signals(stop.signum).name}: leaving the game")
    finally:
        _save(table.state, path)
    if stopped is not None:
        raise typer.Exit(128 + stopped)
    if table.state.is_over():
        _final(table)


def _check_record_path(path: Path) -> None:
    """Refuse (exit 2), before the game starts, a record path that cannot be written or that
    holds a file other than a game record."""
    check_out_file(path, "--record")
    if os.path.lexists(path):
        from century.diagnostics import DiagnosticError
        from century.inputs import read_json
        from century.limits import MAX_RECORD_BYTES

        try:
            data = read_json(path, str(path), MAX_RECORD_BYTES, log=False)
            is_record = isinstance(data, dict) and {"rules", "moves"} <= data.keys()
        except DiagnosticError:
            is_record = False
        if not is_record:
            fail(f"--record {path} exists and is not a game record; century keeps it", 2)


def _other_bots(spec: str, players: int) -> list[str]:
    """One checked bot spec per seat other than yours."""
    from century.play.bots import check_spec

    specs = [s.strip() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        fail(f"--bots names {len(specs)} bots for {players - 1} other seats", 2)
    try:
        for s in specs:
            check_spec(s)
    except ValueError as err:
        fail(str(err), 2)
    return specs


def _set_table(
    ruleset: Ruleset, players: int, specs: list[str], you: int, seed: int, colour: bool
) -> Table:
    """A new game with the bots seated around you."""
    from century.play.bots import make_bot
    from century.play.config import derive_seed

    engine = _load_engine(ruleset)
    others = iter(specs)
    bots: dict[int, Bot] = {}
    labels = []
    for s in range(players):
        if s == you:
            labels.append("you")
            continue
        spec = next(others)
        bots[s] = make_bot(spec, engine, ruleset, derive_seed(seed, "play", s))
        labels.append(spec)
    state = engine.new_game(players, seed)
    return Table(state, engine, ruleset, you, bots, labels, Painter(ruleset, colour))


def _final(table: Table) -> None:
    scores = table.state.scores()
    typer.echo("Game over. Scores: " + ", ".join(f"seat {i + 1} {s}" for i, s in enumerate(scores)))
    winner = table.state.winner()
    if winner == table.you:
        typer.echo("You win!")
    else:
        typer.echo(f"Seat {winner + 1} ({table.labels[winner]}) wins.")


def _loop(table: Table) -> None:
    """Alternate bot moves and your moves until the game ends or you leave."""
    from century.play.bots import GreedyBot

    advisor = GreedyBot(table.engine, table.ruleset, 0)
    state, shown = table.state, False
    while not state.is_over():
        mover = state.current_player
        if mover != table.you:
            move = table.bots[mover].choose(state)
            state.play(move)
            typer.echo(f"seat {mover + 1} ({table.labels[mover]}): {move}")
            shown = False
            continue
        if not shown:
            typer.echo("")
            typer.echo(
                render(table.engine, state, table.ruleset, table.you, table.labels, table.paint),
                color=table.paint.colour,
            )
            typer.echo(list_moves(state.legal_moves()))
            shown = True
        typer.echo("your move> ", nl=False)
        line = _read_line()
        if line is None:
            typer.echo("\nend of input: leaving the game")
            return
        outcome = _command(table, " ".join(line.split()).lower(), advisor)
        if outcome == "leave":
            return
        shown = shown and outcome != "moved"


def _read_line() -> str | None:
    """One line typed at the prompt ('' for one that is too long or not text), None at the end
    of input. Reads at most `MAX_INPUT_LINE` characters at a time, so no input can fill
    memory."""
    from century.limits import MAX_INPUT_LINE as MAX_LINE

    try:
        line = sys.stdin.readline(MAX_LINE)
    except UnicodeDecodeError:
        typer.echo("that line is not UTF-8 text")
        return ""
    if not line:
        return None
    if len(line) == MAX_LINE and not line.endswith("\n"):
        while (rest := sys.stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
            pass
        typer.echo(f"that line is longer than {MAX_LINE} characters")
        return ""
    return line


def _command(table: Table, text: str, advisor: Bot) -> str:
    """Act on one line you typed: ``"leave"``, ``"moved"`` or ``"stay"`` (ask again)."""
    state = table.state
    moves = state.legal_moves()
    if text in ("quit", "exit", "q"):
        typer.echo("leaving the game")
        return "leave"
    if text in ("help", "h", "?"):
        typer.echo(_help(table.ruleset))
    elif text in ("moves", "m"):
        typer.echo(list_moves(moves))
    elif text == "hint":
        typer.echo(f"the greedy bot would play: {advisor.choose(state)}")
    elif _is_number(text) and not 1 <= int(text) <= len(moves):
        typer.echo(f"no move number {text}: choose 1 to {len(moves)}")
    elif text:
        move = moves[int(text) - 1] if _is_number(text) else text
        try:
            state.play(move)
        except table.engine.IllegalMove as err:
            typer.echo(f"illegal move: {err}. Type help for the notation, moves for the list.")
            return "stay"
        typer.echo(f"seat {table.you + 1} (you): {move}")
        return "moved"
    return "stay"


def _is_number(text: str) -> bool:
    """A move number: ASCII digits only (``²`` and other digits are not numbers here)."""
    return text.isascii() and text.isdecimal() and len(text) <= 9


def _help(ruleset: Ruleset) -> str:
    gains = [c.id for c in (*ruleset.starting_cards, *ruleset.merchant_deck) if c.kind == "gain"]
    return HELP.format(gain=gains[0] if gains else "<card>", codes=" ".join(ruleset.codes))


def _save(state: State, path: Path) -> None:
    from century.output import atomic_write_bytes

    data = json.dumps(state.record(), indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write_bytes(path, data.encode())
    except OSError as err:
        typer.echo(f"error: cannot save the record to {path}: {err.strerror or err}", err=True)
        typer.echo(data, err=True)
        raise typer.Exit(1) from None
    typer.echo(f"record saved to {path}")


def _title(ruleset: Ruleset) -> str:
    from century.play.report import ruleset_label

    return ruleset_label(ruleset)


def _load_engine(ruleset: Ruleset) -> Engine:
    from century.engine import load_engine

    return load_engine(ruleset)


def register(app: typer.Typer) -> None:
    """Add `play` to `app`."""
    app.command(cls=Command)(play)
