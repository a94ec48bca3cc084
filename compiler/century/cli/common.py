"""What the commands share: argument types, the error exit, and loading games."""

from __future__ import annotations

import enum
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.core

from century.base import diagnostics as diag

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.pipeline import Compiled
    from century.simulation.sequential import StopRule

BUILD = Path("build")
"""The default output folder, relative to the working folder."""

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        metavar="PATH",
        help="Rules files or folders (default: ./rules and ./cards if there, else the bundled "
        "games).",
        show_default=False,
    ),
]
RulesOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--rules",
        "-r",
        metavar="PATH",
        help="Rules files or folders to look in (default: ./rules and ./cards if there); the "
        "bundled games are always available.",
        show_default=False,
    ),
]


class Format(enum.StrEnum):
    """How diagnostics and results are printed."""

    text = "text"
    json = "json"


class Backend(enum.StrEnum):
    """The engine's backends (`century.targets.engine.BACKENDS`)."""

    python = "python"
    c = "c"


class Paper(enum.StrEnum):
    """Paper sizes of the printed targets."""

    a4 = "a4"
    letter = "letter"


OutOpt = Annotated[Path, typer.Option("--out", "-o", metavar="DIR", help="Output folder.")]


def _games(ctx: typer.Context, incomplete: str) -> list[str]:
    from century.cli.complete import game_ids

    return game_ids(ctx, incomplete)


def _languages(ctx: typer.Context, incomplete: str) -> list[str]:
    from century.cli.complete import languages

    return languages(ctx, incomplete)


def _bots(ctx: typer.Context, incomplete: str) -> list[str]:
    from century.cli.complete import bot_lists

    return bot_lists(ctx, incomplete)


def _cards(ctx: typer.Context, incomplete: str) -> list[str]:
    from century.cli.complete import card_ids

    return card_ids(ctx, incomplete)


def _replacements(ctx: typer.Context, incomplete: str) -> list[str]:
    from century.cli.complete import card_replacements

    return card_replacements(ctx, incomplete)


def _targets(incomplete: str) -> list[str]:
    from century.cli.complete import target_names

    return target_names(incomplete)


COMPLETE_GAMES: Any = _games
"""Completes a game id (`century.cli.complete`)."""
COMPLETE_LANGUAGES: Any = _languages
COMPLETE_BOTS: Any = _bots
COMPLETE_CARDS: Any = _cards
"""Completes a card id of the game the command line names."""
COMPLETE_REPLACEMENTS: Any = _replacements

GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="Game or variant id (listed by `century validate`).",
        autocompletion=_games,
    ),
]
GameOutOpt = Annotated[
    Path | None,
    typer.Option("--out", "-o", metavar="DIR", help="Output folder (default: build/GAME)."),
]
"""The output folder of a command that writes one game's files."""
LangsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--lang",
        "-l",
        metavar="LANG",
        help="Language (repeatable; default: all of the game's).",
        autocompletion=_languages,
    ),
]
PapersOpt = Annotated[
    list[Paper] | None,
    typer.Option(
        "--paper", "-p", metavar="PAPER", help="Paper size, a4 or letter (repeatable; default: a4)."
    ),
]
PlayersOpt = Annotated[int, typer.Option(metavar="N", help="Players per game.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
ReportOutOpt = Annotated[
    Path | None,
    typer.Option("--out", "-o", metavar="DIR", help="Report folder (default: build/reports/...)."),
]


class Stop(enum.StrEnum):
    """When a comparison stops (`century.simulation.sequential`)."""

    never = "never"
    sure = "sure"


StopOpt = Annotated[
    Stop,
    typer.Option(
        "--stop",
        help="never: play every game of --games; sure: stop as soon as the answer's "
        "always-valid 95% interval leaves out zero (--games is then the budget).",
    ),
]
WidthOpt = Annotated[
    float | None,
    typer.Option(
        "--width",
        metavar="POINTS",
        help="Stop as soon as the answer's always-valid 95% interval is narrower than this "
        "many win-rate points, e.g. 6 (--games is the budget).",
        min=0.1,
        max=200,
        show_default=False,
    ),
]


def stop_rule(games: int, stop: Stop, width: float | None) -> StopRule:
    """The stopping rule of `--stop` and `--width` (in win-rate points), `games` the
    budget: the one form it keeps from the options to the games' loop."""
    from century.simulation.sequential import StopRule

    return StopRule(games, stop is Stop.sure, width / 100 if width is not None else None)


SeedOpt = Annotated[
    int,
    typer.Option("--seed", "-s", metavar="N", help="Base seed; each game's seed derives from it."),
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        metavar="N",
        help="Worker processes (0: one per CPU; never more than the CPUs or the games).",
        min=0,
    ),
]


def games_option(help: str, *, show_default: bool = True) -> Any:
    """The ``--games``/``-n`` option of the commands that play games: a whole number from 1
    to `century.base.limits.MAX_GAMES`, said in `help`."""
    from century.base.limits import MAX_GAMES

    return typer.Option(
        "--games",
        "-n",
        metavar="N",
        help=help,
        min=1,
        max=MAX_GAMES,
        show_default=show_default,
    )


BOT_LIST = "{bots}"
"""Stands in a bot option's help for the bots of the registry (`century.bots.registry.BOTS`),
written in when the help is shown (`bot_help`); the command's help then lists each bot with
its summary."""


SLOW_BOTS = "{slow bots}"
"""Stands in a bot option's help for the bots too slow for large runs, those ``--bots auto``
never picks (`BotKind.auto`), written in as `BOT_LIST` is."""


def bots_option(help: str, *, show_default: bool = True) -> Any:
    """The ``--bots``/``-b`` option of the commands that seat bots: bot names, completed from
    the registry; `BOT_LIST` in `help` stands for the registry's bots."""
    return typer.Option(
        "--bots",
        "-b",
        metavar="BOTS",
        autocompletion=_bots,
        help=help,
        show_default=show_default,
    )


def bot_help(text: str) -> str:
    """`text` with `BOT_LIST` and `SLOW_BOTS` written out from the registry: ``Bots: random,
    greedy, ... (search:N, ... set their budget)`` and the slow bots' names."""
    if BOT_LIST not in text and SLOW_BOTS not in text:
        return text
    from century.bots.registry import BOTS

    names = ", ".join(BOTS)
    tuned = [f"{name}:N" for name, kind in BOTS.items() if kind.option]
    budget = f" ({', '.join(tuned)} set their budget)" if tuned else ""
    slow = ", ".join(name for name, kind in BOTS.items() if not kind.auto) or "none"
    return text.replace(BOT_LIST, f"Bots: {names}{budget}").replace(SLOW_BOTS, slow)


def bot_rows() -> list[tuple[str, str]]:
    """Each bot of the registry with what it does (and what its N sets), for a help section."""
    from century.bots.registry import BOTS

    return [
        (f"{name}:N", f"{kind.summary}; N: {kind.option}") if kind.option else (name, kind.summary)
        for name, kind in BOTS.items()
    ]


TargetsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--target",
        "-t",
        metavar="NAME",
        help="Only these targets (repeatable; default: all).",
        autocompletion=_targets,
    ),
]


class _Deferred:
    """A typer parameter's value coercion that builds typer's own (a pydantic `TypeAdapter`
    in typer 0.29 and later, which imports pydantic: ~0.1 s) only for a value that needs it.
    An absent value and a choice's own enum member (a default) come back as typer returns
    them; anything else goes to typer's coercion."""

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multiple = param.multiple or param.nargs == -1
        if value is None:
            return () if multiple else None
        kind = param.type_descriptor.annotation
        choice = isinstance(kind, type) and issubclass(kind, enum.Enum) and not multiple
        if choice and any(value is member for member in kind):
            return value
        param._runtime_param = None  # typer builds its own, kept for later values
        return param.get_runtime_param().coerce(value, param=param, ctx=ctx)


def defer_coercion(params: list[Any]) -> list[Any]:
    """`params`, each typer parameter given `_Deferred` coercion until typer builds its own
    (parameters of typers that coerce otherwise are left alone)."""
    for param in params:
        if getattr(param, "_runtime_param", False) is None and hasattr(param, "type_descriptor"):
            param._runtime_param = _Deferred()
    return params


