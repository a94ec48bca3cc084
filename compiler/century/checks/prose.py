"""Checks that need the built model: every rule-sheet sentence renders."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from century.base.diagnostics import Diagnostic
from century.frontend.loader import Node, Path_, format_path
from century.model.ruleset import Ruleset


def check_prose(ruleset: Ruleset, tree: Node) -> Iterator[Diagnostic]:
    """Every rule-sheet sentence renders: its placeholders exist in the ruleset."""
    from century.model.text import TextError
    from century.prose import ProseError, check_prose_renders, prose_keys

    for lang in ruleset.languages:
        missing = sorted(prose_keys(ruleset) - set(ruleset.prose.get(lang, {})))
        if missing and lang in ruleset.prose:
            shown = ", ".join(missing[:8]) + (
                f" and {len(missing) - 8} more" if len(missing) > 8 else ""
            )
            yield Diagnostic.at(
                tree.locate(("prose", lang, "text")),
                "C401",
                f"rule-sheet text ({lang}) lacks keys the sheet needs: {shown}",
                path=f"prose.{lang}.text",
            )
            continue
        try:
            unread = check_prose_renders(ruleset, lang)
        except ProseError as err:
            path: Path_ = ("prose", err.lang, "text", err.key)
            verb = {"C403": "goes past a limit", "C404": "prints an object"}.get(
                err.code, "does not render"
            )
            yield Diagnostic.at(
                tree.locate(path),
                err.code,
                f"rule-sheet text {err.key!r} ({err.lang}) {verb}: {str(err).split(': ', 1)[-1]}",
                path=format_path(path),
                hint="the placeholders are listed in the docs (how-to: rule sheets)"
                if err.code == "C402"
                else "prose is plain sentences; the sandbox's limits are in the docs (Limits)",
            )
        except TextError as err:
            yield Diagnostic.at(tree.locate(("prose",)), "C402", str(err), path="prose")
        else:
            yield from _unread(tree, lang, unread)


def _unread(tree: Node, lang: str, unread: list[tuple[Any, str, str]]) -> Iterator[Diagnostic]:
    """C405 at each card whose sentence in `lang` does not read back as its effect."""
    if not unread:
        return
    from century.checks.context import Context
    from century.model.cards import derived_id, is_merchant

    ctx = Context(tree)
    paths: dict[str, Path_] = {}
    for deck, i, entry in ctx.cards():
        if is_merchant(entry):
            paths.setdefault(derived_id(entry), ("decks", deck, "cards", i))
    for card, sentence, why in unread:
        path = paths.get(card.id, ("prose", lang, "text"))
        yield Diagnostic.at(
            tree.locate(path),
            "C405",
            f"card {card.id!r}: its sentence ({lang}) does not read back as its effect, {why}:"
            f" {sentence!r}",
            path=format_path(path),
            hint="the phrases of card effects (eff_*) must keep every effect's words apart:"
            " see the docs (how-to: rule sheets)",
        )
