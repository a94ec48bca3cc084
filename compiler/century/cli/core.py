"""`century validate`, `build` and `schema`."""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BUILD,
    Backend,
    Command,
    OutOpt,
    Paper,
    PapersOpt,
    PathsArg,
    TargetsOpt,
    check_out,
    fail,
    load_rulesets,
    local_rules,
    report,
    write_outputs,
)
from century.cli.formats import DiagnosticFormat

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.targets import BuildOptions, Target


def validate(
    paths: PathsArg = None,
    fmt: Annotated[
        DiagnosticFormat,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            help="text for people (a code frame under each problem, colour on a terminal), "
            "json for tools, github for workflow annotations, sarif for code scanning.",
        ),
    ] = DiagnosticFormat.text,
    strict: Annotated[bool, typer.Option(help="Fail on warnings too.")] = False,
) -> None:
    """Check rules data: YAML safety, schemas, variants and semantic checks.

    PATHS are files or folders, searched recursively; without them, the current folder's
    rules/ and cards/ if it has them, else the bundled games. A deck or rule-sheet text named
    alone is checked with every game of its project that uses it. Exit 0 when clean
    (warnings allowed unless --strict), 1 on data errors, 2 on usage errors.
    """
    from century.base.diagnostics import has_errors
    from century.pipeline import compile_paths

    compiled = compile_paths(paths or local_rules() or None)
    found = compiled.diagnostics
    report(found, fmt.value)
    errors = sum(d.severity == "error" for d in found)
    warnings = len(found) - errors
    if fmt is DiagnosticFormat.text:
        typer.echo(summary(compiled.games, compiled.files, errors, warnings), err=True)
    if has_errors(found) or (strict and warnings):
        raise typer.Exit(1)
    if not compiled.games:
        fail("no game or variant found, so nothing could be checked whole")


def summary(
    games: list[str], files: list[str], errors: int, warnings: int, width: int | None = None
) -> str:
    """``checked 2 games (a, b) in 5 files under rules/, <bundled>: 0 errors, 0 warnings``, on
    one line of `width` characters (default: the terminal's, else 100): past it, fewer folders
    and games are named. The user's folders come first, the bundled data last."""
    width = width or _terminal_width()
    folders = sorted(dict.fromkeys(_top_folder(f) for f in files), key=lambda f: f[0] == "<")
    unique = sorted(set(games))
    count = len(unique)
    tail = f": {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"

    def line(named: int, shown: int) -> str:
        names = ", ".join(unique[:named])
        if names and count > named:
            names += f" and {count - named} more"
        where = ", ".join(folders[:shown])
        if where and len(folders) > shown:
            where += f" and {len(folders) - shown} more"
        return (
            f"checked {count} game{'s' * (count != 1)}{f' ({names})' if names else ''} in "
            f"{len(files)} file{'s' * (len(files) != 1)}{f' under {where}' if where else ''}{tail}"
        )

    named, shown = min(count, 8), min(len(folders), 4)
    text = line(named, shown)
    while len(text) > width and (named or shown):
        if shown:
            shown -= 1
        else:
            named -= 1
        text = line(named, shown)
    return text


def _top_folder(name: str) -> str:
    """The folder a file is shown under in the summary: ``<bundled>`` for the bundled data,
    the first folder of a path below the working folder, else the file's own folder."""
    from century.frontend.sources import BUNDLED

    parts = Path(name).parts
    if parts and parts[0] == BUNDLED:
        return BUNDLED
    if len(parts) > 1 and not Path(name).is_absolute() and parts[0] != "..":
        return parts[0] + "/"
    return os.path.join(str(Path(name).parent), "")


