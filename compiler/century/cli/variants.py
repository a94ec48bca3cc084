"""`century show`, `diff` and `new`: working with variants."""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from century.base.diagnostics import CONTROL
from century.base.output import OutputError, atomic_write_bytes, check_inside
from century.cli.common import (
    COMPLETE_GAMES,
    LOCAL,
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
    from century.model.ruleset import Ruleset
    from century.pipeline import Compiled


NEW_VARIANT = """\
# yaml-language-server: $schema={schema}
# {title}: a variant of {base}.
# Say only what differs; everything else is inherited.
# Commands (in {where}):
{commands}
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
#       - {{effect: [gain: {low}, upgrade: 1]}}   # steps: gain, pay, pay_any, upgrade,
#                                           # repeat (max), choose (see the docs)
# decks:                              # a deck of your own, from a spreadsheet:
#   merchant: {table}
#   # written first by: century deck export {id} merchant --out {table_out}
# look:                               # your own pieces; files relative to this file (art/)
#   card_size: bridge                 # poker (default), bridge, mini, tarot, or [W, H] in mm
#   decks:
#     merchant: {{frame: "#2F4858", back: art/back.png, art: art/merchant.png}}
#     point: {{art: {{file: art/point.svg, fit: contain}}}}   # cover (default) or contain
#   art: {{{card}: art/{card}.png}}   # one card's own picture
#   icons: {{{resource}: art/{resource}.svg}}   # drawn instead of its cube
#   fonts: {{title: art/MyFont-Bold.ttf, text: art/MyFont-Regular.ttf}}
"""

ART_README = """\
# Art for {title}

Pictures, icons and fonts that `rules/{id}.yaml` names under `look:`, relative to that file
(`art/back.png`). Pictures are PNG, JPEG or SVG (an SVG may link nothing outside itself);
fonts are TTF or OTF. `century validate` warns about pictures under 300 dpi at their size on
the card, text colours under 4.5 : 1, fonts without a character the game's texts use, and
backs that do not cover the bleed; `century watch` rebuilds when a file here changes.
"""

PROJECT_README = """\
# {title}

A variant of {base_title} (`{base}`), written as data for the `century` rules compiler.

```
rules/{id}.yaml   the variant: only what differs from {base}
schema/           JSON Schemas, so that editors check the YAML while you type
build/            what `century build` writes (safe to delete)
```

Run these in this folder:

```sh
century show {id}       # the whole ruleset, each value marked with its file and line
century validate        # check the rules
century build           # engine, rule sheets and print-and-play kit into build/{id}/
century sheets {id}     # only the rule sheets
century play {id}       # play against bots in the terminal
century simulate {id}   # a balance report from many simulated games
century watch           # rebuild on every save
```

Card lists can live in a spreadsheet: `century deck export {id} merchant --out
cards/merchant.csv` writes the merchant deck as a CSV table (one card per row); name it in
`rules/{id}.yaml` as `decks: {{merchant: ../cards/merchant.csv}}` to play with your edits.
"""

TitlesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--title",
        metavar="TEXT",
        help="The variant's title, or LANG=TEXT for one language (repeatable; default: the "
        "base game's title and the id in words).",
        show_default=False,
    ),
]
BaseOpt = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="GAME",
        help="The game it extends.",
        show_default=False,
        autocompletion=COMPLETE_GAMES,
    ),
]
ForceOpt = Annotated[bool, typer.Option(help="Overwrite an existing variant file.")]
ExampleLookOpt = Annotated[
    bool,
    typer.Option(
        "--example-look",
        help="Also lay out a sample art folder (a back, a card picture, an icon of the first "
        "resource and a font) for the tutorial on a variant's own look.",
    ),
]


def _pick(compiled: Compiled, game: str) -> Compiled:
    """`compiled` if it holds `game`, else exit 2 naming the games there are."""
    require_game(compiled, game)
    return compiled


def show(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", help="Game or variant id.", autocompletion=COMPLETE_GAMES),
    ],
    rules: RulesOpt = None,
    sources: Annotated[
        bool, typer.Option("--sources/--no-sources", help="Mark each value with file:line.")
    ] = True,
) -> None:
    """Print the effective (resolved) ruleset as YAML, each value marked with its source."""
    from century.frontend.show import draw_tree

    compiled = _pick(load_rulesets(rules or local_rules(), with_bundled=True), game)
    typer.echo(draw_tree(compiled.resolved[game].tree, sources=sources), nl=False)


