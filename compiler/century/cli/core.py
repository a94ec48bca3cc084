"""`century validate`, `build` and `schema`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    BUILD,
    Command,
    Format,
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

if TYPE_CHECKING:
    from century.model.ruleset import Ruleset
    from century.targets import BuildOptions, Target


def validate(
    paths: PathsArg = None,
    fmt: Annotated[
        Format,
        typer.Option("--format", "-f", metavar="FORMAT", help="text for people, json for tools."),
    ] = Format.text,
    strict: Annotated[bool, typer.Option(help="Fail on warnings too.")] = False,
) -> None:
    """Check rules data: YAML safety, schemas, variants and semantic checks.

    PATHS are files or folders, searched recursively; without them, the current folder's
    rules/ and cards/ if it has them, else the bundled games. A deck or rule-sheet text named
    alone is checked with every game of its project that uses it. Exit 0 when clean
    (warnings allowed unless --strict), 1 on data errors, 2 on usage errors.
    """
    from century.diagnostics import has_errors
    from century.pipeline import compile_paths

    compiled = compile_paths(paths or local_rules() or None)
    found = compiled.diagnostics
    report(found, fmt.value)
    errors = sum(d.severity == "error" for d in found)
    warnings = len(found) - errors
    if fmt is Format.text:
        typer.echo(summary(compiled.games, compiled.files, errors, warnings), err=True)
    if has_errors(found) or (strict and warnings):
        raise typer.Exit(1)
    if not compiled.games:
        fail("no game or variant found, so nothing could be checked whole")


def summary(games: list[str], files: list[str], errors: int, warnings: int) -> str:
    """``checked 2 games (a, b) in 5 files under rules/, cards/: 0 errors, 0 warnings``."""
    folders = list(dict.fromkeys(str(Path(f).parent) + "/" for f in files))
    shown = ", ".join(folders[:4]) + (f" and {len(folders) - 4} more" if len(folders) > 4 else "")
    unique = sorted(set(games))
    names = ", ".join(unique[:8]) + (f" and {len(unique) - 8} more" if len(unique) > 8 else "")
    names = f" ({names})" if games else ""
    count = len(set(games))
    return (
        f"checked {count} game{'s' * (count != 1)}{names} in {len(files)} "
        f"file{'s' * (len(files) != 1)}{f' under {shown}' if files else ''}: "
        f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
    )


def build(
    paths: PathsArg = None,
    out: OutOpt = BUILD,
    paper: PapersOpt = None,
    target: TargetsOpt = None,
) -> None:
    """Build every game and variant found into OUT/<game>/: ruleset, engine, sheets, cards.

    A game folder is built whole in a temporary folder and swapped in; its manifest lists
    what century wrote, and a folder holding anything else (a user's file, rules data) is
    refused before any work. Builds into one OUT folder take turns.
    """
    from century.output import OutputError
    from century.targets import BuildOptions, TargetError

    check_out(out)
    chosen = pick_targets(target)
    compiled = load_rulesets(paths or local_rules())
    if not compiled.rulesets:
        fail("no games found to build")
    report(compiled.diagnostics)  # warnings
    options = BuildOptions(papers=tuple(p.value for p in paper or [Paper.a4]))
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
        fail(str(err))
    except OSError as err:
        fail(f"cannot write into {out}: {err.strerror or err}")


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

    from century.output import atomic_dir, atomic_write_bytes, check_folder, check_root, locked
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
                        raise TargetError(f"{game_id}: {each.name}: {err}", err.usage) from None
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
    from century.resources import SCHEMAS

    files = sorted(SCHEMAS.glob("*.schema.json"))
    if write is None:
        typer.echo(f"JSON Schemas (draft 2020-12) in {SCHEMAS}:")
        for f in files:
            typer.echo(f"  {f.name}")
        typer.echo(
            "Start a rules file with `# yaml-language-server: $schema=<path>/variant.schema.json`"
        )
        return
    check_out(write, [f.name for f in files], what="--write")
    write_outputs(write, {f.name: f.read_bytes() for f in files})
    typer.echo(f"wrote {len(files)} schemas to {write}")


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(validate)
    app.command(cls=Command)(build)
    app.command(cls=Command)(schema)
