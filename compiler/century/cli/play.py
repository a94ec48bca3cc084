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
    BOT_LIST,
    BUILD,
    COMPLETE_GAMES,
    Command,
    RulesOpt,
    Stopped,
    bots_option,
    check_bots,
    check_out_file,
    fail,
    load_game,
    raise_stopped,
    signals_call,
)
from century.cli.screen.table import HELP, Painter, draw, list_all, list_choices, list_options
from century.engine.choices import Choice, group_moves, near_options
from century.model.cards import COMPOSED

if TYPE_CHECKING:
    from century.bots.registry import Bot
    from century.engine import Engine
    from century.model.ruleset import Ruleset
    from century.runtime.engine import State


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


PlayGameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="The game or variant id, e.g. from `century validate`.",
        autocompletion=COMPLETE_GAMES,
    ),
]
PlayPlayersOpt = Annotated[int, typer.Option(metavar="N", help="Number of players, you included.")]
PlayBotsOpt = Annotated[
    str,
    bots_option(
        f"Bot for the other seats, or one per other seat, e.g. greedy,planner. {BOT_LIST}."
    ),
]
SeatOpt = Annotated[int, typer.Option(metavar="N", help="Your seat, 1 = first to play.")]
PlaySeedOpt = Annotated[
    int | None,
    typer.Option("--seed", "-s", metavar="N", help="Game seed (default: a random one)."),
]
RecordOpt = Annotated[
    Path | None,
    typer.Option(metavar="FILE", help="Where to save the game record (default: under build/)."),
]
ColourOpt = Annotated[
    bool | None,
    typer.Option(
        "--colour/--no-colour",
        help="Colour the board and moves.",
        show_default="on a terminal, unless NO_COLOR is set",
    ),
]


@dataclass(frozen=True)
class PlayRequest:
    """The options of one `century play` call, checked: the game, your seat (0-based) and the
    bots of the other seats in seat order, the seed, where the record goes, the colours."""

    ruleset: Ruleset
    players: int
    you: int
    bots: tuple[str, ...]
    seed: int
    record: Path
    colour: bool


def play(
    game: PlayGameArg,
    players: PlayPlayersOpt = 2,
    bots: PlayBotsOpt = "greedy",
    seat: SeatOpt = 1,
    seed: PlaySeedOpt = None,
    record: RecordOpt = None,
    colour: ColourOpt = None,
    rules: RulesOpt = None,
) -> None:
    """Play a game in the terminal against bots; the record is saved when you leave (also on
    end of input, Ctrl-C, SIGTERM and SIGHUP)."""
    request = _request(game, players, bots, seat, seed, record, colour, rules)
    table = _set_table(request)
    typer.echo(
        f"{_title(request.ruleset)}: {players} players, seed {request.seed}. You are seat {seat}."
    )
    typer.echo("Type help for the notation and the commands.")
    stopped = None
    try:
        with signals_call(raise_stopped):
            _loop(table)
    except Stopped as stop:
        stopped = stop.signum
        typer.echo(f"\n{signal.Signals(stop.signum).name}: leaving the game")
    finally:
        _save(table, request.record)
    if stopped is not None:
        raise typer.Exit(128 + stopped)
    if table.state.is_over():
        _final(table)


def _request(
    game: str,
    players: int,
    bots: str,
    seat: int,
    seed: int | None,
    record: Path | None,
    colour: bool | None,
    rules: list[Path] | None,
) -> PlayRequest:
    """The options of `play` as one request; a usage error (exit 2) for what cannot be."""
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
    others = tuple(_other_bots(bots, players))
    path = record or BUILD / "records" / f"{re.sub(r'[^A-Za-z0-9_-]', '_', game)}-{seed}.json"
    if record is None:
        _check_record_path(path)
    return PlayRequest(ruleset, players, seat - 1, others, seed, path, colour)


def _check_record_path(path: Path) -> None:
    """Refuse (exit 2), before the game starts, a record path that cannot be written or that
    holds a file other than a game record."""
    check_out_file(path, "--record")
    if os.path.lexists(path):
        from century.base.diagnostics import DiagnosticError
        from century.base.inputs import read_json
        from century.base.limits import MAX_RECORD_BYTES

        try:
            data = read_json(path, str(path), MAX_RECORD_BYTES, log=False)
            is_record = isinstance(data, dict) and {"rules", "moves"} <= data.keys()
        except DiagnosticError:
            is_record = False
        if not is_record:
            fail(f"--record {path} exists and is not a game record; century keeps it", 2)