def _terminal_width() -> int:
    """The width of the terminal diagnostics go to ($COLUMNS first), else 100."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(2).columns
    except OSError:
        return 100


NativeOpt = Annotated[
    bool,
    typer.Option(
        "--native",
        help="Also compile each engine with mypyc (needs mypy and a C compiler; see "
        "`century engine --help`).",
    ),
]
BackendOpt = Annotated[
    Backend,
    typer.Option(
        "--backend",
        help="The engine's backend: python (the reference), or c for the C engine beside "
        "it too (needs a C compiler; see `century engine --help`).",
    ),
]


def build(
    paths: PathsArg = None,
    out: OutOpt = BUILD,
    paper: PapersOpt = None,
    target: TargetsOpt = None,
    native: NativeOpt = False,
    backend: BackendOpt = Backend.python,
) -> None:
    """Build every game and variant found into OUT/<game>/: ruleset, engine, sheets, cards.

    A game folder is built whole in a temporary folder and swapped in; its manifest lists
    what century wrote, and a folder holding anything else (a user's file, rules data) is
    refused before any work. Builds into one OUT folder take turns.
    """
    from century.base.output import OutputError
    from century.targets import BuildOptions, TargetError

    check_out(out)
    _check_backend(backend, native)
    chosen = pick_targets(target)
    check_not_game_ids(paths)
    compiled = load_rulesets(paths or local_rules())
    if not compiled.rulesets:
        fail("no games found to build")
    report(compiled.diagnostics)  # warnings
    options = BuildOptions(
        papers=tuple(p.value for p in paper or [Paper.a4]), native=native, backend=backend.value
    )
    try:
        build_games(
            compiled.rulesets,
            out,
            chosen,
            options,
            lambda game_id, _files, _seconds: typer.echo(f"built {out / game_id}"),
        )
    except OutputError as err:
        fail(str(err), 2 if err.usage else 1)
    except TargetError as err:
        fail(str(err), details=err.details)
    except OSError as err:
        fail(f"cannot write into {out}: {err.strerror or err}")


def _check_backend(backend: Backend, native: bool) -> None:
    """Refuse, before any work, a C engine this machine cannot compile or asked for along
    with --native."""
    if backend is Backend.c:
        from century.engine.cbuild import missing

        lacking = missing()
        if lacking:
            fail(f"cannot compile the C engine: {lacking}")
        if native:
            fail("--native and --backend c both compile the engine: pick one", 2)


def check_not_game_ids(paths: list[Path] | None) -> None:
    """Exit 2 for a path that does not exist and reads as a game id (``century build
    house-rulez``): `build` takes files and folders, so say which game it may have meant and
    which commands take an id."""
    import re

    from century.pipeline import compile_paths

    for path in paths or []:
        name = str(path)
        if os.path.lexists(path) or not re.fullmatch(r"[a-z][a-z0-9-]{0,63}", name):
            continue
        known = compile_paths(local_rules() or None, only="\0").known  # ids only: no game built
        near = [name] if name in known else difflib.get_close_matches(name, known, n=1)
        if not near:
            return  # an ordinary missing path: C001 says so
        said = f"'{name}' is a game id" if near == [name] else f"no file or folder '{name}'"
        guess = "" if near == [name] else f" (did you mean the game {near[0]!r}?)"
        fail(
            f"{said}{guess}: `century build` takes rules files or folders (default: ./rules); "
            f"a target's command takes a game id (`century sheets {near[0]}`)",
            2,
        )


def pick_targets(names: list[str] | None) -> list[Target]:
    """The targets named by ``--target`` (exit 2 for an unknown one), else every target a
    plain build writes."""
    from century.targets import targets

    known = targets()
    unknown = [name for name in names or [] if name not in known]
    if unknown:
        fail(f"unknown target {unknown[0]!r} (known: {', '.join(known)})", 2)
    if names:
        return [known[name] for name in dict.fromkeys(names)]
    return [t for t in known.values() if t.in_build]


def build_games(
    rulesets: dict[str, Ruleset],
    out: Path,
    chosen: list[Target],
    options: BuildOptions,
    built: Callable[[str, list[str], float], None],
) -> None:
    """Build each ruleset into OUT/<id>/ with the `chosen` targets, in id order, under OUT's
    lock: every game folder is checked before any is written, and each is built whole in a
    temporary folder and moved into place; `built` is told, per game, its id, the files
    written and the seconds taken. Raises `OutputError` for a refused folder, `TargetError`
    (naming the game and the target) for what a target cannot render, and `OSError` for a
    folder that cannot be written."""
    from dataclasses import replace

    from century.base.output import atomic_dir, atomic_write_bytes, check_folder, check_root, locked
    from century.targets import TargetError

    games = sorted(rulesets)

    def check() -> None:
        check_root(out)
        for game_id in games:
            check_folder(out / game_id)

    check()  # before any work: nothing is written if one folder is refused
    with locked(out):
        check()  # again: another build may have written meanwhile
        for game_id in games:
            start = time.perf_counter()
            request = replace(options, dest=out / game_id)
            written: list[str] = []
            with atomic_dir(out / game_id) as tmp:  # an error leaves the game's folder as it was
                for each in chosen:
                    try:
                        files = each.build(rulesets[game_id], request)
                    except TargetError as err:
                        said = f"{game_id}: {each.name}: {err}"
                        raise TargetError(said, err.usage, err.details) from None
                    for name, data in files.items():
                        atomic_write_bytes(tmp / name, data)
                    written += files
            seconds = time.perf_counter() - start
            built(game_id, sorted(set(written)), seconds)


def schema(
    write: Annotated[
        Path | None,
        typer.Option(
            "--write",
            metavar="DIR",
            help="Copy the schemas into this folder (for your own variants).",
        ),
    ] = None,
) -> None:
    """Show where the JSON Schemas are, or copy them next to your own rules files."""
    from century.base.resources import SCHEMAS

    files = sorted(SCHEMAS.glob("*.schema.json"))
    if write is None:
        typer.echo(f"JSON Schemas (draft 2020-12) in {SCHEMAS}:")
        for f in files:
            typer.echo(f"  {f.name}")
        typer.echo(
            "Start a rules file with `# yaml-language-server: $schema=<path>/variant.schema.json`"
        )
        return
    from century.base.inputs import read_bytes
    from century.base.limits import MAX_FILE_BYTES

    check_out(write, [f.name for f in files], what="--write")
    data = {f.name: read_bytes(f, f.name, MAX_FILE_BYTES) for f in files}  # inputs: never output
    write_outputs(write, data)
    typer.echo(f"wrote {len(files)} schemas to {write}")


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(validate)
    app.command(cls=Command)(build)
    app.command(cls=Command)(schema)
