"""Card decks from spreadsheets: a CSV or TSV file read into the located tree a YAML deck gives.

A deck table has a header row naming card fields and one card per row below it:

    kind,get,pay,steps,copies,name.en,name.de
    trade,G,YY,,,Bazaar,Basar

The columns are the fields of the deck schema's cards (``kind``, ``get``, ``pay``, ``steps``,
``effect``, ``cost``, ``points``, ``copies``, ``id``) and ``name.<lang>`` per language; an
``effect`` cell holds a card's steps in one line (`century.frontend.effectcell`: ``gain YY then
upgrade 1``), read into the steps YAML's ``effect:`` gives, each at its word. Headers are read
without case or surrounding spaces. An empty cell leaves its field out. Every cell keeps its
``file:line:col``, so the schema and the checks report a problem at the cell with the codes and
hints they give for YAML. The deck a table holds is the one the game names it as (``decks:
merchant: merchant.csv``); a table named alone is a point deck when it has ``cost`` or
``points`` columns, else a merchant deck.

Spreadsheet habits are read as meant: a UTF-8 byte-order mark, ``;`` as the delimiter (as
spreadsheets save CSV where the comma is the decimal mark), CRLF line ends, empty rows and
empty columns. A cell that starts with ``=``, ``+``, ``-`` or ``@`` and is not a value of its
column (a whole number, a card id) is a spreadsheet formula and refused, as is text after a
closing quote, a quote left open, and a cell beyond the named columns. The caps of
`century.base.limits` apply as they do to YAML: the file's bytes, the values of a file and of a run,
the rows of a deck (`MAX_ITEMS`) and the characters of a cell (`MAX_CELL_CHARS`).

The standard `csv` module gives no position per cell, so the cells are split here (RFC 4180
quoting: a quoted cell may hold delimiters, line breaks and doubled quotes).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from century.base.diagnostics import CONTROL, Diagnostic, DiagnosticError, Mark
from century.base.inputs import decode_utf8
from century.base.limits import MAX_CELL_CHARS, MAX_DIGITS, MAX_FILE_BYTES, MAX_ITEMS, MAX_NODES
from century.frontend import schema as schemas
from century.frontend.loader import Node

EFFECT_COLUMN = "effect"
"""The column of a deck table that holds a card's steps in the one-cell notation
(`century.frontend.effectcell`, imported only for a table that has it)."""

SUFFIXES = (".csv", ".tsv")
"""The file name endings of deck tables."""
FORMULA = "=+-@"
"""The first characters that make a spreadsheet read a cell as a formula."""
DECKS = ("merchant", "point", "starting")

_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_LANG = re.compile(r"(name|text)\.([a-z]{2})")
"""A translated column: a card's name or its own text in one language."""


@dataclass(frozen=True)
class Cell:
    """One cell as written: its text and where it starts."""

    text: str
    mark: Mark
    quoted: bool = False

    @property
    def value(self) -> str:
        """The cell's text as data: surrounding spaces dropped unless the cell is quoted."""
        return self.text if self.quoted else self.text.strip()


@dataclass
class Table:
    """A deck table read into the tree of a deck file, with its columns for later messages."""

    node: Node
    count: int
    """The values the tree holds (counted as YAML's are, against `MAX_NODES`)."""
    columns: dict[str, Mark] = field(default_factory=dict)
    """Each named column by its field name, at its header cell."""
    is_deck: bool = True
    """Whether the header names any card field (else the file is not rules data)."""


# -- the columns a table may have ---------------------------------------------------------------


@cache
def card_fields() -> dict[str, dict[str, Any]]:
    """Every field a card may have in the schema (merchant and point cards), with its schema
    (``$ref`` followed once), in the schema's order; ``name`` stands for ``name.<lang>``."""
    defs = schemas.definitions()
    found: dict[str, dict[str, Any]] = {}
    for kind in ("merchantCard", "pointCard"):
        for name, spec in defs[kind]["properties"].items():
            ref = spec.get("$ref", "")
            found.setdefault(name, defs[ref.rsplit("/", 1)[-1]] if ref.startswith("#") else spec)
    return found


def columns_of(deck: str) -> tuple[str, ...]:
    """The fields a card of `deck` has, in the schema's order (``name`` for the names)."""
    kind = "pointCard" if deck == "point" else "merchantCard"
    return tuple(schemas.definitions()[kind]["properties"])