def diff(
    a: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help="First game or variant id.", autocompletion=COMPLETE_GAMES
        ),
    ],
    b: Annotated[
        str,
        typer.Argument(
            metavar="GAME", help="Second game or variant id.", autocompletion=COMPLETE_GAMES
        ),
    ],
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
    base: BaseOpt = None,
    folder: Annotated[
        Path | None,
        typer.Option(
            "--dir", metavar="DIR", help="Where to write it (default: ./rules, made if needed)."
        ),
    ] = None,
    title: TitlesOpt = None,
    rules: RulesOpt = None,
    force: ForceOpt = False,
    example_look: ExampleLookOpt = False,
) -> None:
    """Write a minimal variant file that validates at once, where every command finds it.

    Without --dir it goes into ./rules; in a folder without rules of its own, the project is
    laid out around it (rules/, schema/ and a short README.md), as `century init` does. The
    file starts with a schema modeline for editors (a schema folder beside the rules, else
    the schemas are copied to ./schema/) and a comment naming the commands that use it.
    With --example-look, the art folder beside it gets sample files to name under `look:`
    (it never replaces a file there).
    """
    _check_id(name)
    layout = folder is None and not local_rules()
    compiled = load_rulesets(rules or local_rules(), with_bundled=True)
    chosen = _base(compiled, base)
    _write_project(
        Path("."), folder or Path("rules"), name, chosen, title, force, layout, example_look
    )


def init(
    directory: Annotated[
        Path,
        typer.Argument(metavar="DIR", help="The project folder (made if needed)."),
    ] = Path("."),
    base: BaseOpt = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="NAME", help="Id of the variant (default: from the folder's name)."
        ),
    ] = None,
    title: TitlesOpt = None,
) -> None:
    """Lay out a project for a first variant: DIR/rules/NAME.yaml extending a bundled game,
    the JSON Schemas in DIR/schema/ and a short DIR/README.md naming the commands to run."""
    from century.frontend.sources import has_rules_files

    rules_dir = directory / "rules"
    if rules_dir.is_dir() and has_rules_files(rules_dir):
        fail(
            f"{rules_dir} already holds rules files; add a variant there with "
            "`century new NAME --from GAME`"
        )
    variant = name or _id_from(directory)
    _check_id(variant)
    compiled = load_rulesets(None, with_bundled=True)
    chosen = _base(compiled, base)
    _write_project(directory, rules_dir, variant, chosen, title, False, True)


def _check_id(name: str) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name) or len(name) > 64:
        fail(f"{name!r} is not a valid id (lower-case letters, digits, dashes)", 2)


def _id_from(folder: Path) -> str:
    """A variant id from a folder's name: ``My House Rules`` -> ``my-house-rules``."""
    words = re.findall(r"[a-z0-9]+", folder.resolve().name.lower())
    made = "-".join(words)[:64].strip("-")
    return made if re.fullmatch(r"[a-z][a-z0-9-]*", made) else "my-variant"


def _base(compiled: Compiled, base: str | None) -> Ruleset:
    """The ruleset of the base game named by --from; exit 2 naming the games there are."""
    if base is None:
        fail(f"name the game it extends: --from GAME (known: {', '.join(compiled.known)})", 2)
    require_game(compiled, base)
    return compiled.rulesets[base]


def titles(ruleset: Ruleset, name: str, given: list[str] | None) -> dict[str, str]:
    """The new variant's title per language of `ruleset`: ``--title`` texts (``TEXT`` for
    every language, ``LANG=TEXT`` for one), else the base game's title and the id in words
    (``<base title> – House Rules``). Exit 2 for a language the game lacks or a text
    that is empty, too long or holds control characters."""
    words = " ".join(part.capitalize() for part in name.split("-") if part)
    found = {
        lang: f"{ruleset.name.get(lang, '')} – {words}".strip(" –") for lang in ruleset.languages
    }
    found = {lang: text if len(text) <= MAX_TITLE else words for lang, text in found.items()}
    for item in given or []:
        lang, sep, text = item.partition("=")
        if not sep or not re.fullmatch(r"[a-z]{2}", lang):
            lang, text = "", item
        if lang and lang not in ruleset.languages:
            fail(
                f"--title {item!r}: {lang!r} is not a language of the game "
                f"({', '.join(ruleset.languages)})",
                2,
            )
        text = text.strip()
        if not text or len(text) > MAX_TITLE or CONTROL.search(text):
            fail(f"--title {item!r}: a title is one line of 1 to {MAX_TITLE} characters", 2)
        for each in [lang] if lang else ruleset.languages:
            found[each] = text
    return found


