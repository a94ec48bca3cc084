"""The ``effect`` cell of a deck table: the one-cell notation (`century.model.notation`) read
into the located tree YAML's ``effect:`` gives, every step, word and value at its place in the
cell (``file:line:col``), so that the schema and the checks locate their problems inside it."""

from __future__ import annotations

from century.base.diagnostics import Diagnostic, Mark
from century.frontend.loader import Node
from century.model.notation import NotationError, Piece, parse


def cell_effect(
    text: str, raw: str, start: Mark, quoted: bool
) -> tuple[Node | None, int, list[Diagnostic]]:
    """The steps an ``effect`` cell writes as a node (None with its diagnostic when the text
    is no effect) and how many values the node holds. `text` is the cell's value, `raw` the
    cell as split (quotes undone), `start` where the cell starts."""
    where = _Places(raw, start, quoted)
    try:
        piece = parse(text)
    except NotationError as err:
        return (
            None,
            0,
            [Diagnostic.at(where.mark(err.at), err.code, f"effect: {err.message}", hint=err.hint)],
        )
    counted = [0]
    return _node(piece, where, counted), counted[0], []


def _node(piece: Piece, where: _Places, counted: list[int]) -> Node:
    counted[0] += 1
    value = piece.value
    if isinstance(value, dict):
        value = {key: _node(child, where, counted) for key, child in value.items()}
        counted[0] += len(value)
    elif isinstance(value, list):
        value = [_node(child, where, counted) for child in value]
    keys = {key: where.mark(at) for key, at in piece.keys.items()}
    return Node(value, where.mark(piece.at), keys)


class _Places:
    """The mark of an offset into a cell's value: where that character stands in the file
    (after the opening quote of a quoted cell, whose doubled quotes take two columns and line
    breaks start a line; after the spaces an unquoted cell's value drops)."""

    def __init__(self, raw: str, start: Mark, quoted: bool) -> None:
        self.raw, self.start, self.quoted = raw, start, quoted
        self.lead = 0 if quoted else len(raw) - len(raw.lstrip())

    def mark(self, at: int) -> Mark:
        line, col = self.start.line, self.start.col + (1 if self.quoted else 0)
        for char in self.raw[: self.lead + at]:
            if char == "\n":
                line, col = line + 1, 1
            else:
                col += 2 if self.quoted and char == '"' else 1
        return Mark(self.start.file, line, col)