def _is_whole(name: str) -> bool:
    return card_fields().get(name, {}).get("type") == "integer"


def is_data(column: str, text: str) -> bool:
    """Whether `text`, which starts like a formula, is a value of `column` all the same: a
    whole number in a number column, a card id in the ``id`` column."""
    if _is_whole(column):
        return _WHOLE.fullmatch(text) is not None
    pattern = card_fields()["id"]["pattern"] if column == "id" else None
    return pattern is not None and schemas.ecma_pattern(pattern).search(text) is not None


# -- splitting cells ----------------------------------------------------------------------------


def _delimiter(text: str, tab: bool) -> str:
    """Tab for a TSV file; for CSV, ``;`` when the header line has more of them than commas."""
    if tab:
        return "\t"
    header = text.split("\n", 1)[0]
    return ";" if header.count(";") > header.count(",") else ","


def split_rows(text: str, name: str, delimiter: str) -> Iterator[list[Cell]]:
    """The rows of `text` as cells with their marks; `DiagnosticError` for a quote left open,
    text after a closing quote, a cell over `MAX_CELL_CHARS` or a row of over `MAX_ITEMS`
    cells. Line breaks (``\\n``, ``\\r\\n``, ``\\r``) end a row, or are kept as ``\\n`` in a
    quoted cell."""
    plain = re.compile(f"[^{re.escape(delimiter)}\r\n]*")
    i, line, col, size = 0, 1, 1, len(text)
    row: list[Cell] = []
    while True:
        start = Mark(name, line, col)
        quoted = i < size and text[i] == '"'
        if quoted:
            i, col = i + 1, col + 1
            parts: list[str] = []
            while True:
                end = text.find('"', i)
                if end < 0:
                    raise _refuse(
                        start,
                        "C024",
                        "a quote is left open: the cell never ends",
                        'close the cell with "; a quote inside a cell is written ""',
                    )
                chunk = text[i:end].replace("\r\n", "\n").replace("\r", "\n")
                breaks = chunk.count("\n")
                line += breaks
                col = len(chunk) - chunk.rfind("\n") if breaks else col + len(chunk)
                parts.append(chunk)
                doubled = text.startswith('""', end)
                parts.append('"' if doubled else "")
                i, col = end + (2 if doubled else 1), col + (2 if doubled else 1)
                _cap(sum(map(len, parts)), start)
                if not doubled:
                    break
            value = "".join(parts)
            if i < size and text[i] not in delimiter + "\r\n":
                raise _refuse(
                    Mark(name, line, col),
                    "C024",
                    "text after the closing quote of a cell",
                    'quote the whole cell, and write a quote inside it as ""',
                )
        else:
            match = plain.match(text, i)
            assert match is not None  # the pattern matches the empty text too
            value = match.group()
            _cap(len(value), start)
            i, col = match.end(), col + len(value)
        row.append(Cell(value, start, quoted))
        if len(row) > MAX_ITEMS:
            raise _refuse(
                start, "C021", f"too many cells: a row holds at most {MAX_ITEMS} (MAX_ITEMS)"
            )
        if i < size and text[i] == delimiter:
            i, col = i + 1, col + 1
            continue
        yield row
        row = []
        if i >= size:
            return
        i += 2 if text.startswith("\r\n", i) else 1
        line, col = line + 1, 1


def _cap(length: int, start: Mark) -> None:
    if length > MAX_CELL_CHARS:
        raise _refuse(
            start,
            "C021",
            f"a cell of over {MAX_CELL_CHARS} characters (MAX_CELL_CHARS)",
            "cells of a deck hold ids, cube strings, numbers and names",
        )


def _refuse(mark: Mark, code: str, message: str, hint: str = "") -> DiagnosticError:
    return DiagnosticError([Diagnostic.at(mark, code, message, hint=hint)])


# -- the tree ---------------------------------------------------------------------------------


