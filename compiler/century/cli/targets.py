"""A ``century NAME GAME`` command for every target, its options made from the target's.

Each field of the target's options dataclass made with `century.targets.option` becomes an
option of the command (a repeatable one for a tuple, a flag for a bool, a choice for a field
with choices); the command checks the output folder, renders, and writes the files into it.
"""

from __future__ import annotations

import enum
import inspect
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, Field, fields, replace
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import typer

from century.cli.common import (
    COMPLETE_LANGUAGES,
    Command,
    GameArg,
    GameOutOpt,
    RulesOpt,
    check_out,
    fail,
    game_folder,
    load_game,
    write_outputs,
)
from century.targets import Option, Target, TargetError, Told, cli_option, targets

_FIXED = {"game": GameArg, "out": GameOutOpt, "rules": RulesOpt}
"""The parameters every target command takes besides the target's options."""


def _default(item: Field[Any]) -> Any:
    return item.default if item.default is not MISSING else None


def _choices(name: str, choices: tuple[str, ...]) -> Any:
    """An enum of `choices` (typer shows and checks the choices of an enum)."""
    return enum.Enum(name, [(choice, choice) for choice in choices])


def _annotation(item: Field[Any], kind: Any, spec: Option) -> Any:
    """The typer annotation of one option field of declared type `kind`."""
    names = spec.names
    extra: dict[str, Any] = {"help": spec.help}
    if "--lang" in names:
        extra["autocompletion"] = COMPLETE_LANGUAGES
    if spec.metavar:
        extra["metavar"] = spec.metavar
    if spec.parse is not None:  # read from its text by the target
        return Annotated[str | None, typer.Option(*names, **extra, show_default=False)]
    if get_origin(kind) is tuple:  # repeatable; a choice is an enum to typer
        each = _choices(item.name, spec.choices) if spec.choices else str
        return Annotated[list[each] | None, typer.Option(*names, **extra)]  # type: ignore[valid-type]
    if get_origin(kind) in (Union, types.UnionType):
        (inner,) = [arg for arg in get_args(kind) if arg is not type(None)]
        return Annotated[inner | None, typer.Option(*names, **extra)]
    return Annotated[kind, typer.Option(*names, **extra)]


def _value(item: Field[Any], kind: Any, spec: Option, given: Any) -> Any:
    """The field's value from what typer gave (None: the field's default)."""
    if given is None or (isinstance(given, list) and not given):
        return _default(item)
    if spec.parse is not None:
        try:
            return spec.parse(given)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint=f"'{spec.names[0]}'") from None
    if get_origin(kind) is tuple:
        return tuple(getattr(value, "value", value) for value in given)
    return given


def _options(target: Target) -> list[tuple[Field[Any], Any, Option]]:
    """The option fields of the target's options dataclass, with their types and specs."""
    hints = get_type_hints(target.options)
    found = []
    for item in fields(target.options):
        spec = cli_option(item)
        if spec is not None:
            found.append((item, hints[item.name], spec))
    return found


def _command(target: Target) -> Callable[..., None]:
    specs = _options(target)

    def command(**given: Any) -> None:
        game, out = given["game"], given["out"]
        values = {
            item.name: _value(item, kind, spec, given[item.name]) for item, kind, spec in specs
        }
        folder = game_folder(game, out)
        ruleset = load_game(game, given["rules"])
        if "dest" in {item.name for item in fields(target.options)}:
            values["dest"] = folder
        options = target.options(**values)
        try:
            names = target.paths(ruleset, options) if target.names is not None else None
            if names is not None:  # refuse the folder before the work
                check_out(folder, names)
            with _progress(target, game, options, names) as told:
                files = target.files(ruleset, told)
        except TargetError as err:
            fail(str(err) if err.usage else f"{game}: {err}", 2 if err.usage else 1)
        check_out(folder, list(files))
        written = write_outputs(folder, files)
        lines = target.report(folder, files, options) if target.report else None
        for line in lines if lines is not None else [f"wrote {path}" for path in written]:
            typer.echo(line)

    parameters = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=None)
        for name, kind in _FIXED.items()
    ]
    parameters[0] = parameters[0].replace(default=inspect.Parameter.empty)
    parameters[1:1] = [
        inspect.Parameter(
            item.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_annotation(item, kind, spec),
            default=_default(item)
            if spec.parse is None and get_origin(kind) is not tuple
            else None,
        )
        for item, kind, spec in specs
    ]
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__name__ = target.name
    command.__doc__ = target.help or f"Write {target.summary} for GAME."
    return command


@contextmanager
def _progress(target: Target, game: str, options: Any, names: list[str] | None) -> Iterator[Any]:
    """`options` with a progress display of the files rendered, for a target that tells it
    (a `century.targets.Told`) and lists its files beforehand; a spinner with the time taken
    while a ``--native`` target compiles; else `options` as they are."""
    if getattr(options, "native", False):  # a compile of minutes: its time shown as it runs
        from century.cli.screen.progress import Working

        with Working(f"{game} {target.name}: compiling with mypyc (a minute or more)"):
            yield options
        return
    if names is None or not isinstance(options, Told):
        yield options
        return
    from century.cli.screen.progress import Progress

    with Progress(f"{game} {target.name}", len(names), "files") as progress:
        yield replace(options, progress=progress)


def register(app: typer.Typer) -> None:
    """Add a command for every target whose name no other command has taken."""
    taken = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    for name, target in targets().items():
        if name not in taken:
            epilog = target.epilog() if target.epilog else None
            app.command(name, cls=Command, epilog=epilog)(_command(target))
