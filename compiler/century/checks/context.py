"""What every check reads: the resolved tree, its plain data, and a way to locate problems."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from century.diagnostics import Diagnostic, Mark, Severity
from century.frontend.loader import Node, Path_, format_path

DECKS = ("starting", "merchant", "point")


@dataclass
class Context:
    """A resolved game tree, its plain data and helpers to locate problems."""

    tree: Node
    code: str = ""
    """The code of the check running now (set by `run_checks`)."""

    @cached_property
    def data(self) -> dict[str, Any]:
        return self.tree.plain()

    @cached_property
    def codes(self) -> dict[str, int]:
        """Upper-case resource code -> rank (first occurrence wins)."""
        ranks: dict[str, int] = {}
        for rank, resource in enumerate(self.data["resources"]):
            ranks.setdefault(resource["code"].upper(), rank)
        return ranks

    def cards(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        """(deck, index, card) for every card of every deck."""
        for deck in DECKS:
            for i, card in enumerate(self.data["decks"][deck]["cards"]):
                yield deck, i, card

    def diag(
        self,
        path: Path_,
        message: str,
        hint: str = "",
        severity: Severity = "error",
        key: bool = False,
        related: tuple[Mark, ...] = (),
    ) -> Diagnostic:
        """A diagnostic of the running check at `path` (at its key with `key`)."""
        return Diagnostic.at(
            self.tree.locate(path, key=key),
            self.code,
            message,
            path=format_path(path),
            hint=hint,
            severity=severity,
            related=related,
        )


Check = Callable[[Context], Iterator[Diagnostic]]