class Command(typer.core.TyperCommand):
    """A command whose help reads the same whatever typer version renders it: plain click
    style, ordinary metavars (``GAME``, ``DIR``), no type names; its parameters coerce
    their values without pydantic when they can (`defer_coercion`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return defer_coercion(super().get_params(ctx))

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = [self.options_metavar or "[OPTIONS]"]
        pieces += [_argument_usage(p) for p in self.get_params(ctx) if _is_argument(p)]
        formatter.write_usage(ctx.command_path, " ".join(pieces))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        params = [p for p in self.get_params(ctx) if not getattr(p, "hidden", False)]
        arguments = [(_metavar(p), getattr(p, "help", "") or "") for p in params if _is_argument(p)]
        options = [_option_row(p) for p in params if not _is_argument(p)]
        listed = any(BOT_LIST in (getattr(p, "help", "") or "") for p in params)
        bots = bot_rows() if listed else []
        for title, rows in (("Arguments", arguments), ("Options", options), ("Bots", bots)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _is_argument(param: Any) -> bool:
    return param.param_type_name == "argument"


def _metavar(param: Any) -> str:
    return param.metavar or param.name.upper()


def _argument_usage(param: Any) -> str:
    text = _metavar(param) + ("..." if param.nargs != 1 else "")
    return text if param.required else f"[{text}]"


def _option_row(param: Any) -> tuple[str, str]:
    names = ", ".join(sorted(param.opts, key=len))
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    elif not param.is_flag:
        names += f" {_metavar(param)}"
    help_text = bot_help(param.help or "")
    default = getattr(param.default, "value", param.default)
    if isinstance(param.show_default, str):  # a default said in words
        help_text += f"  [default: {param.show_default}]"
    elif param.secondary_opts and default is not None:  # None: decided when the command runs
        shown = (param.opts if default else param.secondary_opts)[0].lstrip("-")
        help_text += f"  [default: {shown}]"
    elif not param.is_flag and default not in (None, "", (), []) and param.show_default:
        help_text += f"  [default: {default}]"
    return names, help_text.strip()


def fail(message: str, code: int = 1, details: Sequence[str] = ()) -> NoReturn:
    """Print ``error: message`` to stderr, then each of `details` on a line of its own
    (indented), and exit with `code` (1 data, 2 usage); control characters in the message
    and the details (from a file name, say) are escaped."""
    typer.echo(f"error: {diag.printable(message)}", err=True)
    for line in details:
        typer.echo(f"  {diag.printable(line)}", err=True)
    raise typer.Exit(code)


def check_bots(specs: Sequence[str]) -> None:
    """Exit 2 with the registry's reason for the first of `specs` that is no known bot
    (checked before any game is played)."""
    from century.bots.registry import check_spec

    try:
        for spec in specs:
            check_spec(spec)
    except ValueError as err:
        fail(str(err), 2)


def named_levels(text: str, option: str) -> tuple[str, ...]:
    """The bots `text` names (``A,B``), each a known bot named once; else exit 2, naming
    `option` and `text`."""
    chosen = tuple(b.strip() for b in text.split(","))
    if not all(chosen) or len(set(chosen)) != len(chosen):
        fail(f"{option} {text!r}: name each bot once, e.g. greedy,planner", 2)
    check_bots(chosen)
    return chosen


def play_backend(backend: Backend) -> None:
    """Play this command's games on the engine `backend` (`century.simulation.backend`);
    without a C compiler, ``--backend c`` stops the command in one line before anything
    runs."""
    from century.simulation.backend import missing, use_backend

    use_backend(backend.value)
    lacking = missing()
    if lacking:
        fail(f"cannot compile the C engine: {lacking}")


BackendOpt = Annotated[
    Backend,
    typer.Option(
        "--backend",
        help="The engine the games are played on: python (the reference), or c: the C engine "
        "generated from the same rules, on which the greedy bot and the planner search in C "
        "(the same games, faster; needs a C compiler).",
    ),
]


# -- output folders ----------------------------------------------------------------------------


def check_out(folder: Path, names: list[str] | None = None, what: str = "--out") -> None:
    """Refuse a bad output folder before any work: exit 2 for one that is a file or cannot be
    written into, exit 1 for one whose files `names` exist without century having written
    them (see `century.base.output`)."""
    from century.base.output import OutputError, check_below, check_folder, check_target

    try:
        check_target(folder, what)
        check_below(BUILD, folder)
        if names is not None:
            check_folder(folder, names)
    except OutputError as err:
        fail(str(err), 2 if err.usage else 1)


def check_out_file(path: Path, what: str) -> None:
    """Refuse (exit 2) an output file that is a folder or cannot be written, before any work."""
    from century.base.output import OutputError, check_below, check_file_target

    try:
        check_file_target(path, what)
        check_below(BUILD, path)
    except OutputError as err:
        fail(str(err), 2 if err.usage else 1)


def write_outputs(folder: Path, files: dict[str, bytes]) -> list[Path]:
    """Write `files` into `folder` under its lock, listed in its manifest; exit 1 (nothing
    written) if that would replace a file century did not write."""
    from century.base.output import OutputError, check_below, locked, write_files

    try:
        check_below(BUILD, folder)
        with locked(folder.absolute().parent):
            return write_files(folder, files)
    except OutputError as err:
        fail(str(err), 2 if err.usage else 1)
    except OSError as err:
        fail(f"cannot write into {folder}: {err.strerror or err}")


def report(diagnostics: list[diag.Diagnostic], fmt: str = "text") -> None:
    """Print diagnostics to stderr for people (text: a code frame under each, coloured on a
    terminal), or to stdout for tools (json, github, sarif: `century.cli.formats`)."""
    from century.cli import formats

    if fmt != "text":
        typer.echo(formats.diagnostics_text(diagnostics, fmt))
    elif diagnostics:
        formats.print_text(diagnostics)


def read_json_input(path: Path, cap: int) -> Any:
    """The JSON value in the file `path`, read with the caps of `century.base.inputs`; exit 1 with
    the located diagnostic for a file that is not a regular file, too large, too deep or not
    JSON."""
    from century.base.inputs import read_json

    try:
        return read_json(path, str(path), cap)
    except diag.DiagnosticError as err:
        fail_with(err.diagnostics)


def fail_with(diagnostics: list[diag.Diagnostic]) -> NoReturn:
    """Print `diagnostics` (text, to stderr) and exit 1."""
    report(diagnostics)
    raise typer.Exit(1)


LOCAL = (Path("rules"), Path("cards"))
"""The folders of a project's own rules and decks, relative to the project folder."""


