"""The load stage: YAML text -> a tree of `Node`s, each with its file:line:col.

Safe by construction: `safe_load` semantics only, and a located error for what PyYAML
would otherwise accept quietly or dangerously: anchors and aliases (alias bombs),
duplicate keys (PyYAML keeps the last), merge keys, non-UTF-8 bytes, control characters
(escaped ones too), files that are not regular files, and files over the caps of
`century.base.limits` (bytes, values, entries per list or mapping, nesting).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from century.base.diagnostics import CONTROL, Diagnostic, DiagnosticError, Mark
from century.base.inputs import decode_utf8, read_bytes
from century.base.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_ITEMS, MAX_NODES

Path_ = tuple[str | int, ...]

ALLOWED_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("map", "seq", "str", "int", "float", "bool", "null", "timestamp", "merge")
}
"""Plain data only: any other tag (``!!python/...``, ``!custom``) is refused."""


@dataclass(slots=True)
class Node:
    """A YAML value with where it stands. Mapping keys are always strings."""

    value: Any
    mark: Mark
    key_marks: dict[str, Mark] = field(default_factory=dict)

    def plain(self) -> Any:
        """The value as plain Python data (dicts, lists, scalars)."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value

    def clone(self) -> Node:
        """A deep copy (marks are immutable and shared)."""
        value = self.value
        if isinstance(value, dict):
            value = {k: v.clone() for k, v in value.items()}
        elif isinstance(value, list):
            value = [v.clone() for v in value]
        return Node(value, self.mark, dict(self.key_marks))

    def locate(self, path: Path_, *, key: bool = False) -> Mark:
        """The mark of the node at `path`, or of its nearest existing ancestor.

        With `key`, a mapping entry is located at its key rather than its value.
        """
        node, mark = self, self.mark
        for part in path:
            if isinstance(node.value, dict) and isinstance(part, str) and part in node.value:
                mark = node.key_marks[part] if key else node.value[part].mark
                node = node.value[part]
            elif (
                isinstance(node.value, list)
                and isinstance(part, int)
                and 0 <= part < len(node.value)
            ):
                node = node.value[part]
                mark = node.mark
            else:
                break
        return mark