MAX_TITLE = 200
"""The longest title (the schema's longest text)."""


@dataclass(frozen=True)
class VariantRequest:
    """What `century new` writes: the variant `name` of `base` in `folder` of the project
    `root`, its titles, and whether it may replace its file, lays out the project (a
    README.md and an art folder) and adds the sample art."""

    root: Path
    folder: Path
    name: str
    base: Ruleset
    given: list[str] | None
    force: bool
    layout: bool
    example: bool = False


def _write_project(
    root: Path,
    folder: Path,
    name: str,
    base: Ruleset,
    given: list[str] | None,
    force: bool,
    layout: bool,
    example: bool = False,
) -> None:
    """Write the variant `name` of `base` into `folder`, with the schemas it names and, when
    `layout`, a README.md in the project folder `root`, and with `example` the sample art
    folder (`century.cli.example_look`); every check comes before any write."""
    request = VariantRequest(root, folder, name, base, given, force, layout, example)
    check_out(folder, what="--dir")
    target = folder / f"{name}.yaml"
    if target.exists() and not force:
        fail(f"{target} exists (use --force to overwrite)")
    names = titles(base, name, given)
    schemas, copy, samples = _checked_targets(request)
    found = _found_by_commands(root, folder)
    shown_folder = shlex.quote(_shown(folder, root))
    rules_opt = "" if found else f" --rules {shown_folder}"
    paths = "" if found else f" {shown_folder}"
    text = _variant_text(request, names, schemas, found, rules_opt, paths)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source in copy:
            atomic_write_bytes(schemas / source.name, _bundled_schema(source))
        atomic_write_bytes(target, text.encode("utf-8"), replace_input=force)
        wrote = [str(target)] + ([f"{_shown(schemas, Path('.'))}/"] if copy else [])
        wrote += _write_layout(request, names, samples)
    except OutputError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {target}: {err.strerror or err}")
    typer.echo(f"wrote {', '.join(wrote)}: {name}, a variant of {base.id}")
    go = "" if root == Path(".") else f"cd {shlex.quote(str(root))} && "
    typer.echo(
        f"next: {go}century show {name}{rules_opt}; century validate{paths}; "
        f"century build{paths}; century sheets {name}{rules_opt}"
    )


def _checked_targets(request: VariantRequest) -> tuple[Path, list[Path], list[str]]:
    """Check every file `century new` may write before any is written (a clear error and
    exit 1 if one cannot be); the schema folder, the schemas to copy there and the sample
    art files to write."""
    from century.cli.example_look import example_names

    root, folder, base = request.root, request.folder, request.base
    art = folder / "art"
    try:
        if not request.force:  # --force replaces the file even when it was read as input
            check_inside(folder, f"{request.name}.yaml")
        schemas, copy = _schema_folder(root, folder)
        for source in copy:
            check_inside(root, f"schema/{source.name}")
        if request.layout and not os.path.lexists(root / "README.md"):
            check_inside(root, "README.md")
        if request.layout and not os.path.lexists(art):
            check_inside(folder, "art")
        samples = example_names(base.resources[0].id) if request.example else []
        for sample in samples:
            if os.path.lexists(art / sample):
                fail(f"{art / sample} exists; --example-look writes only new files")
            check_inside(folder, f"art/{sample}")
    except OutputError as err:
        fail(str(err))
    return schemas, copy, samples