def load_table(
    raw: bytes,
    name: str,
    deck: str | None = None,
    *,
    tab: bool = False,
    max_nodes: int = MAX_NODES,
    cap: str = "",
) -> Table:
    """The deck table in `raw` as the tree of a deck file (`deck` names which deck; None
    infers it from the columns); `DiagnosticError` with every located problem of the text.

    `tab` reads tab-separated values; `max_nodes` bounds the values (`cap` says which limit
    that is, as for YAML)."""
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse(Mark(name, 1, 1), "C003", f"file is over the {MAX_FILE_BYTES}-byte limit")
    try:
        text = decode_utf8(raw)
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = len(raw[raw.rfind(b"\n", 0, err.start) + 1 : err.start].decode("utf-8", "replace"))
        raise _refuse(
            Mark(name, line, col + 1),
            "C004",
            f"not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be decoded",
            "save the sheet as CSV UTF-8",
        ) from None
    text = text.removeprefix("\ufeff")
    rows: list[list[Cell]] = []
    for row in split_rows(text, name, _delimiter(text, tab)):
        if _filled(row):
            rows.append(row)
        if len(rows) > MAX_ITEMS + 1:  # the header and the rows a deck may have
            raise _refuse(
                row[0].mark,
                "C021",
                f"too many rows: a deck table holds at most {MAX_ITEMS} cards (MAX_ITEMS)",
            )
    if not rows:
        raise _refuse(Mark(name, 1, 1), "C007", "file is empty")
    problems: list[Diagnostic] = []
    header = _header(rows[0], problems)
    reported = {i for i, cell in enumerate(rows[0]) if cell.value} - {i for i, _ in header.values()}
    if not header:
        if problems:
            raise DiagnosticError(problems)
        return Table(Node(None, Mark(name, 1, 1)), 0, is_deck=False)
    columns = {column: mark for column, (_, mark) in header.items()}
    deck = deck or ("point" if {"cost", "points"} & set(columns) else "merchant")
    budget = _Budget(max_nodes, cap or f"the {MAX_NODES} of one file")
    cards = [_card(row, header, reported, problems, budget) for row in rows[1:]]
    if problems:
        raise DiagnosticError(problems)
    first = rows[1][0].mark if len(rows) > 1 else Mark(name, 2, 1)
    origin = Mark(name, 1, 1)
    node = Node(
        {"deck": Node(deck, origin), "cards": Node(cards, first)},
        origin,
        {"deck": origin, "cards": first},
    )
    return Table(node, budget.count + 4, columns)


_MISSING = re.compile(r"missing required key '([^']+)'")


def check_table(table: Table) -> list[Diagnostic]:
    """The schema's problems of a table's cards, each at its cell; a field that rows need but
    the header has no column for is reported once, at the header, with the rows that need it."""
    found = schemas.validate(table.node, "deck")
    missing: dict[str, list[Diagnostic]] = {}
    problems: list[Diagnostic] = []
    for problem in found:
        match = _MISSING.fullmatch(problem.message) if problem.code == "C102" else None
        if match and match.group(1) not in table.columns:
            missing.setdefault(match.group(1), []).append(problem)
        else:
            problems.append(problem)
    for column, rows in missing.items():
        lines = sorted({problem.line for problem in rows})
        shown = ", ".join(map(str, lines[:5])) + (
            f" and {len(lines) - 5} more" if len(lines) > 5 else ""
        )
        problems.append(
            Diagnostic.at(
                table.node.mark,
                "C102",
                f"no column {column!r}, which the card{'s' * (len(lines) > 1)} of "
                f"row{'s' * (len(lines) > 1)} {shown} need{'s' * (len(lines) == 1)}",
                hint=" ".join(filter(None, [rows[0].hint, _add_column(column, table.columns)])),
            )
        )
    return problems


def _add_column(column: str, columns: dict[str, Mark]) -> str:
    """What to add for a missing column: a card with no ``kind`` may have its steps in an
    ``effect`` cell instead, where the table has that column."""
    if column == "kind" and EFFECT_COLUMN in columns:
        return "add a 'kind' column, or write the card's steps in its 'effect' cell"
    return f"add a {column!r} column"


def _filled(row: list[Cell]) -> bool:
    return any(cell.text.strip() for cell in row)


