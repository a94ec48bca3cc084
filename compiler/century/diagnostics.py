"""Located diagnostics, the one way every stage reports a problem."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Mark:
    """A place in a source file; line and col count from 1."""

    file: str
    line: int
    col: int


@dataclass(frozen=True)
class Diagnostic:
    severity: Severity
    file: str
    line: int
    col: int
    path: str
    message: str
    hint: str = ""

    @classmethod
    def at(
        cls,
        mark: Mark,
        message: str,
        *,
        path: str = "",
        hint: str = "",
        severity: Severity = "error",
    ) -> Diagnostic:
        return cls(severity, mark.file, mark.line, mark.col, path, message, hint)

    def format(self) -> str:
        text = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if self.path:
            text += f" [at {self.path}]"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class DiagnosticError(Exception):
    """Raised by a stage that cannot go on; carries the diagnostics that stopped it."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    return (d.file, d.line, d.col, d.message)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


def to_text(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n".join(d.format() for d in sorted(set(diagnostics), key=sort_key))


def to_json(diagnostics: Iterable[Diagnostic]) -> str:
    items = [asdict(d) for d in sorted(set(diagnostics), key=sort_key)]
    return json.dumps(items, indent=2, ensure_ascii=False)
