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

from compiler.diagnostics import Diagnostic, DiagnosticError, Mark

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

    def get(self, key: str) -> Node | None:
        return self.value.get(key) if isinstance(self.value, dict) else None

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


class _Loader(yaml.SafeLoader):
    """A SafeLoader that refuses anchors and aliases while composing."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise _Refused(
                event.start_mark,
                "anchors and aliases are not allowed",
                "write the value out in full; aliases can multiply a small file into a huge one",
            )
        return super().compose_node(parent, index)


class _Refused(Exception):
    def __init__(self, mark: Any, message: str, hint: str = ""):
        self.mark, self.message, self.hint = mark, message, hint


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
                        f"file is {size} bytes, over the {MAX_BYTES}-byte limit",
                        hint="split the data or check that this is the intended file",
                    )
                ]
            )
        return path.read_bytes()
    except OSError as err:
        raise DiagnosticError(
            [Diagnostic.at(Mark(name, 1, 1), f"cannot read file: {err.strerror or err}")]
        ) from None


def load_text(raw: bytes, name: str) -> Node:
    """Load YAML from bytes; `name` is the file name used in diagnostics."""
    if len(raw) > MAX_BYTES:
        raise DiagnosticError(
            [Diagnostic.at(Mark(name, 1, 1), f"file is over the {MAX_BYTES}-byte limit")]
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
                    f"not UTF-8 text: byte 0x{raw[err.start]:02x} cannot be decoded",
                    hint="save the file as UTF-8",
                )
            ]
        ) from None
    text = text.removeprefix("\ufeff")
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            raise DiagnosticError([Diagnostic.at(Mark(name, 1, 1), "file is empty")])
        return _convert(root, loader, name)
    except _Refused as err:
        raise DiagnosticError([_at(name, err.mark, err.message, err.hint)]) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = err.problem or err.context or "invalid YAML"
        if err.context and err.problem:
            message = f"{err.problem} ({err.context})"
        raise DiagnosticError([_at(name, mark, f"YAML syntax: {message}")]) from None
    except yaml.YAMLError as err:
        raise DiagnosticError([Diagnostic.at(Mark(name, 1, 1), f"YAML: {err}")]) from None
    except RecursionError:
        raise DiagnosticError(
            [Diagnostic.at(Mark(name, 1, 1), "YAML is nested too deeply")]
        ) from None
    finally:
        loader.dispose()


def _at(name: str, mark: Any, message: str, hint: str = "") -> Diagnostic:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Diagnostic.at(Mark(name, line, col), message, hint=hint)


def _mark(name: str, node: yaml.Node) -> Mark:
    return Mark(name, node.start_mark.line + 1, node.start_mark.column + 1)


def _convert(node: yaml.Node, loader: _Loader, name: str) -> Node:
    if node.tag not in ALLOWED_TAGS:
        raise _Refused(node.start_mark, f"the tag {node.tag!r} is not allowed")
    if isinstance(node, yaml.MappingNode):
        values: dict[str, Node] = {}
        keys: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _Refused(key_node.start_mark, "merge keys (<<) are not allowed")
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Refused(key_node.start_mark, "mapping keys must be plain scalars")
            key = str(key_node.value)
            if key in values:
                first = keys[key]
                raise _Refused(
                    key_node.start_mark,
                    f"duplicate key {key!r} (first at line {first.line})",
                    "YAML keeps only the last value; remove one of them",
                )
            keys[key] = _mark(name, key_node)
            values[key] = _convert(value_node, loader, name)
        return Node(values, _mark(name, node), keys)
    if isinstance(node, yaml.SequenceNode):
        return Node([_convert(item, loader, name) for item in node.value], _mark(name, node))
    try:
        value = loader.construct_object(node, deep=True)
    except (ValueError, OverflowError):
        shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
        raise _Refused(node.start_mark, f"cannot read value {shown!r}") from None
    if not isinstance(value, str | int | float | bool | type(None)):
        value = str(node.value)  # dates and binary stay text; the schema says what it wants
    return Node(value, _mark(name, node))
