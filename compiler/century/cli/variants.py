"""`century show`, `diff` and `new`: working with variants."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import (
    Command,
    Format,
    RulesOpt,
    check_out,
    fail,
    load_rulesets,
    local_rules,
    require_game,
)

if TYPE_CHECKING:
    from century.pipeline import Compiled


NEW_VARIANT = """\
# yaml-language-server: $schema={schema}
# {name}: a variant of {base}. Say only what differs; everything else is inherited.
# `century show {id}` prints the result with the file and line of every value.
id: {id}
extends: {base}
name: {{{names}}}

# Examples of what a variant can change (remove the # to use one):
# caravan_limit: 12
# end:
#   point_cards: {{2: 5, 3: 5}}        # per player count; other counts are inherited
# setup:
#   merchant_row: 7
# resources:                          # rename or recolour by id (a re-theme)
#   {resource}: {{name: {{en: ..., de: ...}}, colour: "#FFCC00"}}
# cards:
#   merchant:
#     remove: [{card}]
#     add:
#       - {{kind: trade, pay: {pay}, get: {get}}}
"""


def _pick(compiled: Compiled, game: str) -> Compiled:
    """`compiled` if it holds `game`, else exit 2 naming the games there are."""
    require_game(compiled, game)
    return compiled


def show(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game or variant id.")],
    rules: RulesOpt = None,
    sources: Annotated[
        bool, typer.Option("--sources/--no-sources", help="Mark each value with file:line.")
    ] = True,
) -> None:
    """Print the effective (resolved) ruleset as YAML, each value marked with its source."""
    from century.frontend.show import render

    compiled = _pick(load_rulesets(rules or local_rules(), with_bundled=True), game)
    typer.echo(render(compiled.resolved[game].tree, sources=sources), nl=False)


def diff(
    a: Annotated[str, typer.Argument(metavar="GAME", help="First game or variant id.")],
    b: Annotated[str, typer.Argument(metavar="GAME", help="Second game or variant id.")],
    rules: RulesOpt = None,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", metavar="FORMAT", help="text or json.")
    ] = Format.text,
) -> None:
    """Show what differs between two resolved rulesets: rules, cards, names."""
    from century.model.diff import diff as compute
    from century.model.diff import format_text

    compiled = _pick(_pick(load_rulesets(rules or local_rules(), with_bundled=True), a), b)
    result = compute(compiled.rulesets[a], compiled.rulesets[b])
    if fmt is Format.json:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        typer.echo(format_text(result))


def new(
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="Id of the new variant, e.g. my-house-rules.")
    ],
    base: Annotated[str, typer.Option("--from", metavar="GAME", help="The game it extends.")],
    folder: Annotated[
        Path | None,
        typer.Option(
            "--dir", metavar="DIR", help="Where to write it (default: ./rules if there, else .)."
        ),
    ] = None,
    rules: RulesOpt = None,
    force: Annotated[bool, typer.Option(help="Overwrite an existing file.")] = False,
) -> None:
    """Write a minimal variant file that validates at once.

    The file starts with a schema modeline for editors: it points at a schema folder beside
    the rules if there is one, else the schemas are copied to ./schema/.
    """
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or len(name) > 64:
        fail(f"{name!r} is not a valid id (lower-case letters, digits, dashes)", 2)
    folder = folder or (Path("rules") if Path("rules").is_dir() else Path("."))
    check_out(folder, what="--dir")
    compiled = _pick(load_rulesets(rules or local_rules(), with_bundled=True), base)
    ruleset = compiled.rulesets[base]
    target = folder / f"{name}.yaml"
    if target.exists() and not force:
        fail(f"{target} exists (use --force to overwrite)")
    folder.mkdir(parents=True, exist_ok=True)
    schemas = _schema_folder(folder)
    schema = Path(os.path.relpath(schemas / "variant.schema.json", folder.resolve())).as_posix()
    trade = next((c for c in ruleset.merchant_deck if c.kind == "trade"), None)
    text = NEW_VARIANT.format(
        schema=schema,
        name=name,
        base=base,
        id=name,
        names=", ".join(f"{lang}: {name}" for lang in ruleset.languages),
        resource=ruleset.resources[0].id,
        card=(trade or ruleset.merchant_deck[0]).id,
        pay=ruleset.cubes(trade.cubes("pay")) if trade else ruleset.codes[0],
        get=ruleset.cubes(trade.cubes("get")) if trade else ruleset.codes[-1],
    )
    from century.output import atomic_write_bytes

    atomic_write_bytes(target, text.encode("utf-8"))
    typer.echo(f"wrote {target}; check it with: century validate {target}")


def _schema_folder(folder: Path) -> Path:
    """A folder holding the schemas for `folder`'s files: an existing ``schema`` folder beside
    or above it, else ``./schema`` with the bundled schemas copied in (never overwritten)."""
    from century.output import atomic_write_bytes
    from century.resources import SCHEMAS

    folder = folder.resolve()
    for candidate in (folder / "schema", folder.parent / "schema", Path("schema").resolve()):
        if (candidate / "variant.schema.json").is_file():
            return candidate
    target = Path("schema").resolve()
    for source in sorted(SCHEMAS.glob("*.schema.json")):
        if not (target / source.name).exists():
            atomic_write_bytes(target / source.name, source.read_bytes())
    return target


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(show)
    app.command(cls=Command)(diff)
    app.command(cls=Command)(new)
