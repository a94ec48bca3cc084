"""Python literals for generated code: strings quoted safely, laid out as `ruff format` does.

Strings from the data enter generated code only through `py_string`, never spliced in.
"""

from __future__ import annotations

from typing import Any

LINE = 100
"""The line length of the generated code (the project's ruff setting)."""


def py_string(text: str) -> str:
    """A Python string literal for `text`, quoted the way ``ruff format`` prefers."""
    body = []
    for char in text:
        if char == "\\":
            body.append("\\\\")
        elif char in "\n\r\t":
            body.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif not char.isprintable() and char != " ":
            body.append(repr(char)[1:-1])
        else:
            body.append(char)
    plain = "".join(body)
    quote = "'" if plain.count("'") < plain.count('"') else '"'
    return quote + plain.replace(quote, "\\" + quote) + quote


def py_literal(value: Any, indent: int = 0, used: int = 0) -> str:
    """`value` (str, int, bool, None, tuple, NamedTuple, dict) as source starting `used`
    columns into a line indented by `indent`; collections too long for the line are exploded
    one item per line with a trailing comma."""
    flat = _flat(value)
    if indent + used + len(flat) + 1 <= LINE or not isinstance(value, tuple | dict):
        return flat
    inner = " " * (indent + 4)
    if isinstance(value, dict):
        items = [
            f"{_flat(k)}: {py_literal(v, indent + 4, len(_flat(k)) + 2)}" for k, v in value.items()
        ]
        open_, close = "{", "}"
    else:
        items = [py_literal(v, indent + 4) for v in value]
        open_, close = _record_name(value) + "(", ")"
    lines = [open_]
    for item in items:
        line = f"{inner}{item},"
        lines.append(line + "  # noqa: E501" if "\n" not in item and len(line) > LINE else line)
    lines.append(" " * indent + close)
    return "\n".join(lines)


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return py_string(value)
    if isinstance(value, bool | int) or value is None:
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple) and _record_name(value):
        return _record_name(value) + "(" + ", ".join(_flat(v) for v in value) + ")"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({_flat(value[0])},)"
        return "(" + ", ".join(_flat(v) for v in value) + ")"
    raise TypeError(f"no literal for {type(value).__name__}")


def assign(name: str, value: Any) -> str:
    """The right-hand side of ``NAME = value`` (a long atom gets a noqa comment)."""
    text = py_literal(value, 0, len(name) + 3)
    if "\n" not in text and len(name) + 3 + len(text) > LINE:
        text += "  # noqa: E501"
    return text


def _record_name(value: tuple[Any, ...]) -> str:
    """The class name of a named record (a NamedTuple), written as a call; "" for a tuple."""
    return type(value).__name__ if hasattr(value, "_fields") else ""
