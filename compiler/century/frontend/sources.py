"""Finding and loading source files: games, variants, decks and prose, each schema-checked.

A YAML file's kind is read from its top-level keys: `extends` makes a variant, `deck` a deck,
`lang` a rule-sheet text, anything else a base game. A CSV or TSV file is a deck table
(`century.frontend.csvdeck`) when its header names card fields.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from century.base.diagnostics import WHOLE, Diagnostic, DiagnosticError, Mark
from century.base.inputs import read_bytes
from century.base.limits import MAX_FILE_BYTES, MAX_FILES, MAX_NODES, MAX_TOTAL_NODES
from century.base.resources import CARDS, RULES, SCHEMAS
from century.frontend import csvdeck
from century.frontend import schema as schemas
from century.frontend.loader import Node, load_counted, read_capped

BUNDLED = "<bundled>"
"""How diagnostics name the folder of the data that ships inside the package."""


def display_name(path: Path) -> str:
    """A path as shown in diagnostics: relative to the working folder where it lies inside
    it; a file of the bundled data by its place there (``<bundled>/rules/GAME.yaml``),
    never by the install folder; any other path as it is."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = ".."
    if not rel.startswith(".."):
        return rel
    return bundled_name(path) or str(path)


def bundled_name(path: Path) -> str | None:
    """``<bundled>/rules/...`` for a file of the bundled data (symlinks followed), else None."""
    real = Path(os.path.realpath(path))
    for folder, root in _bundled_roots():
        if real.is_relative_to(root):
            return "/".join((BUNDLED, folder, *real.relative_to(root).parts))
    return None


@cache
def _bundled_roots() -> tuple[tuple[str, Path], ...]:
    """The folders of the bundled data, by their name under ``<bundled>``, links followed."""
    return tuple((path.name, Path(os.path.realpath(path))) for path in (RULES, CARDS, SCHEMAS))


SUFFIXES = (".yaml", ".yml", *csvdeck.SUFFIXES)
"""The file name endings of rules data: YAML, and deck tables."""

MARKERS = ("id", "extends", "deck", "lang")
"""The top-level keys of rules data: a file with none of them is not a rules file."""


def kind_of(node: Node) -> str:
    """``variant``, ``deck``, ``prose`` or ``game`` by the file's top-level keys, or
    ``other`` for YAML that is not rules data (none of `MARKERS`)."""
    if not isinstance(node.value, dict) or not any(key in node.value for key in MARKERS):
        return "other"
    if "extends" in node.value:
        return "variant"
    if "deck" in node.value:
        return "deck"
    if "lang" in node.value:
        return "prose"
    return "game"


_MARKED = re.compile(rb"^(?:%s)\b" % b"|".join(key.encode() for key in MARKERS), re.M)
"""A line that starts with a key of rules data (in a file that does not load as YAML)."""


KIND_KEYS = {"deck": b"deck", "prose": b"lang"}
"""The top-level key that marks a deck or a rule-sheet text file."""


@dataclass
class SourceFile:
    path: Path
    name: str
    node: Node
    kind: str
    raw: bytes
    valid: bool
    problems: list[Diagnostic] = field(default_factory=list)
    """What loading and the schema found; reported once the file is known to be rules data."""
    reported: bool = False


