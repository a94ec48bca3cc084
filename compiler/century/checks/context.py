"""What every check reads: the resolved tree, its plain data, and a way to locate problems."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from century.base.diagnostics import Diagnostic, Mark, Severity
from century.frontend.loader import Node, Path_, format_path

DECKS = ("starting", "merchant", "point")


@dataclass
class Context:
    """A resolved game tree, its plain data and helpers to locate problems."""

    tree: Node
    code: str = ""
    """The code of the check running now (set by `run_checks`)."""
    own: frozenset[str] = frozenset()
    """The files of the game being checked itself, as diagnostics name them: a variant's own
    file and the decks and texts it names, not the files of the game it extends."""
    memo: dict[str, Any] = field(default_factory=dict)
    """What checks derive from the tree and share (read once per game)."""

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
        because: tuple[Path_, ...] = (),
    ) -> Diagnostic:
        """A diagnostic of the running check at `path` (at its key with `key`).

        `because` are the other values the problem comes from (the caravan limit a starting
        caravan breaks). When `path` lies in a file the game inherits and one of them was set
        in the game's own files, the diagnostic stands where the user wrote that value, and
        the inherited place becomes related information, named in the message.
        """
        mark = self.tree.locate(path, key=key)
        if self.own and mark.file not in self.own:
            for cause in because:
                there = self.tree.locate(cause)
                if there.file in self.own and _exists(self.tree, cause):
                    return Diagnostic.at(
                        there,
                        self.code,
                        f"{message} ({format_path(path)} is inherited from {mark})",
                        path=format_path(cause),
                        hint=hint,
                        severity=severity,
                        related=(mark, *related),
                    )
        return Diagnostic.at(
            mark,
            self.code,
            message,
            path=format_path(path),
            hint=hint,
            severity=severity,
            related=related,
        )


def _exists(tree: Node, path: Path_) -> bool:
    """Whether `path` leads to a value of `tree` (not just to an ancestor of where it would)."""
    node = tree
    for part in path:
        value = node.value
        found = isinstance(value, dict) and isinstance(part, str) and part in value
        found = found or (
            isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        )
        if not found:
            return False
        node = value[part]
    return True


Check = Callable[[Context], Iterator[Diagnostic]]
