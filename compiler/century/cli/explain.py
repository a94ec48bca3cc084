"""`century explain`: the page of a diagnostic code (`century.base.explanations`), or the list of
every code."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from century.cli.common import Command, fail

if TYPE_CHECKING:
    from rich.console import Console

    from century.base.explanations import Page


def _codes(incomplete: str) -> list[str]:
    """Completes a diagnostic code (``C3`` -> ``C301 C302 ...``)."""
    from century.base.diagnostics import CODES

    return [code for code in CODES if code.startswith(incomplete.upper())]


def explain(
    code: Annotated[
        str | None,
        typer.Argument(
            metavar="CODE",
            help="A diagnostic code, as in `error C302: ...` (without it: every code).",
            show_default=False,
            autocompletion=_codes,
        ),
    ] = None,
) -> None:
    """Explain a diagnostic code: what it means, an example that triggers it, how to fix it.

    Without CODE, list every code with what it means. Exit 2 for a code that does not exist.
    """
    from century.base.diagnostics import CODES
    from century.base.explanations import near, normalise, pages

    console = _console()
    if code is None:
        for each, title in CODES.items():
            console.print(_line(each, title), soft_wrap=True)
        console.print(
            "\n`century explain CODE` explains one (what it means, an example, how to fix it)."
        )
        return
    wanted = normalise(code)
    page = pages().get(wanted)
    if page is None or wanted not in CODES:
        close = near(code)
        guess = f"; did you mean {' or '.join(close)}?" if close else ""
        fail(f"unknown code {code!r}{guess} (`century explain` lists every code)", 2)
    _show(page, console)


def _console() -> Console:
    from rich.console import Console

    plain = bool(os.environ.get("NO_COLOR"))
    return Console(highlight=False, color_system=None if plain else "auto")


def _line(code: str, title: str) -> object:
    from rich.text import Text

    return Text.assemble((code, "bold"), "  ", title)


def _show(page: Page, console: Console) -> None:
    """Print a page: title, meaning, the example's files and command, the fix."""
    from rich.text import Text

    from century.base.explanations import published_url

    console.print(
        Text.assemble((page.code, "bold red"), ": ", (page.title, "bold")), soft_wrap=True
    )
    console.print()
    console.print(Text("What it means", style="bold cyan"))
    _paragraph(page.means, console)
    _example(page, console)
    console.print(Text("How to fix it", style="bold cyan"))
    _paragraph(page.fix, console)
    address = published_url(page.code)
    if address:
        console.print(Text.assemble(("More: ", "bold"), address))


def _paragraph(text: str, console: Console, style: str = "", after: bool = True) -> None:
    """`text` wrapped to the console's width, indented by two spaces (no trailing spaces)."""
    import textwrap

    from rich.text import Text

    width = max(40, console.width if console.is_terminal else 88)
    for line in textwrap.wrap(text, width - 2, break_on_hyphens=False):
        console.print(Text(f"  {line}", style=style), soft_wrap=True)
    if after:
        console.print()


def _example(page: Page, console: Console) -> None:
    from rich.text import Text

    from century.base.explanations import command

    example = page.example
    console.print(Text("Example", style="bold cyan"))
    if example.note:
        _paragraph(f"({example.note})", console, "italic", after=False)
    for name, text in example.files.items():
        console.print(Text(f"  {name}:", style="bold"), soft_wrap=True)
        body = text.rstrip("\n") or "(empty)"
        for line in body.splitlines():
            console.print(Text(f"      {line}", style="green"), soft_wrap=True)
    console.print(Text(f"  $ {command(example)}", style="bold"), soft_wrap=True)
    console.print()


def register(app: typer.Typer) -> None:
    """Add this module's commands to `app`."""
    app.command(cls=Command)(explain)