class PathProblem(Exception):
    """A path that cannot be used; carries the diagnostic code and message."""

    def __init__(self, code: str, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def resolve_path(path: Path) -> Path:
    """`path` made absolute with every symlink followed; `PathProblem` for a symlink loop."""
    try:
        return path.resolve(strict=True)
    except FileNotFoundError:
        return path.resolve()
    except RuntimeError:  # Python before 3.13 reports a loop this way
        raise PathProblem("C020", f"{display_name(path)} is a symlink loop") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise PathProblem("C020", f"{display_name(path)} is a symlink loop") from None
        return path.absolute()


def project_root(path: Path) -> Path:
    """The folder tree a rules file may name decks and texts in: the project folder (the
    folder holding ``rules/``) for a file inside a ``rules`` folder, else the file's folder."""
    for parent in path.parents:
        if parent.name == "rules":
            return parent.parent
    return path.parent


def referenced_path(owner: Path, ref: str) -> Path:
    """The file that the rules file `owner` names as `ref`, which must be a relative path
    that stays inside `project_root(owner)`, symlinks followed; else `PathProblem`."""
    given = Path(ref)
    if given.is_absolute() or given.drive or ref.startswith(("/", "\\", "~")):
        raise PathProblem(
            "C208",
            f"{ref!r} is not a relative path",
            "name decks and texts relative to the file that names them",
        )
    root = project_root(owner)
    path = resolve_path(owner.parent / given)
    if not path.is_relative_to(root):
        raise PathProblem(
            "C208",
            f"{ref!r} leads out of the project folder {os.path.join(display_name(root), '')}",
            "keep decks and texts in the project: beside the rules file or below it, or in "
            "the folder that holds rules/",
        )
    return path


@dataclass
class Sources:
    """Every file loaded so far, by absolute path, with the diagnostics they raised."""

    files: dict[Path, SourceFile] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    nodes_left: int = MAX_TOTAL_NODES
    """YAML values the run may still read (`MAX_TOTAL_NODES` in all)."""
    skipped: set[Path] = field(default_factory=set)
    """Files a folder search found that are not rules data and were skipped with a warning."""

    def load(
        self,
        path: Path,
        expect: str | None = None,
        at: Mark | None = None,
        deck: str | None = None,
    ) -> SourceFile | None:
        """Load and schema-check `path` once; None (with a diagnostic) if it is unusable.

        `expect` is the kind the referring file wants; `at` is where it names the file;
        `deck` is the deck a deck table is named as (a YAML deck says which it is itself). A
        file named that way that turns out not to be rules data of that kind gets one
        diagnostic at `at`, which never quotes the file.
        """
        try:
            path = resolve_path(path)
        except PathProblem as err:
            mark = at or Mark(display_name(path), 1, 1)
            self.diagnostics.append(Diagnostic.at(mark, err.code, err.message))
            return None
        found = self.files.get(path)
        if found is not None and not _reads_as(found, deck):
            found = self.files.get(path.with_name(f"{path.name}#{deck}"))
            if found is None:
                found = self.files[path.with_name(f"{path.name}#{deck}")] = self._read(
                    path, at, deck
                )
        elif found is None:
            found = self.files[path] = self._read(path, at, deck)
        if found.kind == "missing":
            self._report(found)
            return None
        if expect and found.kind != expect and not self._looks_like(found, expect):
            mark = at or Mark(found.name, 1, 1)
            what = {"unreadable": "not a YAML file", "other": "not rules data"}.get(
                found.kind, f"a {found.kind} file"
            )
            self.diagnostics.append(
                Diagnostic.at(mark, "C017", f"{found.name} is {what}, expected a {expect} file")
            )
            return None
        self._report(found)
        return found if found.valid else None

    def load_found(self, path: Path, searched: bool) -> SourceFile | None:
        """Load a file found in the paths given (`searched`: by a folder search, else named).

        A file that is not rules data (YAML without any of `MARKERS`, or text that does not
        load and names none of them) gets one diagnostic that says what it is and never
        quotes it: a warning for a searched file that may be another tool's (a mapping, a
        table, text that is not YAML), which is skipped, else an error: a named file, and
        YAML that is null, a scalar or a list, such as a rules file emptied.
        """
        try:
            real = resolve_path(path)
        except PathProblem:
            return self.load(path)
        found = self.files.get(real)
        if found is None:
            found = self.files[real] = self._read(real, None)
        empty = any(problem.code == "C007" for problem in found.problems)
        if found.kind == "other" or (
            found.kind == "unreadable" and not empty and not _MARKED.search(found.raw)
        ):
            found.reported = True  # its problems would quote it
            what = "YAML" if found.kind == "other" else "not YAML"
            searched = searched and (
                found.kind == "unreadable"
                or isinstance(found.node.value, dict)
                or real.suffix.lower() in csvdeck.SUFFIXES
            )
            if searched:
                self.skipped.add(real)
            self.diagnostics.append(
                Diagnostic.at(
                    Mark(found.name, 1, 1),
                    "C022",
                    f"{found.name} is {what} but not rules data"
                    + ("; skipped" if searched else ""),
                    hint=f"rules files have one of the top-level keys {', '.join(MARKERS)}; "
                    "keep other files out of the rules folders",
                    severity="warning" if searched else "error",
                )
            )
            return None
        return self.load(path)

    def _looks_like(self, found: SourceFile, expect: str) -> bool:
        """Whether a file that did not load is still recognisably a file of kind `expect`."""
        key = KIND_KEYS.get(expect)
        if found.kind != "unreadable" or key is None:
            return False
        return re.search(rb"^" + key + rb"[ \t]*:", found.raw, re.M) is not None

    def _report(self, found: SourceFile) -> None:
        if not found.reported:
            found.reported = True
            known = set(self.diagnostics)  # a table read as two decks may say a thing twice
            self.diagnostics.extend(d for d in found.problems if d not in known)

    def _read(self, path: Path, at: Mark | None, deck: str | None = None) -> SourceFile:
        if path.suffix.lower() in csvdeck.SUFFIXES:
            return self._read_table(path, at, deck)
        name = display_name(path)
        try:
            raw = read_capped(path, name, at)
        except DiagnosticError as err:
            return SourceFile(
                path, name, Node(None, Mark(name, 1, 1)), "missing", b"", False, [*err.diagnostics]
            )
        budget = min(MAX_NODES, self.nodes_left)
        cap = "" if budget == MAX_NODES else f"the {MAX_TOTAL_NODES} one run reads"
        try:
            node, count = load_counted(raw, name, budget, cap)
        except DiagnosticError as err:
            self.nodes_left -= getattr(err, "nodes", 0)
            unreadable = Node(None, Mark(name, 1, 1))
            return SourceFile(path, name, unreadable, "unreadable", raw, False, err.diagnostics)
        self.nodes_left -= count
        kind = kind_of(node)
        problems = [] if kind == "other" else schemas.validate(node, kind)
        return SourceFile(path, name, node, kind, raw, not problems, problems)

    def _read_table(self, path: Path, at: Mark | None, deck: str | None) -> SourceFile:
        """A deck table, read with the caps of YAML and checked against the deck schema."""
        name = display_name(path)
        blank = Node(None, Mark(name, 1, 1))
        try:
            raw = read_bytes(path, name, MAX_FILE_BYTES, at, hint="name a CSV or TSV deck file")
        except DiagnosticError as err:
            return SourceFile(path, name, blank, "missing", b"", False, [*err.diagnostics])
        budget = min(MAX_NODES, self.nodes_left)
        cap = "" if budget == MAX_NODES else f"the {MAX_TOTAL_NODES} one run reads"
        tab = path.suffix.lower() == ".tsv"
        try:
            table = csvdeck.load_table(raw, name, deck, tab=tab, max_nodes=budget, cap=cap)
        except DiagnosticError as err:
            return SourceFile(path, name, blank, "deck", raw, False, err.diagnostics)
        self.nodes_left -= table.count
        if not table.is_deck:
            return SourceFile(path, name, blank, "other", raw, False)
        problems = csvdeck.check_table(table)
        return SourceFile(path, name, table.node, "deck", raw, not problems, problems)


def _reads_as(found: SourceFile, deck: str | None) -> bool:
    """Whether a file loaded before serves as the deck `deck`: any YAML file, and a deck
    table read as that deck, or whose text stopped it before its cards were read (a table is
    checked as the deck it is named as, so one read as another deck is read again)."""
    if deck is None or found.kind != "deck" or not isinstance(found.node.value, dict):
        return True
    if found.path.suffix.lower() not in csvdeck.SUFFIXES:
        return True
    return bool(found.node.value["deck"].value == deck)


SKIP_FOLDERS = frozenset({"build", "node_modules", "__pycache__"})
"""Folders a search never enters (besides hidden ones): output and tool caches."""


def discover(paths: Iterable[Path]) -> tuple[dict[Path, bool], list[Diagnostic]]:
    """The YAML files named by `paths`, each with whether a folder search found it: files as
    given, folders searched recursively (hidden folders and `SKIP_FOLDERS` left out). A path
    that does not exist, or a folder without a single YAML file, is an error. A symlink that
    leads out of its project is never read: skipped with a warning when a search finds it,
    an error when it is named."""
    found: dict[Path, bool] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        mark = Mark(display_name(path), 1, 1)
        whole = Mark(mark.file, WHOLE, WHOLE)  # a path as given: no line to point at
        if path.is_dir():
            files = _rules_files(path)
            if not files:
                problems.append(
                    Diagnostic.at(
                        whole,
                        "C016",
                        "no rules files (*.yaml, *.csv, *.tsv) here",
                        hint="start a variant there: "
                        f"century new NAME --from GAME --dir {mark.file}",
                    )
                )
            if len(files) > MAX_FILES:
                problems.append(
                    Diagnostic.at(whole, "C016", f"more than {MAX_FILES} rules files here")
                )
                files = files[:MAX_FILES]
            root = search_root(path)
            for file in files:
                leaving = _link_out(file, root, searched=True)
                if leaving:
                    problems.append(leaving)
                else:
                    found.setdefault(file, True)
        elif path.is_file() or os.path.lexists(path):
            leaving = _link_out(path, search_root(path.parent), searched=False)
            if leaving:  # not a regular file, or a symlink loop: loading says which
                problems.append(leaving)
            else:
                found[path] = False
        else:
            problems.append(Diagnostic.at(whole, "C001", f"no such file or folder: {mark.file}"))
    return found, problems


def search_root(folder: Path) -> Path:
    """The project a searched folder belongs to: the folder holding the ``rules`` folder it
    is in or beside (``cards/`` beside ``rules/``), else the folder itself."""
    root = project_root(folder / "_")
    if root == folder and (folder.parent / "rules").is_dir():
        return folder.parent
    return root


def _link_out(path: Path, root: Path, searched: bool) -> Diagnostic | None:
    """The diagnostic for `path` when it is a symlink leading out of `root`, else None."""
    if not path.is_symlink():
        return None
    try:
        target = resolve_path(path)
    except PathProblem:
        return None  # a loop: loading reports it
    if target.is_relative_to(resolve_path(root)):
        return None
    return Diagnostic.at(
        Mark(display_name(path), 1, 1),
        "C208",
        f"{display_name(path)} is a symlink leading out of the project folder "
        f"{os.path.join(display_name(root), '')}" + ("; skipped" if searched else ""),
        hint="copy the file into the project, or link to a file inside it",
        severity="warning" if searched else "error",
    )


def _rules_files(folder: Path, most: int = MAX_FILES) -> list[Path]:
    """Every rules file (`SUFFIXES`) below `folder`, in a stable order, stopping past `most`
    (symlinked folders are not followed)."""
    files: list[Path] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_FOLDERS)
        files.extend(Path(root, n) for n in sorted(names) if n.endswith(SUFFIXES))
        if len(files) > most:
            break
    return files


def has_rules_files(folder: Path) -> bool:
    """Whether a folder search of `folder` finds any rules file."""
    return bool(_rules_files(folder, most=0))
