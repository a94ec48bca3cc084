"""Cards written on the command line (`century experiment --add CARD`, ``--replace
ID=CARD``), checked as the rules check them and reported in the user's own text.

The changed game is loaded from a variant file in which every card stands as the user typed it
(indented under its deck's ``add`` or ``replace``), so the loader, the schema and the checks see
the user's own YAML: a problem inside a card is then shown at its line and column in the option
(``--add:1:30: error C104: 0 is below the minimum 1``) under the text typed, never in the
temporary file. Cards take every form a deck takes: a short form (``{kind: gain, get: YY}``)
or steps (``{effect: [gain: YY, upgrade: 1]}``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer

from century.base.diagnostics import Diagnostic, has_errors, printable

OPTION_OF = {"--own": "--add", "--versus": "--add", "--row": "--add"}
"""Options whose cards a variant adds to its deck as ``--add`` does."""

INDENT = 8
"""The columns a card's lines are indented by in the variant file."""


@dataclass(frozen=True)
class CardText:
    """One card option as typed: the option, its whole value, where the card starts in it
    (after ``ID=`` for a replacement) and the card it reads as."""

    option: str
    text: str
    start: int
    card: Mapping[str, Any]
    label: str = ""
    """How messages name it: the option, numbered when it is given more than once."""

    @property
    def lines(self) -> list[str]:
        return self.text[self.start :].splitlines() or [""]


def labelled(cards: Sequence[CardText]) -> list[CardText]:
    """`cards` with their labels: ``--add``, or ``--add #2`` when ``--add`` is given more
    than once."""
    count = {option: sum(c.option == option for c in cards) for option in {c.option for c in cards}}
    seen: dict[str, int] = {}
    found = []
    for card in cards:
        seen[card.option] = seen.get(card.option, 0) + 1
        several = count[card.option] > 1
        found.append(
            replace(card, label=f"{card.option} #{seen[card.option]}" if several else card.option)
        )
    return found


def variant_yaml(variant_json: str, cards: Sequence[CardText]) -> tuple[str, dict[int, CardText]]:
    """The changed game's variant (JSON, as `century.experiments.changes.variant_text` writes it)
    as YAML with each card of `cards` as typed, and the first line of each card's text."""
    data = json.loads(variant_json)
    lines = [
        f"{key}: {json.dumps(data[key], ensure_ascii=False)}" for key in data if key != "cards"
    ]
    if data.get("cards"):
        lines.append("cards:")
    starts: dict[int, CardText] = {}
    unused = list(cards)

    def place(card: Mapping[str, Any], option: str, head: str) -> None:
        typed = next(
            (
                c
                for c in unused
                if OPTION_OF.get(c.option, c.option) == option and dict(c.card) == dict(card)
            ),
            None,
        )
        if typed is None:  # not typed by the user: as the variant has it
            lines.append(f"{head} {json.dumps(card, ensure_ascii=False)}")
            return
        unused.remove(typed)
        lines.append(head)
        starts[len(lines) + 1] = typed
        lines.extend(" " * INDENT + line for line in typed.lines)

    for deck, ops in data.get("cards", {}).items():
        lines.append(f"  {json.dumps(deck)}:")
        if "remove" in ops:
            lines.append(f"    remove: {json.dumps(ops['remove'], ensure_ascii=False)}")
        if "add" in ops:
            lines.append("    add:")
            for card in ops["add"]:
                place(card, "--add", "      -")
        if "replace" in ops:
            lines.append("    replace:")
            for card_id, card in ops["replace"].items():
                place(card, "--replace", f"      {json.dumps(card_id, ensure_ascii=False)}:")
    return "\n".join(lines) + "\n", starts


def in_typed_text(
    diagnostics: Sequence[Diagnostic], file: Path, starts: Mapping[int, CardText]
) -> tuple[list[Diagnostic], list[tuple[Diagnostic, CardText]]]:
    """The diagnostics that are not inside a typed card, and those that are, each placed in
    the card's option (file: its label; line and column in the option's text)."""
    other: list[Diagnostic] = []
    typed: list[tuple[Diagnostic, CardText]] = []
    for d in diagnostics:
        card, first = _card_at(d, file, starts)
        if card is None:
            other.append(d)
            continue
        line = d.line - first + 1
        col = max(1, d.col - INDENT) + (card.start if line == 1 else 0)
        typed.append((replace(d, file=card.label, line=line, col=col, related=()), card))
    return other, typed


def _card_at(
    d: Diagnostic, file: Path, starts: Mapping[int, CardText]
) -> tuple[CardText | None, int]:
    if d.file != str(file) and (d.file.startswith("<") or Path(d.file).resolve() != file.resolve()):
        return None, 0
    for first, card in starts.items():
        if first <= d.line < first + len(card.lines):
            return card, first
    return None, 0


def _in(d: Diagnostic, file: Path) -> bool:
    """Whether `d` stands in `file` (the changed game's temporary variant file)."""
    return d.file == str(file) or (not d.file.startswith("<") and Path(d.file).name == file.name)


def framed(d: Diagnostic, card: CardText) -> str:
    """A diagnostic placed in a typed card, with the option's line and a caret under it."""
    text_lines = card.text.splitlines() or [""]
    source = text_lines[d.line - 1] if d.line <= len(text_lines) else ""
    number = str(d.line)
    pad = " " * len(number)
    return "\n".join(
        [
            d.format().split("\n")[0],
            f"{pad} |",
            f"{number} | {source}",
            f"{pad} | {' ' * (d.col - 1)}^",
            *([f"{pad} = hint: {d.hint}"] if d.hint else []),
        ]
    )


def load_changed(
    folder: Path,
    variant_json: str,
    cards: Sequence[CardText],
    paths: list[Path],
    variant_id: str,
    described: str = "",
) -> Any:
    """The changed game, loaded from `folder` with the cards as typed; exit 1 with the
    diagnostics (those inside a card in the user's text; with `described`, the change as the
    user wrote it, those elsewhere in the changed game's file) when it has errors."""
    from century.cli.common import report
    from century.pipeline import compile_paths

    file = folder / "changed.yaml"
    text, starts = variant_yaml(variant_json, labelled(cards))
    file.write_text(text, encoding="utf-8")
    compiled = compile_paths([*paths, folder], with_bundled=True, only=variant_id)
    if has_errors(compiled.diagnostics):
        other, typed = in_typed_text(compiled.diagnostics, file, starts)
        for number, (d, card) in enumerate(typed):
            typer.echo(("\n" if number else "") + framed(d, card), err=True)
        ours = [d for d in other if d.severity == "error" and _in(d, file)]
        if described and ours and not typed:
            problems = "; ".join(
                f"{d.code} {d.message}" + (f" (at {d.path})" if d.path else "") for d in ours
            )
            message = f"{described}: not a valid change: {problems}"
            typer.echo(f"error: {printable(message)}", err=True)
            raise typer.Exit(1)
        if other:
            if typed:
                typer.echo("", err=True)
            report(other)
        raise typer.Exit(1)
    return compiled.rulesets[variant_id]