def _other_bots(spec: str, players: int) -> list[str]:
    """One checked bot spec per seat other than yours."""
    specs = [s.strip() for s in spec.split(",") if s.strip()]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        fail(f"--bots names {len(specs)} bots for {players - 1} other seats", 2)
    check_bots(specs)
    return specs


def _set_table(request: PlayRequest) -> Table:
    """A new game with the bots seated around you."""
    from century.bots.registry import make_bot
    from century.simulation.config import derive_seed

    ruleset, you, seed = request.ruleset, request.you, request.seed
    engine = _load_engine(ruleset)
    others = iter(request.bots)
    bots: dict[int, Bot] = {}
    labels = []
    for s in range(request.players):
        if s == you:
            labels.append("you")
            continue
        spec = next(others)
        bots[s] = make_bot(spec, engine, ruleset, derive_seed(seed, "play", s))
        labels.append(spec)
    state = engine.new_game(request.players, seed)
    return Table(state, engine, ruleset, you, bots, labels, Painter(ruleset, request.colour))


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
    from century.bots.registry import GreedyBot

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
        choices = _choices(table, advisor)
        if not shown:
            typer.echo("")
            typer.echo(
                draw(
                    *(table.engine, state, table.ruleset, table.you, table.labels, table.paint),
                    width=_board_width(),
                ),
                color=table.paint.colour,
            )
            typer.echo(list_choices(choices, _width()))
            shown = True
        typer.echo("your move> ", nl=False)
        line = _read_line()
        if line is None:
            typer.echo("\nend of input: leaving the game")
            return
        outcome = _command(table, " ".join(line.split()).lower(), advisor, choices)
        if outcome == "leave":
            return
        shown = shown and outcome != "moved"


def _choices(table: Table, advisor: Bot) -> list[Choice]:
    """The legal moves of the position as entries, each with its default (the greedy bot's
    scores, worked out only if an entry needs them)."""
    from century.bots.registry import GreedyBot

    scores: dict[str, float] = {}

    def score(move: str) -> float:
        if not scores and isinstance(advisor, GreedyBot):
            scores.update({m: s for s, m, _ in advisor.scored(table.state)})
        return scores.get(move, float("-inf"))

    return group_moves(table.state.legal_moves(), table.ruleset.codes, score)


def _width() -> int:
    """The width to wrap the move list to: the terminal's, at most 120."""
    import shutil

    return max(60, min(120, shutil.get_terminal_size((96, 24)).columns))


def _board_width() -> int:
    """The width to wrap the board to: the terminal's ($COLUMNS first; 96 when not a
    terminal), at least 40."""
    import shutil

    return max(40, shutil.get_terminal_size((96, 24)).columns)


def _command(table: Table, text: str, advisor: Bot, choices: list[Choice]) -> str:
    """Act on one line you typed: ``"leave"``, ``"moved"`` or ``"stay"`` (ask again)."""
    state = table.state
    words = text.split()
    if text in ("quit", "exit", "q"):
        typer.echo("leaving the game")
        return "leave"
    if text in ("help", "h", "?"):
        typer.echo(_help(table))
    elif text in ("moves", "m"):
        typer.echo(list_choices(choices, _width()))
    elif text in ("moves all", "m all"):
        typer.echo(list_all(state.legal_moves(), _width()))
    elif text == "hint":
        typer.echo(f"the greedy bot would play: {advisor.choose(state)}")
    elif words and _is_number(words[0]):
        number = int(words[0])
        if not 1 <= number <= len(choices):
            typer.echo(f"no move number {number}: choose 1 to {len(choices)}")
            return "stay"
        return _take(table, choices[number - 1], " ".join(words[1:]) or None)
    elif text in state.legal_moves():
        return _play(table, text)
    elif words:
        found = _matching(choices, words)
        if len(found) == 1:
            choice, rest = found[0]
            return _take(table, choice, rest or None)
        if len(found) > 1:
            shown = ", ".join(choice.key for choice, _ in found[:8])
            more = f" and {len(found) - 8} more" if len(found) > 8 else ""
            typer.echo(f"{text!r} could be {shown}{more}: type more of it")
            return "stay"
        outcome = _play(table, text)  # the engine says why it is no move
        if outcome == "stay":
            _suggest(choices, words)
        return outcome
    return "stay"