def format_path(path: Path_) -> str:
    """``("decks", "merchant", 3, "get")`` -> ``decks.merchant[3].get``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


_Loader: type[yaml.CSafeLoader] | type[yaml.SafeLoader] = (
    yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
)
MERGE_TAG = "tag:yaml.org,2002:merge"


class _Refused(Exception):
    def __init__(self, mark: Any, code: str, message: str, hint: str = ""):
        self.mark, self.code, self.message, self.hint = mark, code, message, hint


def load_file(path: Path, display: str | None = None) -> Node:
    """Load one YAML file; raise `DiagnosticError` with a located diagnostic if it is unsafe."""
    name = display or str(path)
    return load_text(read_capped(path, name), name)


def read_capped(path: Path, name: str, at: Mark | None = None) -> bytes:
    """The bytes of the regular file `path`, refusing files over `MAX_FILE_BYTES` before
    reading them, and FIFOs, devices and symlink loops without blocking on them.

    Problems are located at `at` (where another file names this one), else at the file.
    """
    return read_bytes(path, name, MAX_FILE_BYTES, at, hint="name a YAML file")


def load_text(raw: bytes, name: str, max_nodes: int = MAX_NODES) -> Node:
    """Load YAML from bytes; `name` is the file name used in diagnostics."""
    return load_counted(raw, name, max_nodes)[0]


def load_counted(
    raw: bytes, name: str, max_nodes: int = MAX_NODES, cap: str = ""
) -> tuple[Node, int]:
    """Load YAML from bytes, refusing more than `max_nodes` values (`cap` says which limit
    that is); the tree and its number of values."""
    if len(raw) > MAX_FILE_BYTES:
        raise DiagnosticError(
            [
                Diagnostic.at(
                    Mark(name, 1, 1), "C003", f"file is over the {MAX_FILE_BYTES}-byte limit"
                )
            ]
        )
    try:
        text = decode_utf8(raw)
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise DiagnosticError(
            [
                Diagnostic.at(
                    Mark(name, line, col),
                    "C004",
                    f"not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be decoded",
                    hint="save the file as UTF-8",
                )
            ]
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as err:
        raise DiagnosticError([_reader_error(name, text, err)]) from None
    composer = _Composer(loader, name, max_nodes, cap or f"the {MAX_NODES} of one file")
    try:
        return _compose(composer, name, text)
    except DiagnosticError as err:
        err.nodes = composer.count  # type: ignore[attr-defined]
        raise
    finally:
        loader.dispose()


def _compose(composer: _Composer, name: str, text: str) -> tuple[Node, int]:
    try:
        root = composer.document()
        if root is None:
            raise DiagnosticError([Diagnostic.at(Mark(name, 1, 1), "C007", "file is empty")])
        return root, composer.count
    except _Refused as err:
        raise DiagnosticError([_at(name, err.mark, err.code, err.message, err.hint)]) from None
    except yaml.reader.ReaderError as err:
        raise DiagnosticError([_reader_error(name, text, err)]) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = err.problem or err.context or "invalid YAML"
        if err.context and err.problem:
            message = f"{err.problem} ({err.context})"
        raise DiagnosticError([_at(name, mark, "C006", f"YAML syntax: {message}")]) from None
    except yaml.YAMLError as err:
        raise DiagnosticError([Diagnostic.at(Mark(name, 1, 1), "C006", f"YAML: {err}")]) from None


def _reader_error(name: str, text: str, err: yaml.reader.ReaderError) -> Diagnostic:
    position = min(max(err.position, 0), len(text))
    line = text.count("\n", 0, position) + 1
    col = position - (text.rfind("\n", 0, position) + 1) + 1
    character = (
        err.character if isinstance(err.character, int) else ord(str(err.character)[:1] or "?")
    )
    return Diagnostic.at(
        Mark(name, line, col),
        "C005",
        f"character U+{character:04X} is not allowed in YAML",
        hint="remove control characters; use a quoted escape if one is meant",
    )


class _Composer:
    """Builds the `Node` tree from parser events, refusing what plain data must not contain
    and counting values against the cap."""

    def __init__(self, loader: Any, name: str, max_nodes: int, cap: str) -> None:
        self.loader, self.name, self.max_nodes, self.cap = loader, name, max_nodes, cap
        self.count = 0
        self.scalars: dict[tuple[Any, ...], Any] = {}

    def document(self) -> Node | None:
        loader = self.loader
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return None
        loader.get_event()  # document start
        root = self.node(0)
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            raise _Refused(
                loader.peek_event().start_mark, "C013", "only one YAML document is allowed"
            )
        return root

    def node(self, depth: int) -> Node:
        loader = self.loader
        event = loader.get_event()
        mark = Mark(self.name, event.start_mark.line + 1, event.start_mark.column + 1)
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise _Refused(
                event.start_mark,
                "C008",
                "anchors and aliases are not allowed",
                "write the value out in full; aliases can multiply a small file into a huge one",
            )
        if depth > MAX_DEPTH:
            raise _Refused(
                event.start_mark, "C012", f"YAML is nested too deeply (over {MAX_DEPTH} levels)"
            )
        self.count += 1
        if self.count > self.max_nodes:
            raise _Refused(
                event.start_mark,
                "C021",
                f"too many YAML values: over {self.cap}",
                "rules files hold a few thousand values; check that this is the intended file",
            )
        if isinstance(event, yaml.ScalarEvent):
            known = (event.value, event.implicit, event.tag)
            if known not in self.scalars:  # data repeats its values: read each kind once
                self.scalars[known] = _scalar(loader, event)
            return Node(self.scalars[known], mark)
        _check_tag(event, "seq" if isinstance(event, yaml.SequenceStartEvent) else "map")
        if isinstance(event, yaml.SequenceStartEvent):
            items: list[Node] = []
            while not loader.check_event(yaml.SequenceEndEvent):
                _check_items(len(items), loader)
                items.append(self.node(depth + 1))
            loader.get_event()
            return Node(items, mark)
        values: dict[str, Node] = {}
        keys: dict[str, Mark] = {}
        while not loader.check_event(yaml.MappingEndEvent):
            _check_items(len(values), loader)
            key_event = loader.peek_event()
            if not isinstance(key_event, yaml.ScalarEvent):
                raise _Refused(key_event.start_mark, "C014", "mapping keys must be plain scalars")
            key_node = self.node(depth + 1)
            key = key_event.value
            if key in values:
                raise _Refused(
                    key_event.start_mark,
                    "C009",
                    f"duplicate key {key!r} (first at {keys[key]})",
                    "YAML keeps only the last value; remove one of them",
                )
            keys[key] = key_node.mark
            values[key] = self.node(depth + 1)
        loader.get_event()
        return Node(values, mark, keys)


def _check_items(count: int, loader: Any) -> None:
    if count >= MAX_ITEMS:
        raise _Refused(
            loader.peek_event().start_mark,
            "C021",
            f"too many entries: a list or mapping holds at most {MAX_ITEMS}",
        )


def _check_tag(event: Any, kind: str) -> None:
    tag = event.tag
    if tag not in (None, "!", f"tag:yaml.org,2002:{kind}"):
        raise _Refused(event.start_mark, "C011", f"the tag {tag!r} is not allowed")


def _resolve_tag(loader: Any, event: Any) -> str:
    if event.tag not in (None, "!"):
        return event.tag
    return loader.resolve(yaml.ScalarNode, event.value, event.implicit)


def _scalar(loader: Any, event: Any) -> Any:
    tag = _resolve_tag(loader, event)
    if tag == MERGE_TAG:
        raise _Refused(event.start_mark, "C010", "merge keys (<<) are not allowed")
    if tag not in ALLOWED_TAGS:
        raise _Refused(event.start_mark, "C011", f"the tag {tag!r} is not allowed")
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    try:
        value = loader.construct_object(node)
    except (ValueError, OverflowError):
        shown = event.value if len(event.value) <= 40 else event.value[:37] + "..."
        raise _Refused(event.start_mark, "C015", f"cannot read value {shown!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        shown = event.value if len(event.value) <= 40 else event.value[:37] + "..."
        raise _Refused(
            event.start_mark,
            "C015",
            f"cannot read value {shown!r}: not a finite number",
            "write a number such as 63 or 88.5 (rules data has no infinity and no NaN)",
        )
    if not isinstance(value, str | int | float | bool | type(None)):
        value = str(event.value)  # dates and binary stay text; the schema says what it wants
    if isinstance(value, str) and (bad := _control(value)):
        raise _Refused(
            event.start_mark,
            "C019",
            f"control character U+{ord(bad):04X} in a text",
            "names and texts hold plain characters only (line breaks and tabs are fine)",
        )
    return value


def _control(text: str) -> str:
    """The first control character of `text` other than a line break or a tab, or ''."""
    for match in CONTROL.finditer(text):
        if match.group() not in "\n\t":
            return match.group()
    return ""


def _at(name: str, mark: Any, code: str, message: str, hint: str = "") -> Diagnostic:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Diagnostic.at(Mark(name, line, col), code, message, hint=hint)
