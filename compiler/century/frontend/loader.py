"""The load stage: YAML text -> a tree of `Node`s, each with its file:line:col.

Safe by construction: `safe_load` semantics only, and a located error for what PyYAML
would otherwise accept quietly or dangerously: anchors and aliases (alias bombs),
duplicate keys (PyYAML keeps the last), merge keys, non-UTF-8 bytes, files over a size cap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from century.diagnostics import Diagnostic, DiagnosticError, Mark

MAX_BYTES = 1_000_000

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


_Loader = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
MAX_DEPTH = 100
MERGE_TAG = "tag:yaml.org,2002:merge"


class _Refused(Exception):
    def __init__(self, mark: Any, code: str, message: str, hint: str = ""):
        self.mark, self.code, self.message, self.hint = mark, code, message, hint


def load_file(path: Path, display: str | None = None) -> Node:
    """Load one YAML file; raise `DiagnosticError` with a located diagnostic if it is unsafe."""
    name = display or str(path)
    return load_text(read_capped(path, name), name)


def read_capped(path: Path, name: str) -> bytes:
    """The bytes of `path`, refusing files over `MAX_BYTES` before reading them."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise DiagnosticError(
                [
                    Diagnostic.at(
                        Mark(name, 1, 1),
                        "C003",
                        f"file is {size} bytes, over the {MAX_BYTES}-byte limit",
                        hint="split the data or check that this is the intended file",
                    )
                ]
            )
        return path.read_bytes()
    except OSError as err:
        raise DiagnosticError(
            [Diagnostic.at(Mark(name, 1, 1), "C002", f"cannot read file: {err.strerror or err}")]
        ) from None


def load_text(raw: bytes, name: str) -> Node:
    """Load YAML from bytes; `name` is the file name used in diagnostics."""
    if len(raw) > MAX_BYTES:
        raise DiagnosticError(
            [Diagnostic.at(Mark(name, 1, 1), "C003", f"file is over the {MAX_BYTES}-byte limit")]
        )
    try:
        text = raw.decode("utf-8")
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
    try:
        root = _compose(loader, name)
        if root is None:
            raise DiagnosticError([Diagnostic.at(Mark(name, 1, 1), "C007", "file is empty")])
        return root
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
    finally:
        loader.dispose()


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


def _compose(loader: Any, name: str) -> Node | None:
    """Build the `Node` tree from parser events; refuse what plain data must not contain."""
    loader.get_event()  # stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    loader.get_event()  # document start
    root = _compose_node(loader, name, 0)
    loader.get_event()  # document end
    if not loader.check_event(yaml.StreamEndEvent):
        raise _Refused(loader.peek_event().start_mark, "C013", "only one YAML document is allowed")
    return root


def _compose_node(loader: Any, name: str, depth: int) -> Node:
    event = loader.get_event()
    mark = Mark(name, event.start_mark.line + 1, event.start_mark.column + 1)
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
    if isinstance(event, yaml.ScalarEvent):
        return Node(_scalar(loader, event), mark)
    _check_tag(event, "seq" if isinstance(event, yaml.SequenceStartEvent) else "map")
    if isinstance(event, yaml.SequenceStartEvent):
        items = []
        while not loader.check_event(yaml.SequenceEndEvent):
            items.append(_compose_node(loader, name, depth + 1))
        loader.get_event()
        return Node(items, mark)
    values: dict[str, Node] = {}
    keys: dict[str, Mark] = {}
    while not loader.check_event(yaml.MappingEndEvent):
        key_event = loader.peek_event()
        if not isinstance(key_event, yaml.ScalarEvent):
            raise _Refused(key_event.start_mark, "C014", "mapping keys must be plain scalars")
        key_node = _compose_node(loader, name, depth + 1)
        key = key_event.value
        if key in values:
            raise _Refused(
                key_event.start_mark,
                "C009",
                f"duplicate key {key!r} (first at {keys[key]})",
                "YAML keeps only the last value; remove one of them",
            )
        keys[key] = key_node.mark
        values[key] = _compose_node(loader, name, depth + 1)
    loader.get_event()
    return Node(values, mark, keys)


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
    if not isinstance(value, str | int | float | bool | type(None)):
        value = str(event.value)  # dates and binary stay text; the schema says what it wants
    return value


def _at(name: str, mark: Any, code: str, message: str, hint: str = "") -> Diagnostic:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Diagnostic.at(Mark(name, line, col), code, message, hint=hint)