def _suggest(choices: list[Choice], words: list[str]) -> None:
    """After a move that is none: the verb closest in spelling (``aquire 2`` -> ``acquire
    2``), or the entry its card or slot is closest to in spelling (``play {+yyy/up3}`` ->
    ``play {+yyy/up2}``), with the rest as typed."""
    import difflib

    if not words:
        return
    verbs = list(dict.fromkeys(choice.key.split()[0] for choice in choices))
    if not any(verb.startswith(words[0]) for verb in verbs):  # a misspelt verb (`aquire 2`)
        close = difflib.get_close_matches(words[0], verbs, n=1, cutoff=0.6)
        if close:
            fixed = [close[0], *words[1:]]
            meant = fixed if _matching(choices, fixed[:2]) else fixed[:1]
            typer.echo(f"did you mean {' '.join(meant)!r}?")
        return
    if len(words) < 2:
        return
    keys = {choice.key: choice for choice in choices if len(choice.key.split()) == 2}
    verb = next((key.split()[0] for key in keys if key.split()[0].startswith(words[0])), None)
    if verb is None:
        return
    near = difflib.get_close_matches(
        f"{verb} {words[1]}", [key for key in keys if key.startswith(verb + " ")], n=1, cutoff=0.6
    )
    if near:
        rest = " ".join(words[2:])
        typer.echo(f"did you mean {f'{near[0]} {rest}'.strip()!r}?")


def _matching(choices: list[Choice], words: list[str]) -> list[tuple[Choice, str]]:
    """The entries whose key the words start (each word the start of the key's word, as in
    ``a 6`` for ``acquire 6``), with the words after the key; exact keys first."""
    found: list[tuple[Choice, str, bool]] = []
    for choice in choices:
        key = choice.key.split()
        head = words[: len(key)]
        if all(word.startswith(typed) for typed, word in zip(head, key, strict=False)):
            found.append((choice, " ".join(words[len(key) :]), head == key))
    whole = [(choice, rest) for choice, rest, exact in found if exact]
    return whole or [(choice, rest) for choice, rest, _ in found]


def _take(table: Table, choice: Choice, option: str | None) -> str:
    """Play the entry `choice` with `option` (its number, the option or its start), its only
    move, or else the option asked for next (Enter: the default)."""
    if option is None and len(choice.options) == 1:
        return _play(table, choice.move(choice.options[0]))
    if option is not None:
        picked, starting = _pick(choice, option)
        if picked is not None:
            return _play(table, choice.move(picked))
        if not starting:
            outcome = _play(table, choice.move(option))  # the engine says why it is no move
            if outcome != "stay" or len(choice.options) == 1:
                return outcome
            _near(choice, option)
        else:
            typer.echo(_few_options(choice, option, starting))
    typer.echo(
        f"{choice.key}: {len(choice.options)} ways. Enter: {choice.move(choice.default)}"
        f" ({choice.why}); or type one, its start or its number (? lists them, back returns)"
    )
    while True:
        typer.echo(f"{choice.key}> ", nl=False)
        line = _read_line()
        if line is None:
            typer.echo("\nend of input: leaving the game")
            return "leave"
        text = _without_key(choice, " ".join(line.split()).lower())
        if text in ("quit", "exit", "q"):
            typer.echo("leaving the game")
            return "leave"
        if text in ("back", "b"):
            return "stay"
        if text == "?":
            typer.echo(list_options(choice, _width()))
            continue
        if not text:
            return _play(table, choice.move(choice.default))
        picked, starting = _pick(choice, text)
        if picked is not None:
            return _play(table, choice.move(picked))
        if starting:
            typer.echo(_few_options(choice, text, starting))
            continue
        outcome = _play(table, choice.move(text))
        if outcome != "stay":
            return outcome
        _near(choice, text)


