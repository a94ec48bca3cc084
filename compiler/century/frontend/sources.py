"""Finding and loading source files: games, variants, decks and prose, each schema-checked.

A file's kind is read from its top-level keys: `extends` makes a variant, `deck` a deck,
`lang` a rule-sheet text, anything else a base game.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from century.diagnostics import Diagnostic, DiagnosticError, Mark
from century.frontend import schema as schemas
from century.frontend.loader import Node, load_text, read_capped


def display_name(path: Path) -> str:
    """A path as shown in diagnostics: relative to the working folder where possible."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def kind_of(node: Node) -> str:
    if isinstance(node.value, dict):
        if "extends" in node.value:
            return "variant"
        if "deck" in node.value:
            return "deck"
        if "lang" in node.value:
            return "prose"
    return "game"


@dataclass
class SourceFile:
    path: Path
    name: str
    node: Node
    kind: str
    raw: bytes
    valid: bool


@dataclass
class Sources:
    """Every file loaded so far, by absolute path, with the diagnostics they raised."""

    files: dict[Path, SourceFile] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def load(
        self, path: Path, expect: str | None = None, at: Mark | None = None
    ) -> SourceFile | None:
        """Load and schema-check `path` once; None (with a diagnostic) if it is unusable.

        `expect` is the kind the referring file wants; `at` is where it names the file.
        """
        path = path.resolve()
        found = self.files.get(path) or self._read(path, at)
        if found is None:
            return None
        self.files[path] = found
        if expect and found.kind not in (expect, "unreadable"):
            mark = at or Mark(found.name, 1, 1)
            self.diagnostics.append(
                Diagnostic.at(
                    mark, "C017", f"{found.name} is a {found.kind} file, expected a {expect} file"
                )
            )
            return None
        return found if found.valid else None

    def _read(self, path: Path, at: Mark | None) -> SourceFile | None:
        name = display_name(path)
        if not path.is_file():
            mark = at or Mark(name, 1, 1)
            self.diagnostics.append(Diagnostic.at(mark, "C001", f"no such file: {name}"))
            return None
        try:
            raw = read_capped(path, name)
            node = load_text(raw, name)
        except DiagnosticError as err:
            self.diagnostics.extend(err.diagnostics)
            return SourceFile(path, name, Node(None, Mark(name, 1, 1)), "unreadable", b"", False)
        kind = kind_of(node)
        problems = schemas.validate(node, kind)
        self.diagnostics.extend(problems)
        return SourceFile(path, name, node, kind, raw, not problems)


SKIP_FOLDERS = frozenset({"build", "node_modules", "__pycache__"})
"""Folders a search never enters (besides hidden ones): output and tool caches."""
MAX_FILES = 2000
"""The most YAML files one search collects."""


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The YAML files named by `paths`: files as given, folders searched recursively (hidden
    folders and `SKIP_FOLDERS` left out). A path that does not exist, or a folder without a
    single YAML file, is an error."""
    found: dict[Path, None] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        mark = Mark(display_name(path), 1, 1)
        if path.is_dir():
            files = _yaml_files(path)
            if not files:
                problems.append(Diagnostic.at(mark, "C016", "no rules files (*.yaml) here"))
            if len(files) > MAX_FILES:
                problems.append(
                    Diagnostic.at(mark, "C016", f"more than {MAX_FILES} YAML files here")
                )
                files = files[:MAX_FILES]
            found.update(dict.fromkeys(files))
        elif path.is_file():
            found[path] = None
        else:
            problems.append(Diagnostic.at(mark, "C001", f"no such file or folder: {mark.file}"))
    return list(found), problems


def _yaml_files(folder: Path) -> list[Path]:
    """Every *.yaml and *.yml file below `folder`, in a stable order (symlinked folders are
    not followed)."""
    files: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_FOLDERS)
        files.extend(Path(root, n) for n in sorted(names) if n.endswith((".yaml", ".yml")))
        if len(files) > MAX_FILES:
            break
    return files
