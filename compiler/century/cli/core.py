"""`century validate`, `build` and `schema`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from century.cli.common import BUILD, Format, Paper, PathsArg, fail, load_rulesets, report


def validate(
    paths: PathsArg = None,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", help="text for people, json for tools.")
    ] = Format.text,
    strict: Annotated[bool, typer.Option(help="Fail on warnings too.")] = False,
) -> None:
    """Check rules data: YAML safety, schemas, variants and semantic checks.

    Exit 0 when clean (warnings allowed unless --strict), 1 on data errors, 2 on usage errors.
    """
    from century.diagnostics import has_errors
    from century.pipeline import compile_paths

    compiled = compile_paths(paths or None)
    found = compiled.diagnostics
    report(found, fmt.value)
    errors = sum(d.severity == "error" for d in found)
    warnings = len(found) - errors
    if fmt is Format.text:
        games = ", ".join(sorted(compiled.rulesets)) or "no games"
        typer.echo(
            f"checked {compiled.files_checked} files ({games}): "
            f"{errors} error(s), {warnings} warning(s)",
            err=True,
        )
    if has_errors(found) or (strict and warnings):
        raise typer.Exit(1)
    if not compiled.rulesets and not compiled.files_checked:
        typer.echo("error: no rules files found", err=True)
        raise typer.Exit(1)


def build(
    paths: PathsArg = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = BUILD,
    paper: Annotated[
        list[Paper] | None, typer.Option("--paper", help="Paper sizes (repeat for several).")
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option(
            "--target", "-t", metavar="NAME", help="Only these targets (repeatable; default: all)."
        ),
    ] = None,
) -> None:
    """Build every game and variant found into OUT/<game>/: ruleset, engine, sheets, cards."""
    from century.output import atomic_dir
    from century.targets import BuildOptions, targets

    known = targets()
    unknown = [name for name in target or [] if name not in known]
    if unknown:
        fail(f"unknown target {unknown[0]!r} (known: {', '.join(known)})", 2)
    chosen = (
        [known[name] for name in dict.fromkeys(target)]
        if target
        else [t for t in known.values() if t.in_build]
    )
    compiled = load_rulesets(paths)
    if not compiled.rulesets:
        fail("no games found to build")
    report(compiled.diagnostics)  # warnings
    options = BuildOptions(papers=tuple(p.value for p in paper or [Paper.a4]))
    for game_id, ruleset in sorted(compiled.rulesets.items()):
        with atomic_dir(out / game_id) as tmp:
            for each in chosen:
                each.write(ruleset, tmp, options)
        typer.echo(f"built {out / game_id}")


def schema(
    write: Annotated[
        Path | None,
        typer.Option("--write", help="Copy the schemas into this folder (for your own variants)."),
    ] = None,
) -> None:
    """Show where the JSON Schemas are, or copy them next to your own rules files."""
    import shutil

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
    write.mkdir(parents=True, exist_ok=True)
    for f in files:
        shutil.copyfile(f, write / f.name)
    typer.echo(f"wrote {len(files)} schemas to {write}")


def register(app: typer.Typer) -> None:
    app.command()(validate)
    app.command()(build)
    app.command()(schema)