def _without_key(choice: Choice, text: str) -> str:
    """What is typed at an entry's prompt without the entry's own words when the whole move
    is typed again (``play {+yyy/up2} o2 yr`` -> ``o2 yr``; ``p {+yyy/up2} o1`` too)."""
    words, key = text.split(), choice.key.split()
    if (
        len(words) > len(key)
        and all(word.startswith(typed) for typed, word in zip(words, key, strict=False))
        and words[len(key) - 1] == key[-1]
    ):
        return " ".join(words[len(key) :])
    return text


def _near(choice: Choice, text: str) -> None:
    """Say which options `text` may have meant (the same cubes without ``o2``, ``x3``, or a
    close spelling), if any."""
    near = near_options(choice, text)
    if near:
        typer.echo(f"did you mean {' or '.join(repr(choice.move(o)) for o in near)}?")


def _pick(choice: Choice, text: str) -> tuple[str | None, list[str]]:
    """The option `text` names (the option, its number, or the start of only one), and the
    options it is the start of when it names none."""
    if text in choice.options:
        return text, []
    if _is_number(text):
        number = int(text)
        return (
            (choice.options[number - 1], []) if 1 <= number <= len(choice.options) else (None, [])
        )
    starting = [option for option in choice.options if option.startswith(text)]
    return (starting[0], []) if len(starting) == 1 else (None, starting)


def _few_options(choice: Choice, text: str, starting: list[str]) -> str:
    shown = " ".join(starting[:12]) + (
        f" and {len(starting) - 12} more" if len(starting) > 12 else ""
    )
    return f"{len(starting)} ways of {choice.key} start with {text!r}: {shown}"


def _play(table: Table, move: str) -> str:
    """Play `move` for you: ``"moved"``, or ``"stay"`` saying why it is illegal."""
    try:
        table.state.play(move)
    except table.engine.IllegalMove as err:
        typer.echo(f"illegal move: {err}. Type help for the notation, moves for the list.")
        return "stay"
    typer.echo(f"seat {table.you + 1} (you): {move}")
    return "moved"


def _read_line() -> str | None:
    """One line typed at the prompt ('' for one that is too long or not text), None at the end
    of input. Reads at most `MAX_INPUT_LINE` characters at a time, so no input can fill
    memory."""
    from century.base.limits import MAX_INPUT_LINE as MAX_LINE

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


def _is_number(text: str) -> bool:
    """A move number: ASCII digits only (``²`` and other digits are not numbers here)."""
    return text.isascii() and text.isdecimal() and len(text) <= 9


def _help(table: Table) -> str:
    """The notation, its examples taken from the game's own cards: one played without
    choices, one composed card's move (the one with the most words)."""
    ruleset, engine = table.ruleset, table.engine
    cards = (*ruleset.starting_cards, *ruleset.merchant_deck)
    cubes = ruleset.caravan_limit
    plain, composed = "", ""
    for card in cards:
        wanted = not plain or (not composed and card.kind == COMPOSED)
        moves = engine.effect_moves(card.effect, engine.CODES, card.id, cubes) if wanted else []
        if not plain and moves == [card.id]:
            plain = card.id
        if not composed and card.kind == COMPOSED and moves:
            composed = max(moves, key=lambda move: (len(move.split()), -len(move)))
        if plain and composed:
            break
    return HELP.format(
        gain=plain or "<card>",
        composed=composed or "<card> o2 yr",
        codes=" ".join(ruleset.codes),
    )


def _save(table: Table, path: Path) -> None:
    """Save the game record, naming who played each seat (``human`` and the bots)."""
    from century.base.output import atomic_write_bytes

    seats = ["human" if label == "you" else label for label in table.labels]
    record = {**table.state.record(), "seats": seats}
    data = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write_bytes(path, data.encode())
    except OSError as err:
        typer.echo(f"error: cannot save the record to {path}: {err.strerror or err}", err=True)
        typer.echo(data, err=True)
        raise typer.Exit(1) from None
    typer.echo(f"record saved to {path}")


def _title(ruleset: Ruleset) -> str:
    from century.reports.report import ruleset_label

    return ruleset_label(ruleset)


def _load_engine(ruleset: Ruleset) -> Engine:
    from century.engine import load_engine

    return load_engine(ruleset)


def register(app: typer.Typer) -> None:
    """Add `play` to `app`."""
    app.command(cls=Command)(play)