def local_rules() -> list[Path]:
    """The current folder's own rules: ``./rules`` and ``./cards`` where they hold rules files
    (an empty ``rules/`` folder, made for a first variant, holds no games yet)."""
    from century.frontend.sources import has_rules_files

    return [folder for folder in LOCAL if folder.is_dir() and has_rules_files(folder)]


def load_rulesets(
    paths: list[Path] | None,
    fmt: str = "text",
    *,
    with_bundled: bool = False,
    only: str | None = None,
) -> Compiled:
    """Run the pipeline; print diagnostics; exit 1 when there are errors.

    `with_bundled` also compiles the bundled games when `paths` are given; `only` compiles
    just that game (and reports just its problems).
    """
    from century.pipeline import compile_paths

    compiled = compile_paths(paths or None, with_bundled=with_bundled, only=only)
    if diag.has_errors(compiled.diagnostics):
        report(compiled.diagnostics, fmt)
        raise typer.Exit(1)
    return compiled


def require_game(compiled: Compiled, game: str) -> None:
    """Exit 2 naming the known games unless `compiled` holds `game`."""
    if game not in compiled.rulesets:
        fail(unknown_game(game, compiled.known), 2)


def unknown_game(game: str, known: list[str]) -> str:
    """``unknown game 'house-rulez'; did you mean 'house-rules'? (known: ...)``: the closest
    ids first, when any is close."""
    import difflib

    near = difflib.get_close_matches(game, known, n=2, cutoff=0.6)
    guess = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
    return f"unknown game {game!r}{guess} (known: {', '.join(known) or 'none'})"


def load_game(game: str, paths: list[Path] | None) -> Ruleset:
    """The one ruleset named `game` (in `paths`, the current folder's rules or the bundled
    games), or exit 2 with the games that exist."""
    compiled = load_rulesets(paths or local_rules(), with_bundled=True, only=game)
    require_game(compiled, game)
    return compiled.rulesets[game]


def game_folder(game: str, out: Path | None) -> Path:
    """The output folder of a one-game command (``build/GAME`` by default), refused (exit 1)
    before any work if it holds files century did not write."""
    folder = out if out is not None else BUILD / game
    check_out(folder)
    return folder


@contextmanager
def signals_call(handler: Callable[[int, Any], None], interrupt: bool = False) -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP (and SIGINT, Ctrl-C, if `interrupt`, unless it is
    ignored, as in a job a script starts in the background) call `handler` (main thread only;
    elsewhere the signals are left alone); the previous handlers come back after it."""
    previous: dict[int, Any] = {}
    for name in ("SIGINT",) * interrupt + ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None or (signal.getsignal(number) == signal.SIG_IGN and name == "SIGINT"):
            continue
        try:
            previous[number] = signal.signal(number, handler)
        except ValueError:  # not the main thread
            break
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


class Stopped(Exception):
    """SIGTERM or SIGHUP asked a command to stop (raised by `stopping_on_signals`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def raise_stopped(signum: int, frame: Any) -> None:
    """A signal handler that raises `Stopped`."""
    raise Stopped(signum)


@contextmanager
def stopping_on_signals(what: str) -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP stop the command as Ctrl-C (SIGINT) does: the
    block unwinds (ending the worker processes it started), `what` is said on stderr and the
    command exits 128 + the signal's number (130 for Ctrl-C)."""
    try:
        with signals_call(raise_stopped):
            yield
    except Stopped as stop:
        typer.echo(f"\n{signal.Signals(stop.signum).name}: stopped; {what}", err=True)
        raise typer.Exit(128 + stop.signum) from None
    except KeyboardInterrupt:
        typer.echo(f"\ninterrupted; {what}", err=True)
        raise typer.Exit(130) from None


def internal_error(err: Exception) -> None:
    """Say that `err` is a bug in one line (the traceback with CENTURY_DEBUG=1, re-raised)."""
    if os.environ.get("CENTURY_DEBUG"):
        raise err
    typer.echo(
        f"century: internal error: {type(err).__name__}: {err}\n"
        "  this is a bug in century; set CENTURY_DEBUG=1 to see the traceback",
        err=True,
    )
