"""The `century` command line: the app, its commands, and the console-script entry point.

Usage errors (an unknown option, a missing argument, a bad value) print one line and exit 2;
data errors exit 1; an internal error prints one line and exits 3.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import importlib
import os
import re
import sys
from typing import Annotated, Any, TextIO, cast

import typer
import typer.core

from century.base.inputs import start_run
from century.base.version import __version__
from century.cli.common import defer_coercion, internal_error

MODULES = (
    "core",
    "explain",
    "variants",
    "deck",
    "engine",
    "play",
    "simulate",
    "experiment",
    "tune",
    "bots",
    "watch",
    "preview",
    "serve",
    "targets",
)
"""The modules of `century.cli` whose `register` adds their commands, in the order of the
help (`targets` last: a target's command takes a name no other command has)."""

_UsageError: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
"""click's UsageError, wherever this typer takes click from (newer typers bundle it)."""


class _Group(typer.core.TyperGroup):
    """The app's click group: one-line usage errors, whatever typer version renders help;
    its options coerce their values without pydantic when they can."""

    def get_params(self, ctx: Any) -> list[Any]:
        return defer_coercion(super().get_params(ctx))

    def main(  # type: ignore[override]  # click's signature differs between versions
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = run(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _UsageError as err:
            if type(err).__name__ == "NoArgsIsHelpError":  # plain `century`: the help
                typer.echo(err.format_message())
                sys.exit(0)
            context = getattr(err, "ctx", None)
            command = context.command_path if context else "century"
            message = plain_usage(err.format_message())
            typer.echo(f"error: {message} (see '{command} --help')", err=True)
            sys.exit(2)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


_BOUNDS = (
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"must be \1 or more"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"must be at most \1"),
    (re.compile(r"(\S+) is not in the range x>=(\S+?)\.?$"), r"must be \2 or more, not \1"),
    (re.compile(r"(\S+) is not in the range x<=(\S+?)\.?$"), r"must be at most \2, not \1"),
    (
        re.compile(r"(\S+) is not in the range (\S+)<=x<=(\S+?)\.?$"),
        r"must be \2 or more and at most \3, not \1",
    ),
    (re.compile(r"Input should be a valid integer.*$"), "must be a whole number"),
    (re.compile(r"'?(\S+?)'? is not a valid integer\.?$"), r"must be a whole number, not '\1'"),
)
"""How typer's value checks (pydantic's words in newer typers, click's in older ones) are
said in century's: ``--games must be 1 or more``."""


def plain_usage(message: str) -> str:
    """A usage error in century's words: ``Invalid value for '--games' / '-n': Input should
    be greater than or equal to 1`` -> ``--games must be 1 or more``."""
    message = message.replace("Value error, ", "")
    found = re.match(
        r"Invalid value for '(--[\w-]+)'(?: / '-\w')?(?: \(env var: [^)]*\))?: (.*)$", message, re.S
    )
    if not found:
        return message
    option, problem = found.groups()
    for pattern, words in _BOUNDS:
        said, count = pattern.subn(words, problem.strip())
        if count:
            return f"{option} {said}"
    return message


def _version(value: bool) -> None:
    if value:
        from century.bots.compiled import bots_build

        typer.echo(f"century {__version__} (bots: {bots_build()})")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Compile Century rules data into a game engine, rule sheets and card sheets."""
    start_run()  # a command is a run: what it reads is never its output (century.base.inputs)


def build_app(command: str | None = None) -> typer.Typer:
    """The `century` app with every command of `MODULES`; with `command`, the app with that
    command alone, importing only the modules up to the one that has it (the whole app when
    none has it)."""
    made = _bare_app()
    for name in MODULES:
        importlib.import_module(f"century.cli.{name}").register(made)
        if command is None:
            continue
        commands = [c for c in made.registered_commands if _name(c) == command]
        groups = [g for g in made.registered_groups if g.name == command]
        if commands or groups:
            made.registered_commands, made.registered_groups = commands, groups
            return made
    return made


def _bare_app() -> typer.Typer:
    """The `century` app with its options (``--version``) and no command yet."""
    made = typer.Typer(
        name="century",
        cls=_Group,
        help="Compile Century rules data into a game engine, rule sheets and card sheets.",
        no_args_is_help=True,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )
    made.callback()(_root)
    return made


def _name(info: Any) -> str:
    """A registered command's name, as typer makes it from the function's."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


@functools.cache
def _app() -> typer.Typer:
    return build_app()


def __getattr__(name: str) -> Any:
    """`app`, the `century` app with every command (built on first use)."""
    if name == "app":
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _app_for(args: list[str]) -> typer.Typer:
    """The app a command line needs: the named command's alone (fewer modules to import,
    fewer commands to build), else (an option, an unknown name, shell completion) the whole
    app."""
    completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
    if args[:1] == ["--version"] and not completing:  # no command: no plug-in is loaded
        return _bare_app()
    if args and not args[0].startswith("-") and not completing:
        lean = build_app(args[0])
        if lean.registered_commands or lean.registered_groups:
            return lean
    return _app()


def main() -> None:
    """The console script: data errors exit 1, usage errors 2, internal errors 3.

    The process ends with the command, so its objects are then frozen (`gc.freeze`): the
    collections the interpreter runs as it shuts down leave them alone instead of walking
    every one (~30 ms, 45 million instructions, of a cold `century validate`). Their memory
    goes back with the process; what a command opens it closes itself, so nothing waits on
    their finalizers.
    """
    _guard_closed_streams()
    try:
        try:
            _app_for(sys.argv[1:])()
        finally:
            sys.stdout.flush()  # here, not at exit, so a full disk is told as one
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except OSError as err:
        if err.errno not in _CANNOT_WRITE:
            internal_error(err)
            sys.exit(3)
        where = f" {err.filename}" if err.filename else " the output"
        if err.errno == errno.EPIPE:  # the reader of a pipe left (`| head`): nothing to say
            _quiet_stdout()
            sys.exit(1)
        with contextlib.suppress(OSError):
            typer.echo(f"error: cannot write{where}: {err.strerror or err}", err=True)
        _quiet_stdout()
        sys.exit(1)
    except Exception as err:  # a bug, not a data error: say so without a traceback
        internal_error(err)
        sys.exit(3)
    finally:
        gc.freeze()


_CANNOT_WRITE = {
    errno.ENOSPC,
    errno.EPIPE,
    errno.EBADF,
    errno.EIO,
    errno.EROFS,
    errno.EFBIG,
    getattr(errno, "EDQUOT", errno.ENOSPC),
}
"""Errors of the system, not of century, that a write meets: a full disk or quota, a closed
or broken standard output, a read-only or failing file system."""


class _Closed:
    """Standard output when the process was started with it closed: every write fails."""

    def write(self, _text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        pass


def _guard_closed_streams() -> None:
    """Hold file descriptors 0-2 open (on the null device) when the process started with
    them closed, so no file century opens takes their place; a closed standard output then
    makes every write to it an error instead of output silently lost."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor: this one
            if fd == 1:
                sys.stdout = cast(TextIO, _Closed())


def _quiet_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's flush at exit
    does not fail again on what could not be written."""
    if isinstance(sys.stdout, _Closed):
        return
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
