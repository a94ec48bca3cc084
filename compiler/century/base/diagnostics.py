"""Located diagnostics, the one way every stage reports a problem.

Every diagnostic carries a stable code from `CODES` (``C302``), so editors, tests and users
can refer to a kind of problem whatever its wording: C0xx reading files and YAML, C1xx the
schemas, C2xx variants and references, C3xx the semantic checks, C4xx rule-sheet prose,
C5xx limits that keep a ruleset playable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Literal

Severity = Literal["error", "warning"]

CODES: dict[str, str] = {
    "C001": "a file or folder does not exist",
    "C002": "a file cannot be read",
    "C003": "a file is over the size limit",
    "C004": "a file is not UTF-8 text",
    "C005": "a character YAML does not allow (control characters)",
    "C006": "YAML syntax error",
    "C007": "a file is empty",
    "C008": "anchors and aliases are not allowed",
    "C009": "a key is given twice in one mapping",
    "C010": "merge keys (<<) are not allowed",
    "C011": "a YAML tag that is not plain data",
    "C012": "nesting too deep",
    "C013": "more than one YAML document in a file",
    "C014": "a mapping key that is not a plain scalar",
    "C015": "a value YAML cannot read",
    "C016": "a path holds no rules files",
    "C017": "a file of the wrong kind where another is expected",
    "C018": "a deck or prose file that no game uses",
    "C019": "a control character in a name or text (escaped ones too)",
    "C020": "a path that is not a regular file (a FIFO, a device, a symlink loop)",
    "C021": "too much YAML: too many values in a file, entries in a list, or data in one run",
    "C022": "a file that is not rules data (YAML without the keys of one), or not JSON",
    "C023": "a number with too many digits, or too large to read, in a JSON file",
    "C024": "a deck table (CSV, TSV) whose cells cannot be split: a quote left open, text "
    "after a closing quote, a cell beyond the named columns",
    "C025": "a spreadsheet formula where a deck table needs a value",
    "C026": "a picture, icon or font of a format the look does not use, or not the one its "
    "name says",
    "C027": "a picture, icon or font that cannot be read (a broken file)",
    "C028": "a picture past the size caps (a decompression bomb), or an SVG that reaches "
    "outside itself (links, entities, scripts)",
    "C101": "an unknown key",
    "C102": "a required key is missing",
    "C103": "a value of the wrong type",
    "C104": "a value the schema does not allow",
    "C201": "`extends` names an unknown game",
    "C202": "`extends` makes a cycle",
    "C203": "two games or variants share an id",
    "C204": "a variant changes a key the base game does not have",
    "C205": "a variant patches an id the base game does not have",
    "C206": "a variant removes or replaces a card the deck does not have",
    "C207": "a deck or prose file named by a variant cannot be used",
    "C208": "a path that is absolute or leads out of its project (a symlink too)",
    "C209": "a variant whose base game has errors (reported at their cause)",
    "C301": "a resource id or code is used twice",
    "C302": "an unknown resource code in a cube string",
    "C303": "cubes not written lowest rank first",
    "C304": "a per-rank list of the wrong length",
    "C305": "a card id is used twice",
    "C306": "a card whose effect is empty or does nothing",
    "C307": "a deck of one kind used as another",
    "C308": "a deck too small to fill its row, or an empty starting hand",
    "C309": "a point card that strays from the deck's value model",
    "C310": "players.min above players.max",
    "C311": "starting caravans that miss a seat or break the caravan limit",
    "C312": "end thresholds missing or out of range",
    "C313": "coin piles above missing or shared positions, or sharing an id",
    "C314": "a text missing in a language of the game, or in a foreign one",
    "C315": "rule-sheet text missing or inconsistent across languages",
    "C316": "rules under which no game can end (too few point cards can ever be paid)",
    "C317": "a `repeat` without `max` that never ends (its steps give back what they take)",
    "C318": "a merchant card no caravan within the caravan limit can play",
    "C319": "a picture that would print under 300 dpi at its size on the card",
    "C320": "text whose contrast with its background is under 4.5 : 1 (WCAG AA)",
    "C321": "a font that lacks characters the game's texts use",
    "C322": "a picture that does not cover the card and its bleed",
    "C323": "two regions of a card layout that overlap",
    "C324": "a region of a card layout outside the safe area",
    "C325": "a card's text that does not fit its region",
    "C326": "a mark in a card's text that names no resource or symbol",
    "C327": "a word's forms that miss a plural category (CLDR) of their language",
    "C328": "a region of a card layout whose `extends` chain comes back to it",
    "C401": "rule-sheet text lacks keys the sheet needs",
    "C402": "a rule-sheet sentence does not render",
    "C403": "a rule-sheet sentence goes past a limit of the prose sandbox",
    "C404": "a rule-sheet sentence prints an object instead of text or a number",
    "C405": "a card's sentence that does not read back as its effect",
    "C501": "a number over its limit",
    "C502": "too many cards in a deck, a starting hand or a game",
    "C503": "too many resources, seats or languages",
    "C504": "a chain of variants that is too long",
    "C505": "rules whose move tables are too large for the engine to play",
    "C506": "a card effect nested too deep, with too many moves from one caravan, or too many ways",
}
"""Every diagnostic code and what it means (the docs site lists them, generated from here)."""


CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters that would steer a terminal or reorder text: C0 and C1 controls, DEL and the
bidirectional marks, embeddings, overrides and isolates."""