def _header(row: list[Cell], problems: list[Diagnostic]) -> dict[str, tuple[int, Mark]]:
    """The header's columns by field name, each with its index in a row and its mark; an
    unknown, nameless or repeated column is a problem. Empty when no cell names a field."""
    known = [f for f in card_fields() if f not in ("name", "text")]
    found: dict[str, tuple[int, Mark]] = {}
    unknown: list[Cell] = []
    for index, cell in enumerate(row):
        column = cell.text.strip().lower()
        if not column:
            continue
        if column in known or _LANG.fullmatch(column):
            if column in found:
                first = found[column][1]
                problems.append(
                    Diagnostic.at(
                        cell.mark,
                        "C009",
                        f"column {column!r} is given twice (first at {first})",
                        hint="a card takes one value per field; remove one of the columns",
                        related=(first,),
                    )
                )
                continue
            found[column] = (index, cell.mark)
        else:
            unknown.append(cell)
    if not found:
        return {}
    choices = [*known, *(f"{k}.{lang}" for lang in _languages(found) for k in ("name", "text"))]
    for cell in unknown:
        column = cell.text.strip().lower()
        near = difflib.get_close_matches(column, choices, n=1)
        hint = (
            f"did you mean {near[0]!r}?"
            if near
            else f"known columns: {', '.join(known)}, and name.<lang> and text.<lang> per language"
        )
        problems.append(
            Diagnostic.at(cell.mark, "C101", f"unknown column {_short(column)}", hint=hint)
        )
    return found


def _languages(found: dict[str, tuple[int, Mark]]) -> list[str]:
    langs = [m.group(2) for column in found if (m := _LANG.fullmatch(column))]
    return langs or ["en"]


class _Budget:
    """Counts the values of a table against a cap, as the YAML loader counts its values."""

    def __init__(self, most: int, cap: str) -> None:
        self.most, self.cap, self.count = most, cap, 0

    def take(self, n: int, mark: Mark) -> None:
        self.count += n
        if self.count > self.most:
            raise _refuse(
                mark,
                "C021",
                f"too many values: over {self.cap}",
                "rules files hold a few thousand values; check that this is the intended file",
            )


def _card(
    row: list[Cell],
    header: dict[str, tuple[int, Mark]],
    reported: set[int],
    problems: list[Diagnostic],
    budget: _Budget,
) -> Node:
    """One row as the node of a card: a mapping of its filled cells, names gathered per
    language under ``name``. Cells under a `reported` header cell (unknown or repeated
    columns, an error already) are left out."""
    by_index = {index: column for column, (index, _) in header.items()}
    values: dict[str, Node] = {}
    keys: dict[str, Mark] = {}
    texts: dict[str, dict[str, Node]] = {"name": {}, "text": {}}
    text_marks: dict[str, dict[str, Mark]] = {"name": {}, "text": {}}
    budget.take(1, row[0].mark)
    for index, cell in enumerate(row):
        text = cell.value
        if not text:
            continue
        column = by_index.get(index)
        if column is None and index in reported:
            continue
        if column is None:
            problems.append(
                Diagnostic.at(
                    cell.mark,
                    "C024",
                    f"a cell beyond the named columns: {_short(text)}",
                    hint="name its column in the header row, or clear the cell",
                )
            )
            continue
        problem = _cell_problem(column, text)
        if problem:
            problems.append(Diagnostic.at(cell.mark, problem[0], problem[1], hint=problem[2]))
            continue
        if column == EFFECT_COLUMN:
            from century.frontend import effectcell  # only for a table with effects

            steps, count, found = effectcell.cell_effect(text, cell.text, cell.mark, cell.quoted)
            problems += found
            if steps is not None:
                budget.take(1 + count, cell.mark)
                values[column], keys[column] = steps, cell.mark
            continue
        budget.take(2, cell.mark)
        if lang := _LANG.fullmatch(column):
            texts[lang.group(1)][lang.group(2)] = Node(text, cell.mark)
            text_marks[lang.group(1)][lang.group(2)] = cell.mark
            continue
        value: Any = int(text) if _is_whole(column) and _WHOLE.fullmatch(text) else text
        values[column] = Node(value, cell.mark)
        keys[column] = cell.mark
    for key, given in texts.items():
        if given:
            first = min(text_marks[key].values(), key=lambda m: m.col)
            values[key] = Node(given, first, text_marks[key])
            keys[key] = first
    return Node(values, row[0].mark, keys)


def _cell_problem(column: str, text: str) -> tuple[str, str, str] | None:
    """(code, message, hint) for a cell that is a formula or holds a control character."""
    if text[0] in FORMULA and not is_data(column, text):
        return (
            "C025",
            f"a spreadsheet formula, not a value: {_short(text)}",
            "save the sheet with values, not formulas (or start the text with another character)",
        )
    for match in CONTROL.finditer(text):
        if match.group() not in "\n\t":
            return (
                "C019",
                f"control character U+{ord(match.group()):04X} in a text",
                "names and texts hold plain characters only",
            )
    return None


def _short(text: str, most: int = 40) -> str:
    return repr(text if len(text) <= most else text[: most - 3] + "...")