def _variant_text(
    request: VariantRequest,
    names: dict[str, str],
    schemas: Path,
    found: bool,
    rules_opt: str,
    paths: str,
) -> str:
    """The variant file's text: its schema, titles, commands to try and commented examples."""
    from century.model.cards import short_fields

    root, folder, name, base = request.root, request.folder, request.name, request.base
    commands = [
        (f"century show {name}{rules_opt}", "the whole ruleset, each value with its file and line"),
        (f"century validate{paths}", "check it"),
        (f"century build{paths}", f"engine, rule sheets and print-and-play kit in build/{name}/"),
        (f"century sheets {name}{rules_opt}", "only the rule sheets"),
        (f"century play {name}{rules_opt}", "play it against bots in the terminal"),
    ]
    width = max(len(command) for command, _ in commands) + 2
    table = Path(os.path.relpath((root / "cards" / "merchant.csv").resolve(), folder.resolve()))
    schema = Path(os.path.relpath(schemas / "variant.schema.json", folder.resolve())).as_posix()
    trade = next((c for c in base.merchant_deck if c.kind == "trade"), None)
    ranks = len(base.codes)
    return NEW_VARIANT.format(
        schema=schema,
        title=names[base.languages[0]],
        base=base.id,
        where="the folder that holds rules/" if found else "the folder you ran `century new` in",
        commands="\n".join(f"#   {command:<{width}}{what}" for command, what in commands),
        id=name,
        names=", ".join(
            f"{lang}: {json.dumps(text, ensure_ascii=False)}" for lang, text in names.items()
        ),
        resource=base.resources[0].id,
        card=(trade or base.merchant_deck[0]).id,
        pay=base.cubes(short_fields(trade.effect, ranks)["pay"]) if trade else base.codes[0],
        get=base.cubes(short_fields(trade.effect, ranks)["get"]) if trade else base.codes[-1],
        low=base.codes[0] * 2,
        table=table.as_posix(),
        table_out=_shown(root / "cards" / "merchant.csv", root),
    )


def _write_layout(request: VariantRequest, names: dict[str, str], samples: list[str]) -> list[str]:
    """Write the project's README.md and art folder where `request` lays them out and they
    are missing, and the sample art; what was written, as the closing line names it."""
    from century.cli.example_look import example_files

    base, name, layout = request.base, request.name, request.layout
    readme = request.root / "README.md"
    art = request.folder / "art" / "README.md"
    wrote = []
    if layout and not os.path.lexists(readme):
        title = names[base.languages[0]]
        atomic_write_bytes(
            readme,
            PROJECT_README.format(
                title=title,
                base_title=base.name.get(base.languages[0], base.id),
                base=base.id,
                id=name,
            ).encode("utf-8"),
        )
        wrote.append(str(readme))
    if layout and not os.path.lexists(art.parent):  # where the look's files go
        art.parent.mkdir()
        art_text = ART_README.format(title=names[base.languages[0]], id=name)
        atomic_write_bytes(art, art_text.encode("utf-8"))
        wrote.append(f"{art.parent}/")
    if samples:
        first = base.resources[0]
        art.parent.mkdir(exist_ok=True)
        for sample, data in example_files(first.id, first.colour).items():
            atomic_write_bytes(art.parent / sample, data)
        wrote.append(f"{art.parent}/ ({', '.join(samples)})")
    return wrote


def _found_by_commands(root: Path, folder: Path) -> bool:
    """Whether commands run in `root` find files in `folder` without --rules."""
    real = folder.resolve()
    return any(real.is_relative_to((root / local).resolve()) for local in LOCAL)


def _shown(path: Path, root: Path) -> str:
    """`path` as a command run in `root` names it."""
    try:
        return Path(os.path.relpath(path.resolve(), root.resolve())).as_posix()
    except ValueError:
        return str(path)


def _schema_folder(root: Path, folder: Path) -> tuple[Path, list[Path]]:
    """The folder holding the schemas for `folder`'s files, and the bundled schemas to copy
    into it: an existing ``schema`` folder beside or above `folder`, or in `root`, else
    ``root/schema`` with the bundled schemas it lacks (never overwritten)."""
    from century.base.resources import SCHEMAS

    real = folder.resolve()
    for candidate in (real / "schema", real.parent / "schema", (root / "schema").resolve()):
        if (candidate / "variant.schema.json").is_file():
            return candidate, []
    target = (root / "schema").resolve() if not (root / "schema").is_symlink() else root / "schema"
    sources = sorted(SCHEMAS.glob("*.schema.json"))
    return target, [s for s in sources if not os.path.lexists(target / s.name)]


def _bundled_schema(source: Path) -> bytes:
    """A bundled schema's bytes, read as an input (so it is never output)."""
    from century.base.inputs import read_bytes
    from century.base.limits import MAX_FILE_BYTES

    return read_bytes(source, source.name, MAX_FILE_BYTES)


def register(app: typer.Typer) -> None:
    app.command(cls=Command)(show)
    app.command(cls=Command)(diff)
    app.command(cls=Command)(new)
    app.command(cls=Command)(init)