def printable(text: str, keep: str = "") -> str:
    """`text` with every `CONTROL` character not in `keep` written as an escape (``\\x1b``),
    so a file name or value can never steer the terminal it is printed on."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        if char in keep:
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return CONTROL.sub(escape, text)


COMMAND_STARTS = ("::", "##")
"""How a line starts that a CI system reads as a command: GitHub Actions' workflow commands
(``::add-mask::``, ``::stop-commands::``) and Azure Pipelines' logging commands (``##vso[``)."""


def line_start(name: str) -> str:
    """`name` (a file name that starts a line of text output) made safe to start a line: one
    that starts as a CI command does is written ``./::name``, the same file."""
    return f"./{name}" if name.startswith(COMMAND_STARTS) else name


@dataclass(frozen=True, order=True)
class Mark:
    """A place in a source file; line and col count from 1, and line 0 (col 0) is the file
    as a whole (`WHOLE`: a file that does not exist has no line to point at)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return place(self.file, self.line, self.col)


WHOLE = 0
"""The line (and col) of a diagnostic about a file as a whole: shown as ``file:``, no
``line:col`` made up."""


def place(file: str, line: int, col: int) -> str:
    """``file:line:col``, or just ``file`` for a place that is the file as a whole."""
    return file if line == WHOLE else f"{file}:{line}:{col}"


@dataclass(frozen=True)
class Diagnostic:
    """One problem: its code, where it is, what is wrong, and how to fix it.

    `related` are other places the message refers to (the first of two duplicates, say);
    the message names them too, with their file.
    """

    code: str
    severity: Severity
    file: str
    line: int
    col: int
    path: str
    message: str
    hint: str = ""
    related: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown diagnostic code {self.code!r}")

    @classmethod
    def at(
        cls,
        mark: Mark,
        code: str,
        message: str,
        *,
        path: str = "",
        hint: str = "",
        severity: Severity = "error",
        related: tuple[Mark, ...] = (),
    ) -> Diagnostic:
        """A diagnostic at `mark`."""
        return cls(code, severity, mark.file, mark.line, mark.col, path, message, hint, related)

    def format(self) -> str:
        """The compiler-style text: ``file:line:col: error C302: message [at path]``; control
        characters from file names or data are escaped."""
        safe = self.printable()
        where = place(safe.file, safe.line, safe.col)
        text = f"{where}: {safe.severity} {safe.code}: {safe.message}"
        if safe.path:
            text += f" [at {safe.path}]"
        if safe.hint:
            text += f"\n  hint: {safe.hint}"
        return text

    def printable(self) -> Diagnostic:
        """This diagnostic with control characters in its texts escaped (see `printable`),
        and its file name safe to start a line (`line_start`)."""
        return replace(
            self,
            file=line_start(printable(self.file)),
            path=printable(self.path),
            message=printable(self.message),
            hint=printable(self.hint),
            related=tuple(Mark(printable(m.file), m.line, m.col) for m in self.related),
        )


class DiagnosticError(Exception):
    """Raised by a stage that cannot go on; carries the diagnostics that stopped it."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


def sort_key(d: Diagnostic) -> tuple[str, int, int, str, str]:
    return (d.file, d.line, d.col, d.code, d.message)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


def to_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n".join(d.format() for d in sorted(set(diagnostics), key=sort_key))


def to_json(diagnostics: Iterable[Diagnostic]) -> str:
    items = [asdict(d.printable()) for d in sorted(set(diagnostics), key=sort_key)]
    return json.dumps(items, indent=2, ensure_ascii=False)
