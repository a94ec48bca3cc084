"""`century show`: a resolved game as YAML, each value marked with where it came from.

A merchant card's ``effect`` is shown on one line as its steps are written in the issue's
short flow form (``effect: [gain: YY, upgrade: 1]``, ``effect: [choose: [[gain: YYY],
[upgrade: 2]]]``), marked with where its first step came from, however the data spread it
(over several YAML lines, or in a deck table's ``effect`` cell)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from century.frontend.loader import Node
from century.frontend.resolve import look_file_nodes
from century.frontend.sources import display_name
from century.model.cards import STEPS, derived_id
from century.model.notation import OPTIONS, STEPS_OF

PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 _.+-]*$")
RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def scalar(value: object) -> str:
    """A scalar as YAML: plain where that reads back the same, else a quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    if PLAIN.match(text) and text.lower() not in RESERVED and not text.endswith(" "):
        return text
    return json.dumps(text, ensure_ascii=False)


def _where(node: Node) -> str:
    return f"{node.mark.file}:{node.mark.line}"


STEPS_KEY = "effect"
"""The key of a merchant card's steps, shown on one line (`_flow_steps`)."""


def _is_steps(key: str, node: Node) -> bool:
    return key == STEPS_KEY and isinstance(node.value, list) and bool(node.value)


def _is_flat(node: Node) -> bool:
    """A mapping of scalars (or of a card's steps) written on one line of one file: shown
    as one flow mapping."""
    if not isinstance(node.value, dict) or not node.value:
        return False
    lines = set()
    for key, child in node.value.items():
        if _is_steps(key, child):
            child = _origin(child)
        elif isinstance(child.value, dict | list) and not _is_flat(child):
            return False
        lines.add((child.mark.file, child.mark.line))
    return len(lines) == 1


def _flow_steps(node: Node) -> str:
    """Steps as a flow sequence, a step of one key as a compact pair (``[gain: YY, upgrade:
    1]``), the options of a choice as sequences of steps."""
    items = []
    for step in node.value:
        if not isinstance(step.value, dict):
            items.append(_flow(step))
            continue
        pairs = [f"{scalar(k)}: {_flow_step_value(k, v)}" for k, v in step.value.items()]
        items.append(pairs[0] if len(pairs) == 1 else "{" + ", ".join(pairs) + "}")
    return "[" + ", ".join(items) + "]"


def _flow_step_value(key: str, node: Node) -> str:
    if STEPS.get(key) == STEPS_OF and isinstance(node.value, list):
        return _flow_steps(node)
    if STEPS.get(key) == OPTIONS and isinstance(node.value, list):
        options = (_flow_steps(o) if isinstance(o.value, list) else _flow(o) for o in node.value)
        return "[" + ", ".join(options) + "]"
    return _flow(node)


def _is_flat_list(node: Node) -> bool:
    """A list of scalars written on one line of one file."""
    items = node.value
    return (
        isinstance(items, list)
        and bool(items)
        and all(not isinstance(v.value, dict | list) for v in items)
        and len({(v.mark.file, v.mark.line) for v in items}) == 1
    )


def _inline(node: Node) -> bool:
    return _is_flat(node) or _is_flat_list(node)


def _origin(node: Node) -> Node:
    """The node whose mark tells where an inline value came from (its first leaf)."""
    if isinstance(node.value, dict) and node.value:
        return _origin(next(iter(node.value.values())))
    if isinstance(node.value, list) and node.value:
        return _origin(node.value[0])
    return node


def _flow(node: Node) -> str:
    if isinstance(node.value, dict):
        return (
            "{"
            + ", ".join(
                f"{scalar(k)}: {_flow_steps(v) if _is_steps(k, v) else _flow(v)}"
                for k, v in node.value.items()
            )
            + "}"
        )
    if isinstance(node.value, list):
        return "[" + ", ".join(_flow(v) for v in node.value) + "]"
    return scalar(node.value)


def card_ids(tree: Node) -> dict[int, str]:
    """The id of every card of the tree's decks (derived from its effect or cost unless it
    names one), by the card's node (`id` of the object)."""
    found: dict[int, str] = {}
    decks = tree.value.get("decks") if isinstance(tree.value, dict) else None
    for deck in decks.value.values() if decks and isinstance(decks.value, dict) else ():
        listed = deck.value.get("cards") if isinstance(deck.value, dict) else None
        for card in listed.value if listed and isinstance(listed.value, list) else ():
            if isinstance(card.value, dict):
                found[id(card)] = derived_id(card.plain())
    return found


def draw_tree(tree: Node, *, sources: bool = True) -> str:
    """The tree as YAML text; with `sources`, every line ends in ``# file:line``; a card's
    line names its id (``# id yy-g``), which `remove:`, `replace:` and `century experiment`
    take."""
    out: list[str] = []
    if isinstance(tree.value, dict) and "look" in tree.value:  # its files by their names
        tree = tree.clone()
        for node in look_file_nodes(tree.value["look"]):
            node.value = display_name(Path(str(node.value)))
    ids = card_ids(tree)
    pending: list[str] = []  # the id of the card whose first line comes next

    def line(text: str, node: Node) -> None:
        notes = [f"id {pending.pop()}"] if pending else []
        notes += [_where(node)] if sources else []
        out.append(f"{text}  # {' · '.join(notes)}" if notes else text)

    def emit(node: Node, indent: str, lead: str) -> None:
        """Emit `node` after `lead` (a key or list dash) at `indent`."""
        value = node.value
        if id(node) in ids:
            pending[:] = [ids[id(node)]]
        if _inline(node):
            line(f"{indent}{lead}{_flow(node)}", _origin(node))
            return
        if isinstance(value, dict) and value:
            first = True
            for key, child in value.items():
                prefix = lead if first else " " * len(lead)
                first = False
                if _is_steps(key, child):
                    line(f"{indent}{prefix}{scalar(key)}: {_flow_steps(child)}", _origin(child))
                elif isinstance(child.value, dict | list) and child.value and not _inline(child):
                    out.append(f"{indent}{prefix}{scalar(key)}:")
                    emit(child, indent + " " * len(lead) + "  ", "")
                else:
                    emit(child, indent, f"{prefix}{scalar(key)}: ")
            return
        if isinstance(value, list) and value:
            if lead:
                out.append(f"{indent}{lead.rstrip()}")
            for child in value:
                emit(child, indent + ("  " if lead else ""), "- ")
            return
        shown = "{}" if isinstance(value, dict) else "[]" if isinstance(value, list) else None
        line(f"{indent}{lead}{shown or scalar(value)}", node)

    emit(tree, "", "")
    return "\n".join(out) + "\n"
