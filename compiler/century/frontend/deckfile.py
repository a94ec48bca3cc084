"""A resolved deck written back as data: a CSV or TSV table, or a YAML deck file.

What is written reads back (`century.frontend.csvdeck`, the YAML loader) into the same cards:
the fields as the data gives them after a variant's changes (a card written with ``effect:``
steps in the one-cell notation of `century.model.notation`, a short form in its ``kind``
columns), ids only where a card names its own, names per language. A value a spreadsheet
would read as a formula (a name that starts with ``=``, an id that starts with ``+``) is
refused rather than written; only a signed whole number in a number column, which a
spreadsheet reads as that number, starts so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from century.frontend import csvdeck
from century.model import notation

FORMATS = ("csv", "tsv", "yaml")


class ExportProblem(ValueError):
    """A card value that cannot be written in the format asked for."""


def columns(deck: str, cards: Sequence[Mapping[str, Any]], languages: Sequence[str]) -> list[str]:
    """The columns of a table of `cards`: the effect fields in the schema's order (``effect``,
    the steps of composed cards, after the short forms' fields), then
    ``copies`` and ``id`` where a card has them, then ``name.<lang>`` per language named and
    ``text.<lang>`` (a card's own text) likewise."""
    fields = [f for f in csvdeck.columns_of(deck) if any(f in card for card in cards)]
    effect = [f for f in fields if f not in ("id", "copies", "name", "effect", "text")]
    effect += [f for f in fields if f == "effect"]  # composed cards' steps, after short forms
    langs = list(languages)
    for card in cards:
        for key in ("name", "text"):
            langs += [lang for lang in card.get(key, {}) if lang not in langs]
    named = [
        f"{key}.{lang}"
        for key in ("name", "text")
        for lang in langs
        if any(lang in card.get(key, {}) for card in cards)
    ]
    return [*effect, *(f for f in ("copies", "id") if f in fields), *named]


def table(
    deck: str,
    cards: Sequence[Mapping[str, Any]],
    languages: Sequence[str],
    delimiter: str = ",",
) -> bytes:
    """`cards` as a deck table (UTF-8, a header row, ``\\n`` line ends); `ExportProblem` for a
    value a spreadsheet would read as a formula."""
    header = columns(deck, cards, languages)
    lines = [delimiter.join(header)]
    for number, card in enumerate(cards, 1):
        cells = []
        for column in header:
            try:
                value = _value(card, column)
            except ExportProblem as err:
                raise ExportProblem(f"card {number} of the {deck} deck: {err}") from None
            text = "" if value is None else str(value)
            if text and text[0] in csvdeck.FORMULA and not _a_number(column, text):
                raise ExportProblem(
                    f"card {number} of the {deck} deck: its {column} {text[:40]!r} starts with "
                    f"{text[0]!r}, which a spreadsheet reads as a formula (write the deck "
                    "with --format yaml)"
                )
            cells.append(_quoted(text, delimiter))
        lines.append(delimiter.join(cells))
    return ("\n".join(lines) + "\n").encode("utf-8")


def yaml_deck(
    deck: str, cards: Sequence[Mapping[str, Any]], schema: str | None, comment: str
) -> bytes:
    """`cards` as a YAML deck file, one card per line, headed by the schema modeline (when
    `schema` gives its path) and `comment`."""
    head = [f"# yaml-language-server: $schema={schema}"] if schema else []
    head += [f"# {line}" if line else "#" for line in comment.splitlines()]
    lines = [*head, f"deck: {deck}", "cards:"]
    for card in cards:
        flow = yaml.safe_dump(
            dict(card), default_flow_style=True, sort_keys=False, allow_unicode=True, width=10**6
        )
        lines.append(f"  - {flow.strip()}")
    if not cards:
        lines[-1] = "cards: []"
    return ("\n".join(lines) + "\n").encode("utf-8")


def _a_number(column: str, text: str) -> bool:
    """Whether a spreadsheet reads `text`, which starts like a formula, as the value it is: a
    signed whole number in a number column (``-1``). An id such as ``+1+1`` or ``+yr`` is
    data to century but a formula to a spreadsheet (``2``, ``#NAME?``), so it is not."""
    return column != "id" and csvdeck.is_data(column, text)


def _value(card: Mapping[str, Any], column: str) -> Any:
    if column == "effect" and column in card:
        return _effect_cell(card[column])
    for key in ("name", "text"):
        if column.startswith(f"{key}."):
            return card.get(key, {}).get(column.removeprefix(f"{key}."))
    return card.get(column)


def _quoted(text: str, delimiter: str) -> str:
    """`text` as a cell: quoted when it holds the delimiter, a quote, a line break or spaces
    at either end (which reading would strip)."""
    if any(c in text for c in (delimiter, '"', "\n", "\r")) or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def _effect_cell(steps: Any) -> str:
    """Steps in the one-cell notation; `ExportProblem` for steps the notation cannot give
    back as they are (a cube string that spells one of its words, ``THEN`` on a ladder with
    those codes, or an empty one)."""
    text = notation.write(steps)
    try:
        same = notation.parse(text).plain() == list(steps)
    except notation.NotationError:
        same = False
    if not same:
        raise ExportProblem(
            f"the effect {text[:40]!r} does not read back as written in a cell; "
            "export the deck as yaml"
        )
    return text
